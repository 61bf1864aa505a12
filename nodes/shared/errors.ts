import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { clip, isJsonObject } from './json';
import type { Redact } from './redact';
import { redactText } from './redact';

/**
 * Pure mapping from what went wrong to what a user reads: `message` says what happened,
 * `description` says how to fix it (every `describe*` is a pure function, unit-tested), and the one
 * `toNodeError` that turns such a text into an n8n error.
 */
export interface ErrorText {
	message: string;
	description: string;
}

/**
 * A failure the user can act on, raised by pure code (no n8n context there); `description` says how
 * to fix it. The node code turns it into a NodeApiError or NodeOperationError with the item index.
 */
export class DescribedError extends Error implements ErrorText {
	constructor(
		message: string,
		public description: string,
	) {
		super(message);
		this.name = new.target.name;
	}
}

const RETRY_HINT = 'Try again later, or turn on "Retry On Fail" in the node settings (with a wait of a few seconds).';

/** A failure carrying the HTTP status it came with: becomes a NodeApiError with `httpCode`. */
export class HttpStatusError extends DescribedError {
	constructor(
		text: ErrorText,
		readonly httpCode: number,
	) {
		super(text.message, text.description);
	}
}

export function describeHttpStatus(
	status: number,
	context: { url: string; action: string; retryAfter?: string; serverMessage?: string; now?: number },
): ErrorText {
	const { action } = context;
	const said = context.serverMessage ? ` The platform said: "${context.serverMessage}".` : '';
	const withSaid = (text: ErrorText): ErrorText => ({ ...text, description: text.description + said });
	const checkBaseUrl = `Check the Base URL in the Service Platform API credential: it must be the API's base address as the platform gives it (e.g. https://api.example.com); the node requested ${context.url}.`;
	const wait = describeRetryAfter(context.retryAfter, context.now);
	const asksToWait = wait ? `; it asks to wait ${wait}` : '';
	switch (status) {
		case 400:
			return withSaid({ message: 'The platform rejected the request as invalid (HTTP 400)', description: checkBaseUrl });
		case 401:
			return withSaid({
				message: 'The platform rejected the API key (HTTP 401)',
				description:
					'The key is wrong, expired or revoked. Generate a new API key in the account panel of the platform and paste it into the Service Platform API credential (without spaces or the word "Bearer").',
			});
		case 403:
			return withSaid({
				message: `The API key is not allowed to ${action} (HTTP 403)`,
				description:
					"The platform accepted the key but refused access. Check the key's permissions in the account panel, or generate a key for the account that owns the data.",
			});
		case 404:
			return withSaid({ message: `The platform found nothing at the address used to ${action} (HTTP 404)`, description: checkBaseUrl });
		case 405:
			return withSaid({ message: `The address does not allow the request to ${action} (HTTP 405)`, description: checkBaseUrl });
		case 408:
			return withSaid({ message: 'The platform gave up waiting for the request (HTTP 408)', description: RETRY_HINT });
		case 410:
			return withSaid({
				message: `The platform says the address used to ${action} is gone (HTTP 410)`,
				description: `The platform may have retired this API version (the node requested ${context.url}). Check the provider's announcements and update this community node.`,
			});
		case 429:
			return withSaid({
				message: `The platform is rate limiting requests (HTTP 429)${asksToWait}`,
				description:
					(wait ? `Wait ${wait} before running again. ` : 'Wait a little before running again. ') +
					'Run the workflow less often, or turn on "Retry On Fail" in the node settings with a wait longer than the one asked for.',
			});
		case 500:
			return withSaid({ message: 'The platform had an internal error (HTTP 500)', description: RETRY_HINT });
		case 502:
			return withSaid({ message: "The platform's gateway got a bad answer (HTTP 502)", description: RETRY_HINT });
		case 503:
			return withSaid({ message: `The platform is unavailable (HTTP 503)${asksToWait}`, description: RETRY_HINT });
		case 504:
			return withSaid({ message: "The platform's gateway timed out (HTTP 504)", description: RETRY_HINT });
		default:
			if (status >= 500) {
				return withSaid({ message: `The platform failed with HTTP ${status}`, description: RETRY_HINT });
			}
			if (status >= 400) {
				return withSaid({
					message: `The platform refused the request (HTTP ${status})`,
					description: `The API documentation does not describe this answer. ${checkBaseUrl}`,
				});
			}
			return withSaid({
				message: `The platform answered with an unexpected HTTP ${status}`,
				description: `To ${action}, the platform should answer HTTP 200 with JSON. ${checkBaseUrl}`,
			});
	}
}

