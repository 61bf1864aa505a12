/**
 * Property-based (fast-check): generated listings of 1 to 4 pages, each page in a random wrapping
 * (array, single record, map, one-key object, paged envelope), its next link in a random place
 * (body or Link header), random paging metadata (absent, agreeing, promising more, of the wrong type;
 * in the envelope, under meta / pagination / meta.pagination, or in headers), status keys saying "no
 * error", and now and then a fault. The generator knows what each listing holds and whether it adds
 * up; the whole walk (listServicePages over an in-memory session) must give exactly those records, or
 * a ServiceResponseError: never another error, never part of the listing as if it were all of it.
 */
import fc from 'fast-check';

import { listServicePages, readListingPage, ServiceResponseError } from '../../nodes/shared/listing/listing';
import { render } from '../../nodes/shared/text/text';
import type { ApiSession } from '../../nodes/shared/transport/transport';
import { serviceRecord } from '../harness/fixtures';

const BASE = 'https://api.example.com';
const FIRST = `${BASE}/v2026/services`;
const pageUrl = (n: number) => (n === 1 ? FIRST : `${FIRST}?page=${n}`);

type Answer = { body: unknown; headers: Record<string, string> };

/** A session that answers page n with `answers[n - 1]`; errors pass through as they are. */
function memorySession(answers: Answer[]): ApiSession {
	return {
		baseUrl: BASE,
		get: async (requested) => {
			const target = typeof requested === 'string' ? requested : `${BASE}${requested.path}`;
			const n = target === FIRST ? 1 : Number(new URL(target).searchParams.get('page'));
			const answer = answers[n - 1];
			if (answer === undefined) throw new Error(`the walk asked for a page that does not exist: ${target}`);
			return { body: JSON.parse(JSON.stringify(answer.body)), headers: answer.headers, url: target };
		},
		toNodeError: (error) => error as Error,
		show: (value, max) => render(value, (t) => t, max),
	};
}

/** What the walk gives: the ids, or 'error' for a ServiceResponseError. Any other error fails the test. */
async function walk(answers: Answer[]): Promise<string[] | 'error'> {
	const ids: string[] = [];
	try {
		for await (const page of listServicePages(memorySession(answers))) ids.push(...page.records.map((record) => record.id_service));
	} catch (error) {
		if (error instanceof ServiceResponseError) return 'error';
		throw error;
	}
	return ids;
}

// ---- one page as the generator sees it -------------------------------------------------------------

type More = 'absent' | 'yes' | 'no' | 'unreadable';
interface PageSpec {
	count: number;
	more: More;
	moreStyle: number;
	/** The whole listing's count as this page states it: none, 'garbage' (a value that is no count), or one relative to the truth. */
	total: 'none' | 'garbage' | 'exact' | 'smaller' | 'larger';
	totalStyle: number;
	asString: boolean;
	shape: 'array' | 'single' | 'map' | 'one-key' | 'envelope';
	recordsKey: string;
	nextStyle: number;
	status: number;
	fault: 'none' | 'platform error' | 'next as a number';
	encoding: number;
}

const pageSpec: fc.Arbitrary<PageSpec> = fc.record({
	count: fc.nat(4),
	more: fc.constantFrom<More>('absent', 'absent', 'absent', 'no', 'no', 'yes', 'unreadable'),
	moreStyle: fc.nat(8),
	total: fc.constantFrom<PageSpec['total']>('none', 'none', 'garbage', 'exact', 'exact', 'smaller', 'larger'),
	totalStyle: fc.nat(7),
	asString: fc.boolean(),
	shape: fc.constantFrom('array', 'single', 'map', 'one-key', 'envelope', 'envelope'),
	recordsKey: fc.constantFrom('data', 'items', 'results', 'services', 'content'),
	nextStyle: fc.nat(9),
	status: fc.nat(8),
	fault: fc.oneof({ weight: 18, arbitrary: fc.constant<'none'>('none') }, fc.constantFrom<PageSpec['fault']>('platform error', 'next as a number')),
	encoding: fc.nat(4),
}).map((spec) =>
	// Other wrappings than the envelope carry paging only in headers.
	spec.shape === 'envelope' || spec.fault !== 'none'
		? spec
		: { ...spec, more: spec.more === 'unreadable' ? 'absent' : spec.more, moreStyle: 8, totalStyle: 7, nextStyle: 9 },
);

