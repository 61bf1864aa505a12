/**
 * The page sequence a platform's own links show (nodes/shared/listing/pageSequence.ts): which links
 * show one, the addresses it gives, and where the platform says the listing ends.
 */
import type { Extent } from '../../nodes/shared/answer/evidence';
import type { PageSequence } from '../../nodes/shared/listing/pageSequence';
import { addressAt, findSequence, lastPosition } from '../../nodes/shared/listing/pageSequence';
import { ANSWER_URL, readOne } from '../harness/answer';

const API = 'https://api.example.com/v2026/services';
const find = (read: string, next: string, records = 1000, position = 1) => findSequence(read, next, { records, position });
const noEnd: Extent = { lastLinks: [] };

describe('links that show a sequence', () => {
	test.each([
		['a page number added to a first page without one', API, `${API}?page=2`, 1000, 'page number', 1, 2],
		['a page number counted from 0, added', API, `${API}?page=1`, 10, 'page number', 1, 1],
		[
			'a page number moved on by 1, other parameters kept',
			`${API}?page=2&per_page=50`,
			`${API}?page=3&per_page=50`,
			50,
			'page number',
			1,
			3,
		],
		['a page number in the middle of the query', `${API}?a=1&page=7&b=x`, `${API}?a=1&page=8&b=x`, 5, 'page number', 1, 8],
		['an offset moved on by the records of the page', `${API}?offset=0&limit=100`, `${API}?offset=100&limit=100`, 100, 'offset', 100, 100],
		['an offset added to a first page without one', `${API}?limit=100`, `${API}?limit=100&offset=100`, 100, 'offset', 100, 100],
		['a page of one record: 1 is both a page and an offset', API, `${API}?page=1`, 1, 'page number', 1, 1],
		['a bracketed name, as written', `${API}?page%5Bnumber%5D=1`, `${API}?page%5Bnumber%5D=2`, 20, 'page number', 1, 2],
	])('%s', (_case, read, next, records, kind, step, value) => {
		const sequence = find(read, next, records, 4);
		expect(sequence).toMatchObject({ kind, step, value, at: 5 });
		expect(addressAt(sequence!, 5)).toBe(next);
	});

	test('the addresses after the next one move the number on by its step, the rest as written', () => {
		const pages = find(`${API}?a=%20x&page=2`, `${API}?a=%20x&page=3`, 20, 2)!;
		expect([3, 4, 10].map((position) => addressAt(pages, position))).toEqual([
			`${API}?a=%20x&page=3`,
			`${API}?a=%20x&page=4`,
			`${API}?a=%20x&page=10`,
		]);
		const offsets = find(`${API}?offset=200&limit=100`, `${API}?offset=300&limit=100`, 100, 3)!;
		expect(addressAt(offsets, 6)).toBe(`${API}?offset=500&limit=100`);
		const added = find(API, `${API}?page=2`)!;
		expect(addressAt(added, 3)).toBe(`${API}?page=3`);
	});
});

describe('links that show none: the walk reads one page after another', () => {
	test.each([
		['an opaque cursor', `${API}?cursor=abc`, `${API}?cursor=def`, 10],
		['a cursor added', API, `${API}?cursor=eyJpZCI6NH0`, 10],
		['two parameters changed', `${API}?page=1&v=1`, `${API}?page=2&v=2`, 10],
		['another path', `${API}?page=1`, `https://api.example.com/v2026/other?page=2`, 10],
		['another host', `${API}?page=1`, `https://other.example.com/v2026/services?page=2`, 10],
		['a number that goes back', `${API}?page=3`, `${API}?page=2`, 10],
		['a number that jumps by neither 1 nor the records', `${API}?page=1`, `${API}?page=3`, 10],
		['an offset that moves by another amount than the records', `${API}?offset=0`, `${API}?offset=50`, 10],
		['a leading zero', `${API}?page=01`, `${API}?page=02`, 10],
		['not a whole number', `${API}?page=1.5`, `${API}?page=2.5`, 10],
		['a page of 2 linking to 2: a page number or an offset', API, `${API}?page=2`, 2],
		['an added number that is neither 1, 2 nor the records', API, `${API}?page=7`, 10],
		['the parameters in another order', `${API}?page=1&size=10`, `${API}?size=10&page=2`, 10],
		['the parameter named twice', `${API}?page=1&page=1`, `${API}?page=1&page=2`, 10],
		['a parameter without a value moved', `${API}?page`, `${API}?page=2`, 10],
		['the same address', `${API}?page=1`, `${API}?page=1`, 10],
	])('%s', (_case, read, next, records) => {
		expect(find(read, next, records)).toBeUndefined();
	});
});

