/**
 * A listing must add up (issue 24): the completeness signals of the common paging conventions, read
 * from one answer (body and headers), and the check on the last page. Each convention: an answer that
 * promises more than it holds is an error naming the field; one that agrees, or says nothing, is the
 * listing. Walks over several pages are in listing-complete.test.ts (real servers) and
 * listing-property.test.ts (generated).
 */
import { FIELD_SIGNALS } from '../../nodes/shared/answer/signalTable';
import { incompleteness } from '../../nodes/shared/listing/completeness';
import { PROVIDER_HINT, SERVICES_PATH } from '../../nodes/shared/answer/answerTexts';
import { ServiceResponseError } from '../../nodes/shared/record/serviceRecord';
import type { Text } from '../../nodes/shared/text/text';
import { render } from '../../nodes/shared/text/text';
import { extractServiceRecords, readOne } from '../harness/answer';
import { serviceRecord } from '../harness/fixtures';

const shown = (value: string | undefined) => (value === undefined ? undefined : render(value as Text, (part) => part, Infinity));
const two = [serviceRecord({ id: 'srv-1' }), serviceRecord({ id: 'srv-2' })];

/** The message a one-answer listing fails with, or the ids it gives. */
function outcome(body: unknown, headers: Record<string, string> = {}): string | string[] {
	try {
		return extractServiceRecords(body, headers).map((record) => record.id_service);
	} catch (error) {
		if (error instanceof ServiceResponseError) return shown(error.text.message)!;
		throw error;
	}
}

const incomplete = (said: string) => `The listing is incomplete: ${said}`;
const noNext = (said: string, read = 2) => incomplete(`${said}, but no link to the next page came (services read: ${read})`);
const unsettled = (said: string, read = 2) =>
	incomplete(`${said}, but no link to the next page came and nothing says this page is the last (services read: ${read})`);
const cannotRead = (field: string, value: string, as: string) => `The answer's ${field} is ${value}, which the node cannot read ${as}`;

