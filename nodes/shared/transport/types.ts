import type { IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

import type { Text } from '../text/text';

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
	/** Requests a listing may have under way at once, where the platform's links show its page sequence (1: one by one). */
	parallelRequests: number;
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

export interface ApiResponse {
	/** Parsed JSON (already checked: JSON, decodable, under the cap). */
	body: unknown;
	/** The JSON text it was parsed from: the answer stage reads what JSON.parse hides (answer/jsonText.ts). */
	text: string;
	/** The HTTP status (2xx: the answer stage judges which it reads). */
	status: number;
	/** Lower-case names, first value. */
	headers: Record<string, string | undefined>;
	/** Final URL after same-origin redirects. */
	url: string;
}

export interface ApiSession {
	/** Resolved credential base URL, no trailing slash. */
	readonly baseUrl: string;
	/**
	 * target: the node's own path (`{ path: SERVICES_PATH }`, joined to baseUrl and quoted as the node's
	 * wording, quotedUrl.ts) or an absolute URL, which must be same-origin as baseUrl (else a clear
	 * error naming it; the key is never sent elsewhere).
	 * action: what the caller does, for texts, e.g. 'list services'. Each request has the Timeout; the
	 * listing's time, byte cap and retries are the session's: they apply to everything fetched through
	 * it (a whole paged listing).
	 * Failures are thrown as finished n8n errors (redacted, with itemIndex).
	 */
	get(target: string | { path: Text }, options: { action: Text }): Promise<ApiResponse>;
	/**
	 * Starts reading `url` (checked as `get` checks it) ahead of the walk. The walk takes the reads it
	 * started in the order it started them, each once, and drops the rest.
	 */
	readAhead(url: string, options: { action: Text }): AheadRead;
	/** Parallel Requests: the requests a listing may have under way at once (1: one by one). */
	readonly parallelRequests: number;
	/** Why the rest of the session goes one request at a time (a 429 or 503 came; Max Response Size is near), or undefined. */
	readonly oneAtATime: Text | undefined;
	/** A line in n8n's log at debug level, shown as `show` shows texts. */
	debug(value: Text): void;
	/**
	 * The ONE way our errors become n8n errors: redacts the key in every form, keeps our text against
	 * n8n's message rewrite, adds itemIndex; DescribedError -> NodeOperationError/NodeApiError.
	 */
	toNodeError(error: unknown, httpCode?: number): Error;
	/** A Text as the user sees it (text.ts render) with this credential's redactor: for texts that are not errors. */
	show(value: Text, max: number): string;
}

/** A read started ahead of the walk (ApiSession.readAhead). */
export interface AheadRead {
	/** The address asked for. */
	readonly url: string;
	/**
	 * What `get(url)` would give at this point of the walk: a failed status is retried now, the
	 * answer counted now against the session's bounds, in the walk's order; failures are finished
	 * n8n errors.
	 */
	take(): Promise<ApiResponse>;
	/** Stops it: its answer is never used and counts against nothing. */
	drop(): void;
}
