/**
 * The transport's pure parts: option values, retry waits, the poll budget, body reading and
 * decoding. Their behaviour through n8n against real servers is in faults-hostile.test.ts.
 */
import { PassThrough } from 'node:stream';

import fc from 'fast-check';

import type { DescribedError } from '../../nodes/shared/errors/errors';
import type { ApiContext } from '../../nodes/shared/transport/types';
import { DEFAULT_LIMITS, pollTimeoutMs, readRequestLimits } from '../../nodes/shared/parameters/limits';
import { requirePositiveNumber } from '../../nodes/shared/parameters/parameters';
import {
	BodyTooLargeError,
	DeadlineReachedError,
	decodeText,
	readBody,
	UndecodableTextError,
} from '../../nodes/shared/transport/responseBody';
import { pause, retryDelayMs } from '../../nodes/shared/transport/retry';
import type { Text } from '../../nodes/shared/text/text';
import { own, render } from '../../nodes/shared/text/text';

describe('requirePositiveNumber (Timeout, Max Response Size, and Limit for the listing)', () => {
	const limit = { label: own('Limit'), example: own('50'), integer: true };
	const rendered = (run: () => unknown) => {
		try {
			run();
		} catch (error) {
			const { message, description } = (error as DescribedError).text;
			return { message: render(message as Text, (t) => t, Infinity), description: render(description as Text, (t) => t, Infinity) };
		}
		throw new Error('expected a parameter error');
	};
	test.each([
		[50, 50],
		['50', 50],
		[' 7 ', 7],
		['1e2', 100],
	])('%p is accepted as %p', (value, expected) => {
		expect(requirePositiveNumber(value, limit)).toBe(expected);
	});

	test.each([
		[0, '"Limit" must be a whole number of 1 or more, not the number 0'],
		[-3, '"Limit" must be a whole number of 1 or more, not the number -3'],
		[2.5, '"Limit" must be a whole number of 1 or more, not the number 2.5'],
		['ten', '"Limit" must be a whole number of 1 or more, not the text "ten"'],
		['', '"Limit" must be a whole number of 1 or more, not the text ""'],
		['0x10', '"Limit" must be a whole number of 1 or more, not the text "0x10"'],
		[[5], '"Limit" must be a whole number of 1 or more, not the list [5]'],
		[true, '"Limit" must be a whole number of 1 or more, not the boolean true'],
		[Number.NaN, '"Limit" must be a whole number of 1 or more, not the number NaN'],
		[Infinity, '"Limit" must be a whole number of 1 or more, not the number Infinity'],
	])('%p is refused: %s', (value, message) => {
		expect(rendered(() => requirePositiveNumber(value, limit))).toEqual({
			message,
			description: 'Enter a whole number of 1 or more in "Limit", e.g. 50. An expression may give a number or a number as text ("25").',
		});
	});

	test('null: the expression gave no value', () => {
		expect(rendered(() => requirePositiveNumber(null, limit)).message).toBe('"Limit" got no value: its expression gave null');
	});

	test('fractions are fine where integer is not asked (Max Response Size 0.5 MB)', () => {
		expect(requirePositiveNumber(0.5, { label: own('Max Response Size'), example: own('64') })).toBe(0.5);
	});
});

describe('pollTimeoutMs: the node fails with its own words before n8n abandons the poll', () => {
	test.each([
		[30_000, 0, 30_000],
		[30_000, Number.NaN, 30_000],
		[30_000, 300_000, 30_000],
		[60_000, 1_000, 900],
		[600_000, 300_000, 295_000],
		[100, 150, 100],
	])('limit %p, budget %p -> %p', (timeout, budget, expected) => {
		expect(pollTimeoutMs(timeout, budget)).toBe(expected);
	});
});

