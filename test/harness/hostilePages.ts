/**
 * Listings that never end, on real servers on 127.0.0.1: pages of about 10 MB each, or pages that are
 * rate limited once each. Every page links to the next one (a Link header) and holds ids of its own,
 * so only the node's bounds on the whole listing can stop the run.
 */
import { generateServices } from '../../tools/mock-platform/server.cjs';
import type { LocalServer } from './localServer';
import { startLocalServer } from './localServer';

const PAGE_MARK = '@@@@@@';
const pageOf = (url: string | undefined) => Number(new URL(url ?? '/', 'http://local').searchParams.get('page') ?? '1');
const nextLink = (page: number) => ({ Link: `<?page=${page + 1}>; rel="next"` });

/**
 * Page n: realistic records of the documented shape (about 260 bytes each, ids `p<n>-<i>`) adding up
 * to about `pageBytes`, with a Content-Length, and a link to page n+1, for ever.
 */
export async function startEndlessPages(pageBytes: number): Promise<LocalServer> {
	const sample = generateServices(2000, 17);
	const perRecord = JSON.stringify(sample).length / sample.length;
	const count = Math.ceil(pageBytes / perRecord);
	const records = Array.from({ length: count }, (_, i) => ({ ...sample[i % sample.length], id_service: `p${PAGE_MARK}-${i}` }));
	// One template, the page number put in as fixed-width digits: every page has the same size.
	const template = JSON.stringify(records);
	return await startLocalServer({
		handler: (req, res) => {
			const page = pageOf(req.url);
			const body = Buffer.from(template.replaceAll(PAGE_MARK, String(page).padStart(PAGE_MARK.length, '0')));
			res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length, ...nextLink(page) });
			res.end(body);
		},
	});
}

/**
 * Page 1 answers at once; every later page answers 429 (Retry-After: 0) to its first request and
 * its three records to the retry. Without a bound on the whole listing the run would retry once per
 * page for ever (or until the Timeout). With `lastPage`, that page links nowhere.
 */
export async function startRateLimitedPages(lastPage = Infinity): Promise<LocalServer> {
	const asked = new Map<number, number>();
	return await startLocalServer({
		handler: (req, res) => {
			const page = pageOf(req.url);
			const attempt = (asked.get(page) ?? 0) + 1;
			asked.set(page, attempt);
			if (page > 1 && attempt === 1) {
				res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
				res.end(JSON.stringify({ message: 'Too many requests, slow down' }));
				return;
			}
			const records = generateServices(3, page).map((record, i) => ({ ...record, id_service: `p${page}-${i}` }));
			res.writeHead(200, { 'content-type': 'application/json', ...(page < lastPage ? nextLink(page) : {}) });
			res.end(JSON.stringify(records));
		},
	});
}