/** Longest wait a Retry-After may ask for before we call it nonsense: a day. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * `Retry-After` (RFC 9110): whole seconds or an HTTP date. Returns the wait in ms, capped at a day,
 * never negative; undefined when absent or unreadable (`-5`, `1.5`, `soon`). `1e23` is unreadable too:
 * the header takes digits only.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	const trimmed = value?.trim() ?? '';
	if (trimmed === '') return undefined;
	if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
	if (!/[a-z]/i.test(trimmed)) return undefined;
	const date = Date.parse(trimmed);
	if (Number.isNaN(date)) return undefined;
	return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
}

/** A readable Retry-After ("30 s", "5 min (until 2026-…)"), or undefined when there is none that makes sense. */
export function describeRetryAfter(value: string | undefined, now = Date.now()): string | undefined {
	const ms = parseRetryAfter(value, now);
	if (ms === undefined || value === undefined) return undefined;
	const wait = ms <= 120_000 ? `${Math.ceil(ms / 1000)} s` : formatDuration(ms);
	const capped = ms === MAX_RETRY_AFTER_MS ? ' or more' : '';
	const trimmed = value.trim();
	const until = /^\d+$/.test(trimmed) ? '' : ` (until ${new Date(Date.parse(trimmed)).toISOString()})`;
	return `${wait}${capped}${until}`;
}

/** Failures below HTTP: the `code` is Node's or axios's error code. */
export function describeTransportFailure(
	code: string | undefined,
	context: { host: string; timeoutMs: number; detail?: string },
): ErrorText {
	const { host, timeoutMs } = context;
	switch (code) {
		case 'ECONNREFUSED':
			return {
				message: `Could not connect to ${host}: the connection was refused`,
				description: `Nothing accepts connections at that address. Check the Base URL (host and port) in the credential, and that the platform is up. (${code})`,
			};
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return {
				message: `Could not find the host ${host}`,
				description: `The name does not resolve. Check the spelling of the Base URL in the credential, and the n8n server's DNS and network. (${code})`,
			};
		case 'ERR_BAD_RESPONSE':
			// axios: "stream has been aborted" is a body cut off by a reset; other ERR_BAD_RESPONSE are generic.
			if (!/aborted/i.test(context.detail ?? '')) return genericFailure(code, context);
		// falls through
		case 'ECONNRESET':
		case 'EPIPE':
		case 'ERR_STREAM_PREMATURE_CLOSE':
			return {
				message: `The connection to ${host} was closed before the answer was complete`,
				description: `The platform or something between (proxy, firewall) dropped the connection. ${RETRY_HINT} (${code})`,
			};
		case 'ETIMEDOUT':
		case 'ECONNABORTED':
		case 'ESOCKETTIMEDOUT':
			return {
				message: `The platform did not answer within ${formatDuration(timeoutMs)}`,
				description: `The request to ${host} was stopped after waiting ${formatDuration(timeoutMs)}. Raise "Timeout" under Options if listing takes long, or ${RETRY_HINT.charAt(0).toLowerCase()}${RETRY_HINT.slice(1)}`,
			};
		case 'EHOSTUNREACH':
		case 'ENETUNREACH':
			return {
				message: `The host ${host} is unreachable`,
				description: `The n8n server has no network route to the platform. Check its network, proxy and firewall. (${code})`,
			};
		case 'EPROTO':
		case 'ERR_SSL_WRONG_VERSION_NUMBER':
		case 'ERR_SSL_PACKET_LENGTH_TOO_LONG':
		case 'ERR_SSL_HTTP_REQUEST':
			return {
				message: `Could not start a secure connection to ${host}: it does not speak https on that port`,
				description: `The port answers plain http or another protocol, not TLS. Check the scheme and port of the Base URL in the credential (https:// with the platform's https port, usually none or 443). (${code})`,
			};
		case 'HPE_INVALID_CONSTANT':
		case 'HPE_INVALID_HEADER_TOKEN':
		case 'HPE_INVALID_VERSION':
			return {
				message: `${host} did not answer with HTTP`,
				description: `Something answers at that address, but not an HTTP server (e.g. https to a plain port of another service). Check the scheme and port of the Base URL in the credential. (${code})`,
			};
		case 'ERR_SOCKET_BAD_PORT':
			return {
				message: `The port of ${host} is not usable`,
				description: 'A port must be a number from 1 to 65535. Check the Base URL in the credential; most APIs need no port at all.',
			};
		case 'ERR_CANCELED':
			return {
				message: 'The request was cancelled',
				description: 'The workflow execution was stopped while the platform was answering.',
			};
		default:
			if (code !== undefined && isTlsErrorCode(code)) {
				return {
					message: `The TLS certificate of ${host} was not accepted`,
					description: `The https connection could not be verified (${code}): the certificate is self-signed, expired, or issued for another host. Check the Base URL uses the platform's official address; the API key is never sent over an unverified connection.`,
				};
			}
			return genericFailure(code, context);
	}
}

