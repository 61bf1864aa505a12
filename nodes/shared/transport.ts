import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
} from 'n8n-workflow';

import { resolveApiBaseUrl, resolveApiKey } from './baseUrl';
import type { ErrorText } from './errors';
import {
	describeBodyTooLarge,
	describeCrossOrigin,
	describeDeadline,
	describeHttpStatus,
	describeRedirect,
	describeRedirectLoop,
	describeRetriesExhausted,
	describeRetryTooLong,
	describeTransportFailure,
	describeUndecodableEncoding,
	describeUndecodableText,
	describeUnusableBody,
	DescribedError,
	HttpStatusError,
	parseRetryAfter,
	platformMessageOf,
	toNodeError,
} from './errors';
import type { RequestLimits } from './limits';
import { clip } from './json';
import type { Redact } from './redact';
import { makeRedactor } from './redact';
import {
	BodyTooLargeError,
	DeadlineReachedError,
	decodeText,
	discardBody,
	readBody,
	UndecodableTextError,
} from './responseBody';

export { DEFAULT_MAX_RESPONSE_MB, DEFAULT_TIMEOUT_MS, readRequestLimits, requirePositiveNumber } from './limits';
export type { RequestLimits } from './limits';

export const CREDENTIAL_TYPE = 'servicePlatformApi';
const MAX_SAME_ORIGIN_REDIRECTS = 5;
/** Retries of 429, 502, 503 and 504 per request (#10). */
export const MAX_RETRIES = 3;
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
/** Error bodies only feed the quoted platform message: a little is enough. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface ApiResponse {
	/** Parsed JSON (already checked: JSON, decodable, under the cap). */
	body: unknown;
	/** Lower-case names, first value. */
	headers: Record<string, string | undefined>;
	/** Final URL after same-origin redirects. */
	url: string;
}

export interface ApiSession {
	/** Resolved credential base URL, no trailing slash. */
	readonly baseUrl: string;
	/**
	 * target: a path such as '/v2026/services' (joined to baseUrl) or an absolute URL, which must be
	 * same-origin as baseUrl (else a clear error naming it; the key is never sent elsewhere).
	 * action: what the caller does, for texts, e.g. 'list services'. Deadline, byte cap and retries
	 * are the session's: they apply to everything fetched through it (a whole paged listing).
	 * Failures are thrown as finished n8n errors (redacted, with itemIndex).
	 */
	get(target: string, options: { action: string }): Promise<ApiResponse>;
	/**
	 * The ONE way our errors become n8n errors: redacts the key in every form, keeps our text against
	 * n8n's message rewrite, adds itemIndex; DescribedError -> NodeOperationError/NodeApiError.
	 */
	toNodeError(error: unknown, httpCode?: number): Error;
}

/**
 * Reads and validates the credential (key trimmed; an empty key or one a header cannot carry, a Base
 * URL that is not a URL (not echoed whole), plain http: credential errors before anything is sent).
 */
export async function openApiSession(
	this: ApiContext,
	{ itemIndex, limits }: { itemIndex: number; limits: RequestLimits },
): Promise<ApiSession> {
	const node = this.getNode();
	const credentials = await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE, itemIndex);
	const redact = makeRedactor(credentials.apiKey);
	try {
		resolveApiKey(credentials.apiKey);
		const baseUrl = resolveApiBaseUrl(credentials.baseUrl, redact);
		return new HttpSession(this, { node, itemIndex, redact, baseUrl, limits });
	} catch (error) {
		throw toNodeError(node, error, { itemIndex, redact });
	}
}

/**
 * A redactor for an error raised before or outside a session (the router, the trigger): the key of the
 * node's credential, or none when the credential itself cannot be read.
 */
export async function credentialRedactor(this: ApiContext, itemIndex: number): Promise<Redact> {
	try {
		const credentials = await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE, itemIndex);
		return makeRedactor(credentials.apiKey);
	} catch {
		return makeRedactor(undefined);
	}
}

interface RawResponse {
	body: unknown;
	headers: Record<string, string | string[] | undefined>;
	statusCode: number;
}

class HttpSession implements ApiSession {
	readonly baseUrl: string;

	private readonly origin: string;

	private readonly deadlineAt: number;

