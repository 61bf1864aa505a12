/**
 * Pure mapping from what went wrong to what a user reads: `message` says what happened,
 * `description` says how to fix it. Kept free of n8n types so every case is unit-testable.
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
		readonly description: string,
	) {
		super(message);
		this.name = new.target.name;
	}
}

const RETRY_HINT = 'Try again later, or turn on "Retry On Fail" in the node settings (with a wait of a few seconds).';

export function describeHttpStatus(
	status: number,
	context: { url: string; retryAfter?: string; serverMessage?: string },
): ErrorText {
	const said = context.serverMessage ? ` The platform said: "${context.serverMessage}".` : '';
	const withSaid = (text: ErrorText): ErrorText => ({ ...text, description: text.description + said });
	const checkBaseUrl = `Check the Base URL in the Service Platform API credential: it must be the API's base address as the platform gives it (e.g. https://api.example.com); the node requested ${context.url}.`;
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
				message: 'The API key is not allowed to list services (HTTP 403)',
				description:
					"The platform accepted the key but refused access. Check the key's permissions in the account panel, or generate a key for the account that owns the services.",
			});
		case 404:
			return withSaid({ message: 'The services endpoint was not found (HTTP 404)', description: checkBaseUrl });
		case 405:
			return withSaid({ message: 'The address does not allow listing services (HTTP 405)', description: checkBaseUrl });
		case 408:
			return withSaid({ message: 'The platform gave up waiting for the request (HTTP 408)', description: RETRY_HINT });
		case 410:
			return withSaid({
				message: 'The platform says API version v2026 is gone (HTTP 410)',
				description:
					'The platform may have retired this API version. Check the provider\'s announcements and update this community node.',
			});
		case 429: {
			const wait = describeRetryAfter(context.retryAfter);
			return withSaid({
				message: `The platform is rate limiting requests (HTTP 429)${wait ? `; it asks to wait ${wait}` : ''}`,
				description:
					(wait ? `Wait ${wait} before running again. ` : 'Wait a little before running again. ') +
					'Run the workflow less often, or turn on "Retry On Fail" in the node settings with a wait longer than the one asked for.',
			});
		}
		case 500:
			return withSaid({ message: 'The platform had an internal error (HTTP 500)', description: RETRY_HINT });
		case 502:
			return withSaid({ message: 'The platform\'s gateway got a bad answer (HTTP 502)', description: RETRY_HINT });
		case 503: {
			const wait = describeRetryAfter(context.retryAfter);
			return withSaid({
				message: `The platform is unavailable (HTTP 503)${wait ? `; it asks to wait ${wait}` : ''}`,
				description: RETRY_HINT,
			});
		}
		case 504:
			return withSaid({ message: 'The platform\'s gateway timed out (HTTP 504)', description: RETRY_HINT });
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
				description: `Listing services should answer HTTP 200 with JSON. ${checkBaseUrl}`,
			});
	}
}

/** `Retry-After` is either seconds or an HTTP date (RFC 9110); returns a readable wait, or undefined. */
export function describeRetryAfter(value: string | undefined, now = Date.now()): string | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const trimmed = value.trim();
	if (/^\d+$/.test(trimmed)) return `${Number(trimmed)} second(s)`;
	const date = Date.parse(trimmed);
	if (Number.isNaN(date)) return undefined;
	const seconds = Math.max(0, Math.ceil((date - now) / 1000));
	return `${seconds} second(s) (until ${new Date(date).toISOString()})`;
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
	if (ms < 1000) return `${ms} ms`;
	const seconds = ms / 1000;
	return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** Last line of defence: whatever a server echoes, the key never reaches a message. */
export function redactSecret<T extends ErrorText>(text: T, secret: string | undefined): T {
	if (!secret || secret.length < 4) return text;
	const scrub = (value: string) => value.split(secret).join('[redacted]');
	return { ...text, message: scrub(text.message), description: scrub(text.description) };
}
