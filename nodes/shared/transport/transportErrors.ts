import type { RequestLimits } from './types';
import type { ErrorText } from '../errors/errors';
import type { Text } from '../text/text';
import { foreign, formatBytes, formatDuration, own, text } from '../text/text';
import { RETRY_HINT, RETRY_HINT_LOWER } from './httpErrors';

/** Texts for failures below HTTP and while reading a body: connection, TLS, deadline, size, encoding, not JSON. */

/** Failures below HTTP: the `code` is Node's or axios's error code. */
export function describeTransportFailure(
	code: string | undefined,
	context: { host: string; timeoutMs: number; detail?: string },
): ErrorText {
	const { host, timeoutMs } = context;
	switch (code) {
		case 'ECONNREFUSED':
			return {
				message: text`Could not connect to ${foreign(host, 100)}: the connection was refused`,
				description: text`Nothing accepts connections at that address. Check the Base URL (host and port) in the credential, and that the platform is up. (${foreign(code, 60)})`,
			};
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return {
				message: text`Could not find the host ${foreign(host, 100)}`,
				description: text`The name does not resolve. Check the spelling of the Base URL in the credential, and the n8n server's DNS and network. (${foreign(code, 60)})`,
			};
		case 'ERR_BAD_RESPONSE':
			// axios: "stream has been aborted" is a body cut off by a reset; other ERR_BAD_RESPONSE are generic.
			if (!/aborted/i.test(context.detail ?? '')) return genericFailure(code, context);
		// falls through
		case 'ECONNRESET':
		case 'EPIPE':
		case 'ERR_STREAM_PREMATURE_CLOSE':
			return {
				message: text`The connection to ${foreign(host, 100)} was closed before the answer was complete`,
				description: text`The platform or something between (proxy, firewall) dropped the connection. ${RETRY_HINT} (${foreign(code, 60)})`,
			};
		case 'ETIMEDOUT':
		case 'ECONNABORTED':
		case 'ESOCKETTIMEDOUT':
			return {
				message: text`The platform did not answer within ${formatDuration(timeoutMs)}`,
				description: text`The request to ${foreign(host, 100)} was stopped after waiting ${formatDuration(timeoutMs)}. Raise "Timeout" under Options (the time for each request) if the platform is slow, or ${RETRY_HINT_LOWER}`,
			};
		case 'EHOSTUNREACH':
		case 'ENETUNREACH':
			return {
				message: text`The host ${foreign(host, 100)} is unreachable`,
				description: text`The n8n server has no network route to the platform. Check its network, proxy and firewall. (${foreign(code, 60)})`,
			};
		case 'EPROTO':
		case 'ERR_SSL_WRONG_VERSION_NUMBER':
		case 'ERR_SSL_PACKET_LENGTH_TOO_LONG':
		case 'ERR_SSL_HTTP_REQUEST':
			return {
				message: text`Could not start a secure connection to ${foreign(host, 100)}: it does not speak https on that port`,
				description: text`The port answers plain http or another protocol, not TLS. Check the scheme and port of the Base URL in the credential (https:// with the platform's https port, usually none or 443). (${foreign(code, 60)})`,
			};
		case 'HPE_INVALID_CONSTANT':
		case 'HPE_INVALID_HEADER_TOKEN':
		case 'HPE_INVALID_VERSION':
			return {
				message: text`${foreign(host, 100)} did not answer with HTTP`,
				description: text`Something answers at that address, but not an HTTP server (e.g. https to a plain port of another service). Check the scheme and port of the Base URL in the credential. (${foreign(code, 60)})`,
			};
		case 'ERR_SOCKET_BAD_PORT':
			return {
				message: text`The port of ${foreign(host, 100)} is not usable`,
				description: own('A port must be a number from 1 to 65535. Check the Base URL in the credential; most APIs need no port at all.'),
			};
		case 'ERR_CANCELED':
			return {
				message: own('The request was cancelled'),
				description: own('The workflow execution was stopped while the platform was answering.'),
			};
		default:
			if (code !== undefined && isTlsErrorCode(code)) {
				return {
					message: text`The TLS certificate of ${foreign(host, 100)} was not accepted`,
					description: text`The https connection could not be verified (${foreign(code, 60)}): the certificate is self-signed, expired, or issued for another host. Check the Base URL uses the platform's official address; the API key is never sent over an unverified connection.`,
				};
			}
			return genericFailure(code, context);
	}
}