describe('an answer that promises more than it holds is an error naming the field', () => {
	test.each<[string, unknown, string]>([
		['total', { data: two, total: 50 }, incomplete('"total" states 50 services, but the answer held 2')],
		['total as a string', { data: two, total_count: '50' }, incomplete('"total_count" states 50 services, but the answer held 2')],
		['DRF count', { count: 50, next: null, previous: null, results: two }, incomplete('"count" states 50 services, but the answer held 2')],
		[
			'will_paginate',
			{ data: two, total_entries: 9, current_page: 1, total_pages: 5 },
			incomplete('"total_entries" states 9 services, but the answer held 2'),
		],
		[
			'meta.total (JSON:API, Laravel resources)',
			{ data: two, links: { next: null }, meta: { total: 9 } },
			incomplete('"meta.total" states 9 services, but the answer held 2'),
		],
		[
			"meta.pagination.total (Fractal; its count is the page's)",
			{ data: two, meta: { pagination: { total: 50, count: 2, per_page: 2, current_page: 1, total_pages: 25, links: {} } } },
			incomplete('"meta.pagination.total" states 50 services, but the answer held 2'),
		],
		[
			'pagination.total',
			{ data: two, pagination: { total: 3 } },
			incomplete('"pagination.total" states 3 services, but the answer held 2'),
		],
		[
			'Spring page object',
			{ content: two, page: { size: 2, totalElements: 6, totalPages: 3, number: 0 } },
			incomplete('"page.totalElements" states 6 services, but the answer held 2'),
		],
		['has_more: true (Stripe)', { object: 'list', data: two, has_more: true, url: '/v1/services' }, noNext('"has_more" is true')],
		['has_more: "true"', { data: two, has_more: 'true' }, noNext('"has_more" is "true"')],
		['has_more: "True"', { data: two, has_more: 'True' }, noNext('"has_more" is "True"')],
		['has_more: 1', { data: two, has_more: 1 }, noNext('"has_more" is 1')],
		['hasMore under meta', { data: two, meta: { hasMore: true } }, noNext('"meta.hasMore" is true')],
		['has_next_page under pagination', { data: two, pagination: { has_next_page: 'yes' } }, noNext('"pagination.has_next_page" is "yes"')],
		['has_more unreadable', { data: two, has_more: 'perhaps' }, cannotRead('"has_more"', '"perhaps"', 'as true or false')],
		['page of total_pages', { data: two, page: 1, total_pages: 5 }, noNext('"page" is 1 of "total_pages" 5 (pages read: 1)')],
		[
			'Laravel current_page of last_page',
			{ data: two, current_page: 1, last_page: 3, next_page_url: null, per_page: 2 },
			noNext('"current_page" is 1 of "last_page" 3 (pages read: 1)'),
		],
		[
			'Laravel resource meta',
			{ data: two, links: { next: null }, meta: { current_page: 2, last_page: 3 } },
			noNext('"meta.current_page" is 2 of "meta.last_page" 3 (pages read: 1)'),
		],
		[
			'Ghost-style page of pages',
			{ data: two, meta: { pagination: { page: 1, pages: 2, next: null } } },
			noNext('"meta.pagination.page" is 1 of "meta.pagination.pages" 2 (pages read: 1)'),
		],
		['a page count alone', { data: two, meta: { total_pages: 2 } }, noNext('"meta.total_pages" is 2 (pages read: 1)')],
		['Spring last: false', { content: two, totalElements: 2, last: false }, noNext('"last" is false')],
		['Spring number from 0', { content: two, number: 0, totalPages: 2 }, noNext('"totalPages" is 2 (pages read: 1)')],
		[
			'a cursor instead of a link',
			{ data: two, next_cursor: 'eyJpZCI6Mn0' },
			noNext('"next_cursor" is "eyJpZCI6Mn0" (a cursor for a next page)'),
		],
		[
			'a cursor in any case style',
			{ data: two, meta: { NextPageToken: 'p2' } },
			noNext('"meta.NextPageToken" is "p2" (a cursor for a next page)'),
		],
		[
			'offset and limit: a full page',
			{ data: two, offset: 0, limit: 2 },
			unsettled('the page holds 2 services, as many as "limit" 2 says a page holds'),
		],
		[
			'a last link to another page',
			{ data: two, links: { last: '/v2026/services?page=3' } },
			unsettled('"links.last" leads to another page ("/v2026/services?page=3")'),
		],
		[
			'a list of links with only "last"',
			{ data: two, links: [{ rel: 'last', href: '?page=3' }] },
			unsettled('rel "last" in "links[0]" leads to another page ("?page=3")'),
		],
	])('%s', (_convention, body, message) => {
		expect(outcome(body)).toBe(message);
	});

	test.each<[string, unknown, Record<string, string>, string]>([
		['X-Total-Count', two, { 'x-total-count': '50' }, incomplete('the X-Total-Count header states 50 services, but the answer held 2')],
		['X-Total (GitLab)', { data: two }, { 'x-total': '3' }, incomplete('the X-Total header states 3 services, but the answer held 2')],
		['Total (api-pagination)', two, { total: '9' }, incomplete('the Total header states 9 services, but the answer held 2')],
		['Total-Count (pagy)', two, { 'total-count': '9' }, incomplete('the Total-Count header states 9 services, but the answer held 2')],
		[
			'X-Page of X-Total-Pages',
			two,
			{ 'x-page': '1', 'x-total-pages': '4' },
			noNext('the X-Page header is 1 of the X-Total-Pages header 4 (pages read: 1)'),
		],
		[
			'Current-Page of Total-Pages (pagy)',
			two,
			{ 'current-page': '2', 'total-pages': '3' },
			noNext('the Current-Page header is 2 of the Total-Pages header 3 (pages read: 1)'),
		],
		[
			'X-Next-Page (GitLab)',
			serviceRecord({ id: 'srv-1' }),
			{ 'x-next-page': '2' },
			noNext('the X-Next-Page header is "2" (a next page the node would have to ask for itself)', 1),
		],
		[
			'Link with only rel="last"',
			two,
			{ link: '</v2026/services?page=3>; rel="last"' },
			unsettled('the Link header\'s rel="last" leads to another page ("/v2026/services?page=3")'),
		],
		[
			'Content-Range short of its total',
			two,
			{ 'content-range': 'items 0-1/5' },
			incomplete('the Content-Range header states 5 services, but the answer held 2'),
		],
		['Content-Range in bytes', two, { 'content-range': 'bytes 0-99/500' }, noNext('the Content-Range header says "bytes 0-99/500"')],
		[
			'Content-Range without a total',
			two,
			{ 'content-range': '0-1/*' },
			unsettled('the Content-Range header says "0-1/*", which does not say how many there are in all'),
		],
		[
			'an unknown paging header',
			two,
			{ 'x-pagination-next': '2' },
			'The answer holds paging metadata the node does not know: the X-Pagination-Next header',
		],
	])('header %s', (_convention, body, headers, message) => {
		expect(outcome(body, headers)).toBe(message);
	});

	test.each([201, 202, 204, 207])('HTTP %i: an error naming the status, not a listing', (status) => {
		try {
			readOne(two, { status });
			throw new Error('no error');
		} catch (error) {
			expect(shown((error as ServiceResponseError).text.message)).toBe(
				`The platform answered HTTP ${status}, which the node does not read as a listing`,
			);
		}
		expect(readOne(two, { status: 203 }).items).toEqual(two);
	});

	test('the description says what the node does and does not do', () => {
		try {
			extractServiceRecords({ data: two, total: 50 });
			throw new Error('no error');
		} catch (error) {
			const description = shown((error as ServiceResponseError).text.description);
			expect(description).toMatch(
				/^The node follows only the next-page links the platform gives .* it does not invent page addresses, and it does not return part of a listing as if it were all of it\./,
			);
			expect(description).toContain('If services were added or removed while the pages were read, run again.');
			expect(description).toContain('HTTP Request node');
		}
	});
});

