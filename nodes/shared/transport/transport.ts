import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';

import { resolveApiBaseUrl, resolveApiKey } from './baseUrl';
import { DescribedError, HttpStatusError, toNodeError } from '../errors/errors';
import { parseAnswer, readErrorMessage, textOf } from './exchange';
import {
	describeCrossOrigin,
	describeHttpStatus,
	describeRetriesExhausted,
	describeRetryBudgetSpent,
	describeRetryTooLong,
} from './httpErrors';
import type { FailedStatus, Outcome, ReadHost } from './pageRead';
import { PageRead, ReadsUnderWay } from './pageRead';
import type { AheadRead, ApiContext, ApiResponse, ApiSession, RequestLimits, SessionUse } from './types';
import { CREDENTIAL_TYPE } from './types';
import type { Redact } from '../text/text';
import { makeRedactor } from '../redaction/redact';
import type { Text } from '../text/text';
import { DESCRIPTION_MAX, own, render, text } from '../text/text';
import { discardBody } from './responseBody';
import type { RequestUrl } from './quotedUrl';
import { foreignUrl, ownPathUrl } from './quotedUrl';
import { MAX_RETRIES, MAX_SESSION_RETRIES, parseRetryAfter, pause, RETRYABLE_STATUSES, retryDelayMs } from './retry';
import { describeTransportFailure } from './transportErrors';

/**
 * The session: opens it from the credential, and takes each read (pageRead.ts: one request through
 * same-origin redirects to its first outcome) in the walk's order: retries and their waits, the
 * counters, the body parsed. Reads may be under way ahead of the walk (Parallel Requests); what the
 * walk takes is judged as the one-by-one walk would judge it then. Two times bound it: each request
 * its Timeout, the whole session (a listing, all its pages, retries and waits) its Listing Time
 * Limit, in a poll within the poll's budget. One exchange (send, read the body) is exchange.ts's.
 */

/** The session's retries are used up: its text already says how many, over how long. */
class RetryBudgetError extends HttpStatusError {}

export type { AheadRead, ApiResponse, ApiSession } from './types';

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

class HttpSession implements ApiSession, ReadHost {
	readonly baseUrl: string;

	readonly origin: string;

	readonly parallelRequests: number;

	private readonly startedAt = Date.now();

	private readonly deadlineAt: number;

	/** Bytes, pages and retries of every answer the walk took: one bound for a whole listing. */
	private readonly used: SessionUse = { bytesRead: 0, pagesRead: 0, retries: 0 };

	/** Reads started and not yet taken, in the order the walk takes them. */
	readonly reads: ReadsUnderWay;

	private slowDown?: Text;

	constructor(
		private readonly context: ApiContext,
		private readonly options: { node: INode; itemIndex: number; redact: Redact; baseUrl: string; limits: RequestLimits },
	) {
		this.baseUrl = options.baseUrl;
		this.origin = new URL(options.baseUrl).origin;
		this.parallelRequests = options.limits.parallelRequests;
		this.deadlineAt = this.startedAt + options.limits.listingTimeMs;
		const base = { context, limits: options.limits, remainingMs: () => this.remainingMs() };
		this.reads = new ReadsUnderWay(this.used, base, () => (this.slowDown ??= own('the pages read ahead would pass Max Response Size')));
	}

	get oneAtATime(): Text | undefined {
		return this.slowDown;
	}

	toNodeError(error: unknown, httpCode?: number): Error {
		return toNodeError(this.options.node, error, { itemIndex: this.options.itemIndex, redact: this.options.redact, httpCode });
	}

	show(value: Text, max: number): string {
		return render(value, this.options.redact, max);
	}

	debug(value: Text): void {
		this.context.logger.debug(this.show(value, DESCRIPTION_MAX));
	}

	async get(target: string | { path: Text }, { action }: { action: Text }): Promise<ApiResponse> {
		let read: PageRead;
		try {
			read = new PageRead(this, this.resolveTarget(target, action), action);
		} catch (error) {
			throw this.toNodeError(error);
		}
		// Asked now: it goes before any read ahead (the walk drops those before it asks another address).
		this.reads.add(read, { head: true });
		return await this.take(read);
	}

	readAhead(url: string, { action }: { action: Text }): AheadRead {
		const read = new PageRead(this, this.resolveTarget(url, action), action);
		this.reads.add(read, { head: false });
		return {
			url: read.url,
			take: async () => await this.take(read),
			drop: () => {
				read.dropped = true;
				read.stopReading();
				this.reads.release(read);
			},
		};
	}

