import { clip, isJsonObject } from './json';
import type { Redact } from './redact';
import type { ErrorText } from './errors';
import { formatDuration, RETRY_HINT } from './errors';
import { describeRetryAfter } from './retryAfter';

/** Texts for what the platform answered over HTTP: statuses, Retry-After, retries, redirects, its own message. */

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

export function describeRetriesExhausted(context: { retries: number; waitedMs: number }): string {
	return ` The node retried ${context.retries} time${context.retries === 1 ? '' : 's'} over ${formatDuration(context.waitedMs)}.`;
}

/** The session's retries (all pages of one listing together) are used up; the platform still answers `status`. */
export function describeRetryBudgetSpent(context: {
	status: number;
	retries: number;
	maxPerRequest: number;
	maxPerListing: number;
	pagesRead: number;
	elapsedMs: number;
	action: string;
	serverMessage?: string;
}): ErrorText {
	const said = context.serverMessage ? ` The platform said: "${context.serverMessage}".` : '';
	return {
		message: `The platform kept answering HTTP ${context.status}: the node used up its ${context.maxPerListing} retries for one listing`,
		description:
			`While trying to ${context.action}, the node retried ${context.retries} times in ${formatDuration(context.elapsedMs)} and read ${context.pagesRead} page(s); ` +
			`it retries at most ${context.maxPerRequest} times a page and ${context.maxPerListing} times a listing, so a platform that rate limits every page cannot hold the run.${said} ` +
			'This bound is fixed: wait and run again, run the workflow less often, or ask the provider for a higher rate limit. ' +
			'"Retry On Fail" in the node settings (with a wait of a minute or more) runs the whole item again.',
	};
}

export function describeRetryTooLong(context: { status: number; waitMs: number; remainingMs: number; timeoutMs: number }): ErrorText {
	return {
		message: `The platform asks to wait ${formatDuration(context.waitMs)} (HTTP ${context.status}), longer than the time left`,
		description: `Only ${formatDuration(Math.max(0, context.remainingMs))} of the Timeout (${formatDuration(context.timeoutMs)}) were left, so the node did not wait. Run the workflow later, run it less often, or raise "Timeout" under Options above the wait the platform asks for.`,
	};
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

/** A same-origin Location with "user:password@": never followed, and never quoted (it holds a password). */
export function describeRedirectWithUserInfo(status: number, from: string): ErrorText {
	return {
		message: `The platform redirected to an address with a user name or password (HTTP ${status}); the node does not follow it`,
		description: `The API key is the only credential the node sends. Check the Base URL in the credential; the node requested ${from}.`,
	};
}

export function describeRedirectLoop(status: number, from: string, max: number): ErrorText {
	return {
		message: `The platform redirected more than ${max} times`,
		description: `The answers kept redirecting within the same address (last: HTTP ${status} from ${from}). Check the Base URL in the credential: it must be the API's base address, not a page that forwards.`,
	};
}

export function describeCrossOrigin(context: { target: string; baseUrl: string; action: string }): ErrorText {
	return {
		message: `The platform pointed to another address (${context.target}); the node does not follow it`,
		description: `While trying to ${context.action}, the answer named an address outside ${new URL(context.baseUrl).origin}. The API key is only sent to the address in the credential. If the new address is the official one, put it as the Base URL in the Service Platform API credential (https only).`,
	};
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
