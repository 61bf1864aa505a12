import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';

import { resolveApiBaseUrl, resolveApiKey } from './baseUrl';
import { DescribedError, HttpStatusError, toNodeError } from '../errors/errors';
import type { Exchange, RawResponse } from './exchange';
import { lowerCaseHeaders, readErrorMessage, readJsonBody, requestDeadline, sendGet, textOf } from './exchange';
import {
	describeCrossOrigin,
	describeHttpStatus,
	describeRedirect,
	describeRedirectLoop,
	describeRedirectWithUserInfo,
	describeRetriesExhausted,
	describeRetryBudgetSpent,
	describeRetryTooLong,
} from './httpErrors';
import type { ApiContext, RequestLimits, SessionUse } from './types';
import { CREDENTIAL_TYPE } from './types';
import type { Redact } from '../text/text';
import { makeRedactor } from '../redaction/redact';
import type { Text } from '../text/text';
import { render } from '../text/text';
import { discardBody } from './responseBody';
import type { RequestUrl } from './quotedUrl';
import { foreignUrl, ownPathUrl } from './quotedUrl';
import { parseRetryAfter } from './retryAfter';
import { MAX_RETRIES, MAX_SESSION_RETRIES, pause, RETRYABLE_STATUSES, retryDelayMs } from './retry';
import { describeTransportFailure } from './transportErrors';

/**
 * The session: opens it from the credential, and walks one request through same-origin redirects and
 * retries. Two times bound it: each request its Timeout, the whole session (a listing, all its pages,
 * retries and waits) its Listing Time Limit, in a poll within the poll's budget. One exchange (send,
 * read the body) is exchange.ts's.
 */

const MAX_SAME_ORIGIN_REDIRECTS = 5;

/** The session's retries are used up: its text already says how many, over how long. */
class RetryBudgetError extends HttpStatusError {}

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
	 * The ONE way our errors become n8n errors: redacts the key in every form, keeps our text against
	 * n8n's message rewrite, adds itemIndex; DescribedError -> NodeOperationError/NodeApiError.
	 */
	toNodeError(error: unknown, httpCode?: number): Error;
	/** A Text as the user sees it (text.ts render) with this credential's redactor: for texts that are not errors. */
	show(value: Text, max: number): string;
}

/**
 * Reads and validates the credential (key trimmed; an empty key or one a header cannot carry, a Base
 * URL that is not a URL (not echoed whole), plain http: credential errors before anything is sent).
 * `credentials`: the item's credential where the caller has already read it.
 */