	/**
	 * The walk takes a read: its outcome judged as the one-by-one walk would judge it now, in this
	 * order. A failed status is retried here (waits included); a success is counted (bytes, pages)
	 * and parsed; a read that gave way is asked again.
	 */
	private async take(read: PageRead): Promise<ApiResponse> {
		const retried = { count: 0, startedAt: Date.now() };
		try {
			let outcome = await read.first;
			for (;;) {
				if (read.gaveWay) {
					read.gaveWay = false;
					outcome = await read.attempt(read.start);
				} else if (outcome.kind === 'failed') {
					throw outcome.error;
				} else if (outcome.kind === 'answer') {
					return this.accept(read, outcome);
				} else {
					const retry = await this.waitToRetry(outcome, retried);
					if (retry !== 'sent again') throw await this.statusError(outcome, retry, read.action);
					outcome = await read.attempt(outcome.requested, outcome.redirects);
				}
			}
		} catch (error) {
			// Whatever ends a request after retries (a status, the deadline, a body) says how often and how long.
			if (retried.count > 0 && error instanceof DescribedError && !(error instanceof RetryBudgetError)) {
				error.addToDescription(describeRetriesExhausted({ retries: retried.count, waitedMs: Date.now() - retried.startedAt }));
			}
			throw this.toNodeError(error);
		} finally {
			this.reads.release(read);
		}
	}

	/** A success the walk takes: its bytes and page now the listing's, then decoded and parsed. */
	private accept(read: PageRead, { buffer, headers, status, url }: Extract<Outcome, { kind: 'answer' }>): ApiResponse {
		this.reads.release(read);
		this.used.bytesRead += buffer.length;
		this.used.pagesRead++;
		const { body, text } = parseAnswer(buffer, headers, status);
		return { body, text, headers, url, status };
	}

	throttled(status: number): void {
		this.slowDown ??= text`the platform answered HTTP ${status}`;
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

	/** A failed status that is not retried: its error, quoting the platform's message. */
	private async statusError(failed: FailedStatus, retry: 'retries spent' | 'not retried', action: Text): Promise<HttpStatusError> {
		const { status, headers, requested } = failed;
		const serverMessage = failed.message
			? failed.message.said
			: await readErrorMessage(failed.body, headers['content-type'], failed.deadline.signal);
		if (retry === 'retries spent') return this.retryBudgetError(status, action, serverMessage);
		const said = describeHttpStatus(status, { url: requested.quoted, action, retryAfter: headers['retry-after'], serverMessage });
		return new HttpStatusError(said, status);
	}

	private remainingMs(): number {
		return this.deadlineAt - Date.now();
	}

	/**
	 * For a failed status: waits and answers 'sent again' when it is retried (429, 502, 503, 504 with
	 * Retry on Rate Limit, within the request's and the session's retries and times); 'retries spent'
	 * when only the session's retries stop it; 'not retried' otherwise. A Retry-After longer than a
	 * retry may wait is an error saying so.
	 */
	private async waitToRetry(
		{ status, headers, body, requested }: FailedStatus,
		retried: { count: number },
	): Promise<'sent again' | 'retries spent' | 'not retried'> {
		const { limits } = this.options;
		if (!limits.retryOnRateLimit || !RETRYABLE_STATUSES.has(status) || retried.count >= MAX_RETRIES) return 'not retried';
		if (this.used.retries >= MAX_SESSION_RETRIES) return 'retries spent';
		// The connection is let go before any wait; a retry too long to wait for quotes no platform message.
		discardBody(body);
		const retryAfterMs = parseRetryAfter(headers['retry-after']);
		const waitMs = retryDelayMs(retried.count, retryAfterMs);
		// A retry waits at most the Timeout (the time the node gives one answer), and never past the listing's time.
		if (waitMs > limits.timeoutMs || waitMs >= this.remainingMs()) {
			if (retryAfterMs === undefined) return 'not retried';
			throw new HttpStatusError(describeRetryTooLong({ status, waitMs, remainingMs: this.remainingMs(), limits }), status);
		}
		const cancel = 'getExecutionCancelSignal' in this.context ? this.context.getExecutionCancelSignal() : undefined;
		if (!(await pause(waitMs, cancel))) {
			throw new DescribedError(
				...textOf(describeTransportFailure('ERR_CANCELED', { host: new URL(requested.href).host, timeoutMs: limits.timeoutMs })),
			);
		}
		retried.count++;
		this.used.retries++;
		return 'sent again';
	}
}