/** Sets `value` at a dotted path of `body`, making the objects on the way. */
function put(body: Record<string, unknown>, path: string, value: unknown): void {
	const keys = path.split('.');
	let holder = body;
	for (const key of keys.slice(0, -1)) holder = (holder[key] ??= {}) as Record<string, unknown>;
	holder[keys[keys.length - 1]] = value;
}

const pick = <T>(options: readonly T[], n: number): T => options[n % options.length];
const YES = [true, 'true', 'True', 1, '1'];
const NO = [false, 'false', 0, '0', null];
const UNREADABLE = ['perhaps', 2, {}, []];
const TOTAL_PATHS = ['total', 'count', 'total_count', 'meta.total', 'meta.pagination.total', 'pagination.total', 'totalElements', 'header'];
const GARBAGE = [-1, 'many', { value: 50 }, true, 1.5];
const NEXT_PATHS = ['next', 'links.next', 'links.next.href', 'next_page_url', 'meta.next', 'pagination.next', 'meta.pagination.links.next', 'paging.next', '_links.next.href', 'header'];
const STATUS = [{}, {}, {}, { errors: [] }, { errors: null }, { error: false }, { error: null }, { success: true }, { ok: true, errors: {} }];

/**
 * The fields and headers that say `more` about page n (of the walk; the answer decides nothing
 * else). 'unreadable' can only be a has_more-style flag.
 */
function writeMore(spec: PageSpec, n: number, body: Record<string, unknown>, headers: Record<string, string>): void {
	const { more, moreStyle, encoding } = spec;
	if (more === 'absent') return;
	if (more === 'unreadable') return put(body, pick(['has_more', 'meta.hasMore', 'pagination.has_next_page'], moreStyle), pick(UNREADABLE, encoding));
	const yes = more === 'yes';
	switch (moreStyle) {
		case 0:
			return put(body, 'has_more', pick(yes ? YES : NO, encoding));
		case 1:
			return put(body, 'meta.hasMore', pick(yes ? YES : NO, encoding));
		case 2:
			Object.assign(body, { page: n, total_pages: yes ? n + 1 + encoding : n - (encoding % 2) });
			return;
		case 3:
			Object.assign(body, { current_page: n, last_page: yes ? n + 1 : n, next_page_url: null });
			return;
		case 4:
			return put(body, 'meta.pagination', { current_page: n, total_pages: yes ? n + 2 : n });
		case 5:
			Object.assign(body, { number: n - 1, totalPages: yes ? n + 1 : n, last: !yes });
			return;
		case 6:
			return put(body, 'next_cursor', yes ? `c${encoding}` : pick([null, '', 0], encoding));
		case 7:
			Object.assign(body, { last: !yes });
			return;
		default:
			Object.assign(headers, { 'x-page': String(n), 'x-total-pages': String(yes ? n + 1 : n) });
	}
}

/** The count page `spec` states for a listing of `size` records, if it states one it can be read as. */
function statedBy(spec: PageSpec, size: number): number | undefined {
	if (spec.total === 'exact') return size;
	if (spec.total === 'smaller') return Math.max(0, size - 1 - spec.encoding);
	if (spec.total === 'larger') return size + 1 + spec.encoding;
	return undefined;
}