	constructor(
		private readonly context: ApiContext,
		private readonly options: { node: INode; itemIndex: number; redact: Redact; baseUrl: string; limits: RequestLimits },
	) {
		this.baseUrl = options.baseUrl;
		this.origin = new URL(options.baseUrl).origin;
		this.deadlineAt = Date.now() + options.limits.timeoutMs;
	}

	toNodeError(error: unknown, httpCode?: number): Error {
		return toNodeError(this.options.node, error, { itemIndex: this.options.itemIndex, redact: this.options.redact, httpCode });
	}

	async get(target: string, { action }: { action: string }): Promise<ApiResponse> {
		const retried = { count: 0, startedAt: Date.now() };
		try {
			return await this.fetchWithRetries(this.resolveTarget(target, action), action, retried);
		} catch (error) {
			// Whatever ends a request after retries (a status, the deadline, a body) says how often and how long.
			if (retried.count > 0 && error instanceof DescribedError) {
				error.description += describeRetriesExhausted({ retries: retried.count, waitedMs: Date.now() - retried.startedAt });
			}
			throw this.toNodeError(error);
		}
	}

	private resolveTarget(target: string, action: string): string {
		if (target.startsWith('/')) return `${this.baseUrl}${target}`;
		const url = URL.canParse(target) ? new URL(target) : undefined;
		if (url?.origin !== this.origin) {
			throw new DescribedError(...textOf(describeCrossOrigin({ target: url?.href ?? target, baseUrl: this.baseUrl, action })));
		}
		return url.href;
	}

	private remainingMs(): number {
		return this.deadlineAt - Date.now();
	}

	private async fetchWithRetries(startUrl: string, action: string, retried: { count: number }): Promise<ApiResponse> {
		const { limits } = this.options;
		let url = startUrl;
		let redirects = 0;
		for (;;) {
			const deadline = AbortSignal.timeout(Math.max(1, this.remainingMs()));
			const response = await this.send(url, action, deadline);
			const { statusCode } = response;
			const headers = lowerCaseHeaders(response.headers);

			if (statusCode >= 300 && statusCode < 400 && statusCode !== 304) {
				discardBody(response.body);
				const location = headers.location;
				const next = location && URL.canParse(location, url) ? new URL(location, url) : undefined;
				// The key may only go where the user pointed it: same scheme, host and port.
				if (next?.origin !== this.origin) {
					// Quoted redacted, then shortened: a hostile Location may be long and carry the key.
					const quoted = location === undefined ? undefined : clip(this.options.redact(next?.href ?? location), 300);
					throw new HttpStatusError(describeRedirect(statusCode, url, quoted), statusCode);
				}
				if (++redirects > MAX_SAME_ORIGIN_REDIRECTS) {
					throw new HttpStatusError(describeRedirectLoop(statusCode, url, MAX_SAME_ORIGIN_REDIRECTS), statusCode);
				}
				url = next.href;
				continue;
			}

			if (statusCode < 200 || statusCode >= 300) {
				const retryAfterMs = parseRetryAfter(headers['retry-after']);
				if (limits.retryOnRateLimit && RETRYABLE_STATUSES.has(statusCode) && retried.count < MAX_RETRIES) {
					discardBody(response.body);
					const waitMs = retryDelayMs(retried.count, retryAfterMs);
					if (waitMs < this.remainingMs()) {
						const cancel = 'getExecutionCancelSignal' in this.context ? this.context.getExecutionCancelSignal() : undefined;
						if (!(await pause(waitMs, cancel))) {
							throw new DescribedError(...textOf(describeTransportFailure('ERR_CANCELED', { host: new URL(url).host, timeoutMs: limits.timeoutMs })));
						}
						retried.count++;
						continue;
					}
					if (retryAfterMs !== undefined) {
						throw new HttpStatusError(
							describeRetryTooLong({ status: statusCode, waitMs, remainingMs: this.remainingMs(), timeoutMs: limits.timeoutMs }),
							statusCode,
						);
					}
				}
				const serverMessage = await this.readErrorMessage(response.body, headers['content-type'], deadline);
				const text = describeHttpStatus(statusCode, { url, action, retryAfter: headers['retry-after'], serverMessage });
				throw new HttpStatusError(text, statusCode);
			}

			const body = await this.readJson(response.body, headers, { statusCode, url, action, deadline });
			return { body, headers, url };
		}
	}