function genericFailure(code: string | undefined, context: { host: string; detail?: string }): ErrorText {
	return {
		message: `The request to ${context.host} failed${code ? ` (${code})` : ''}`,
		description: `${context.detail ? `${context.detail}. ` : ''}Check the Base URL in the credential and the n8n server's network. ${RETRY_HINT}`,
	};
}

const TLS_ERROR_CODES = new Set([
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'UNABLE_TO_GET_ISSUER_CERT',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'CERT_HAS_EXPIRED',
	'CERT_NOT_YET_VALID',
	'CERT_REVOKED',
	'CERT_UNTRUSTED',
	'CERT_REJECTED',
	'ERR_TLS_CERT_ALTNAME_INVALID',
	'HOSTNAME_MISMATCH',
]);

export function isTlsErrorCode(code: string): boolean {
	return TLS_ERROR_CODES.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_');
}

export function describeRedirect(status: number, from: string, location: string | undefined): ErrorText {
	if (!location) {
		return {
			message: `The platform answered with a redirect (HTTP ${status}) without a target`,
			description: `Check the Base URL in the credential; the node requested ${from}.`,
		};
	}
	return {
		message: `The platform redirected to another address (${location}); the node does not follow it`,
		description:
			'The API key is only sent to the address in the credential. If the new address is the official one, put it as the Base URL in the Service Platform API credential (https only).',
	};
}

export function describeRedirectLoop(status: number, from: string, max: number): ErrorText {
	return {
		message: `The platform redirected more than ${max} times`,
		description: `The answers kept redirecting within the same address (last: HTTP ${status} from ${from}). Check the Base URL in the credential: it must be the API's base address, not a page that forwards.`,
	};
}

export function describeUnusableBody(
	kind: 'empty' | 'html' | 'not-json',
	context: { contentType: string | undefined; length: number; status: number },
): ErrorText {
	const received = `content type ${context.contentType ? `"${context.contentType}"` : 'not given'}, ${context.length} byte(s)`;
	const fix =
		'This is usually a wrong Base URL (a website or login page instead of the API) or a proxy answering in place of the platform. Check the Base URL in the credential.';
	switch (kind) {
		case 'empty':
			return {
				message: `The platform answered HTTP ${context.status} with an empty body instead of JSON`,
				description: `Received ${received}. ${fix}`,
			};
		case 'html':
			return { message: 'The platform answered with an HTML page instead of JSON', description: `Received ${received}. ${fix}` };
		default:
			return { message: 'The platform answered with text that is not valid JSON', description: `Received ${received}; it may be cut off. ${fix}` };
	}
}

export function formatDuration(ms: number): string {
	if (ms < 1000) return `${Math.round(ms)} ms`;
	const seconds = ms / 1000;
	if (seconds < 120) return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
	if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
	return `${Math.round(seconds / 3600)} h`;
}

/** The Timeout covers the whole session: connect, headers, every body, retry wait and page. */
export function describeDeadline(context: { timeoutMs: number; host: string; action: string }): ErrorText {
	const timeout = formatDuration(context.timeoutMs);
	return {
		message: `The platform did not answer within ${timeout}`,
		description: `The node stopped waiting for ${context.host} to ${context.action} after ${timeout} in total (connecting, waiting and reading the answer). Raise "Timeout" under Options if the platform is slow, or ${RETRY_HINT.charAt(0).toLowerCase()}${RETRY_HINT.slice(1)}`,
	};
}

export function describeBodyTooLarge(context: { maxBytes: number; action: string }): ErrorText {
	const cap = formatBytes(context.maxBytes);
	return {
		message: `The answer is larger than the Max Response Size of ${cap}`,
		description: `The node stopped reading the answer (to ${context.action}) after ${cap}, to protect n8n's memory. If your account really has that much data, raise "Max Response Size" under Options; an endless answer means a proxy or a faulty platform.`,
	};
}

export function describeUndecodableEncoding(context: { encoding: string | undefined; host: string; detail?: string }): ErrorText {
	const named = context.encoding ? `"${context.encoding}"` : 'it claims';
	return {
		message: `The answer from ${context.host} could not be decompressed`,
		description: `The platform said the body is compressed as ${named}, but it is not valid ${context.encoding ?? 'compressed data'}${context.detail ? ` (${context.detail})` : ''}. This is a fault of the platform or a proxy in between; report it to the provider, or try again later.`,
	};
}

