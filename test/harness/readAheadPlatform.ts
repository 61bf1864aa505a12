/**
 * A platform for the read-ahead equivalence property (issue 33): a listing written in one paging
 * convention of conventions.ts, at the addresses of one scheme (page numbers from 1 or from 0,
 * offsets, opaque cursors), served by a real server on 127.0.0.1.
 *
 * Its answer to a request is a deterministic function of the URL asked and of how often that URL
 * was asked before, so "the same platform behaviour" is well defined for two walks: each walk gets a
 * fresh platform of the same spec.
 * - The listing may change while it is read: from page `change.page` on, every page is served from
 *   the listing with one service more or less (at `change.index`), its totals and counts too, as if
 *   the change happened between the pages. Which version a page shows depends on its address only.
 * - From page `breakAt` on, the next links leave the sequence (opaque `?after=` cursors); the old
 *   addresses of those pages (and a first page asked with its number) still answer, or are not
 *   found (`strays`). A page past the end of the listing is not found.
 * - Faults at a page: 429 and 503 (with Retry-After: 0) answer the first `times` asks of the
 *   page's address; a timeout (no answer) and a broken body (half of it, then the connection cut)
 *   are permanent for the address. Permanent, because a read that gave way to the pages before it
 *   under Max Response Size is asked again: a fault of the first ask only would then differ.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { PageAnswer } from './conventions';
import { CONVENTIONS, LINKS_ONLY } from './conventions';
import { serviceRecord } from './fixtures';
import { LISTING_PATH } from './pagedApi';

export const PLATFORM_CONVENTIONS = { ...CONVENTIONS, ...LINKS_ONLY };
export const SCHEMES = ['page from 1', 'page from 0', 'offset', 'cursor'] as const;
export type Scheme = (typeof SCHEMES)[number];
export const FAULT_KINDS = ['429', '503', 'timeout', 'broken'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface PlatformSpec {
	convention: string;
	scheme: Scheme;
	/** The parameter that moves (`page`, `p`, `page%5Bnumber%5D`; `offset` for offsets). */
	param: string;
	/** A parameter every next link carries too, before or after the moving one. */
	extra: 'none' | 'before' | 'after';
	services: number;
	perPage: number;
	breakAt?: number;
	change?: { page: number; kind: 'gain' | 'lose'; index: number };
	faults: Array<{ page: number; kind: FaultKind; times: number }>;
	/** What an old address after the break (or a first page asked with its number) answers. */
	strays: 'answered' | 'not found';
	/** Milliseconds page n's answer waits, `delays[n % length]`: answers come out of order, reads ahead finish before the walk reaches them. */
	delays?: number[];
}

const ids = (count: number) => Array.from({ length: count }, (_, i) => `srv-${i + 1}`);

/** The listing's ids as page `n` sees them. */
export function listingAt(spec: PlatformSpec, n: number): string[] {
	const listing = ids(spec.services);
	const { change } = spec;
	if (change === undefined || n < change.page) return listing;
	const at = change.index % (listing.length + 1);
	if (change.kind === 'gain') listing.splice(at, 0, `srv-new-${at}`);
	else if (listing.length > 0) listing.splice(at % listing.length, 1);
	return listing;
}

const pagesOf = (count: number, perPage: number) => Math.max(1, Math.ceil(count / perPage));

/** The value the moving parameter has in page n's address. */
function valueAt(spec: PlatformSpec, n: number): number {
	if (spec.scheme === 'page from 0') return n - 1;
	if (spec.scheme === 'offset') return (n - 1) * spec.perPage;
	return n;
}

/** An opaque cursor for page n (a cursor scheme, or after the break). */
const cursorOf = (n: number) => Buffer.from(`p${n}:${(n * 7919) % 1000}`).toString('base64url');

/** Page n's address (path and query): the first page is the bare listing path, as the node asks it. */
export function addressOf(spec: PlatformSpec, n: number): string {
	if (n === 1) return LISTING_PATH;
	const extra = spec.extra === 'none' ? [] : [`per_page=${spec.perPage}`];
	if (spec.scheme === 'cursor' || (spec.breakAt !== undefined && n > spec.breakAt)) {
		return `${LISTING_PATH}?${[...extra, `after=${cursorOf(n)}`].join('&')}`;
	}
	const moving = `${spec.param}=${valueAt(spec, n)}`;
	return `${LISTING_PATH}?${(spec.extra === 'after' ? [moving, ...extra] : [...extra, moving]).join('&')}`;
}