export async function openApiSession(
	this: ApiContext,
	{ itemIndex, limits, credentials: read }: { itemIndex: number; limits: RequestLimits; credentials?: ICredentialDataDecryptedObject },
): Promise<ApiSession> {
	const node = this.getNode();
	const credentials = read ?? (await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE, itemIndex));
	const redact = makeRedactor(credentials.apiKey);
	try {
		resolveApiKey(credentials.apiKey);
		const baseUrl = resolveApiBaseUrl(credentials.baseUrl);
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

class HttpSession implements ApiSession {
	readonly baseUrl: string;

	private readonly origin: string;

	private readonly startedAt = Date.now();

	private readonly deadlineAt: number;

	/** Bytes, pages and retries across every request of the session: one bound for a whole listing. */
	private readonly used: SessionUse = { bytesRead: 0, pagesRead: 0, retries: 0 };

	private readonly exchange: Exchange;

	constructor(
		private readonly context: ApiContext,
		private readonly options: { node: INode; itemIndex: number; redact: Redact; baseUrl: string; limits: RequestLimits },
	) {
		this.baseUrl = options.baseUrl;
		this.origin = new URL(options.baseUrl).origin;
		this.deadlineAt = this.startedAt + options.limits.listingTimeMs;
		this.exchange = { context, limits: options.limits, used: this.used, remainingMs: () => this.remainingMs() };
	}

	toNodeError(error: unknown, httpCode?: number): Error {
		return toNodeError(this.options.node, error, { itemIndex: this.options.itemIndex, redact: this.options.redact, httpCode });
	}

	show(value: Text, max: number): string {
		return render(value, this.options.redact, max);
	}

	async get(target: string, { action }: { action: Text }): Promise<ApiResponse> {
		const retried = { count: 0, startedAt: Date.now() };
		try {
			return await this.fetchWithRetries(this.resolveTarget(target, action), action, retried);
		} catch (error) {
			// Whatever ends a request after retries (a status, the deadline, a body) says how often and how long.
			if (retried.count > 0 && error instanceof DescribedError && !(error instanceof RetryBudgetError)) {
				error.addToDescription(describeRetriesExhausted({ retries: retried.count, waitedMs: Date.now() - retried.startedAt }));
			}
			throw this.toNodeError(error);
		}
	}

	private resolveTarget(target: string | { path: Text }, action: Text): RequestUrl {
		if (typeof target !== 'string') return ownPathUrl(this.baseUrl, target.path);
		const url = URL.canParse(target) ? new URL(target) : undefined;
		if (url?.origin !== this.origin) {
			throw new DescribedError(...textOf(describeCrossOrigin({ target: url?.href ?? target, baseUrl: this.baseUrl, action })));
		}
		return foreignUrl(url.href);
	}

	private retryBudgetError(status: number, action: Text, serverMessage: string | undefined): RetryBudgetError {
		const { pagesRead, retries } = this.used;
		const elapsedMs = Date.now() - this.startedAt;
		const limits = { maxPerRequest: MAX_RETRIES, maxPerListing: MAX_SESSION_RETRIES };
		return new RetryBudgetError(
			describeRetryBudgetSpent({ status, retries, pagesRead, elapsedMs, action, serverMessage, ...limits }),
			status,
		);
	}

	private remainingMs(): number {
		return this.deadlineAt - Date.now();
	}

	/**
	 * One request to its answer, as a sequence of steps: send; a redirect within the Base URL's origin
	 * is followed (redirectTarget); a retryable status waits and sends again (waitToRetry); any other
	 * failed status is an error (statusError); a success is read whole (readJsonBody).
	 */
	private async fetchWithRetries(start: RequestUrl, action: Text, retried: { count: number }): Promise<ApiResponse> {
		let requested = start;
		for (let redirects = 0; ;) {
			const deadline = requestDeadline(this.exchange);
			const url = requested.href;
			const response = await sendGet(this.exchange, url, action, deadline);
			const { statusCode } = response;
			const headers = lowerCaseHeaders(response.headers);
			if (statusCode >= 200 && statusCode < 300) {
				const { body, text } = await readJsonBody(this.exchange, response.body, headers, { statusCode, url, action, deadline });
				return { body, text, headers, url, status: statusCode };
			}
			if (statusCode >= 300 && statusCode < 400 && statusCode !== 304) {
				discardBody(response.body);
				requested = this.redirectTarget(statusCode, headers.location, requested, ++redirects);
				continue;
			}
			const retry = await this.waitToRetry(response, headers, retried, url);
			if (retry === 'sent again') continue;
			const serverMessage = await readErrorMessage(response.body, headers['content-type'], deadline.signal);
			if (retry === 'retries spent') throw this.retryBudgetError(statusCode, action, serverMessage);
			const said = describeHttpStatus(statusCode, { url: requested.quoted, action, retryAfter: headers['retry-after'], serverMessage });
			throw new HttpStatusError(said, statusCode);
		}
	}

	/** Where a redirect leads, when it may be followed: the key goes only where the user pointed it (same scheme, host and port). */
	private redirectTarget(statusCode: number, location: string | undefined, requested: RequestUrl, redirects: number): RequestUrl {
		const next = location && URL.canParse(location, requested.href) ? new URL(location, requested.href) : undefined;
		if (next !== undefined && next.origin === this.origin && (next.username !== '' || next.password !== '')) {
			throw new HttpStatusError(describeRedirectWithUserInfo(statusCode, requested.quoted), statusCode);
		}
		if (next?.origin !== this.origin) {
			// Quoted as foreign text (redacted, then bounded when shown): a hostile Location may be long and carry the key.
			const said = describeRedirect(statusCode, requested.quoted, location === undefined ? undefined : (next?.href ?? location));
			throw new HttpStatusError(said, statusCode);
		}
		if (redirects > MAX_SAME_ORIGIN_REDIRECTS) {
			throw new HttpStatusError(describeRedirectLoop(statusCode, requested.quoted, MAX_SAME_ORIGIN_REDIRECTS), statusCode);
		}
		return foreignUrl(next.href);
	}

	/**
	 * For a failed status: waits and answers 'sent again' when it is retried (429, 502, 503, 504 with
	 * Retry on Rate Limit, within the request's and the session's retries and times); 'retries spent'
	 * when only the session's retries stop it; 'not retried' otherwise. A Retry-After longer than a
	 * retry may wait is an error saying so.
	 */
	private async waitToRetry(
		{ statusCode, body }: RawResponse,
		headers: Record<string, string | undefined>,
		retried: { count: number },
		url: string,
	): Promise<'sent again' | 'retries spent' | 'not retried'> {
		const { limits } = this.options;
		if (!limits.retryOnRateLimit || !RETRYABLE_STATUSES.has(statusCode) || retried.count >= MAX_RETRIES) return 'not retried';
		if (this.used.retries >= MAX_SESSION_RETRIES) return 'retries spent';
		// The connection is let go before any wait; a retry too long to wait for quotes no platform message.
		discardBody(body);
		const retryAfterMs = parseRetryAfter(headers['retry-after']);
		const waitMs = retryDelayMs(retried.count, retryAfterMs);
		// A retry waits at most the Timeout (the time the node gives one answer), and never past the listing's time.
		if (waitMs > limits.timeoutMs || waitMs >= this.remainingMs()) {
			if (retryAfterMs === undefined) return 'not retried';
			throw new HttpStatusError(describeRetryTooLong({ status: statusCode, waitMs, remainingMs: this.remainingMs(), limits }), statusCode);
		}
		const cancel = 'getExecutionCancelSignal' in this.context ? this.context.getExecutionCancelSignal() : undefined;
		if (!(await pause(waitMs, cancel))) {
			throw new DescribedError(
				...textOf(describeTransportFailure('ERR_CANCELED', { host: new URL(url).host, timeoutMs: limits.timeoutMs })),
			);
		}
		retried.count++;
		this.used.retries++;
		return 'sent again';
	}
}
