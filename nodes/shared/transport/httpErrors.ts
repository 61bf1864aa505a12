import type { RequestLimits } from './types';
import type { ErrorText } from '../errors/errors';
import type { Text } from '../text/text';
import { EXCERPT_MAX, foreign, formatDuration, own, text } from '../text/text';
import type { QuotedUrl } from './quotedUrl';
import { describeRetryAfter } from './retry';

/** Texts for what the platform answered over HTTP: statuses, Retry-After, retries, redirects, its own message. */

export const RETRY_HINT = own('Try again later, or turn on "Retry On Fail" in the node settings (with a wait of a few seconds).');
/** RETRY_HINT inside a sentence. */
export const RETRY_HINT_LOWER = own('try again later, or turn on "Retry On Fail" in the node settings (with a wait of a few seconds).');

export function describeHttpStatus(
	status: number,
	context: { url: QuotedUrl; action: Text; retryAfter?: string; serverMessage?: string; now?: number },
): ErrorText {
	const { action } = context;
	const said = context.serverMessage ? text` The platform said: "${foreign(context.serverMessage, EXCERPT_MAX)}".` : own('');
	const withSaid = (value: { message: Text; description: Text }): ErrorText => ({
		...value,
		description: text`${value.description}${said}`,
	});
	const checkBaseUrl = text`Check the Base URL in the Service Platform API credential: it must be the API's base address as the platform gives it (e.g. https://api.example.com); the node requested ${context.url}.`;
	const wait = describeRetryAfter(context.retryAfter, context.now);
	const asksToWait = wait ? text`; it asks to wait ${wait}` : own('');
	switch (status) {
		case 400:
			return withSaid({ message: own('The platform rejected the request as invalid (HTTP 400)'), description: checkBaseUrl });
		case 401:
			return withSaid({
				message: own('The platform rejected the API key (HTTP 401)'),
				description: own(
					'The key is wrong, expired or revoked. Generate a new API key in the account panel of the platform and paste it into the Service Platform API credential (without spaces or the word "Bearer").',
				),
			});
		case 403:
			return withSaid({
				message: text`The API key is not allowed to ${action} (HTTP 403)`,
				description: own(
					"The platform accepted the key but refused access. Check the key's permissions in the account panel, or generate a key for the account that owns the data.",
				),
			});
		case 404:
			return withSaid({ message: text`The platform found nothing at the address used to ${action} (HTTP 404)`, description: checkBaseUrl });
		case 405:
			return withSaid({ message: text`The address does not allow the request to ${action} (HTTP 405)`, description: checkBaseUrl });
		case 408:
			return withSaid({ message: own('The platform gave up waiting for the request (HTTP 408)'), description: RETRY_HINT });
		case 410:
			return withSaid({
				message: text`The platform says the address used to ${action} is gone (HTTP 410)`,
				description: text`The platform may have retired this API version (the node requested ${context.url}). Check the provider's announcements and update this community node.`,
			});
		case 429:
			return withSaid({
				message: text`The platform is rate limiting requests (HTTP 429)${asksToWait}`,
				description: text`${wait ? text`Wait ${wait} before running again. ` : own('Wait a little before running again. ')}Run the workflow less often, or turn on "Retry On Fail" in the node settings with a wait longer than the one asked for.`,
			});
		case 500:
			return withSaid({ message: own('The platform had an internal error (HTTP 500)'), description: RETRY_HINT });
		case 502:
			return withSaid({ message: own("The platform's gateway got a bad answer (HTTP 502)"), description: RETRY_HINT });
		case 503:
			return withSaid({ message: text`The platform is unavailable (HTTP 503)${asksToWait}`, description: RETRY_HINT });
		case 504:
			return withSaid({ message: own("The platform's gateway timed out (HTTP 504)"), description: RETRY_HINT });
		default:
			if (status >= 500) {
				return withSaid({ message: text`The platform failed with HTTP ${status}`, description: RETRY_HINT });
			}
			if (status >= 400) {
				return withSaid({
					message: text`The platform refused the request (HTTP ${status})`,
					description: text`The API documentation does not describe this answer. ${checkBaseUrl}`,
				});
			}
			return withSaid({
				message: text`The platform answered with an unexpected HTTP ${status}`,
				description: text`To ${action}, the platform should answer HTTP 200 with JSON. ${checkBaseUrl}`,
			});
	}
}

export function describeRetriesExhausted(context: { retries: number; waitedMs: number }): Text {
	return text` The node retried ${context.retries} time${context.retries === 1 ? own('') : own('s')} over ${formatDuration(context.waitedMs)}.`;
}

