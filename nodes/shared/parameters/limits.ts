import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

import { option, parameterReader, requireCollection, requirePositiveNumber, requireSwitch } from './parameters';
import { own, text, thousands } from '../text/text';

export const DEFAULT_TIMEOUT_MS = 30_000;
/** 100,000 services are about 25 MB of JSON; 64 MB leaves room and stays far below what hurts n8n. */
export const DEFAULT_MAX_RESPONSE_MB = 64;

export interface RequestLimits {
	/** Total time for everything fetched through one session: connect, headers, bodies, retries, pages. */
	timeoutMs: number;
	/** Most bytes read for everything fetched through one session (all pages of a listing), after decompression. */
	maxResponseBytes: number;
	/** Retry 429, 502, 503 and 504 (at most 3 times a request and 10 a session, never past the timeout). */
	retryOnRateLimit: boolean;
	/** Set when n8n's poll budget, not the user's Timeout, set `timeoutMs`: the error then names the budget. */
	pollBudgetMs?: number;
}

/**
 * What one session (one listing, all its pages) has used of its limits so far: the byte cap and the
 * retries count across pages, so endless pages or a 429 on every page stop at one bound.
 */
export interface SessionUse {
	/** Bytes of the bodies read whole, after decompression. */
	bytesRead: number;
	/** Answers read whole (the pages of a listing). */
	pagesRead: number;
	retries: number;
}

/** Where the node code runs: an execution, a trigger poll, or a loadOptions/listSearch call. */
export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** Timers cannot wait longer than 2^31-1 ms (24.8 days); a day is far beyond any listing. */
const MAX_TIMEOUT_MS = 86_400_000;
/** Beyond this the body no longer fits comfortably in one n8n process next to the items built from it. */
const MAX_RESPONSE_MB = 1024;

/** What remains of n8n's poll budget for our own clear timeout error (n8n abandons the poll at the budget). */
export function pollTimeoutMs(timeoutMs: number, budgetMs: number | undefined): number {
	if (budgetMs === undefined || !Number.isFinite(budgetMs) || budgetMs <= 0) return timeoutMs;
	const usable = budgetMs - Math.min(5_000, budgetMs / 10);
	return Math.max(1, Math.min(timeoutMs, Math.floor(usable)));
}

/**
 * The Options collection (Timeout, Max Response Size, Retry on Rate Limit) as limits. In a poll, the
 * timeout also stays inside n8n's poll budget. A loadOptions/listSearch call uses the defaults.
 */
export function readRequestLimits(this: ApiContext, itemIndex: number): RequestLimits {
	// A loadOptions/listSearch call has no Options of its own: the defaults.
	if (!('getInputData' in this) && !('getActivationMode' in this)) return DEFAULT_LIMITS;
	const read = parameterReader(this, itemIndex);
	// A poll's budget: n8n 1.x has none (getPollBudgetMs came with 2.x).
	const budgetMs = 'getPollBudgetMs' in this && typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : undefined;
	const options = requireCollection(read('options', {}, { skipValidation: true }), own('Options'));
	const timeoutMs = requirePositiveNumber(option(options, 'timeout', DEFAULT_TIMEOUT_MS), {
		label: own('Timeout'),
		example: text`${DEFAULT_TIMEOUT_MS} (milliseconds: 30 seconds)`,
		max: { value: MAX_TIMEOUT_MS, text: text`${thousands(MAX_TIMEOUT_MS)} milliseconds (one day)` },
	});
	const maxResponseMb = requirePositiveNumber(option(options, 'maxResponseSize', DEFAULT_MAX_RESPONSE_MB), {
		label: own('Max Response Size'),
		example: text`${DEFAULT_MAX_RESPONSE_MB} (MB)`,
		max: { value: MAX_RESPONSE_MB, text: text`${thousands(MAX_RESPONSE_MB)} MB` },
	});
	// Retry on Rate Limit is a switch n8n validates (validateType): its value after that validation.
	const retry = requireSwitch(option(options, 'retryOnRateLimit', true), own('Retry on Rate Limit'), () =>
		option(requireCollection(read('options', {}), own('Options')), 'retryOnRateLimit', true),
	);
	const userTimeoutMs = Math.ceil(timeoutMs);
	const effectiveTimeoutMs = pollTimeoutMs(userTimeoutMs, budgetMs);
	return {
		timeoutMs: effectiveTimeoutMs,
		maxResponseBytes: Math.ceil(maxResponseMb * 1024 * 1024),
		retryOnRateLimit: retry,
		...(effectiveTimeoutMs < userTimeoutMs ? { pollBudgetMs: budgetMs } : {}),
	};
}

export const DEFAULT_LIMITS: RequestLimits = {
	timeoutMs: DEFAULT_TIMEOUT_MS,
	maxResponseBytes: DEFAULT_MAX_RESPONSE_MB * 1024 * 1024,
	retryOnRateLimit: true,
};
