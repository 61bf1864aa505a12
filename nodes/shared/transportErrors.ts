import type { ErrorText } from './errors';
import { formatBytes, formatDuration, RETRY_HINT } from './errors';

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

/** The Timeout covers the whole session: connect, headers, every body, retry wait and page. */
export function describeDeadline(context: { timeoutMs: number; pollBudgetMs?: number; host: string; action: string }): ErrorText {
	const timeout = formatDuration(context.timeoutMs);
	if (context.pollBudgetMs !== undefined) {
		// n8n abandons a poll at its budget; raising Timeout cannot help here, so say whose limit it was.
		return {
			message: `The platform did not answer within n8n's poll budget (${timeout} of ${formatDuration(context.pollBudgetMs)} used)`,
			description: `n8n gives each trigger poll ${formatDuration(context.pollBudgetMs)}, shorter than the node's Timeout, so the node stopped waiting for ${context.host} to ${context.action} after ${timeout}, before n8n abandons the poll. Raising "Timeout" does not help; the next poll tries again. If this repeats, the platform is too slow for a poll: check it, or ask the n8n administrator about the poll budget.`,
		};
	}
	return {
		message: `The platform did not answer within ${timeout}`,
		description: `The node stopped waiting for ${context.host} to ${context.action} after ${timeout} in total (connecting, waiting and reading the answer). Raise "Timeout" under Options if the platform is slow, or ${RETRY_HINT.charAt(0).toLowerCase()}${RETRY_HINT.slice(1)}`,
	};
}

/** The cap counts every page of one listing together: `pagesRead` whole pages (`bytesRead`) came before the one cut off. */
export function describeBodyTooLarge(context: { maxBytes: number; action: string; bytesRead?: number; pagesRead?: number }): ErrorText {
	const cap = formatBytes(context.maxBytes);
	const pagesRead = context.pagesRead ?? 0;
	const raise = 'If your account really has that much data, raise "Max Response Size" under Options (it counts all pages of a listing together)';
	if (pagesRead === 0) {
		return {
			message: `The answer is larger than the Max Response Size of ${cap}`,
			description: `The node stopped reading the answer (to ${context.action}) after ${cap}, to protect n8n's memory. ${raise}; an endless answer means a proxy or a faulty platform.`,
		};
	}
	return {
		message: `The listing is larger than the Max Response Size of ${cap} (all pages together)`,
		description: `The node read ${pagesRead} page(s) whole (${formatBytes(context.bytesRead ?? 0)}) and stopped partway through page ${pagesRead + 1}, when the listing (to ${context.action}) reached ${cap}, to protect n8n's memory. ${raise}; pages that never end mean a proxy or a faulty platform.`,
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
