/**
 * The listing module's pure parts: which answers are a listing, where the next page is, how a next
 * link is checked, duplicates across pages, and the services path being written once.
 */
import { ServicePlatformApi } from '../../credentials/ServicePlatformApi.credentials';
import { describeShape, PROVIDER_HINT, SERVICES_PATH } from '../../nodes/shared/answer/answerTexts';
import { MAX_LISTING_PAGES, nextPageUrl } from '../../nodes/shared/listing/listing';
import { ServiceResponseError } from '../../nodes/shared/record/serviceRecord';
import { checkPageRecords } from '../../nodes/shared/record/pageRecords';
import { own, render } from '../../nodes/shared/text/text';
import type { Text } from '../../nodes/shared/text/text';
import { extractServiceRecords, readOne } from '../harness/answer';
import { sampleRecords, serviceRecord } from '../harness/fixtures';

/** The text a user reads (foreign parts put in, unbounded; redaction is tested elsewhere). */
const shown = (value: string) => render(value as Text, (part) => part, Infinity);

function errorOf(run: () => unknown): { message: string; description: string } {
	try {
		run();
	} catch (error) {
		if (error instanceof ServiceResponseError) return { message: shown(error.text.message), description: shown(error.text.description) };
		throw error;
	}
	throw new Error('expected a ServiceResponseError');
}

const BASE = 'https://api.example.com';
const PAGE_1 = `${BASE}${SERVICES_PATH}`;

test('the services path is the documented one, and the credential test requests the same', () => {
	expect(SERVICES_PATH).toBe('/v2026/services');
	// The credential imports only the credential's rules, not the listing (which loads zod): its own literal is checked here.
	expect(new ServicePlatformApi().test.request.url).toBe(SERVICES_PATH);
});

describe('extractServiceRecords: response shapes', () => {
	test('returns the very objects the API sent (no copies), in order', () => {
		const records = extractServiceRecords(sampleRecords);
		expect(records).toHaveLength(4);
		records.forEach((record, index) => expect(record).toBe(sampleRecords[index]));
	});

	test('single record, map, envelope', () => {
		expect(extractServiceRecords(sampleRecords[0])).toEqual([sampleRecords[0]]);
		expect(extractServiceRecords({ a: sampleRecords[0], b: sampleRecords[1] })).toEqual(sampleRecords.slice(0, 2));
		expect(extractServiceRecords({ whatever: sampleRecords })).toEqual(sampleRecords);
		expect(extractServiceRecords({ data: [] })).toEqual([]);
		expect(extractServiceRecords({})).toEqual([]);
	});

	test.each([
		[null, 'The API answered with null, not a list of services'],
		[42, 'The API answered with a number, not a list of services'],
		['hello', 'The API answered with a string, not a list of services'],
		[true, 'The API answered with a boolean, not a list of services'],
		[{ fault: 42, code: 'x' }, 'The API answered with an object with key(s) fault (number), code (string), not a list of services'],
		[
			{ rows: [], continuation: 'p2', total: 9 },
			'The API answered with an object with key(s) rows (array of 0), continuation (string), total (number), not a list of services',
		],
		[{ data: 'x' }, 'The API answered with an object with key(s) data (string), not a list of services'],
	])('refuses %p, naming its shape', (body, message) => {
		const error = errorOf(() => extractServiceRecords(body));
		expect(error.message).toBe(message);
		expect(error.description).toMatch(/HTTP Request node/);
	});

	test('an error object sent with HTTP 200 quotes what the platform said', () => {
		const error = errorOf(() => extractServiceRecords({ error: 'unauthorized', message: 'Account  suspended\n for non-payment' }));
		expect(error.message).toBe('The platform answered with an error instead of the services');
		expect(error.description).toMatch(/^The platform said: "Account suspended for non-payment"\./);
	});

	test('a paginated-looking answer of an unknown kind says so instead of dropping pages', () => {
		expect(errorOf(() => extractServiceRecords({ rows: [sampleRecords[0]], continuation: 2 })).description).toMatch(
			/looks paginated in a way the node does not know \("continuation"\)/,
		);
		// Two record arrays: not a recognised envelope.
		expect(errorOf(() => extractServiceRecords({ data: [], items: [], next: 'x' })).description).toMatch(
			/looks paginated in a way the node does not know \("next"\): /,
		);
		expect(errorOf(() => extractServiceRecords({ rows: [], owner: 'x' })).description).toMatch(
			/looks paginated in a way the node does not know: /,
		);
		// A known records key next to an unknown field: an error naming the field.
		expect(errorOf(() => extractServiceRecords({ data: [], cursor: 'abc' })).message).toBe(
			'The answer holds paging metadata the node does not know: "cursor"',
		);
		expect(errorOf(() => extractServiceRecords({ data: [], request_id: 'abc' })).message).toBe(
			'The answer holds "request_id" next to the records, which the node does not know',
		);
	});

	test('shape descriptions never contain values', () => {
		const error = errorOf(() => extractServiceRecords({ secret_token: 'abc123-very-secret', count: 3 }));
		expect(error.message).not.toContain('abc123');
		expect(error.description).not.toContain('abc123');
	});

	test('lists at most ten keys', () => {
		const body = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`k${i}`, i]));
		expect(shown(describeShape(body))).toMatch(/k9 \(number\), and 4 more$/);
	});
});