describe('an answer whose signals agree, or that gives none, is the listing', () => {
	test.each<[string, unknown, Record<string, string>?]>([
		['total equal', { data: two, total: 2 }],
		['total smaller (the listing grew)', { data: two, total: 1 }],
		['has_more: false', { data: two, has_more: false }],
		['has_more: "false"', { data: two, has_more: 'false' }],
		['has_more: 0', { data: two, has_more: 0 }],
		['has_more: null', { data: two, has_more: null }],
		['the last page', { data: two, page: 1, total_pages: 1 }],
		['a page count from 0', { data: two, page: 0, total_pages: 1 }],
		['Laravel last page', { data: two, current_page: 1, last_page: 1, next_page_url: null, total: 2, per_page: 2 }],
		['a full page with a total that agrees', { data: two, offset: 0, limit: 2, total: 2 }],
		['a full page in a link convention', { data: two, limit: 2, links: { next: null } }],
		['a page not full', { data: two, offset: 0, limit: 3 }],
		['a last link equal to the first, on the first page', { data: two, links: { first: '?page=1', last: '?page=1', next: null } }],
		['a last link equal to this page', { data: two, links: { self: '/v2026/services?page=9', last: '/v2026/services?page=9' } }],
		['a last link settled by a total', { data: two, last_page_url: '?page=3', total: 2 }],
		[
			'JSON:API with harmless meta',
			{
				data: two,
				jsonapi: { version: '1.1' },
				meta: { request_id: 'r1', copyright: 'x', warnings: ['a'] },
				links: { self: '?page=1', related: '/x' },
			},
		],
		['Graph API paging', { data: two, paging: { cursors: { before: 'a', after: 'b' } } }],
		["PHP's empty objects as []", { data: two, meta: [], links: [], pagination: { links: [] } }],
		['HAL', { content: two, _links: { self: { href: '/v2026/services', templated: false }, curies: [{ name: 'x', href: '/d' }] } }],
		[
			'Laravel page buttons',
			{
				data: two,
				links: [
					{ url: null, label: '&laquo; Previous', active: false },
					{ url: '?page=1', label: '1', active: true },
				],
				next_page_url: null,
			},
		],
		['any case and separator style', { Data: two, Meta: { TotalCount: 2, HAS_MORE: false, 'next-page-url': null } }],
		["Fractal, count the page's", { data: two, meta: { pagination: { total: 2, count: 2, current_page: 1, total_pages: 1, links: [] } } }],
		[
			'Spring last page',
			{
				content: two,
				totalElements: 2,
				totalPages: 1,
				number: 0,
				last: true,
				first: true,
				empty: false,
				size: 20,
				numberOfElements: 2,
				sort: {},
				pageable: {},
			},
		],
		['Stripe', { object: 'list', data: two, has_more: false, url: '/v1/services' }],
		['a spent cursor', { data: two, next_cursor: null, nextCursor: '' }],
		['Twitter-style cursor 0', { data: two, next_cursor: 0 }],
		['last as a link is no flag', { data: two, last: '/v2026/services?page=1', first: '/v2026/services?page=1' }],
		['headers that agree', two, { 'x-total-count': '2', 'x-page': '1', 'x-total-pages': '1', 'x-next-page': '' }],
		['Content-Range that reaches the end', two, { 'content-range': 'items 0-1/2' }],
		[
			'infrastructure headers',
			two,
			{ 'retry-after': '5', 'last-modified': 'x', 'x-csrf-token': 't', 'x-request-id': 'r', 'x-ratelimit-remaining': '9' },
		],
		['nothing at all', two],
	])('%s', (...[, body, headers]) => {
		// A rest parameter: jest would take a third named one for `done`.
		expect(outcome(body, headers)).toEqual(['srv-1', 'srv-2']);
	});

	test('every name of the table (but records and status) is understood next to the records, null meaning none', () => {
		const names = FIELD_SIGNALS.filter(({ kind }) => kind !== 'records' && kind !== 'status').flatMap(({ names }) => names);
		expect(names.length).toBeGreaterThan(40);
		for (const name of names) expect(readOne({ data: two, [name]: null }).items).toEqual(two);
	});

	test.each<[string, unknown, string]>([
		['a total that is no count', { data: two, total: -1 }, cannotRead('"total"', '-1', 'as a count')],
		[
			'a total as an object',
			{ data: two, meta: { total: { value: 50, relation: 'eq' } } },
			cannotRead('"meta.total"', '{"value":50,"relation":"eq"}', 'as a count'),
		],
		['a count as words', { data: two, count: 'many' }, cannotRead('"count"', '"many"', 'as a count')],
		['a cursor as an object', { data: two, next_cursor: { id: 2 } }, cannotRead('"next_cursor"', '{"id":2}', 'as a cursor')],
		['a holder as a text', { data: two, meta: 'none' }, cannotRead('"meta"', '"none"', 'as an object of paging fields')],
	])('%s: an error naming it (the node cannot tell what it says)', (_name, body, message) => {
		expect(outcome(body)).toBe(message);
	});
});

