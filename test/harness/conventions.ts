/**
 * Paged answers in the conventions of common APIs, for the answer property test: each convention
 * writes page n of a listing (its records, its next link unless it is the last, and the paging
 * metadata it carries, all agreeing with the truth), in pages numbered from 0 or from 1. A listing
 * cut short (`served` < the pages there are) keeps every page's metadata: what it says about the
 * pages that were not served is what must make the node refuse it.
 */
import { LISTING_PATH } from './pagedApi';

export interface PageAnswer {
	status: number;
	body: unknown;
	headers: Record<string, string>;
}

export interface PageContext {
	records: Array<Record<string, unknown>>;
	/** 1-based position of this page in the walk (its URL is `?page=n` after the first). */
	n: number;
	/** Pages the listing has; `served`: pages the server gives (the last served links nowhere). */
	pages: number;
	served: number;
	/** The number the convention gives the first page (0 or 1). */
	base: 0 | 1;
	total: number;
	perPage: number;
	origin: string;
	/** Page n's absolute address; without it `?page=n` after the first (pageUrl). */
	address?: (n: number) => string;
}

export const pageUrl = (origin: string, n: number) => `${origin}${LISTING_PATH}${n === 1 ? '' : `?page=${n}`}`;

/** Page n's address in this listing. */
const urlAt = (p: PageContext, n: number): string => p.address?.(n) ?? pageUrl(p.origin, n);
/** The next page's link, or null on the last page served. */
const nextOf = (p: PageContext) => (p.n < p.served ? urlAt(p, p.n + 1) : null);
const relative = (link: string | null) => (link === null ? null : link.replace(/^https?:\/\/[^/]+/, ''));

type Convention = (page: PageContext) => PageAnswer;
const ok = (body: unknown, headers: Record<string, string> = {}): PageAnswer => ({ status: 200, body, headers });