describe('readAnswer: paged envelopes and next links', () => {
	const records = sampleRecords.slice(0, 2);

	test.each([
		['next', { data: records, next: '/v2026/services?page=2' }, '"next"'],
		['links.next', { items: records, links: { next: '/v2026/services?page=2', prev: null } }, '"links.next"'],
		['links.next.href', { results: records, links: { next: { href: '/v2026/services?page=2' } } }, '"links.next.href"'],
		[
			'next_page_url',
			{ data: records, next_page_url: '/v2026/services?page=2', current_page: 1, per_page: 2, total: 9 },
			'"next_page_url"',
		],
		['meta.next', { services: records, meta: { next: '/v2026/services?page=2', total: 9 } }, '"meta.next"'],
		['pagination.next', { data: records, pagination: { next: '/v2026/services?page=2', page: 1 } }, '"pagination.next"'],
	])('follows %s', (_form, body, foundIn) => {
		const page = readOne(body);
		expect(page.items).toEqual(records);
		expect(page.next?.link).toBe('/v2026/services?page=2');
		expect(shown(page.next!.foundIn)).toBe(foundIn);
	});

	test('a Link header rel="next" (among others, unquoted, several rel types) on any shape', () => {
		const header = `<${BASE}/v2026/services?page=1>; rel="first", <${BASE}/v2026/services?page=3>; rel=last, <${BASE}/v2026/services?page=2>; rel="next prefetch"`;
		for (const body of [records, { data: records }, { data: records, total: 9 }, records[0]]) {
			const { next } = readOne(body, { headers: { link: header } });
			expect(next?.link).toBe(`${BASE}/v2026/services?page=2`);
			expect(shown(next!.foundIn)).toBe('the Link header\'s rel="next"');
		}
		expect(readOne(records, { headers: { link: `<${BASE}/x>; rel="prev"` } }).next).toBeUndefined();
		expect(readOne(records, { headers: { link: 'garbage' } }).next).toBeUndefined();
	});

	test('a link in the body and a Link header: the same page once, two different pages an error naming both', () => {
		expect(readOne({ data: records, next: '/b' }, { headers: { link: `<${BASE}/b>; rel="next"` } }).next?.link).toBe(`${BASE}/b`);
		expect(errorOf(() => readOne({ data: records, next: '/b' }, { headers: { link: '</h>; rel="next"' } })).message).toBe(
			'The answer gives two different next pages: the Link header\'s rel="next" ("/h") and "next" ("/b")',
		);
	});

	test.each([null, '', false])('next = %p means the last page', (next) => {
		const page = readOne({ data: records, next, links: { next } });
		expect(page.next).toBeUndefined();
		expect(page.items).toEqual(records);
	});

	test('Laravel: the links array at the top level is metadata, next_page_url the link', () => {
		const body = {
			current_page: 1,
			data: records,
			first_page_url: '/v2026/services?page=1',
			from: 1,
			last_page: 2,
			last_page_url: '/v2026/services?page=2',
			links: [{ url: null, label: 'Previous', active: false }],
			next_page_url: '/v2026/services?page=2',
			path: '/v2026/services',
			per_page: 2,
			prev_page_url: null,
			to: 2,
			total: 4,
		};
		expect(readOne(body).next?.link).toBe('/v2026/services?page=2');
	});

	test('a next page given as a number is an error, not an invented address', () => {
		const error = errorOf(() => readOne({ data: records, pagination: { next: 2 } }));
		expect(error.message).toBe('The listing gives its next page in "pagination.next" as number, not as a link');
		expect(error.description).toMatch(/does not invent page addresses/);
	});

	test('labels name the page after the first', () => {
		expect(shown(readOne([{}, {}], { page: 3 }).labelOf(1))).toBe('#2 of 2 on page 3');
		expect(shown(readOne({ data: [{}] }).labelOf(0))).toBe('#1 of 1 in "data"');
	});
});

