import { NodeOperationError } from 'n8n-workflow';

import { foreign, own, text } from '../../nodes/shared/text/text';
import { DescribedError, toNodeError } from '../../nodes/shared/errors/errors';
import { formatDuration } from '../../nodes/shared/text/text';
import { shown, shownText } from '../harness/text';
import { describeHttpStatus, describeRedirect, describeRetryTooLong } from '../../nodes/shared/transport/httpErrors';
import { foreignUrl } from '../../nodes/shared/transport/quotedUrl';
import { describeRetryAfter, parseRetryAfter } from '../../nodes/shared/transport/retry';
import {
	describeDeadline,
	describeTransportFailure,
	describeUnusableBody,
	isTlsErrorCode,
} from '../../nodes/shared/transport/transportErrors';
import { makeRedactor } from '../../nodes/shared/redaction/redact';

const url = foreignUrl('https://api.example.com/v2026/services').quoted;
const action = own('list services');

describe('describeHttpStatus', () => {
	test.each([
		[400, 'The platform rejected the request as invalid (HTTP 400)', /Check the Base URL/],
		[401, 'The platform rejected the API key (HTTP 401)', /Generate a new API key in the account panel/],
		[403, 'The API key is not allowed to list services (HTTP 403)', /permissions in the account panel/],
		[
			404,
			'The platform found nothing at the address used to list services (HTTP 404)',
			/Check the Base URL.*requested https:\/\/api\.example\.com\/v2026\/services/,
		],
		[405, 'The address does not allow the request to list services (HTTP 405)', /Check the Base URL/],
		[408, 'The platform gave up waiting for the request (HTTP 408)', /Retry On Fail/],
		[409, 'The platform refused the request (HTTP 409)', /does not describe this answer/],
		[410, 'The platform says the address used to list services is gone (HTTP 410)', /update this community node/],
		[422, 'The platform refused the request (HTTP 422)', /Check the Base URL/],
		[429, 'The platform is rate limiting requests (HTTP 429)', /Wait a little before running again/],
		[500, 'The platform had an internal error (HTTP 500)', /Try again later/],
		[502, "The platform's gateway got a bad answer (HTTP 502)", /Try again later/],
		[503, 'The platform is unavailable (HTTP 503)', /Retry On Fail/],
		[504, "The platform's gateway timed out (HTTP 504)", /Try again later/],
		[599, 'The platform failed with HTTP 599', /Try again later/],
		[302, 'The platform answered with an unexpected HTTP 302', /To list services, the platform should answer HTTP 200/],
	])('%i', (status, message, description) => {
		const text = shownText(describeHttpStatus(status, { url, action }));
		expect(text.message).toBe(message);
		expect(text.description).toMatch(description);
	});

	test('429 and 503 pass on Retry-After', () => {
		expect(shownText(describeHttpStatus(429, { url, action, retryAfter: '30' }))).toEqual({
			message: 'The platform is rate limiting requests (HTTP 429); it asks to wait 30 s',
			description: expect.stringMatching(/^Wait 30 s before running again\./),
		});
		expect(shownText(describeHttpStatus(503, { url, action, retryAfter: '120' })).message).toBe(
			'The platform is unavailable (HTTP 503); it asks to wait 120 s',
		);
	});

	test("quotes the platform's own message when it sent one", () => {
		expect(shownText(describeHttpStatus(401, { url, action, serverMessage: 'Token revoked' })).description).toMatch(
			/The platform said: "Token revoked"\.$/,
		);
	});
});