/** Every convention; names say whose it is. Each carries a signal of its own that the listing has more pages than it served. */
export const CONVENTIONS: Record<string, Convention> = {
	'GitHub (array, Link header)': (p) => {
		const links = [
			nextOf(p) && `<${nextOf(p)}>; rel="next"`,
			p.n < p.pages && `<${urlAt(p, p.pages)}>; rel="last"`,
			p.n > 1 && `<${urlAt(p, 1)}>; rel="first"`,
		];
		const link = links.filter(Boolean).join(', ');
		return ok(p.records, link === '' ? {} : { Link: link });
	},
	'GitLab (array, X- headers)': (p) => {
		const headers: Record<string, string> = {
			'X-Total': String(p.total),
			'X-Total-Pages': String(p.pages),
			'X-Page': String(p.n - 1 + p.base),
			'X-Per-Page': String(p.perPage),
			'X-Next-Page': p.n < p.pages ? String(p.n + p.base) : '',
			'X-Prev-Page': p.n > 1 ? String(p.n - 2 + p.base) : '',
		};
		if (nextOf(p)) headers.Link = `<${nextOf(p)}>; rel="next"`;
		return ok(p.records, headers);
	},
	'json-server (array, X-Total-Count)': (p) =>
		ok(p.records, { 'X-Total-Count': String(p.total), ...(nextOf(p) ? { Link: `<${relative(nextOf(p))}>; rel="next"` } : {}) }),
	'PostgREST (Content-Range)': (p) => {
		const start = (p.n - 1) * p.perPage;
		const range = `${start}-${start + p.records.length - 1}/${p.total}`;
		const partial = p.n < p.pages;
		return {
			status: partial ? 206 : 200,
			body: p.records,
			headers: {
				'Content-Range': p.records.length === 0 ? `*/${p.total}` : range,
				...(nextOf(p) ? { Link: `<${nextOf(p)}>; rel="next"` } : {}),
			},
		};
	},
	DRF: (p) => ok({ count: p.total, next: nextOf(p), previous: p.n > 1 ? urlAt(p, p.n - 1) : null, results: p.records }),
	// Laravel counts pages from 1, and its last_page is their number.
	Laravel: (p) =>
		ok({
			current_page: p.n,
			data: p.records,
			first_page_url: urlAt(p, 1),
			from: (p.n - 1) * p.perPage + 1,
			last_page: p.pages,
			last_page_url: urlAt(p, p.pages),
			links: [
				{ url: null, label: '&laquo; Previous', active: false },
				{ url: nextOf(p), label: 'Next &raquo;', active: false },
			],
			next_page_url: nextOf(p),
			path: `${p.origin}${LISTING_PATH}`,
			per_page: p.perPage,
			prev_page_url: null,
			to: (p.n - 1) * p.perPage + p.records.length,
			total: p.total,
		}),
	'JSON:API (links object, meta)': (p) =>
		ok({
			data: p.records,
			jsonapi: { version: '1.1' },
			links: {
				self: urlAt(p, p.n),
				first: urlAt(p, 1),
				last: urlAt(p, p.pages),
				next: relative(nextOf(p)),
				prev: null,
			},
			meta: { total: p.total, request_id: `req-${p.n}` },
		}),
	'links as a list of {rel, href}': (p) =>
		ok({
			items: p.records,
			links: [
				{ rel: 'self', href: urlAt(p, p.n) },
				...(nextOf(p) ? [{ rel: 'next', href: nextOf(p) }] : []),
				{ rel: 'last', href: urlAt(p, p.pages) },
			],
		}),
	'Stripe (has_more, with a next link)': (p) =>
		ok({ object: 'list', data: p.records, has_more: p.n < p.pages, url: LISTING_PATH, next: relative(nextOf(p)) }),
	'Spring Data (content, number from 0)': (p) =>
		ok({
			content: p.records,
			pageable: {
				pageNumber: p.n - 1,
				pageSize: p.perPage,
				offset: (p.n - 1) * p.perPage,
				paged: true,
				unpaged: false,
				sort: { sorted: false },
			},
			last: p.n === p.pages,
			totalPages: p.pages,
			totalElements: p.total,
			size: p.perPage,
			number: p.n - 1,
			sort: { sorted: false, unsorted: true, empty: true },
			first: p.n === 1,
			numberOfElements: p.records.length,
			empty: p.records.length === 0,
			...(nextOf(p) ? { _links: { next: { href: nextOf(p) } } } : {}),
		}),
	'Spring HATEOAS (page object)': (p) =>
		ok({
			content: p.records,
			_links: { self: { href: urlAt(p, p.n) }, ...(nextOf(p) ? { next: { href: relative(nextOf(p)) } } : {}) },
			page: { size: p.perPage, totalElements: p.total, totalPages: p.pages, number: p.n - 1 },
		}),
	'Fractal (meta.pagination)': (p) =>
		ok({
			data: p.records,
			meta: {
				pagination: {
					total: p.total,
					count: p.records.length,
					per_page: p.perPage,
					current_page: p.n - 1 + p.base,
					total_pages: p.pages,
					links: nextOf(p) ? { next: nextOf(p) } : {},
				},
			},
		}),
	'Ghost (meta.pagination, pages)': (p) =>
		ok({
			services: p.records,
			meta: {
				pagination: { page: p.n - 1 + p.base, limit: p.perPage, pages: p.pages, total: p.total, next: relative(nextOf(p)), prev: null },
			},
		}),
	'Slack (response_metadata.next_cursor)': (p) =>
		ok({
			ok: true,
			data: p.records,
			response_metadata: { next_cursor: p.n < p.pages ? `c${p.n + 1}` : '' },
			...(nextOf(p) ? { next: nextOf(p) } : {}),
		}),
	'offset and limit': (p) => ok({ data: p.records, offset: (p.n - 1) * p.perPage, limit: p.perPage, total: p.total, next: nextOf(p) }),
};

/** Conventions whose only sign of more pages is the next link itself: a listing cut short cannot be told from a whole one. */
export const LINKS_ONLY: Record<string, Convention> = {
	'Graph API (paging)': (p) =>
		ok({ data: p.records, paging: { cursors: { before: 'b', after: 'a' }, ...(nextOf(p) ? { next: nextOf(p) } : {}) } }),
};

/** Conventions whose answer is an object: the property test puts unknown fields into it. */
export const isEnvelope = (answer: PageAnswer) => typeof answer.body === 'object' && answer.body !== null && !Array.isArray(answer.body);