describe('a JSON error object answered with HTTP 200', () => {
	test('{"errors": [...]} is an error quoting the platform, never an empty listing or a record error', () => {
		const error = errorOf(() => extractServiceRecords({ errors: [{ code: 'x', detail: 'API key suspended' }] }));
		expect(error.message).toBe('The platform answered with an error instead of the services');
		expect(error.description).toContain('The platform said: "API key suspended".');
	});

	test.each([
		{ error: 42, code: 'x' },
		{ error: true },
		{ errors: 'denied' },
		{ errors: { key: ['invalid'] } },
		{ success: false },
		{ ok: false, data: [] },
	])('%p is an error, saying the platform gave no message', (body) => {
		const error = errorOf(() => extractServiceRecords(body));
		expect(error.message).toBe('The platform answered with an error instead of the services');
		expect(error.description).toContain('It gave no message.');
	});

	test('an error next to records is still an error, quoting the platform', () => {
		const error = errorOf(() => extractServiceRecords({ data: sampleRecords, error: true, message: 'Partial result: shard 2 down' }));
		expect(error.message).toBe('The platform answered with an error instead of the services');
		expect(error.description).toContain('The platform said: "Partial result: shard 2 down".');
	});

	test.each([
		['errors: []', { errors: [] }],
		['errors: null', { errors: null }],
		['errors: {}', { errors: {} }],
		['error: false', { error: false }],
		['error: null', { error: null }],
		['error: ""', { error: '  ' }],
		['error: 0', { error: 0 }],
		['success: true', { success: true }],
		['ok: true, errors: []', { ok: true, errors: [] }],
	])('%s next to the records is a normal answer, in every wrapping', (_name, status) => {
		for (const body of [
			{ data: sampleRecords, ...status },
			{ services: sampleRecords, ...status },
			{ data: sampleRecords, total: 4, ...status },
		]) {
			expect(extractServiceRecords(body)).toEqual(sampleRecords);
		}
		expect(extractServiceRecords({ 'srv-a': sampleRecords[0], ...status })).toEqual([sampleRecords[0]]);
	});

	test('a status saying "no error" with no records is not a listing', () => {
		expect(errorOf(() => extractServiceRecords({ errors: [] })).message).toBe(
			'The API answered with an object with key(s) errors (array of 0), not a list of services',
		);
		expect(errorOf(() => extractServiceRecords({ success: true })).message).toBe(
			'The API answered with an object with key(s) success (boolean), not a list of services',
		);
	});

	test('a success that is not true or false is no status: an error naming it', () => {
		expect(errorOf(() => extractServiceRecords({ data: sampleRecords, success: 'yes' })).message).toBe(
			'The answer\'s "success" is "yes", which the node cannot read as true or false',
		);
	});
});