describe('over several pages', () => {
	const stated = (count: number, page: number) => ({ count, field: '"total"' as Text, page });

	test('a total stated on an earlier page that the pages fall short of', () => {
		expect(shown(incompleteness({ last: {}, stated: stated(50, 1), read: 40, pages: 3 }))).toBe(
			'"total" on page 1 states 50 services, but the 3 pages held 40',
		);
		expect(incompleteness({ last: {}, stated: stated(40, 1), read: 40, pages: 3 })).toBeUndefined();
	});

	test("resumed at a later page (the editor's search): totals are not compared, a page's own promise still is", () => {
		expect(incompleteness({ last: {}, stated: stated(50, 1), read: 10, pages: 2, resumed: true })).toBeUndefined();
		const last = readOne({ data: [], has_more: true }, { page: 2, resumed: true }).signals;
		expect(shown(incompleteness({ last, read: 10, pages: 2, resumed: true }))).toBe(
			'"has_more" is true, but no link to the next page came (services read: 10)',
		);
	});

	test('resumed, a page of pages is judged by its numbers: before the last in both counts, the last, or one short if counted from 1', () => {
		const judged = (page: number, pages: number) => readOne({ data: [], page, total_pages: pages }, { page: 2, resumed: true }).signals;
		expect(shown(judged(1, 3).more)).toBe('"page" is 1 of "total_pages" 3');
		expect(shown(judged(3, 3).complete)).toBe('"page" is 3 of "total_pages" 3');
		expect(shown(judged(2, 3).unsettled)).toBe('"page" is 2 of "total_pages" 3 (one more page if pages count from 1)');
	});

	test('from the first page, a page count is judged by the pages read, whatever the base', () => {
		const judged = (page: number, pages: number, read: number) => readOne({ data: [], page, total_pages: pages }, { page: read }).signals;
		expect(judged(1, 2, 2).complete).toBeDefined(); // counted from 0: page 1 is the second and last
		expect(judged(2, 2, 2).complete).toBeDefined(); // counted from 1
		expect(judged(1, 2, 1).more).toBeDefined();
		expect(judged(0, 2, 1).more).toBeDefined();
	});

	test('the largest count an answer states is the one it promises', () => {
		expect(readOne({ data: [], meta: { pagination: { count: 20, total: 50 } } }).signals.total?.count).toBe(50);
		expect(shown(readOne({ data: [], count: 50, meta: { total: 20 } }).signals.total?.field)).toBe('"count"');
	});
});