	/** One GET through n8n's authenticated request helper: the credential's `authenticate` adds the key. */
	private async send(url: string, action: string, deadline: AbortSignal): Promise<RawResponse> {
		const host = new URL(url).host;
		const options: IHttpRequestOptions = {
			method: 'GET',
			url,
			headers: { Accept: 'application/json' },
			// A stream, read here with a byte cap and the deadline; statuses and redirects are handled
			// above, so the key never follows a redirect to another host.
			encoding: 'stream',
			json: false,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			// A safety net only: the session's deadline (raced below) ends the request first and names it.
			timeout: Math.max(1, this.remainingMs()) + 1000,
			abortSignal: deadline,
		};
		const request = this.context.helpers.httpRequestWithAuthentication.call(
			this.context,
			CREDENTIAL_TYPE,
			options,
		) as Promise<RawResponse>;
		try {
			return await untilDeadline(request, deadline, (late) => discardBody(late.body));
		} catch (error) {
			throw this.transportFailure(error, { host, action, deadline });
		}
	}

	/** A failure below HTTP (connect, TLS, reset, deadline) in words. */
	private transportFailure(error: unknown, { host, action, deadline }: { host: string; action: string; deadline: AbortSignal }): DescribedError {
		if (deadline.aborted || error instanceof DeadlineReachedError) return this.deadlineError(host, action);
		const { timeoutMs } = this.options.limits;
		return new DescribedError(...textOf(describeTransportFailure(errorCode(error), { host, timeoutMs, detail: errorDetail(error) })));
	}

	private deadlineError(host: string, action: string): DescribedError {
		return new DescribedError(...textOf(describeDeadline({ timeoutMs: this.options.limits.timeoutMs, host, action })));
	}

	private async readJson(
		rawBody: unknown,
		headers: Record<string, string | undefined>,
		{ statusCode, url, action, deadline }: { statusCode: number; url: string; action: string; deadline: AbortSignal },
	): Promise<unknown> {
		const host = new URL(url).host;
		const contentType = headers['content-type'];
		try {
			const length = Number(headers['content-length']);
			const expectedBytes = Number.isSafeInteger(length) ? length : undefined;
			const buffer = await readBody(rawBody, { maxBytes: this.options.limits.maxResponseBytes, deadline, expectedBytes });
			const text = decodeText(buffer, contentType);
			return parseJson(text, contentType, statusCode);
		} catch (error) {
			throw this.bodyFailure(error, { headers, statusCode, host, action, deadline });
		}
	}

	/** Why a body could not be used: too large, too slow, undecodable, or cut by the network. */
	private bodyFailure(
		error: unknown,
		context: { headers: Record<string, string | undefined>; statusCode: number; host: string; action: string; deadline: AbortSignal },
	): DescribedError {
		const { headers, statusCode, host, action } = context;
		if (error instanceof DescribedError) return error;
		if (error instanceof BodyTooLargeError) {
			return new HttpStatusError(describeBodyTooLarge({ maxBytes: this.options.limits.maxResponseBytes, action }), statusCode);
		}
		if (error instanceof UndecodableTextError) {
			const text = describeUndecodableText({ charset: error.charset, known: error.known, contentType: headers['content-type'] });
			return new HttpStatusError(text, statusCode);
		}
		if (isDecompressionError(errorCode(error)) && !context.deadline.aborted) {
			const text = describeUndecodableEncoding({ encoding: headers['content-encoding'], host, detail: errorDetail(error) });
			return new HttpStatusError(text, statusCode);
		}
		return this.transportFailure(error, context);
	}

	/** The platform's own words from an error body, best effort: small, and never a reason to fail. */
	private async readErrorMessage(body: unknown, contentType: string | undefined, deadline: AbortSignal): Promise<string | undefined> {
		try {
			const buffer = await readBody(body, { maxBytes: MAX_ERROR_BODY_BYTES, deadline });
			return platformMessageOf(JSON.parse(decodeText(buffer, contentType)), this.options.redact);
		} catch {
			discardBody(body);
			return undefined;
		}
	}
}