/** The page an address names, or undefined; `stray`: an address the listing's links no longer give. */
function pageOfAddress(spec: PlatformSpec, url: URL): { n: number; stray: boolean } | undefined {
	if (url.pathname !== LISTING_PATH) return undefined;
	if (url.search === '') return { n: 1, stray: false };
	const after = url.searchParams.get('after');
	if (after !== null) {
		const n = Number(/^p(\d+):/.exec(Buffer.from(after, 'base64url').toString())?.[1]);
		return Number.isInteger(n) && addressOf(spec, n) === `${url.pathname}${url.search}` ? { n, stray: false } : undefined;
	}
	if (spec.scheme === 'cursor') return undefined;
	const raw = url.search
		.slice(1)
		.split('&')
		.find((part) => part.startsWith(`${spec.param}=`));
	const value = Number(raw?.slice(spec.param.length + 1));
	if (!Number.isSafeInteger(value)) return undefined;
	const n = spec.scheme === 'page from 0' ? value + 1 : spec.scheme === 'offset' ? value / spec.perPage + 1 : value;
	if (!Number.isInteger(n) || n < 1) return undefined;
	return { n, stray: addressOf(spec, n) !== `${url.pathname}${url.search}` };
}

/** Page n's answer in the spec's convention, from the listing as page n sees it; undefined past its end. */
export function pageAt(spec: PlatformSpec, n: number, origin: string): PageAnswer | undefined {
	const listing = listingAt(spec, n);
	const pages = pagesOf(listing.length, spec.perPage);
	if (n > pages) return undefined;
	const records = listing.slice((n - 1) * spec.perPage, n * spec.perPage).map((id) => serviceRecord({ id }));
	return PLATFORM_CONVENTIONS[spec.convention]({
		records,
		n,
		pages,
		served: pages,
		base: spec.scheme === 'page from 0' ? 0 : 1,
		total: listing.length,
		perPage: spec.perPage,
		origin,
		address: (m) => `${origin}${addressOf(spec, m)}`,
	});
}

/** A fresh platform of `spec`: its request handler, and how often it was asked. */
export function platformOf(spec: PlatformSpec, origin: () => string) {
	const asked = new Map<string, number>();
	let requests = 0;
	let open = 0;
	let mostOpen = 0;
	const handle = (req: IncomingMessage, res: ServerResponse): void => {
		requests++;
		mostOpen = Math.max(mostOpen, ++open);
		res.on('close', () => open--);
		const key = req.url ?? '';
		const url = new URL(key, 'http://platform');
		const delay = spec.delays?.length ? spec.delays[(pageOfAddress(spec, url)?.n ?? 0) % spec.delays.length] : 0;
		if (delay > 0) setTimeout(() => answer(req, res), delay);
		else answer(req, res);
	};
	const answer = (req: IncomingMessage, res: ServerResponse): void => {
		const key = req.url ?? '';
		const before = asked.get(key) ?? 0;
		asked.set(key, before + 1);
		const url = new URL(key, 'http://platform');
		const page = pageOfAddress(spec, url);
		const answer = page === undefined || (page.stray && spec.strays === 'not found') ? undefined : pageAt(spec, page.n, origin());
		if (answer === undefined) return json(res, 404, { message: 'no such page' });
		const fault = spec.faults.find((one) => one.page === page!.n);
		if (fault?.kind === 'timeout') return; // never answers; the server closes it at the end
		if ((fault?.kind === '429' || fault?.kind === '503') && before < fault.times) {
			return json(res, Number(fault.kind), { message: `slow down (${fault.kind})` }, { 'Retry-After': '0' });
		}
		const body = Buffer.from(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
		if (fault?.kind === 'broken') {
			res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(body.length), ...answer.headers });
			res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.destroy());
			return;
		}
		res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
		res.end(body);
	};
	return { handle, requests: () => requests, mostAtOnce: () => mostOpen };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
	res.end(JSON.stringify(body));
}
