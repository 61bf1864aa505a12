import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

/** The types of the transport: where it runs, the limits it keeps, what a session has used of them. */

/** The credential type's name: the credential declares it, both nodes and the transport ask for it. */
export const CREDENTIAL_TYPE = 'servicePlatformApi';

/** Where the node code runs: an execution, a trigger poll, or a loadOptions/listSearch call. */
export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface RequestLimits {
	/** Time for one request (a page, a retry): connect, TLS, headers and its whole body. */
	timeoutMs: number;
	/** Total time for everything fetched through one session: every page, retry and wait between them. */
	listingTimeMs: number;
	/** Most bytes read for everything fetched through one session (all pages of a listing), after decompression. */
	maxResponseBytes: number;
	/** Retry 429, 502, 503 and 504 (at most 3 times a request and 10 a session, never past the time limits). */
	retryOnRateLimit: boolean;
	/**
	 * Set when the poll's budget, not the Listing Time Limit, set `listingTimeMs`: the error then names the
	 * budget (`fromN8n`: n8n's getPollBudgetMs; else ASSUMED_POLL_BUDGET_MS on n8n 1.x).
	 */
	pollBudget?: { budgetMs: number; fromN8n: boolean };
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