describe('retryDelayMs', () => {
	test('Retry-After wins', () => {
		expect(retryDelayMs(0, 2000)).toBe(2000);
		expect(retryDelayMs(2, 0)).toBe(0);
	});
	test('otherwise exponential backoff with jitter: 0.5-1 s, 1-2 s, 2-4 s', () => {
		expect([0, 1, 2].map((attempt) => retryDelayMs(attempt, undefined, () => 0))).toEqual([500, 1000, 2000]);
		expect([0, 1, 2].map((attempt) => retryDelayMs(attempt, undefined, () => 0.999999))).toEqual([1000, 2000, 4000]);
	});
});

describe('pause (the wait between retries)', () => {
	test('waits the time asked', async () => {
		const started = Date.now();
		expect(await pause(120)).toBe(true);
		expect(Date.now() - started).toBeGreaterThanOrEqual(100);
	});
	test('ends at once when the execution is cancelled, and says so', async () => {
		const controller = new AbortController();
		const started = Date.now();
		const waiting = pause(10_000, controller.signal);
		controller.abort();
		expect(await waiting).toBe(false);
		expect(Date.now() - started).toBeLessThan(1000);
		expect(await pause(10_000, controller.signal)).toBe(false);
	});
});

describe('readBody', () => {
	const never = new AbortController().signal;

	test('reads a stream whole, and refuses one byte past the cap (destroying the stream)', async () => {
		const ok = new PassThrough();
		ok.end(Buffer.from('0123456789'));
		expect((await readBody(ok, { maxBytes: 10, deadline: never })).toString()).toBe('0123456789');

		const big = new PassThrough();
		big.end(Buffer.from('0123456789A'));
		await expect(readBody(big, { maxBytes: 10, deadline: never })).rejects.toBeInstanceOf(BodyTooLargeError);
		expect(big.destroyed).toBe(true);
	});

	test.each([
		['exact', 10],
		['smaller than the body (a compressed length)', 4],
		['larger than the body', 64],
	])('with a Content-Length %s the body comes out whole', async (_name, expectedBytes) => {
		const stream = new PassThrough();
		stream.write('01234');
		stream.end('56789');
		expect((await readBody(stream, { maxBytes: 100, deadline: never, expectedBytes })).toString()).toBe('0123456789');
	});

	test('stops a stream that never ends when the deadline fires', async () => {
		const endless = new PassThrough();
		endless.write('[');
		const controller = new AbortController();
		const reading = readBody(endless, { maxBytes: 1000, deadline: controller.signal });
		controller.abort();
		await expect(reading).rejects.toBeInstanceOf(DeadlineReachedError);
	});

	test('a string or Buffer body (another n8n version, a mock) is capped too', async () => {
		expect((await readBody('[]', { maxBytes: 2, deadline: never })).toString()).toBe('[]');
		await expect(readBody(Buffer.alloc(3), { maxBytes: 2, deadline: never })).rejects.toBeInstanceOf(BodyTooLargeError);
		expect((await readBody(undefined, { maxBytes: 2, deadline: never })).length).toBe(0);
	});
});

