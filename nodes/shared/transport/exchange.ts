import type { IHttpRequestOptions } from 'n8n-workflow';

import type { ErrorText } from '../errors/errors';
import type { Text } from '../text/text';
import { DescribedError, HttpStatusError } from '../errors/errors';
import { platformMessageOf } from '../json/json';
import type { ApiContext, RequestLimits, SessionUse } from './types';
import { CREDENTIAL_TYPE } from './types';
import { BodyTooLargeError, DeadlineReachedError, decodeText, discardBody, readBody, UndecodableTextError } from './responseBody';
import {
	describeBodyTooLarge,
	describeDeadline,
	describeTransportFailure,
	describeUndecodableEncoding,
	describeUndecodableText,
	describeUnusableBody,
} from './transportErrors';

/**
 * One HTTP exchange of a session: send one GET through n8n's authenticated helper, read its body
 * (JSON, under the byte cap, before the request's deadline), and say in words why either failed.
 * Redirects, retries and the session's time are transport.ts's.
 */

/** Error bodies only feed the quoted platform message: a little is enough. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** What an exchange needs from its session. */
export interface Exchange {
	context: ApiContext;
	limits: RequestLimits;
	/**
	 * The session's use as the walk stands when it takes this exchange's answer (the pages before it
	 * read whole): what the texts of its errors say. The byte cap covers every body of the session.
	 */
	used: Readonly<SessionUse>;
	/** Time left before the session's deadline. */
	remainingMs: () => number;
	/** Whether a body may grow to `bytes`: the room the session gives it under Max Response Size (pageRead.ts). */
	admit: (bytes: number) => boolean;
	/** The bytes a body may hold now without any other read giving way (what may be allocated ahead). */
	room: () => number;
}

/**
 * When one request must end: its Timeout, or the end of the listing's time if that comes first. The
 * bound says which, so the error names the limit to raise.
 */
export interface Deadline {
	signal: AbortSignal;
	bound: 'request' | 'listing';
	/** Milliseconds the request was given (the safety net of n8n's own timeout goes a little beyond). */
	ms: number;
}

/**
 * The deadline of the request starting now: the Timeout, or what is left of the listing's time when
 * less. `stop` ends it early too (a read ahead the walk no longer wants; its outcome is not used).
 */
export function requestDeadline(exchange: Exchange, stop?: AbortSignal): Deadline {
	const left = Math.max(1, exchange.remainingMs());
	const { timeoutMs } = exchange.limits;
	const ms = Math.min(timeoutMs, left);
	const timeout = AbortSignal.timeout(ms);
	return { signal: stop === undefined ? timeout : eitherSignal(timeout, stop), bound: timeoutMs < left ? 'request' : 'listing', ms };
}

/** Aborted when either is (AbortSignal.any needs Node 20.3; n8n 1.x may run on Node 18). */
function eitherSignal(one: AbortSignal, other: AbortSignal): AbortSignal {
	const both = new AbortController();
	const abort = () => both.abort();
	if (one.aborted || other.aborted) abort();
	one.addEventListener('abort', abort, { once: true });
	other.addEventListener('abort', abort, { once: true });
	return both.signal;
}

interface RawResponse {
	body: unknown;
	headers: Record<string, string | string[] | undefined>;
	statusCode: number;
}

/** One GET through n8n's authenticated request helper: the credential's `authenticate` adds the key. */
export async function sendGet(exchange: Exchange, url: string, action: Text, deadline: Deadline): Promise<RawResponse> {
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
		// A safety net only: the request's deadline (raced below) ends the request first and names it.
		timeout: deadline.ms + 1000,
		abortSignal: deadline.signal,
	};
	const request = exchange.context.helpers.httpRequestWithAuthentication.call(
		exchange.context,
		CREDENTIAL_TYPE,
		options,
	) as Promise<RawResponse>;
	try {
		return await untilDeadline(request, deadline, (late) => discardBody(late.body));
	} catch (error) {
		throw transportFailure(exchange, error, { host, action, deadline });
	}
}

/** A failure below HTTP (connect, TLS, reset, deadline) in words. */
function transportFailure(
	exchange: Exchange,
	error: unknown,
	{ host, action, deadline }: { host: string; action: Text; deadline: Deadline },
): DescribedError {
	if (deadline.signal.aborted || error instanceof DeadlineReachedError) return deadlineError(exchange, deadline, host, action);
	const { timeoutMs } = exchange.limits;
	return new DescribedError(...textOf(describeTransportFailure(errorCode(error), { host, timeoutMs, detail: errorDetail(error) })));
}

