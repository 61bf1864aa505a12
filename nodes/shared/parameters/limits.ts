import type { IPollFunctions } from 'n8n-workflow';

import type { ApiContext, RequestLimits } from '../transport/types';

import { option, parameterReader, requireCollection, requirePositiveNumber, requireSwitch } from './parameters';
import { own, text, thousands } from '../text/text';

/** One request: 30 s without its whole answer is a platform in trouble, on any real network (docs/parameters.md). */
export const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * The whole listing: the page cap (1,000 pages) at 1.8 s a page. A new connection per page costs about
 * 0.6 s at an 80 ms round trip (measured, docs/performance.md), so this holds at three times that.
 */
export const DEFAULT_LISTING_TIME_LIMIT_MIN = 30;
/** 100,000 services are about 25 MB of JSON; 64 MB leaves room and stays far below what hurts n8n. */
export const DEFAULT_MAX_RESPONSE_MB = 64;
/**
 * Requests a listing may have under way at once, where the platform's links show its page sequence
 * (listing/readAhead.ts). A new connection per page costs about 7 round trips (docs/performance.md):
 * in the bench's latency table 5 bring a listing of 100 pages within 1.5x one kept-alive connection
 * at 20 and 80 ms. What others use: browsers 6 connections a host, Renovate 5 pages, doctl 4 workers.
 */
export const DEFAULT_PARALLEL_REQUESTS = 5;
/** More would ask much of a platform for little: the round trips are already shared among them. */
export const MAX_PARALLEL_REQUESTS = 10;
/**
 * A poll's budget where n8n gives none (n8n 1.x has no getPollBudgetMs): n8n 2.x's own default for a
 * poll outside durable scheduling, so a poll never runs much longer on 1.x than on 2.x.
 */
export const ASSUMED_POLL_BUDGET_MS = 300_000;

/** Timers cannot wait longer than 2^31-1 ms (24.8 days); a day is far beyond any listing. */
const MAX_TIMEOUT_MS = 86_400_000;
const MAX_LISTING_TIME_LIMIT_MIN = 1440;
/** Beyond this the body no longer fits comfortably in one n8n process next to the items built from it. */
const MAX_RESPONSE_MB = 1024;
const NOT_SET = Symbol('not set');

/**
 * A poll's listing time: `limitMs`, or less so that it ends 10% (at most 5 s) before the poll's budget,
 * for our own clear error before n8n abandons the poll. A budget that is no positive number is none.
 */
export function pollTimeoutMs(limitMs: number, budgetMs: number): number {
	if (!Number.isFinite(budgetMs) || budgetMs <= 0) return limitMs;
	const usable = budgetMs - Math.min(5_000, budgetMs / 10);
	return Math.max(1, Math.min(limitMs, Math.floor(usable)));
}

/**
 * The whole listing's bound without a Listing Time Limit of the user's: the default, or the Timeout if
 * longer. Until 0.4.0 the Timeout bounded the whole listing; so a listing that completed within a
 * Timeout then still completes with the same Timeout now (each request within it, all within it).
 */
function defaultListingTimeMs(timeoutMs: number): number {
	return Math.max(DEFAULT_LISTING_TIME_LIMIT_MIN * 60_000, timeoutMs);
}

/**
 * The Options collection (Timeout, Listing Time Limit, Max Response Size, Retry on Rate Limit, Parallel Requests) as
 * limits. In a poll, the whole listing also stays inside the poll's budget. A loadOptions/listSearch
 * call uses the defaults.
 */
export function readRequestLimits(this: ApiContext, itemIndex: number): RequestLimits {
	// A loadOptions/listSearch call has no Options of its own: the defaults.
	if (!('getInputData' in this) && !('getActivationMode' in this)) return DEFAULT_LIMITS;
	const read = parameterReader(this, itemIndex);
	const options = requireCollection(read('options', {}, { skipValidation: true }), own('Options'));
	const timeoutMs = requirePositiveNumber(option(options, 'timeout', DEFAULT_TIMEOUT_MS), {
		label: own('Timeout'),
		example: text`${DEFAULT_TIMEOUT_MS} (milliseconds: 30 seconds)`,
		max: { value: MAX_TIMEOUT_MS, text: text`${thousands(MAX_TIMEOUT_MS)} milliseconds (one day)` },
	});
	const listingOption = option(options, 'listingTimeLimit', NOT_SET);
	const listingMinutes =
		listingOption === NOT_SET
			? undefined
			: requirePositiveNumber(listingOption, {
					label: own('Listing Time Limit'),
					example: text`${DEFAULT_LISTING_TIME_LIMIT_MIN} (minutes)`,
					max: { value: MAX_LISTING_TIME_LIMIT_MIN, text: text`${thousands(MAX_LISTING_TIME_LIMIT_MIN)} minutes (one day)` },
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
	const parallelRequests = requirePositiveNumber(option(options, 'parallelRequests', DEFAULT_PARALLEL_REQUESTS), {
		label: own('Parallel Requests'),
		example: text`${DEFAULT_PARALLEL_REQUESTS} (1 reads one page after another)`,
		integer: true,
		max: { value: MAX_PARALLEL_REQUESTS, text: text`${MAX_PARALLEL_REQUESTS}` },
	});
	const requestMs = Math.ceil(timeoutMs);
	const listingMs = listingMinutes === undefined ? defaultListingTimeMs(requestMs) : Math.ceil(listingMinutes * 60_000);
	const limits: RequestLimits = {
		timeoutMs: requestMs,
		listingTimeMs: listingMs,
		maxResponseBytes: Math.ceil(maxResponseMb * 1024 * 1024),
		retryOnRateLimit: retry,
		parallelRequests,
	};
	return 'getActivationMode' in this ? withinPollBudget(limits, this as IPollFunctions) : limits;
}

/** A poll's whole listing ends 10% (at most 5 s) before its budget, so its error is the node's own, not n8n's abandonment. */
function withinPollBudget(limits: RequestLimits, context: IPollFunctions): RequestLimits {
	// n8n 1.x has no getPollBudgetMs (it came with 2.x, which always gives one: 5 min, or less in durable mode).
	const given = 'getPollBudgetMs' in context && typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : undefined;
	const budgetMs = given ?? ASSUMED_POLL_BUDGET_MS;
	const listingTimeMs = pollTimeoutMs(limits.listingTimeMs, budgetMs);
	if (listingTimeMs >= limits.listingTimeMs) return limits;
	return { ...limits, listingTimeMs, pollBudget: { budgetMs, fromN8n: given !== undefined } };
}

export const DEFAULT_LIMITS: RequestLimits = {
	timeoutMs: DEFAULT_TIMEOUT_MS,
	listingTimeMs: defaultListingTimeMs(DEFAULT_TIMEOUT_MS),
	maxResponseBytes: DEFAULT_MAX_RESPONSE_MB * 1024 * 1024,
	retryOnRateLimit: true,
	parallelRequests: DEFAULT_PARALLEL_REQUESTS,
};