function parseJson(text: string, contentType: string | undefined, status: number): unknown {
	// Sized only on failure: measuring a large body costs time on every successful listing.
	const context = () => ({ contentType, length: Buffer.byteLength(text), status });
	if (!/\S/.test(text)) throw new HttpStatusError(describeUnusableBody('empty', context()), status);
	let body: unknown;
	let parsed = true;
	try {
		body = JSON.parse(text);
	} catch {
		parsed = false;
	}
	if (parsed) return body;
	const looksHtml = /html/i.test(contentType ?? '') || /^\s*</.test(text);
	throw new HttpStatusError(describeUnusableBody(looksHtml ? 'html' : 'not-json', context()), status);
}

/**
 * Wait before retry number `attempt` (0-based): the server's Retry-After when it gave one, else
 * exponential backoff with jitter (0.5-1 s, 1-2 s, 2-4 s).
 */
export function retryDelayMs(attempt: number, retryAfterMs: number | undefined, random = Math.random): number {
	if (retryAfterMs !== undefined) return retryAfterMs;
	const ceiling = 1000 * 2 ** attempt;
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Waits `ms` (a retry's wait); false when the execution was cancelled meanwhile, so the Stop button
 * does not wait out a long Retry-After. AbortSignal.timeout: node code may not use setTimeout.
 */
export async function pause(ms: number, cancel?: AbortSignal): Promise<boolean> {
	if (cancel?.aborted) return false;
	// AbortSignal.any needs Node 20.3; n8n 1.x may run on Node 18, where only the timeout ends the wait.
	const signal =
		cancel && typeof AbortSignal.any === 'function' ? AbortSignal.any([AbortSignal.timeout(ms), cancel]) : AbortSignal.timeout(ms);
	await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
	return !cancel?.aborted;
}

/** Settles with `promise`, or rejects when `deadline` fires first; a late result goes to `onLate`. */
function untilDeadline<T>(promise: Promise<T>, deadline: AbortSignal, onLate: (value: T) => void): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => {
			reject(new DeadlineReachedError());
			promise.then(onLate, () => undefined);
		};
		if (deadline.aborted) return onAbort();
		deadline.addEventListener('abort', onAbort, { once: true });
		promise.then(
			(value) => {
				deadline.removeEventListener('abort', onAbort);
				resolve(value);
			},
			(error: unknown) => {
				deadline.removeEventListener('abort', onAbort);
				reject(error);
			},
		);
	});
}

function textOf(text: ErrorText): [string, string] {
	return [text.message, text.description];
}

function lowerCaseHeaders(headers: RawResponse['headers'] | undefined): Record<string, string | undefined> {
	const result: Record<string, string | undefined> = {};
	for (const [name, value] of Object.entries(headers ?? {})) {
		result[name.toLowerCase()] = Array.isArray(value) ? value[0] : value === undefined ? undefined : String(value);
	}
	return result;
}

function isDecompressionError(code: string | undefined): boolean {
	return code !== undefined && (code.startsWith('Z_') || code.includes('BROTLI') || code.startsWith('ERR__ERROR_FORMAT'));
}

/** n8n wraps transport errors (NodeApiError -> axios error -> system error); the first `code` found wins. */
function errorCode(error: unknown): string | undefined {
	for (let current = error, depth = 0; isPlainObjectOrError(current) && depth < 5; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && code !== '') return code;
		current = (current as { cause?: unknown }).cause;
	}
	const message = (error as { message?: unknown } | undefined)?.message;
	return typeof message === 'string' && /timeout/i.test(message) ? 'ETIMEDOUT' : undefined;
}

function errorDetail(error: unknown): string | undefined {
	let innermost: unknown = error;
	for (let depth = 0; depth < 5; depth++) {
		const cause = (innermost as { cause?: unknown } | undefined)?.cause;
		if (!isPlainObjectOrError(cause)) break;
		innermost = cause;
	}
	// Only the message of a Node or axios error: it names the failure, never the request headers.
	const message = (innermost as { message?: unknown } | undefined)?.message;
	return typeof message === 'string' ? message.slice(0, 200) : undefined;
}

/** Duck-typed: errors of Node's streams may come from another realm (jest), where `instanceof Error` fails. */
function isPlainObjectOrError(value: unknown): boolean {
	return typeof value === 'object' && value !== null;
}