function genericFailure(code: string | undefined, context: { host: string; detail?: string }): ErrorText {
	return {
		message: text`The request to ${foreign(context.host, 100)} failed${code ? text` (${foreign(code, 60)})` : own('')}`,
		description: text`${context.detail ? text`${foreign(context.detail)}. ` : own('')}Check the Base URL in the credential and the n8n server's network. ${RETRY_HINT}`,
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

/**
 * Which time limit ended a request, in words: the Timeout (one request: connecting, waiting, reading its
 * answer), the Listing Time Limit (the whole listing), or the poll's budget; each says what to raise.
 */
export function describeDeadline(context: {
	bound: 'request' | 'listing';
	limits: Pick<RequestLimits, 'timeoutMs' | 'listingTimeMs' | 'pollBudget'>;
	pagesRead: number;
	host: string;
	action: Text;
}): ErrorText {
	const { bound, limits, pagesRead, action } = context;
	const host = foreign(context.host, 100);
	const pages = pagesRead === 0 ? own('on the first page') : text`on page ${pagesRead + 1}, after ${pagesRead} page(s)`;
	if (bound === 'request') {
		const timeout = formatDuration(limits.timeoutMs);
		return {
			message: text`The platform did not answer within ${timeout}`,
			description: text`The node stopped waiting for ${host} to ${action} after ${timeout} for one request (${pages}). Raise "Timeout" under Options (the time for each request: connecting, waiting and reading its answer) if the platform is slow, or ${RETRY_HINT_LOWER}`,
		};
	}
	const used = formatDuration(limits.listingTimeMs);
	if (limits.pollBudget !== undefined) {
		// n8n abandons a poll at its budget; raising a limit of the node cannot help here, so say whose limit it was.
		const budget = formatDuration(limits.pollBudget.budgetMs);
		const after = text`so the node stopped waiting for ${host} to ${action} after ${used} (${pages}), before the poll would be abandoned. Raising "Timeout" or "Listing Time Limit" does not help; the next poll tries again. If this repeats, the platform is too slow for a poll`;
		return limits.pollBudget.fromN8n
			? {
					message: text`The platform did not answer within n8n's poll budget (${used} of ${budget} used)`,
					description: text`n8n gives each trigger poll ${budget}, ${after}: check it, or ask the n8n administrator about the poll budget.`,
				}
			: {
					message: text`The platform did not answer within the time for one poll (${used} of ${budget} used)`,
					description: text`This n8n sets no time for a poll; the trigger keeps to the ${budget} n8n 2.x gives one, ${after}: check it, or poll less often.`,
				};
	}
	return {
		message: text`The listing did not finish within the Listing Time Limit (${used})`,
		description: text`The node stopped waiting for ${host} to ${action} after ${used} (${pages}). Raise "Listing Time Limit" under Options (the time for the whole listing: every page, retry and wait) if the account is this large or the network this slow, or ${RETRY_HINT_LOWER}`,
	};
}

/** The cap counts every page of one listing together: `pagesRead` whole pages (`bytesRead`) came before the one cut off. */
export function describeBodyTooLarge(context: { maxBytes: number; action: Text; bytesRead?: number; pagesRead?: number }): ErrorText {
	const cap = formatBytes(context.maxBytes);
	const pagesRead = context.pagesRead ?? 0;
	const raise = own(
		'If your account really has that much data, raise "Max Response Size" under Options (it counts all pages of a listing together)',
	);
	if (pagesRead === 0) {
		return {
			message: text`The answer is larger than the Max Response Size of ${cap}`,
			description: text`The node stopped reading the answer (to ${context.action}) after ${cap}, to protect n8n's memory. ${raise}; an endless answer means a proxy or a faulty platform.`,
		};
	}
	return {
		message: text`The listing is larger than the Max Response Size of ${cap} (all pages together)`,
		description: text`The node read ${pagesRead} page(s) whole (${formatBytes(context.bytesRead ?? 0)}) and stopped partway through page ${pagesRead + 1}, when the listing (to ${context.action}) reached ${cap}, to protect n8n's memory. ${raise}; pages that never end mean a proxy or a faulty platform.`,
	};
}

export function describeUndecodableEncoding(context: { encoding: string | undefined; host: string; detail?: string }): ErrorText {
	const named = context.encoding ? text`"${foreign(context.encoding, 60)}"` : own('it claims');
	return {
		message: text`The answer from ${foreign(context.host, 100)} could not be decompressed`,
		description: text`The platform said the body is compressed as ${named}, but it is not valid ${context.encoding === undefined ? own('compressed data') : foreign(context.encoding, 60)}${context.detail ? text` (${foreign(context.detail)})` : own('')}. This is a fault of the platform or a proxy in between; report it to the provider, or try again later.`,
	};
}

export function describeUndecodableText(context: { charset: string; known: boolean; contentType: string | undefined }): ErrorText {
	return context.known
		? {
				message: text`The answer is not valid ${foreign(context.charset, 60)} text`,
				description: text`The platform declared content type "${foreign(context.contentType ?? '')}", but the body contains bytes that are not valid ${foreign(context.charset, 60)}. This is a fault of the platform or a proxy in between; report it to the provider.`,
			}
		: {
				message: text`The answer uses a character set the node cannot read ("${foreign(context.charset, 60)}")`,
				description: own(
					"JSON is sent as UTF-8 (also accepted: UTF-16 and the charsets n8n's Node.js can decode). Ask the provider to send UTF-8, or check that the Base URL points at the API and not a proxy.",
				),
			};
}

export function describeUnusableBody(
	kind: 'empty' | 'html' | 'not-json',
	context: { contentType: string | undefined; length: number; status: number },
): ErrorText {
	const received = text`content type ${context.contentType ? text`"${foreign(context.contentType)}"` : own('not given')}, ${context.length} byte(s)`;
	const fix = own(
		'This is usually a wrong Base URL (a website or login page instead of the API) or a proxy answering in place of the platform. Check the Base URL in the credential.',
	);
	switch (kind) {
		case 'empty':
			return {
				message: text`The platform answered HTTP ${context.status} with an empty body instead of JSON`,
				description: text`Received ${received}. ${fix}`,
			};
		case 'html':
			return { message: own('The platform answered with an HTML page instead of JSON'), description: text`Received ${received}. ${fix}` };
		default:
			return {
				message: own('The platform answered with text that is not valid JSON'),
				description: text`Received ${received}; it may be cut off. ${fix}`,
			};
	}
}
