/**
 * Over 300 lines because it is data: one row per field, header and status, each with its meaning.
 *
 * The one table of what the node understands in an answer besides its records: every field of the
 * envelope (at any level), every header and status that carries paging meaning in common APIs, and
 * the names known to carry none. Data only: envelope.ts and headers.ts read answers with it, and
 * docs/paging.md is generated from it (tools/generate/paging-doc.cjs; a unit test fails while the page
 * is stale). Anything an answer holds that is not here is an error naming it, next to the records;
 * inside a paging object a number or true/false is too (it may be a total or a flag), and a text is
 * judged by its name (names.ts): paging-like, an error naming it; otherwise harmless.
 */

/** What a field, a header or a link relation means to the reader. */
export type SignalKind =
	| 'records'
	| 'status'
	| 'holder'
	| 'links'
	| 'next'
	| 'total'
	| 'page'
	| 'pages'
	| 'pageFromZero'
	| 'pageSize'
	| 'moreFlag'
	| 'lastFlag'
	| 'cursor'
	| 'lastLink'
	| 'firstLink'
	| 'selfLink'
	| 'harmless';

export interface Signal {
	kind: SignalKind;
	/** As the conventions spell them; matched in any case and separator style (`hasMore`, `has-more`: names.ts). */
	names: readonly string[];
	/** Who writes them, for docs/paging.md. */
	conventions: string;
}

/** What each kind means, and when it makes a listing that ends on this page an error (docs/paging.md). */
export const KIND_RULES: Record<SignalKind, { means: string; rule: string }> = {
	records: {
		means: 'the array of records (next to the records only)',
		rule: "read as the page's records; exactly one of them may hold an array",
	},
	status: {
		means: 'whether the answer succeeded (next to the records only)',
		rule: '`null`, `false`, `0`, `""`, `[]`, `{}` (and `success`/`ok` `true`) say "no error"; anything else is the platform\'s error',
	},
	holder: {
		means: 'an object holding paging metadata; holders nest (`meta.pagination`, `meta.page`)',
		rule: 'every field in it is read by this table; under a name it does not know, a number or true/false is an error, and so is a paging-like name or a text linking to the listing; another text is harmless',
	},
	links: {
		means: 'links by relation: an object (`links.next`, `_links.next.href`), a list of `{rel, href}`, the Link header',
		rule: 'each relation is read with the table of link relations',
	},
	next: {
		means: "the next page's link (absolute or relative; or `{href}`)",
		rule: 'followed; `null`, `""` or `false` mean none; a number or another type is an error (its address would have to be invented); two different next links are an error',
	},
	total: {
		means: 'how many services the whole listing has',
		rule: 'the latest total any page stated is larger than the services all pages held',
	},
	page: {
		means: "this page's number (counted from 0 or 1)",
		rule: "only in the editor's search, which starts at a later page: with a page count, this page is before the last in both counts",
	},
	pages: {
		means: 'the number of pages',
		rule: 'more pages than were read; a count equal to the pages read settles the listing in either base',
	},
	pageFromZero: { means: "this page's number counted from 0 (Spring)", rule: 'with a page count, this page is before the last' },
	pageSize: {
		means: 'how many records a page holds',
		rule: 'the last page holds that many and the answer has no next-link field at all: more may follow at an address the node would invent, unless another signal settles it',
	},
	moreFlag: {
		means: 'yes/no: more records follow (`true`, `1`, `"true"`, `"1"`, `"yes"`; `false`, `0`, `"false"`, `"0"`, `"no"`)',
		rule: 'it says yes',
	},
	lastFlag: { means: 'yes/no: this is the last page (a text there is a link to the last page)', rule: 'it says no' },
	cursor: {
		means: 'a cursor or token for the next page: more follows, at an address the node would have to invent',
		rule: 'a value other than `null`, `""`, `false`, `0`, `"0"`',
	},
	lastLink: {
		means: "the last page's link",
		rule: 'it leads to another address than this page (or than the first page, on the first page) and nothing else settles the listing',
	},
	firstLink: { means: "the first page's link", rule: 'never; on the first page, a last link equal to it says this is the last page' },
	selfLink: { means: "this page's own link", rule: 'never; a last link equal to it says this is the last page' },
	harmless: { means: 'known to carry no paging meaning the node needs (not read further)', rule: 'never' },
};