describe('decodeText', () => {
	test.each([
		['UTF-8 (default)', Buffer.from('["é"]'), undefined, '["é"]'],
		['UTF-8 holding a real U+FFFD', Buffer.from('["\ufffd"]'), 'application/json; charset=utf-8', '["\ufffd"]'],
		['UTF-8 BOM dropped', Buffer.from('\ufeff["é"]'), 'application/json', '["é"]'],
		['UTF-16LE BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('["é"]', 'utf16le')]), 'application/json', '["é"]'],
		['UTF-16BE BOM', Buffer.from([0xfe, 0xff, 0, 0x5b, 0, 0x5d]), 'application/json', '[]'],
		['charset=utf-16le', Buffer.from('["é"]', 'utf16le'), 'application/json; charset="UTF-16LE"', '["é"]'],
		['charset=iso-8859-1', Buffer.from('["é"]', 'latin1'), 'application/json;charset=iso-8859-1', '["é"]'],
	])('%s', (_name, buffer, contentType, expected) => {
		expect(decodeText(buffer, contentType)).toBe(expected);
	});

	test('bytes invalid in the charset, and unknown charsets, are errors, not replacement characters', () => {
		expect(() => decodeText(Buffer.from([0x22, 0xc3, 0x28, 0x22]), 'application/json')).toThrow(UndecodableTextError);
		expect(() => decodeText(Buffer.from('[]'), 'application/json; charset=x-unknown')).toThrow(
			expect.objectContaining({ charset: 'x-unknown', known: false }),
		);
	});

	test('a UTF-8 body reads as the strict decoder reads it: ASCII, any text, and any bytes (valid or not)', () => {
		const strict = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(bytes);
		const asUtf8 = (bytes: Uint8Array) => {
			try {
				return decodeText(Buffer.from(bytes), 'application/json');
			} catch (error) {
				if (error instanceof UndecodableTextError) return 'undecodable';
				throw error;
			}
		};
		const expected = (bytes: Uint8Array) => {
			try {
				return strict(bytes);
			} catch {
				return 'undecodable';
			}
		};
		// A BOM of UTF-16 switches the charset: not UTF-8 any more.
		const notUtf16Bom = (bytes: Uint8Array) => !((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
		fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => expect(asUtf8(Buffer.from(text))).toBe(text.replace(/^\ufeff/, ''))));
		fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }).filter(notUtf16Bom), (bytes) => expect(asUtf8(bytes)).toBe(expected(bytes))));
		// Every byte value at the end of a long ASCII text (the latin-1 fast path must notice one byte).
		for (let byte = 0; byte < 256; byte++) {
			const bytes = Buffer.concat([Buffer.from('["'.padEnd(5000, 'a')), Buffer.from([byte])]);
			expect(asUtf8(bytes)).toBe(expected(bytes));
		}
	});
});