describe('nextPageUrl', () => {
	const check = (link: string, fetched = new Set([PAGE_1]), answeredUrl = PAGE_1) =>
		nextPageUrl({ link, foundIn: own('"next"') }, { answeredUrl, baseUrl: BASE, fetched, pagesRead: fetched.size });

	test('the page cap counts pages read, not addresses (a redirect adds one per page)', () => {
		const fetched = new Set([PAGE_1, `${BASE}/v2026/other`]);
		const next = () =>
			nextPageUrl({ link: '?page=2', foundIn: own('"next"') }, { answeredUrl: PAGE_1, baseUrl: BASE, fetched, pagesRead: 999 });
		expect(next()).toBe(`${BASE}/v2026/services?page=2`);
		const error = errorOf(() =>
			nextPageUrl({ link: '?page=2', foundIn: own('"next"') }, { answeredUrl: PAGE_1, baseUrl: BASE, fetched, pagesRead: 1000 }),
		);
		expect(error.message).toBe('The listing has more than 1000 pages; the node stopped reading');
	});

	test('relative links resolve against the URL that answered', () => {
		expect(check('?page=2')).toBe(`${BASE}/v2026/services?page=2`);
		expect(check('services?page=2', undefined, `${BASE}/v2026/x`)).toBe(`${BASE}/v2026/services?page=2`);
		expect(check('/v2026/services?cursor=abc#frag')).toBe(`${BASE}/v2026/services?cursor=abc`);
		expect(check(`${BASE}/v2026/services?page=2`)).toBe(`${BASE}/v2026/services?page=2`);
	});

	test('another origin (host, scheme or port) is refused, naming the link', () => {
		for (const link of [
			'https://evil.example/v2026/services?page=2',
			'http://api.example.com/v2026/services?page=2',
			'https://api.example.com:8443/p2',
			'//evil.example/p2',
		]) {
			const error = errorOf(() => check(link));
			expect(error.message).toMatch(/^The listing's next page is on another address \(.+\); the node does not follow it$/);
			expect(error.message).toContain(new URL(link, PAGE_1).host);
			expect(error.description).toContain('The link came in "next"');
			expect(error.description).toContain(`only sent to the address in the credential (${BASE})`);
		}
	});

	test('a link to a page already read is a loop', () => {
		const error = errorOf(() => check(PAGE_1));
		expect(error.message).toBe(`The listing's pages loop: the next-page link leads back to a page already read (${PAGE_1})`);
	});

	test(`more than ${MAX_LISTING_PAGES} pages is an error`, () => {
		const fetched = new Set(Array.from({ length: MAX_LISTING_PAGES }, (_, i) => `${PAGE_1}?page=${i + 1}`));
		expect(errorOf(() => check(`?page=${MAX_LISTING_PAGES + 1}`, fetched)).message).toBe(
			`The listing has more than ${MAX_LISTING_PAGES} pages; the node stopped reading`,
		);
		fetched.delete(`${PAGE_1}?page=1`);
		expect(check(`?page=${MAX_LISTING_PAGES + 1}`, fetched)).toBe(`${PAGE_1}?page=${MAX_LISTING_PAGES + 1}`);
	});

	test('an unparsable link is an error naming it', () => {
		expect(errorOf(() => check('http://[::1')).message).toBe('The listing\'s next-page link in "next" is not a valid URL: "http://[::1"');
	});
});

describe('checkPageRecords: duplicates across pages', () => {
	test('an id listed on an earlier page is an error naming both pages', () => {
		const seen = new Map<string, number>();
		checkPageRecords(readOne([serviceRecord({ id: 'a' }), serviceRecord({ id: 'b' })]), { seen, pageNumber: 1, advice: PROVIDER_HINT });
		const error = errorOf(() =>
			checkPageRecords(readOne([serviceRecord({ id: 'c' }), serviceRecord({ id: 'a' })], { page: 2 }), {
				seen,
				pageNumber: 2,
				advice: PROVIDER_HINT,
			}),
		);
		expect(error.message).toBe('The listing contains id_service "a" more than once');
		expect(error.description).toMatch(
			/^Record #2 of 2 on page 2 repeats an id already listed on page 1\. Each service must appear once; if services were added or removed while the pages were read, run again\./,
		);
	});

	test('within one page the text is the one-page text', () => {
		const error = errorOf(() => extractServiceRecords([serviceRecord({ id: 'a' }), serviceRecord({ id: 'a' })]));
		expect(error.description).toMatch(/^Record #2 of 2 repeats an id already listed\. Each service must appear once; The platform/);
	});
});