/** Fields of an answer's envelope (and of every holder in it). `records` and `status` count only next to the records. */
export const FIELD_SIGNALS: readonly Signal[] = [
	{
		kind: 'records',
		names: ['data', 'items', 'results', 'services', 'content'],
		conventions: 'JSON:API, Laravel, DRF, Stripe; `content`: Spring',
	},
	{ kind: 'status', names: ['errors', 'error', 'success', 'ok'], conventions: 'JSON:API, GraphQL, many APIs' },
	{
		kind: 'holder',
		names: ['meta', 'pagination', 'paging', 'page', 'response_metadata'],
		conventions: '`_meta`; `meta.pagination`: Fractal; `paging`: Graph API; `page` (an object): Spring HATEOAS; `response_metadata`: Slack',
	},
	{ kind: 'links', names: ['links'], conventions: 'JSON:API, Laravel resources; `_links`: HAL' },
	{
		kind: 'next',
		names: ['next', 'next_page_url', 'next_url', 'next_link', 'next_page'],
		conventions: 'DRF, Laravel (`next_page_url`), Azure (`nextLink`); `next_page`: will_paginate (a number there is an error)',
	},
	{
		kind: 'total',
		names: ['total', 'total_count', 'total_entries', 'total_items', 'total_results', 'total_elements', 'total_records', 'count'],
		conventions:
			"`total_entries`: will_paginate; `totalElements`: Spring; `count`: DRF (Fractal's page `count` next to `total`: the largest counts)",
	},
	{ kind: 'page', names: ['page', 'current_page', 'page_number'], conventions: 'Laravel (`current_page`), Ghost, kaminari' },
	{
		kind: 'pages',
		names: ['total_pages', 'last_page', 'pages', 'page_count', 'num_pages'],
		conventions: 'Laravel (`last_page`), Spring (`totalPages`), Ghost (`pages`), Django (`num_pages`)',
	},
	{ kind: 'pageFromZero', names: ['number'], conventions: 'Spring' },
	{ kind: 'pageSize', names: ['per_page', 'page_size', 'limit', 'size'], conventions: 'Laravel, DRF, Spring (`size`), offset/limit APIs' },
	{
		kind: 'moreFlag',
		names: ['has_more', 'has_next', 'has_next_page', 'is_truncated'],
		conventions: 'Stripe (`has_more`), Relay (`hasNextPage`), S3 (`IsTruncated`)',
	},
	{
		kind: 'lastFlag',
		names: ['last', 'is_last', 'is_last_page'],
		conventions: 'Spring (`last`: `true`/`false`; a text there is a last link)',
	},
	{
		kind: 'cursor',
		names: ['next_cursor', 'next_page_token', 'next_token', 'next_marker', 'next_continuation_token', 'continuation_token'],
		conventions: 'Slack, Twitter (`next_cursor`), Google (`nextPageToken`), AWS (`NextToken`, `NextMarker`, `NextContinuationToken`)',
	},
	{ kind: 'lastLink', names: ['last', 'last_page_url'], conventions: 'JSON:API (`links.last`), Laravel (`last_page_url`)' },
	{
		kind: 'firstLink',
		names: ['first', 'first_page_url'],
		conventions: "JSON:API (`links.first`), Laravel (`first_page_url`); Spring's `first: true` is harmless",
	},
	{ kind: 'selfLink', names: ['self'], conventions: 'JSON:API, HAL' },
	{
		kind: 'harmless',
		names: [
			'prev',
			'previous',
			'prev_page_url',
			'prev_url',
			'prev_link',
			'prev_page',
			'previous_page',
			'offset',
			'from',
			'to',
			'path',
			'url',
			'object',
			'jsonapi',
			'number_of_elements',
			'empty',
			'sort',
			'pageable',
			'cursors',
			'related',
			'describedby',
			'last_updated',
			'last_modified',
		],
		conventions:
			"previous pages, positions and addresses (`from`/`to`: Laravel; `object`, `url`: Stripe; `path`: Laravel); Spring's `numberOfElements`, `empty`, `sort`, `pageable`, `first`; JSON:API's `jsonapi`; Graph API's `paging.cursors` (its `next` link decides)",
	},
];

/** Relations of a Link header, and of `links` given as an object or a list of `{rel, href}`. */
export const LINK_RELATIONS: readonly Signal[] = [
	{ kind: 'next', names: ['next'], conventions: 'RFC 8288, GitHub, GitLab' },
	{ kind: 'lastLink', names: ['last'], conventions: 'GitHub, GitLab, JSON:API' },
	{ kind: 'firstLink', names: ['first'], conventions: 'GitHub, GitLab, JSON:API' },
	{ kind: 'selfLink', names: ['self'], conventions: 'JSON:API, HAL' },
	{ kind: 'harmless', names: ['prev', 'previous', 'related', 'describedby', 'alternate', 'canonical'], conventions: 'RFC 8288' },
];