export function describeUndecodableText(context: { charset: string; known: boolean; contentType: string | undefined }): ErrorText {
	return context.known
		? {
				message: `The answer is not valid ${context.charset} text`,
				description: `The platform declared content type "${context.contentType ?? ''}", but the body contains bytes that are not valid ${context.charset}. This is a fault of the platform or a proxy in between; report it to the provider.`,
			}
		: {
				message: `The answer uses a character set the node cannot read ("${context.charset}")`,
				description: 'JSON is sent as UTF-8 (also accepted: UTF-16 and the charsets n8n\'s Node.js can decode). Ask the provider to send UTF-8, or check that the Base URL points at the API and not a proxy.',
			};
}

export function describeRetriesExhausted(context: { retries: number; waitedMs: number }): string {
	return ` The node retried ${context.retries} time${context.retries === 1 ? '' : 's'} over ${formatDuration(context.waitedMs)}.`;
}

export function describeRetryTooLong(context: { status: number; waitMs: number; remainingMs: number; timeoutMs: number }): ErrorText {
	return {
		message: `The platform asks to wait ${formatDuration(context.waitMs)} (HTTP ${context.status}), longer than the time left`,
		description: `Only ${formatDuration(Math.max(0, context.remainingMs))} of the Timeout (${formatDuration(context.timeoutMs)}) were left, so the node did not wait. Run the workflow later, run it less often, or raise "Timeout" under Options above the wait the platform asks for.`,
	};
}

export function describeCrossOrigin(context: { target: string; baseUrl: string; action: string }): ErrorText {
	return {
		message: `The platform pointed to another address (${context.target}); the node does not follow it`,
		description: `While trying to ${context.action}, the answer named an address outside ${new URL(context.baseUrl).origin}. The API key is only sent to the address in the credential. If the new address is the official one, put it as the Base URL in the Service Platform API credential (https only).`,
	};
}

export function formatBytes(bytes: number): string {
	const mb = bytes / (1024 * 1024);
	if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
	return `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * A short human message from a JSON error body, if the platform sent one; `redact` runs before it is
 * shortened, so a key cut in two by the shortening cannot escape.
 */
export function platformMessageOf(body: unknown, redact: Redact = (text) => text): string | undefined {
	if (!isJsonObject(body)) return undefined;
	for (const key of ['message', 'error_description', 'detail', 'error', 'title']) {
		const value = body[key];
		if (typeof value === 'string' && value.trim() !== '') return clip(redact(value).replace(/\s+/g, ' ').trim(), 200);
		if (key === 'error' && isJsonObject(value)) return platformMessageOf(value, redact);
	}
	// JSON:API and GraphQL style: `{ "errors": [{ "detail" | "message" | "title": "..." }] }`.
	if (Array.isArray(body.errors) && isJsonObject(body.errors[0])) return platformMessageOf(body.errors[0], redact);
	return undefined;
}

/** n8n's own error classes, recognised by name too: another copy of n8n-workflow fails `instanceof`. */
function isNodeError(error: unknown): error is NodeApiError | NodeOperationError {
	return (
		error instanceof NodeApiError ||
		error instanceof NodeOperationError ||
		(error instanceof Error && (error.name === 'NodeApiError' || error.name === 'NodeOperationError'))
	);
}

/**
 * The ONE way our errors become n8n errors (router, trigger and transport all use it):
 * - DescribedError -> NodeOperationError, or NodeApiError with `httpCode` when it has one;
 * - an n8n error passes through, redacted again (harmless: redaction is idempotent);
 * - anything else (a bug) -> NodeOperationError with its message.
 * The key is redacted in every form, `itemIndex` is set, and our text is put back after n8n's
 * constructor, which replaces a message containing a Node error code anywhere (e.g. "EPERM" in
 * "deepermind") with a generic one.
 */
export function toNodeError(
	node: INode,
	error: unknown,
	{ itemIndex, redact, httpCode }: { itemIndex: number; redact: Redact; httpCode?: number },
): NodeApiError | NodeOperationError {
	if (isNodeError(error)) {
		error.message = redact(error.message);
		if (typeof error.description === 'string') error.description = redact(error.description);
		if (error.context && error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	if (error instanceof DescribedError) {
		const text = redactText({ message: error.message, description: error.description }, redact);
		const status = httpCode ?? (error instanceof HttpStatusError ? error.httpCode : undefined);
		const nodeError =
			status === undefined
				? new NodeOperationError(node, text.message, { description: text.description, itemIndex })
				: // Built from our own text, never from a transport error: that one holds the request headers.
					new NodeApiError(node, { message: text.message, description: text.description } as JsonObject, {
						message: text.message,
						description: text.description,
						httpCode: String(status),
						itemIndex,
					});
		nodeError.message = text.message;
		nodeError.description = text.description;
		return nodeError;
	}
	const message = redact(error instanceof Error ? error.message : String(error));
	const nodeError = new NodeOperationError(node, message, { itemIndex });
	nodeError.message = message;
	return nodeError;
}