function deadlineError(exchange: Exchange, deadline: Deadline, host: string, action: Text): DescribedError {
	const { limits, used } = exchange;
	return new DescribedError(...textOf(describeDeadline({ bound: deadline.bound, limits, pagesRead: used.pagesRead, host, action })));
}

/**
 * A success's body, read whole within the room the session gives it (`exchange.admit`: the listing's
 * Max Response Size, less the pages before it), before the request's deadline; not yet counted nor
 * parsed (the session does both when the walk takes it).
 */
export async function readAnswerBytes(
	exchange: Exchange,
	rawBody: unknown,
	headers: Record<string, string | undefined>,
	{ statusCode, url, action, deadline }: { statusCode: number; url: string; action: Text; deadline: Deadline },
): Promise<Buffer> {
	const host = new URL(url).host;
	try {
		const length = Number(headers['content-length']);
		const expectedBytes = Number.isSafeInteger(length) ? length : undefined;
		// The session's room decides: a page is cut off as soon as the listing reaches the cap.
		return await readBody(rawBody, { maxBytes: exchange.room(), deadline: deadline.signal, expectedBytes, admit: exchange.admit });
	} catch (error) {
		throw bodyFailure(exchange, error, { headers, statusCode, host, action, deadline });
	}
}

/** The JSON of a body read whole: decoded by its charset, parsed; an error says why it is not JSON. */
export function parseAnswer(
	buffer: Buffer,
	headers: Record<string, string | undefined>,
	statusCode: number,
): { body: unknown; text: string } {
	const contentType = headers['content-type'];
	let text: string;
	try {
		text = decodeText(buffer, contentType);
	} catch (error) {
		throw undecodable(error, contentType, statusCode);
	}
	return { body: parseJson(text, contentType, statusCode), text };
}

/** A body that is not text in its charset, in words (any other error as it is). */
function undecodable(error: unknown, contentType: string | undefined, statusCode: number): unknown {
	if (!(error instanceof UndecodableTextError)) return error;
	return new HttpStatusError(describeUndecodableText({ charset: error.charset, known: error.known, contentType }), statusCode);
}

/** Why a body could not be used: too large, too slow, undecodable, or cut by the network. */
function bodyFailure(
	exchange: Exchange,
	error: unknown,
	context: { headers: Record<string, string | undefined>; statusCode: number; host: string; action: Text; deadline: Deadline },
): DescribedError {
	const { headers, statusCode, host, action } = context;
	if (error instanceof DescribedError) return error;
	if (error instanceof BodyTooLargeError) {
		const { bytesRead, pagesRead } = exchange.used;
		return new HttpStatusError(
			describeBodyTooLarge({ maxBytes: exchange.limits.maxResponseBytes, action, bytesRead, pagesRead }),
			statusCode,
		);
	}
	if (isDecompressionError(errorCode(error)) && !context.deadline.signal.aborted) {
		const text = describeUndecodableEncoding({ encoding: headers['content-encoding'], host, detail: errorDetail(error) });
		return new HttpStatusError(text, statusCode);
	}
	return transportFailure(exchange, error, context);
}

/** The platform's own words from an error body, best effort: small, and never a reason to fail. */
export async function readErrorMessage(body: unknown, contentType: string | undefined, deadline: AbortSignal): Promise<string | undefined> {
	try {
		const buffer = await readBody(body, { maxBytes: MAX_ERROR_BODY_BYTES, deadline });
		return platformMessageOf(JSON.parse(decodeText(buffer, contentType)));
	} catch {
		discardBody(body);
		return undefined;
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

/** Settles with `promise`, or rejects when `deadline` fires first; a late result goes to `onLate`. */
function untilDeadline<T>(promise: Promise<T>, { signal: deadline }: Deadline, onLate: (value: T) => void): Promise<T> {
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

export function textOf(text: ErrorText): [ErrorText['message'], ErrorText['description']] {
	return [text.message, text.description];
}

export function lowerCaseHeaders(headers: RawResponse['headers'] | undefined): Record<string, string | undefined> {
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
	// Only the message of a Node or axios error: it names the failure, never the request headers. Foreign
	// text: the caller quotes it with foreign(), which redacts and bounds it when shown.
	const message = (innermost as { message?: unknown } | undefined)?.message;
	return typeof message === 'string' ? message : undefined;
}

/** Duck-typed: errors of Node's streams may come from another realm (jest), where `instanceof Error` fails. */
function isPlainObjectOrError(value: unknown): boolean {
	return typeof value === 'object' && value !== null;
}
