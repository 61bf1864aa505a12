/**
 * Retry-After takes only the forms HTTP defines (RFC 9110 §10.2.3, §5.6.7): delta-seconds and the
 * three HTTP-date forms, matched exactly and checked for range. Everything else is ignored, whatever
 * Date.parse would make of it. Examples, then properties over generated dates and near-misses.
 */
import { shown } from '../harness/text';
import fc from 'fast-check';

import { describeRetryAfter, MAX_RETRY_AFTER_MS, parseRetryAfter, readRetryAfter } from '../../nodes/shared/transport/retry';

const now = Date.parse('2026-11-21T10:00:00Z');

describe('the forms HTTP defines', () => {
	test.each([
		['5', 5000],
		[' 30 ', 30_000],
		['0', 0],
		['99999999999999999999', MAX_RETRY_AFTER_MS],
		['Sat, 21 Nov 2026 10:00:30 GMT', 30_000], // IMF-fixdate
		['Saturday, 21-Nov-26 10:00:30 GMT', 30_000], // RFC 850
		['Sat Nov 21 10:00:30 2026', 30_000], // asctime
		['Sun Nov  6 08:49:37 1994', 0], // asctime, one-digit day after two spaces; past: no wait
		['Sunday, 06-Nov-94 08:49:37 GMT', 0], // 2094 is more than 50 years ahead: 1994
		['Sat, 21 Nov 2026 10:00:60 GMT', 60_000], // a leap second
		['Wed, 21 Oct 2015 07:28:00 GMT', 0],
		['Fri, 31 Dec 9999 23:59:59 GMT', MAX_RETRY_AFTER_MS],
	])('%p -> %p ms', (value, expected) => {
		expect(parseRetryAfter(value, now)).toBe(expected);
	});

	test('the two-digit year of RFC 850 is at most 50 years ahead', () => {
		expect(readRetryAfter('Monday, 01-Jan-76 00:00:00 GMT', now)).toEqual({ at: Date.parse('2076-01-01T00:00:00Z') });
		expect(readRetryAfter('Monday, 01-Jan-77 00:00:00 GMT', now)).toEqual({ at: Date.parse('1977-01-01T00:00:00Z') });
	});
});

describe('anything else is nonsense, ignored', () => {
	test.each([
		'later 3000', // Date.parse: the year 3000
		'-5',
		'1.5',
		'1e23',
		'0x10',
		'+5',
		'1, 2',
		'soon',
		'',
		'2026-11-21T10:00:30Z', // ISO 8601 is not an HTTP-date
		'Sat, 21 Nov 2026 10:00:30 UTC',
		'Sat, 21 Nov 2026 10:00:30',
		'sat, 21 nov 2026 10:00:30 gmt', // HTTP-date is case-sensitive
		'Sat, 1 Nov 2026 10:00:30 GMT',
		'Sat, 31 Feb 2026 10:00:30 GMT',
		'Sat, 00 Nov 2026 10:00:30 GMT',
		'Sat, 21 Nov 2026 24:00:00 GMT',
		'Sat, 21 Nov 2026 10:60:00 GMT',
		'Sat, 21 Nov 2026 10:00:61 GMT',
		'Mon, 99 Foo 2026 99:99:99 GMT',
		'Sat, 21-Nov-26 10:00:30 GMT', // RFC 850 wants the full day name
		'Sat Nov 21 10:00:30 26',
		'Sat, 21 Nov 2026 10:00:30 GMT trailing',
	])('%p', (value) => {
		expect(readRetryAfter(value, now)).toBeUndefined();
		expect(parseRetryAfter(value, now)).toBeUndefined();
		expect(describeRetryAfter(value, now)).toBeUndefined();
	});
});

describe('shown sensibly', () => {
	test.each([
		['5', '5 s'],
		['600', '10 min'],
		['Sat, 21 Nov 2026 10:01:30 GMT', '90 s (until 2026-11-21T10:01:30.000Z)'],
		['Sat Nov 21 12:00:00 2026', '2 h (until 2026-11-21T12:00:00.000Z)'],
		['99999999999999999999', '24 h or more'],
		[' 0 ', undefined],
		['Wed, 21 Oct 2015 07:28:00 GMT', undefined],
		[undefined, undefined],
	])('%p -> %p', (value, expected) => {
		expect(shown(describeRetryAfter(value, now))).toBe(expected);
	});
});

describe('properties', () => {
	const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
	const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
	const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
	const pad = (n: number, width = 2) => String(n).padStart(width, '0');
	const moment = fc
		.integer({ min: Date.parse('1900-01-01T00:00:00Z'), max: Date.parse('9999-12-31T23:59:59Z') })
		.map((ms) => ms - (ms % 1000));

	test('every moment written in each of the three forms reads back as itself', () => {
		fc.assert(
			fc.property(moment, (ms) => {
				const d = new Date(ms);
				const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
				const [day, month, year] = [d.getUTCDate(), MONTHS[d.getUTCMonth()], d.getUTCFullYear()];
				expect(readRetryAfter(d.toUTCString(), now)).toEqual({ at: ms }); // toUTCString is IMF-fixdate
				expect(readRetryAfter(`${DAYS[d.getUTCDay()]} ${month} ${String(day).padStart(2, ' ')} ${time} ${year}`, now)).toEqual({ at: ms });
				const rfc850 = readRetryAfter(`${LONG_DAYS[d.getUTCDay()]}, ${pad(day)}-${month}-${pad(year % 100)} ${time} GMT`, now);
				const sameYearEnding = new Date((rfc850 as { at: number }).at);
				expect(sameYearEnding.getUTCFullYear() % 100).toBe(year % 100);
				expect(sameYearEnding.getUTCFullYear()).toBeLessThanOrEqual(2026 + 50);
			}),
			{ numRuns: 500 },
		);
	});

	test('any other text is either ignored or read as one of the forms, never as Date.parse reads it', () => {
		const httpDate =
			/^(\d+|[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/;
		const nearMiss = fc.oneof(
			fc.string({ maxLength: 40 }),
			fc.tuple(moment, fc.string({ maxLength: 3 }), fc.nat(30)).map(([ms, noise, at]) => {
				const written = new Date(ms).toUTCString();
				return written.slice(0, at) + noise + written.slice(at);
			}),
		);
		fc.assert(
			fc.property(nearMiss, (value) => {
				const ms = parseRetryAfter(value, now);
				if (ms !== undefined) expect(value.trim()).toMatch(httpDate);
				else expect(describeRetryAfter(value, now)).toBeUndefined();
			}),
			{ numRuns: 2000 },
		);
	});
});