/** One page's answer; `link`: the URL of the next page, unless this is the last; `size`: the whole listing's. */
function answerOf(spec: PageSpec, n: number, ids: string[], link: string | undefined, size: number): Answer {
	const records = ids.map((id) => serviceRecord({ id }));
	const headers: Record<string, string> = {};
	const signals: Record<string, unknown> = {};
	writeMore(spec, n, signals, headers);
	const count = statedBy(spec, size);
	if (spec.total !== 'none') {
		const value = count === undefined ? pick(GARBAGE, spec.encoding) : spec.asString ? String(count) : count;
		const path = pick(TOTAL_PATHS, spec.totalStyle);
		if (path === 'header') headers['x-total-count'] = String(value);
		else put(signals, path, value);
	}
	const nextPath = pick(NEXT_PATHS, spec.nextStyle);
	const envelope = spec.shape === 'envelope' || spec.fault !== 'none';
	if (nextPath === 'header' || !envelope) {
		if (link !== undefined) headers.link = `<${link}>; rel="next"`;
	} else {
		const written = link === undefined ? pick([null, '', false, undefined], spec.encoding) : spec.encoding % 2 ? link : `?page=${n + 1}`;
		if (written !== undefined) put(signals, nextPath, written);
	}
	const status = pick(STATUS, spec.status);
	if (envelope) {
		const body: Record<string, unknown> = { ...signals, ...status, per_page: 4, [spec.recordsKey]: records };
		if (spec.fault === 'platform error') Object.assign(body, { errors: [{ detail: 'Shard 2 did not answer' }] });
		if (spec.fault === 'next as a number') body.next = n + 1; // the first place a next link is looked for
		return { body, headers };
	}
	if (spec.shape === 'array') return { body: records, headers };
	if (spec.shape === 'single' && records.length === 1) return { body: records[0], headers };
	if (spec.shape === 'map' && records.length > 0) return { body: { ...Object.fromEntries(records.map((r) => [r.id_service, r])), ...status }, headers };
	return { body: { rows: records, ...status }, headers };
}

/** A listing: its answers, and what the walk must give (the ids in order, or an error). */
const listing = fc.array(pageSpec, { minLength: 1, maxLength: 4 }).map((specs) => {
	let next = 1;
	const idsOf = specs.map((spec) => Array.from({ length: spec.count }, () => `srv-${next++}`));
	const all = idsOf.flat();
	const answers = specs.map((spec, i) => answerOf(spec, i + 1, idsOf[i], i + 1 < specs.length ? pageUrl(i + 2) : undefined, all.length));
	const stated = specs.map((spec) => statedBy(spec, all.length)).filter((total) => total !== undefined);
	const last = specs[specs.length - 1];
	const adds = stated.length === 0 || stated[stated.length - 1]! <= all.length;
	const fault = specs.some((spec) => spec.fault !== 'none');
	const expected: string[] | 'error' = fault || !adds || last.more === 'yes' || last.more === 'unreadable' ? 'error' : all;
	return { specs, answers, idsOf, expected };
});

test('each generated listing ends in exactly the records it holds, or a ServiceResponseError when it does not add up', async () => {
	await fc.assert(
		fc.asyncProperty(listing, async ({ specs, answers, idsOf, expected }) => {
			expect(await walk(answers)).toEqual(expected);
			// One answer on its own: exactly its records, in order (unless it carries a fault).
			answers.forEach((answer, i) => {
				if (specs[i].fault !== 'none') return;
				const page = readListingPage(answer.body, { headers: answer.headers, page: i + 1 });
				expect(page.items.map((item) => (item as { id_service: string }).id_service)).toEqual(idsOf[i]);
			});
		}),
		{ numRuns: 1500 },
	);
});

test('any JSON answer, with or without paging headers: records found in it, or a ServiceResponseError; never a crash', async () => {
	const headers = fc.dictionary(
		fc.constantFrom('x-total-count', 'x-total', 'total', 'x-page', 'x-total-pages', 'x-next-page', 'link'),
		fc.oneof(fc.string({ maxLength: 8 }), fc.nat(5).map(String)),
	);
	const idsIn = (value: unknown): string[] => JSON.stringify(value).match(/"id_service":"((?:[^"\\]|\\.)*)"/g) ?? [];
	const body = fc.oneof(
		fc.jsonValue({ maxDepth: 4 }),
		fc.array(fc.record({ id_service: fc.string({ minLength: 1, maxLength: 6 }) }, { requiredKeys: ['id_service'] }), { maxLength: 4 }),
		fc.record({ data: fc.array(fc.record({ id_service: fc.string({ minLength: 1, maxLength: 6 }) })), total: fc.jsonValue({ maxDepth: 1 }), has_more: fc.jsonValue({ maxDepth: 1 }) }),
	);
	await fc.assert(
		fc.asyncProperty(body, headers, async (value, sent) => {
			const result = await walk([{ body: value, headers: { ...sent, link: '' } }]);
			if (result === 'error') return;
			const found = idsIn(value);
			expect(result.every((id) => found.includes(`"id_service":${JSON.stringify(id)}`))).toBe(true);
		}),
		{ numRuns: 1500 },
	);
});