describe('describeRetryAfter', () => {
	test('seconds, HTTP dates, garbage', () => {
		expect(shown(describeRetryAfter('5'))).toBe('5 s');
		expect(describeRetryAfter(' 0 ')).toBeUndefined(); // no wait asked: nothing to say
		expect(shown(describeRetryAfter('600'))).toBe('10 min');
		const now = Date.parse('2026-11-21T10:00:00Z');
		expect(shown(describeRetryAfter('Sat, 21 Nov 2026 10:01:30 GMT', now))).toBe('90 s (until 2026-11-21T10:01:30.000Z)');
		expect(describeRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', now)).toBeUndefined(); // already past: no wait asked
		expect(describeRetryAfter('soon')).toBeUndefined();
		expect(describeRetryAfter(undefined)).toBeUndefined();
		expect(describeRetryAfter('')).toBeUndefined();
	});
});

describe('describeTransportFailure', () => {
	const context = { host: 'api.example.com', timeoutMs: 30000 };
	test.each([
		['ECONNREFUSED', 'Could not connect to api.example.com: the connection was refused', /Check the Base URL \(host and port\)/],
		['ENOTFOUND', 'Could not find the host api.example.com', /Check the spelling of the Base URL/],
		['EAI_AGAIN', 'Could not find the host api.example.com', /DNS/],
		['ECONNRESET', 'The connection to api.example.com was closed before the answer was complete', /Retry On Fail/],
		['ETIMEDOUT', 'The platform did not answer within 30 s', /stopped after waiting 30 s\. Raise "Timeout" under Options/],
		['ECONNABORTED', 'The platform did not answer within 30 s', /Raise "Timeout"/],
		['EHOSTUNREACH', 'The host api.example.com is unreachable', /network route/],
		['ERR_CANCELED', 'The request was cancelled', /execution was stopped/],
		[
			'DEPTH_ZERO_SELF_SIGNED_CERT',
			'The TLS certificate of api.example.com was not accepted',
			/self-signed, expired, or issued for another host/,
		],
		['ERR_TLS_CERT_ALTNAME_INVALID', 'The TLS certificate of api.example.com was not accepted', /never sent over an unverified connection/],
		['EWEIRD', 'The request to api.example.com failed (EWEIRD)', /Check the Base URL/],
		[undefined, 'The request to api.example.com failed', /Check the Base URL/],
	])('%s', (code, message, description) => {
		const text = shownText(describeTransportFailure(code, context));
		expect(text.message).toBe(message);
		expect(text.description).toMatch(description);
	});

	test('n8n must not replace our message with its generic one: no Node error code in messages', () => {
		for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'EHOSTUNREACH', 'EAI_AGAIN']) {
			expect(shownText(describeTransportFailure(code, context)).message).not.toContain(code);
		}
	});

	test('TLS codes', () => {
		expect(isTlsErrorCode('CERT_HAS_EXPIRED')).toBe(true);
		expect(isTlsErrorCode('ERR_SSL_WRONG_VERSION_NUMBER')).toBe(true);
		expect(isTlsErrorCode('ECONNRESET')).toBe(false);
	});
});