/** Headers (names in any case). A page of pages is a pair: `page` with `pages` in the same row. */
export const HEADER_SIGNALS: readonly Signal[] = [
	{ kind: 'links', names: ['link'], conventions: 'RFC 8288: `<…>; rel="next"`, its relations read as above' },
	{
		kind: 'total',
		names: ['x-total-count', 'x-total', 'total-count', 'total', 'x-pagination-total-count'],
		conventions: 'json-server, GitLab (`X-Total`), api-pagination (`Total`), pagy (`Total-Count`), Yii',
	},
	{ kind: 'page', names: ['x-page', 'current-page', 'x-pagination-current-page'], conventions: 'GitLab, pagy, Yii' },
	{ kind: 'pages', names: ['x-total-pages', 'total-pages', 'x-pagination-page-count'], conventions: 'GitLab, pagy, Yii' },
	{
		kind: 'pageSize',
		names: ['x-per-page', 'per-page', 'page-items', 'x-pagination-per-page'],
		conventions: 'GitLab, api-pagination, pagy, Yii',
	},
	{
		kind: 'cursor',
		names: ['x-next-page', 'x-next-cursor', 'x-continuation-token', 'x-ms-continuation', 'next-range'],
		conventions: 'GitLab (a page number), Azure Cosmos DB, Heroku (`Next-Range`)',
	},
	{
		kind: 'harmless',
		names: ['x-prev-page', 'accept-ranges', 'range-unit', 'last-modified', 'last-event-id', 'x-page-speed'],
		conventions: 'GitLab, PostgREST, HTTP caching, server software',
	},
];

/** Content-Range (`items 0-19/40`, `0-19/*`): its own reading, on any status (PostgREST sends it with 200 too). */
export const CONTENT_RANGE = {
	name: 'content-range',
	rule: 'the range ends before its total (more follows), or its total is `*` (it does not say) and nothing else settles the listing; its total (unless in bytes) is also a total',
};

/** Statuses of a successful answer; any other 2xx is an error naming it (a redirect, a 4xx, a 5xx are the transport's). */
export const STATUS_SIGNALS: ReadonlyArray<{ status: number; means: string }> = [
	{ status: 200, means: 'OK: the answer' },
	{ status: 203, means: 'Non-Authoritative Information: an answer a proxy changed; read as 200' },
	{ status: 206, means: 'Partial Content: part of the listing; an error unless Content-Range (or another signal) says it reaches the end' },
];

/**
 * Words that make an unknown name paging-like (`scrollCursor`, `grand_total`, `NEXTPAGE`): an error
 * naming it. A name is split into words at separators and case changes; a word is paging-like when it
 * is made of these and FILLER_WORDS only, one of these at least (`nextpagetoken`, `hasmore`).
 */
export const PAGING_WORDS: readonly string[] = [
	'next',
	'prev',
	'previous',
	'cursor',
	'page',
	'paging',
	'paginate',
	'pagination',
	'paginated',
	'total',
	'count',
	'more',
	'offset',
	'token',
	'continuation',
	'continue',
	'last',
	'after',
	'before',
	'marker',
	'scroll',
	'skip',
	'truncated',
	'incomplete',
	'partial',
];
/** Words that join paging words into a name (`has_more`, `is_last`, `per_page`, `next_page_url`); alone they are not paging-like. */
export const FILLER_WORDS: readonly string[] = [
	'has',
	'is',
	'are',
	'per',
	'of',
	'to',
	'at',
	'by',
	'for',
	'no',
	'num',
	'number',
	'url',
	'uri',
	'link',
	'href',
	'id',
	'key',
	'value',
	'size',
	'item',
	'record',
	'result',
	'entry',
	'entries',
	'element',
	'hit',
	'row',
	'object',
	'service',
	'max',
	'min',
	'this',
	'current',
	'cur',
	'start',
	'end',
	'from',
	'get',
	'new',
	'all',
	'any',
	'first',
	'estimated',
	'approx',
	'data',
	'list',
	'set',
	'index',
	'position',
	'pos',
	'available',
];
/** Paging words that are not paging-like in a header name: `Retry-After`, `X-CSRF-Token`, `X-Auth-Token` are not paging. */
export const NOT_IN_HEADERS: readonly string[] = ['after', 'before', 'token'];
