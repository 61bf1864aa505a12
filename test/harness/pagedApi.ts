/**
 * A paged service listing for tests: each page's answer in one of the next-link forms the node
 * follows, and a real HTTP server on 127.0.0.1 that serves it and records every request.
 */
import type { LocalServer } from './localServer';
import { startLocalServer } from './localServer';

export const LISTING_PATH = '/v2026/services';

/** Where an answer puts its next-page link (the forms README "Pages" lists). */
export const NEXT_FORMS = [
	'next',
	'next (relative)',
	'links.next',
	'links.next.href',
	'next_page_url',
	'meta.next',
	'pagination.next',
	'Link header',
] as const;
export type NextForm = (typeof NEXT_FORMS)[number];

/** Page n (1-based) is `/v2026/services` for the first, `/v2026/services?page=n` after. */
export const pagePath = (n: number) => (n === 1 ? LISTING_PATH : `${LISTING_PATH}?page=${n}`);

/** The answer for page `n` of `pages`: its records wrapped as `form` says, with a link to page n+1 unless last. */
export function pageAnswer(
	pages: unknown[][],
	n: number,
	form: NextForm,
	origin: string,
): { body: unknown; headers: Record<string, string> } {
	const records = pages[n - 1] ?? [];
	const last = n >= pages.length;
	const absolute = last ? null : `${origin}${pagePath(n + 1)}`;
	const relative = last ? null : `?page=${n + 1}`;
	switch (form) {
		case 'next':
			return { body: { data: records, next: absolute }, headers: {} };
		case 'next (relative)':
			return { body: { data: records, next: relative, total: pages.flat().length }, headers: {} };
		case 'links.next':
			return { body: { items: records, links: { self: `${origin}${pagePath(n)}`, next: absolute } }, headers: {} };
		case 'links.next.href':
			return { body: { results: records, links: { next: last ? null : { href: pagePath(n + 1) } } }, headers: {} };
		case 'next_page_url':
			return {
				body: { current_page: n, data: records, next_page_url: absolute, per_page: records.length, total: pages.flat().length },
				headers: {},
			};
		case 'meta.next':
			return { body: { services: records, meta: { next: last ? null : pagePath(n + 1), page: n } }, headers: {} };
		case 'pagination.next':
			return { body: { data: records, pagination: { next: relative, page: n, pages: pages.length } }, headers: {} };
		case 'Link header':
			return { body: records, headers: last ? {} : { Link: `<${absolute}>; rel="next", <${origin}${pagePath(1)}>; rel="first"` } };
	}
}

/** Splits `records` into pages of `size` (one empty page when there are none). */
export function paginate<T>(records: T[], size: number): T[][] {
	const pages: T[][] = [];
	for (let i = 0; i < records.length; i += size) pages.push(records.slice(i, i + size));
	return pages.length > 0 ? pages : [[]];
}

export type LocalApi = LocalServer;

/** `answer` gets the request URL (path and query) and returns status, body and headers. */
export type Answer = (url: URL) => { status?: number; body: unknown; headers?: Record<string, string> };

/** A real server on 127.0.0.1 (test/harness/localServer.ts) answering JSON; `answer` is made once its origin is known. */
export async function startLocalApi(answer: (origin: string) => Answer): Promise<LocalApi> {
	let respond: Answer = () => ({ body: [] });
	const server = await startLocalServer({
		handler: (req, res) => {
			const { status = 200, body, headers = {} } = respond(new URL(req.url ?? '/', 'http://local'));
			res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
			res.end(typeof body === 'string' ? body : JSON.stringify(body));
		},
	});
	respond = answer(server.origin);
	return server;
}

/** A local API serving `pages` in `form`; a page number past the end answers 404. */
export async function startPagedApi(pages: unknown[][], form: NextForm): Promise<LocalApi> {
	return await startLocalApi((origin) => (url) => {
		if (url.pathname !== LISTING_PATH) return { status: 404, body: { message: 'not found' } };
		const n = Number(url.searchParams.get('page') ?? '1');
		if (!Number.isInteger(n) || n < 1 || n > pages.length) return { status: 404, body: { message: 'no such page' } };
		return pageAnswer(pages, n, form, origin);
	});
}
