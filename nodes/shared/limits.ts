import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

import { DescribedError } from './errors';

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

/** A parameter value the user must change: becomes a NodeOperationError with the item index. */
export class ParameterError extends DescribedError {}

/**
 * A positive number from a parameter that may come from an expression: numbers and numeric text are
 * accepted; zero, negative, non-numeric and (with `integer`) fractional values are errors saying what
 * to enter. Reusable for any numeric parameter (e.g. Limit).
 */
export function requirePositiveNumber(
	value: unknown,
	{ name, example, integer = false, max }: { name: string; example: string; integer?: boolean; max?: { value: number; unit: string } },
): number {
	const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
	const kind = integer ? 'a whole number of 1 or more' : 'a number greater than 0';
	if (!Number.isFinite(number) || number <= 0 || (integer && !Number.isInteger(number))) {
		const shown =
			typeof value === 'string'
				? `"${value.slice(0, 40)}"`
				: typeof value === 'number'
					? String(value)
					: value === null || value === undefined
						? 'empty'
						: `a ${Array.isArray(value) ? 'list' : typeof value}`;
		throw new ParameterError(`"${name}" must be ${kind}, not ${shown}`, `Enter ${kind} in "${name}", e.g. ${example}. If it comes from an expression, check what the expression gives.`);
	}
	if (max !== undefined && number > max.value) {
		throw new ParameterError(
			`"${name}" must be at most ${max.value.toLocaleString('en-US')} ${max.unit}, not ${number}`,
			`Enter a value up to ${max.value.toLocaleString('en-US')} ${max.unit} in "${name}", e.g. ${example}.`,
		);
	}
	return number;
}

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
	let options: IDataObject = {};
	let budgetMs: number | undefined;
	if ('getInputData' in this) {
		options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	} else if ('getActivationMode' in this) {
		// A poll. n8n 1.x has no poll budget (getPollBudgetMs came with 2.x).
		options = this.getNodeParameter('options', {}) as IDataObject;
		budgetMs = 'getPollBudgetMs' in this && typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : undefined;
	}
	const timeoutMs = requirePositiveNumber(options.timeout ?? DEFAULT_TIMEOUT_MS, {
		name: 'Timeout',
		example: '30000 (milliseconds: 30 seconds)',
		max: { value: MAX_TIMEOUT_MS, unit: 'milliseconds (one day)' },
	});
	const maxResponseMb = requirePositiveNumber(options.maxResponseSize ?? DEFAULT_MAX_RESPONSE_MB, {
		name: 'Max Response Size',
		example: `${DEFAULT_MAX_RESPONSE_MB} (MB)`,
		max: { value: MAX_RESPONSE_MB, unit: 'MB' },
	});
	const retry = options.retryOnRateLimit ?? true;
	if (typeof retry !== 'boolean') {
		throw new ParameterError('"Retry on Rate Limit" must be true or false', 'Switch "Retry on Rate Limit" on or off, or make its expression give true or false.');
	}
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
