// Types for server.cjs, so type-checked tests can `import ... from '../../tools/mock-platform/server.cjs'`.

export interface MockServiceRecord {
	id_service: string;
	values: {
		values: {
			name: string;
			alias: string;
			status: string;
			service: {
				customize: {
					OS: { id: string; name: string };
					specifications: { vcores: number; GB: { ram: number; hd: number } };
				};
			};
		};
	};
}

export type MockShape = 'array' | 'single' | 'map' | 'envelope';

export type MockFaultKind =
	| 'status'
	| 'html'
	| 'invalid-json'
	| 'truncated-json'
	| 'empty'
	| 'null'
	| 'number'
	| 'error-object'
	| 'bad-record'
	| 'duplicate-ids'
	| 'reset'
	| 'hang'
	| 'no-content'
	| 'redirect'
	| 'raw';

export interface MockFault {
	/** Defaults to 'status' when `status` is given. */
	kind?: MockFaultKind;
	/** 'status': the code (>= 400 gets a JSON error body, 2xx/3xx none); 'html'/'raw'/'redirect': override. */
	status?: number;
	/** Retry-After header value for 'status' (e.g. 30 for a 429). */
	retryAfter?: number | string;
	/** Location header: required for 'redirect', optional for 'status'. */
	location?: string;
	/** 'status' error message / 'error-object' message. */
	message?: string;
	/** 'error-object' error code. */
	error?: string;
	/** 'bad-record': which record gets a string vcores (default 0). */
	index?: number;
	/** 'raw': the exact body and content type. */
	body?: string;
	contentType?: string;
	/** Apply to this many authorised listings, then answer normally again. */
	times?: number;
	/** Apply only to requests for this page (`?page=`, 1-based; with `pageSize`). */
	page?: number;
}

/** Where a paged answer gives the next page's URL ('link-header': `Link: <url>; rel="next"`). */
export type MockNextForm = 'next' | 'links.next' | 'links.next.href' | 'next_page_url' | 'meta.next' | 'pagination.next' | 'link-header';

export interface MockConfig {
	shape: MockShape;
	envelopeKey: string;
	fault: MockFault | null;
	delayMs: number;
	/** Records per page (`?page=1, 2, ...`); 0 = the whole listing in one answer. */
	pageSize: number;
	nextForm: MockNextForm;
	nextUrl: 'absolute' | 'relative';
}

export interface MockConfigInput {
	shape?: MockShape;
	envelopeKey?: string;
	/** Object, CLI-style string ('html', 'status:503', '503') or null to clear. */
	fault?: MockFault | string | number | null;
	delayMs?: number;
	/** 0 or null: no pages. Body forms put the records under `envelopeKey` next to the paging metadata. */
	pageSize?: number | null;
	nextForm?: MockNextForm;
	nextUrl?: 'absolute' | 'relative';
}

export interface MockApiOptions extends MockConfigInput {
	/** 0 (default) = a free port. The server listens on 127.0.0.1 only. */
	port?: number;
	/** Default: 'mock-' + 24 random hex characters. */
	apiKey?: string;
	/** Number of generated services (default 36). Ignored when `services` is given. */
	count?: number;
	/** Seed of the generated data (default 1). Strings are hashed. */
	seed?: number | string;
	/** Initial records instead of generated ones (copied). */
	services?: unknown[];
	/** How many recorded requests to keep (default 1000, oldest dropped first). */
	maxRequests?: number;
}

export interface MockRequestRecord {
	method: string;
	/** Path and query as received. */
	path: string;
	/** ISO time of arrival. */
	time: string;
	/** An Authorization header was sent (its value is never stored). */
	authPresent: boolean;
	/** It was `Bearer <the mock's key>`. */
	authMatched: boolean;
	/** Names (not values) of the request headers, lower-case. */
	headerNames: string[];
	/** Status answered; null while pending or when the connection was dropped. */
	status: number | null;
}

export interface MockApi {
	/** Base URL for the n8n credential, e.g. http://127.0.0.1:41234 (no trailing slash). */
	url: string;
	/** url + '/v2026/services' */
	servicesUrl: string;
	apiKey: string;
	port: number;
	server: import('node:http').Server;
	/** Live list of requests to the API paths (admin requests are not recorded). */
	readonly requests: MockRequestRecord[];
	clearRequests(): void;
	getConfig(): MockConfig;
	/** Shallow merge; `fault: null` clears the fault. Throws TypeError on invalid values. */
	setConfig(partial: MockConfigInput): MockConfig;
	/** Initial data and config; clears recorded requests. Pending delayed/hanging requests are left alone. */
	reset(): void;
	/** Replace all records; the array is used as is (not copied). */
	setServices(records: unknown[]): void;
	/** A deep copy of the current records. */
	getServices(): MockServiceRecord[];
	/** Stops listening and destroys every open connection, hanging ones included. Idempotent. */
	close(): Promise<void>;
}

export declare function startMockApi(options?: MockApiOptions): Promise<MockApi>;
export declare function generateServices(count?: number, seed?: number | string): MockServiceRecord[];
export declare function normalizeFault(fault: MockConfigInput['fault']): MockFault | null;
export declare const SHAPES: readonly MockShape[];
export declare const FAULT_KINDS: readonly MockFaultKind[];
export declare const NEXT_FORMS: readonly MockNextForm[];