describe('next links where the conventions put them', () => {
	test.each([
		['paging.next (Graph API style)', { data: two, paging: { cursors: { after: 'x' }, next: '/v2026/services?after=x' } }, '"paging.next"'],
		[
			'meta.pagination.links.next (Fractal)',
			{ data: two, meta: { pagination: { total: 4, links: { next: '/v2026/services?after=x' } } } },
			'"meta.pagination.links.next"',
		],
		['meta.next_page_url', { data: two, meta: { next_page_url: '/v2026/services?after=x' } }, '"meta.next_page_url"'],
		['_links.next.href (HAL)', { data: two, _links: { next: { href: '/v2026/services?after=x' } } }, '"_links.next.href"'],
		['pagination.next_url', { data: two, pagination: { next_url: '/v2026/services?after=x' } }, '"pagination.next_url"'],
		['next_page as a link', { data: two, next_page: '/v2026/services?after=x' }, '"next_page"'],
	])('%s', (_name, body, foundIn) => {
		const { next } = readOne(body);
		expect(next?.link).toBe('/v2026/services?after=x');
		expect(shown(next?.foundIn)).toBe(foundIn);
	});

	test('a next page given as a page number is an error: following it would mean inventing its address', () => {
		for (const [body, at] of [
			[{ data: two, meta: { pagination: { page: 1, pages: 2, next: 2 } } }, 'meta.pagination.next'],
			[{ data: two, next_page: 2 }, 'next_page'],
		] as const) {
			try {
				readOne(body);
				throw new Error('no error');
			} catch (error) {
				expect(shown((error as ServiceResponseError).text.message)).toBe(
					`The listing gives its next page in "${at}" as number, not as a link`,
				);
			}
		}
	});
});

test('PROVIDER_HINT names the services path (it is written there as a literal)', () => {
	expect(PROVIDER_HINT).toContain(`GET ${SERVICES_PATH} `);
});