describe('readRequestLimits reads the Options of every kind of context', () => {
	const options = { timeout: 5000, maxResponseSize: 2, retryOnRateLimit: false, parallelRequests: '3' };
	// Without a Listing Time Limit of the user's: 30 min for the whole listing (each request 5 s).
	const expected = {
		timeoutMs: 5000,
		listingTimeMs: 1_800_000,
		maxResponseBytes: 2 * 1024 * 1024,
		retryOnRateLimit: false,
		parallelRequests: 3,
	};
	const as = (context: object) => context as unknown as ApiContext;
	const poll = (budget: (() => number) | undefined, given: object = options) =>
		as({ getActivationMode: () => 'activate', ...(budget && { getPollBudgetMs: budget }), getNodeParameter: () => given });

	test('execute: per item', () => {
		const context = as({
			getInputData: () => [],
			getNodeParameter: (_name: string, itemIndex: number) => (itemIndex === 1 ? options : {}),
		});
		expect(readRequestLimits.call(context, 1)).toEqual(expected);
		expect(readRequestLimits.call(context, 0)).toEqual(DEFAULT_LIMITS);
		expect(DEFAULT_LIMITS).toMatchObject({ timeoutMs: 30_000, listingTimeMs: 1_800_000 });
	});

	test('Timeout is per request; Listing Time Limit (minutes) bounds the whole listing', () => {
		const withOptions = (value: object) => as({ getInputData: () => [], getNodeParameter: () => value });
		expect(readRequestLimits.call(withOptions({ timeout: 5000, listingTimeLimit: 2.5 }), 0)).toMatchObject({
			timeoutMs: 5000,
			listingTimeMs: 150_000,
		});
		expect(readRequestLimits.call(withOptions({ listingTimeLimit: '0.01' }), 0)).toMatchObject({ timeoutMs: 30_000, listingTimeMs: 600 });
		// A Timeout set before 0.5.0, when it bounded the whole listing: never a shorter listing than it allowed then.
		expect(readRequestLimits.call(withOptions({ timeout: 7_200_000 }), 0)).toMatchObject({
			timeoutMs: 7_200_000,
			listingTimeMs: 7_200_000,
		});
		// A Listing Time Limit set by the user is taken as given, also below the Timeout.
		expect(readRequestLimits.call(withOptions({ timeout: 7_200_000, listingTimeLimit: 1 }), 0)).toMatchObject({ listingTimeMs: 60_000 });
	});

	test.each([
		[0, '"Listing Time Limit" must be a number greater than 0, not the number …'],
		['', '"Listing Time Limit" must be a number greater than 0, not the text "…"'],
		[null, '"Listing Time Limit" got no value: its expression gave null'],
		[undefined, '"Listing Time Limit" got no value: its expression gave undefined'],
		[1441, '"Listing Time Limit" must be at most 1,440 minutes (one day), not …'],
	])('Listing Time Limit %p is a parameter error', (value, message) => {
		const context = as({ getInputData: () => [], getNodeParameter: () => ({ listingTimeLimit: value }) });
		expect(() => readRequestLimits.call(context, 0)).toThrow(message);
	});

	test.each([
		[0, '"Parallel Requests" must be a whole number of 1 or more, not the number …'],
		[2.5, '"Parallel Requests" must be a whole number of 1 or more, not the number …'],
		['', '"Parallel Requests" must be a whole number of 1 or more, not the text "…"'],
		[null, '"Parallel Requests" got no value: its expression gave null'],
		[11, '"Parallel Requests" must be at most 10, not …'],
	])('Parallel Requests %p is a parameter error', (value, message) => {
		const context = as({ getInputData: () => [], getNodeParameter: () => ({ parallelRequests: value }) });
		expect(() => readRequestLimits.call(context, 0)).toThrow(message);
	});

	test('poll on n8n 2.x: the whole listing within the poll budget, which the limits then name', () => {
		expect(
			readRequestLimits.call(
				poll(() => 3000),
				0,
			),
		).toEqual({ ...expected, listingTimeMs: 2700, pollBudget: { budgetMs: 3000, fromN8n: true } });
		// Durable scheduling's 36 s of a 45 s N8N_SCHEDULER_POLL_TIMEOUT: the listing ends at 32.4 s, each request still 5 s.
		expect(
			readRequestLimits.call(
				poll(() => 36_000),
				0,
			),
		).toMatchObject({ timeoutMs: 5000, listingTimeMs: 32_400 });
		// Regular mode: n8n 2.x gives a poll 5 min.
		expect(
			readRequestLimits.call(
				poll(() => 300_000),
				0,
			),
		).toMatchObject({ timeoutMs: 5000, listingTimeMs: 295_000 });
	});

	test('poll whose budget leaves the whole Listing Time Limit: that limit is the one named', () => {
		expect(
			readRequestLimits.call(
				poll(() => 3_600_000),
				0,
			),
		).toEqual(expected);
		expect(
			readRequestLimits.call(
				poll(() => 300_000, { ...options, listingTimeLimit: 1 }),
				0,
			),
		).toEqual({ ...expected, listingTimeMs: 60_000 });
	});

	test('poll on n8n 1.x (no poll budget): Options still apply, and a poll keeps to the 5 min n8n 2.x gives one', () => {
		expect(readRequestLimits.call(poll(undefined), 0)).toEqual({
			...expected,
			listingTimeMs: 295_000,
			pollBudget: { budgetMs: 300_000, fromN8n: false },
		});
	});

	test('a Timeout over a day or a Max Response Size over 1024 MB is a parameter error naming the maximum', () => {
		const withOptions = (value: object) => as({ getInputData: () => [], getNodeParameter: () => value });
		expect(() => readRequestLimits.call(withOptions({ timeout: 3_000_000_000 }), 0)).toThrow(
			'"Timeout" must be at most 86,400,000 milliseconds (one day), not …',
		);
		expect(() => readRequestLimits.call(withOptions({ maxResponseSize: 4096 }), 0)).toThrow(
			'"Max Response Size" must be at most 1,024 MB, not …',
		);
		expect(readRequestLimits.call(withOptions({ timeout: 86_400_000, maxResponseSize: 1024 }), 0)).toMatchObject({ timeoutMs: 86_400_000 });
	});

	test('loadOptions / listSearch: the defaults', () => {
		const context = as({ getCurrentNodeParameter: () => undefined, getNodeParameter: () => options });
		expect(readRequestLimits.call(context, 0)).toEqual(DEFAULT_LIMITS);
	});
});