describe('time limits: each text names the limit that fired and what to raise (or that none helps)', () => {
	const host = '127.0.0.1:8443';
	const action = own('list services');
	const limits = { timeoutMs: 30_000, listingTimeMs: 1_800_000 };
	const inPoll = (fromN8n: boolean) => ({ timeoutMs: 30_000, listingTimeMs: 32_400, pollBudget: { budgetMs: 36_000, fromN8n } });

	test.each([
		[
			'request',
			limits,
			'The platform did not answer within 30 s',
			/for one request \(on page 4, after 3 page\(s\)\)\. Raise "Timeout" under Options/,
		],
		[
			'listing',
			limits,
			'The listing did not finish within the Listing Time Limit (30 min)',
			/after 30 min \(on page 4, after 3 page\(s\)\)\. Raise "Listing Time Limit" under Options/,
		],
		[
			'listing',
			inPoll(true),
			"The platform did not answer within n8n's poll budget (32.4 s of 36 s used)",
			/^n8n gives each trigger poll 36 s, .*Raising "Timeout" or "Listing Time Limit" does not help.*ask the n8n administrator/,
		],
		[
			'listing',
			inPoll(false),
			'The platform did not answer within the time for one poll (32.4 s of 36 s used)',
			/^This n8n sets no time for a poll; .*Raising "Timeout" or "Listing Time Limit" does not help.*poll less often\.$/,
		],
	] as const)('describeDeadline: the %s bound, %o', (bound, given, message, description) => {
		const said = shownText(describeDeadline({ bound, limits: given, pagesRead: 3, host, action }));
		expect(said.message).toBe(message);
		expect(said.description).toMatch(description);
		expect(said.description).toContain(`waiting for ${host} to list services`);
	});

	test('describeDeadline on the first page says so', () => {
		expect(shownText(describeDeadline({ bound: 'request', limits, pagesRead: 0, host, action })).description).toContain(
			'(on the first page)',
		);
	});

	test.each([
		[
			60_000,
			1_000_000,
			limits,
			/, longer than a retry may wait \(the Timeout, 30 s\)$/,
			/^A retry waits at most the Timeout \(30 s\), so the node did not wait\..*raise "Timeout" under Options above the wait/,
		],
		[
			20_000,
			5_000,
			limits,
			/, longer than the time left$/,
			/^Only 5 s of the Listing Time Limit \(30 min\) were left, so the node did not wait\..*raise "Listing Time Limit" under Options\.$/,
		],
		[
			20_000,
			5_000,
			inPoll(true),
			/, longer than the time left$/,
			/^Only 5 s of the time for this poll \(32\.4 s, within the poll's budget of 36 s\) were left.*set the trigger's Poll Times further apart\.$/,
		],
	] as const)('describeRetryTooLong: a wait of %p ms with %p ms left', (waitMs, remainingMs, given, ending, description) => {
		const said = shownText(describeRetryTooLong({ status: 429, waitMs, remainingMs, limits: given }));
		expect(said.message).toMatch(/^The platform asks to wait [\d.]+ (s|min) \(HTTP 429\), longer than /);
		expect(said.message).toMatch(ending);
		expect(said.description).toMatch(description);
	});
});

describe('other texts', () => {
	test('redirects', () => {
		expect(shownText(describeRedirect(301, url, 'https://evil.example.net/x')).message).toBe(
			'The platform redirected to another address (https://evil.example.net/x); the node does not follow it',
		);
		expect(shownText(describeRedirect(302, url, undefined)).message).toBe(
			'The platform answered with a redirect (HTTP 302) without a target',
		);
	});

	test('bodies say what came', () => {
		const context = { contentType: 'text/html; charset=utf-8', length: 1234, status: 200 };
		expect(shownText(describeUnusableBody('html', context))).toEqual({
			message: 'The platform answered with an HTML page instead of JSON',
			description: expect.stringMatching(/^Received content type "text\/html; charset=utf-8", 1234 byte\(s\)\. .*Check the Base URL/),
		});
		expect(shownText(describeUnusableBody('empty', { contentType: undefined, length: 0, status: 200 })).description).toMatch(
			/^Received content type not given, 0 byte\(s\)/,
		);
		expect(shownText(describeUnusableBody('not-json', context)).message).toBe('The platform answered with text that is not valid JSON');
	});

	test('durations', () => {
		expect(formatDuration(250)).toBe('250 ms');
		expect(formatDuration(30000)).toBe('30 s');
		expect(formatDuration(1500)).toBe('1.5 s');
	});

	test('durations past two minutes read in minutes and hours', () => {
		expect(formatDuration(600_000)).toBe('10 min');
		expect(formatDuration(86_400_000)).toBe('24 h');
	});
});

describe('Retry-After is read as RFC 9110 says, capped, and never shown as nonsense', () => {
	const now = Date.parse('2026-11-21T10:00:00Z');
	test.each([
		['5', 5000],
		['0', 0],
		['-5', undefined],
		['1e23', undefined],
		['1.5', undefined],
		['99999999999999999999', 86_400_000],
		['Sat, 21 Nov 2026 10:00:30 GMT', 30_000],
		['Wed, 21 Oct 2015 07:28:00 GMT', 0],
		['Fri, 31 Dec 9999 23:59:59 GMT', 86_400_000],
		['soon', undefined],
		['', undefined],
	])('%p -> %p ms', (value, expected) => {
		expect(parseRetryAfter(value, now)).toBe(expected);
	});
	test('shown sensibly', () => {
		expect(describeRetryAfter('-5', now)).toBeUndefined();
		expect(describeRetryAfter('1e23', now)).toBeUndefined();
		expect(shown(describeRetryAfter('99999999999999999999', now))).toBe('24 h or more');
		expect(shownText(describeHttpStatus(429, { url, action, retryAfter: '-5' })).message).toBe(
			'The platform is rate limiting requests (HTTP 429)',
		);
	});
});

describe('toNodeError: the one way our errors become n8n errors', () => {
	const node = { id: 'n', name: 'Services', type: 't', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };
	const redact = makeRedactor('sk-secret-0123456789');
	test('a DescribedError keeps its wording (even with a Node error code inside), its foreign parts redacted, and carries itemIndex', () => {
		const described = new DescribedError(
			text`Host deepermind ${foreign('sk-secret-0123456789')}`,
			text`fix ${foreign('x sk-secret-0123456789')}`,
		);
		// The Error's own message leaves the foreign part out: nothing foreign can escape through it.
		expect(described.message).toBe('Host deepermind …');
		const error = toNodeError(node, described, { itemIndex: 3, redact });
		expect(error.name).toBe('NodeOperationError');
		expect(error.message).toBe('Host deepermind [redacted]');
		expect(error.description).toBe('fix x [redacted]');
		expect(error.context.itemIndex).toBe(3);
	});
	test('the wording is never redacted, even where it reads like the key', () => {
		const error = toNodeError(node, new DescribedError(own('Check sk-secret-0123456789'), own('d')), { itemIndex: 0, redact });
		expect(error.message).toBe('Check sk-secret-0123456789');
	});
	test('with an HTTP status it is a NodeApiError with httpCode', () => {
		const error = toNodeError(node, new DescribedError(own('m'), own('d')), { itemIndex: 0, redact, httpCode: 503 });
		expect(error).toMatchObject({ name: 'NodeApiError', httpCode: '503', message: 'm', description: 'd' });
	});
	test('an n8n error from elsewhere is foreign text whole: redacted and bounded; one this function built passes as it is', () => {
		const outside = new NodeOperationError(node, `n8n says ${'x'.repeat(1000)} sk-secret-0123456789`, {
			description: 'sk-secret-0123456789',
		});
		const error = toNodeError(node, outside, { itemIndex: 2, redact });
		expect(error.message.length).toBeLessThanOrEqual(300);
		expect(error.message).toMatch(/^n8n says x+…$/);
		expect(error.description).toBe('[redacted]');
		const again = toNodeError(node, error, { itemIndex: 2, redact: (value) => `changed ${value}` });
		expect(again.message).toBe(error.message);
	});
	test('a bug (plain Error) becomes a NodeOperationError with its redacted message', () => {
		const error = toNodeError(node, new TypeError('x sk-secret-0123456789'), { itemIndex: 1, redact });
		expect(error).toMatchObject({ name: 'NodeOperationError', message: 'x [redacted]' });
	});
});