/** The session's retries (all pages of one listing together) are used up; the platform still answers `status`. */
export function describeRetryBudgetSpent(context: {
	status: number;
	retries: number;
	maxPerRequest: number;
	maxPerListing: number;
	pagesRead: number;
	elapsedMs: number;
	action: Text;
	serverMessage?: string;
}): ErrorText {
	const said = context.serverMessage ? text` The platform said: "${foreign(context.serverMessage, EXCERPT_MAX)}".` : own('');
	return {
		message: text`The platform kept answering HTTP ${context.status}: the node used up its ${context.maxPerListing} retries for one listing`,
		description: text`While trying to ${context.action}, the node retried ${context.retries} times in ${formatDuration(context.elapsedMs)} and read ${context.pagesRead} page(s); it retries at most ${context.maxPerRequest} times a page and ${context.maxPerListing} times a listing, so a platform that rate limits every page cannot hold the run.${said} This bound is fixed: wait and run again, run the workflow less often, or ask the provider for a higher rate limit. "Retry On Fail" in the node settings (with a wait of a minute or more) runs the whole item again.`,
	};
}

/** A wait the node does not make: longer than the Timeout (a retry's most), or than what is left of the listing's time. */
export function describeRetryTooLong(context: {
	status: number;
	waitMs: number;
	remainingMs: number;
	limits: Pick<RequestLimits, 'timeoutMs' | 'listingTimeMs' | 'pollBudget'>;
}): ErrorText {
	const { limits } = context;
	const asked = text`The platform asks to wait ${formatDuration(context.waitMs)} (HTTP ${context.status})`;
	const later = own('Run the workflow later, run it less often, or');
	if (context.waitMs > limits.timeoutMs) {
		return {
			message: text`${asked}, longer than a retry may wait (the Timeout, ${formatDuration(limits.timeoutMs)})`,
			description: text`A retry waits at most the Timeout (${formatDuration(limits.timeoutMs)}), so the node did not wait. ${later} raise "Timeout" under Options above the wait the platform asks for.`,
		};
	}
	const left = formatDuration(Math.max(0, context.remainingMs));
	const description =
		limits.pollBudget === undefined
			? text`Only ${left} of the Listing Time Limit (${formatDuration(limits.listingTimeMs)}) were left, so the node did not wait. ${later} raise "Listing Time Limit" under Options.`
			: text`Only ${left} of the time for this poll (${formatDuration(limits.listingTimeMs)}, within the poll's budget of ${formatDuration(limits.pollBudget.budgetMs)}) were left, so the node did not wait. The next poll tries again; if this repeats, set the trigger's Poll Times further apart.`;
	return { message: text`${asked}, longer than the time left`, description };
}

/** A redirect the node does not follow; `location` as the server sent it (foreign: quoted redacted, then bounded). */
export function describeRedirect(status: number, from: QuotedUrl, location: string | undefined): ErrorText {
	if (!location) {
		return {
			message: text`The platform answered with a redirect (HTTP ${status}) without a target`,
			description: text`Check the Base URL in the credential; the node requested ${from}.`,
		};
	}
	return {
		message: text`The platform redirected to another address (${foreign(location, 120)}); the node does not follow it`,
		description: own(
			'The API key is only sent to the address in the credential. If the new address is the official one, put it as the Base URL in the Service Platform API credential (https only).',
		),
	};
}

/** A same-origin Location with "user:password@": never followed, and never quoted (it holds a password). */
export function describeRedirectWithUserInfo(status: number, from: QuotedUrl): ErrorText {
	return {
		message: text`The platform redirected to an address with a user name or password (HTTP ${status}); the node does not follow it`,
		description: text`The API key is the only credential the node sends. Check the Base URL in the credential; the node requested ${from}.`,
	};
}

export function describeRedirectLoop(status: number, from: QuotedUrl, max: number): ErrorText {
	return {
		message: text`The platform redirected more than ${max} times`,
		description: text`The answers kept redirecting within the same address (last: HTTP ${status} from ${from}). Check the Base URL in the credential: it must be the API's base address, not a page that forwards.`,
	};
}

export function describeCrossOrigin(context: { target: string; baseUrl: string; action: Text }): ErrorText {
	return {
		message: text`The platform pointed to another address (${foreign(context.target, 120)}); the node does not follow it`,
		description: text`While trying to ${context.action}, the answer named an address outside ${foreign(new URL(context.baseUrl).origin)}. The API key is only sent to the address in the credential. If the new address is the official one, put it as the Base URL in the Service Platform API credential (https only).`,
	};
}