describe('where the platform says the listing ends', () => {
	const pages: PageSequence = find(API, `${API}?page=2`, 1000, 1)!;
	const at = (extent: Partial<Extent>, position = 1, records = 1000, resumed = false) =>
		lastPosition(pages, { extent: { lastLinks: [], ...extent }, position, records, resumed });

	test('a page count, counted from the first page read (in either numbering)', () => {
		expect(at({ pages: 100 })).toBe(100);
		expect(at({ pages: 100 }, 50)).toBe(100);
	});
	test('a total with the page size stated, or else with the records of this page', () => {
		expect(at({ total: 100_000, pageSize: 1000 })).toBe(100);
		expect(at({ total: 100_001, pageSize: 1000 })).toBe(101);
		expect(at({ total: 100_000 })).toBe(100);
		expect(at({ total: 100_000 }, 1, 500)).toBe(200);
	});
	test('a last link that is an address of the sequence', () => {
		expect(at({ lastLinks: [`${API}?page=40`] })).toBe(40);
		expect(at({ lastLinks: [`${API}?page=40#top`] })).toBe(40);
		expect(at({ lastLinks: [`${API}?cursor=z`] })).toBeUndefined();
		expect(at({ lastLinks: [`${API}?page=40&x=1`] })).toBeUndefined();
	});
	test('nothing that places the end: undefined', () => {
		expect(lastPosition(pages, { extent: noEnd, position: 1, records: 1000, resumed: false })).toBeUndefined();
	});
	test('several: the smallest; never before the next page, which a link names', () => {
		expect(at({ pages: 100, total: 5000, lastLinks: [`${API}?page=70`] })).toBe(5);
		expect(at({ pages: 1 }, 3)).toBe(4);
	});
	test('a walk begun at a later page (the editor) counts no pages: only a last link or an offset places the end', () => {
		expect(at({ pages: 100, total: 100_000 }, 1, 1000, true)).toBeUndefined();
		expect(at({ lastLinks: [`${API}?page=9`] }, 1, 1000, true)).toBe(9);
	});
	test('offsets: a total against the offsets', () => {
		const offsets = find(`${API}?offset=0&limit=100`, `${API}?offset=100&limit=100`, 100, 1)!;
		const end = (total: number, resumed = false) =>
			lastPosition(offsets, { extent: { lastLinks: [], total }, position: 1, records: 100, resumed });
		expect(end(1000)).toBe(10);
		expect(end(1001)).toBe(11);
		expect(end(1001, true)).toBe(11);
		expect(end(50)).toBe(2);
	});
});

describe('the extent an answer states (answer/evidence.ts)', () => {
	test('page counts, page sizes, totals and last links, wherever the answer states them', () => {
		expect(readOne({ data: [], meta: { pagination: { total: 50, per_page: 10, total_pages: 5 } } }).extent).toEqual({
			pages: 5,
			pageSize: 10,
			total: 50,
			lastLinks: [],
		});
		expect(readOne([], { headers: { link: '<?page=9>; rel="last"', 'x-total-pages': '9', 'x-per-page': '20' } }).extent).toEqual({
			pages: 9,
			pageSize: 20,
			lastLinks: [`${ANSWER_URL}?page=9`],
		});
		// Two places state a count: the smallest; two sizes: the largest (both read ahead the least).
		const both = readOne({ data: [], last_page: 7, per_page: 5, limit: 8 }, { headers: { 'x-total-pages': '6' } });
		expect(both.extent).toMatchObject({ pages: 6, pageSize: 8 });
		expect(readOne({ data: [], next: null }).extent).toEqual({ lastLinks: [] });
	});
});
