/**
 * Reading ahead gives what the one-by-one walk gives (issue 33, item 3), over generated listings on
 * real servers on 127.0.0.1: every convention of test/harness/conventions.ts (the paging dialects
 * of the signal table, those where a sequence can be predicted and those where it cannot), at
 * addresses with page numbers from 1 or from 0, offsets or opaque cursors; links that leave the
 * sequence at a random page; a listing that gains or loses a service while it is read; a 429, 503,
 * timeout or broken body at random pages; Max Response Size near the listing's size; Parallel
 * Requests from 1 to 8.
 *
 * The platform (test/harness/readAheadPlatform.ts) answers as a deterministic function of the URL
 * asked and of how often that URL was asked before; each walk gets a fresh platform of the same spec.
 * The property: the walk with N requests at once yields the same services in the same order, or
 * fails with the same error (class, message, description; durations aside), as with 1; and it sends
 * at most N - 1 requests more (past the end, or on a wrong guess).
 *
 * The bulk runs the listing walk through a light context (test/harness/lightContext.ts), BATCH
 * listings at once on servers of their own; listings with a page that never answers run apart (each
 * waits out its Timeout); a share runs List through n8n's real engine and compares items with their
 * pairedItem. Fixed cases below keep each way a guess can fail.
 * READ_AHEAD_RUNS=<runs> explores longer (each run is BATCH listings).
 */
import fc from 'fast-check';

import type { IDataObject } from 'n8n-workflow';

import { listServicePages } from '../../nodes/shared/listing/listing';
import { openApiSession } from '../../nodes/shared/transport/transport';
import type { RequestLimits } from '../../nodes/shared/transport/types';
import { lightContext } from '../harness/lightContext';
import type { LocalServer } from '../harness/localServer';
import { closeLocalServers, startLocalServer } from '../harness/localServer';
import type { FaultKind, PlatformSpec, Scheme } from '../harness/readAheadPlatform';
import { PLATFORM_CONVENTIONS, platformOf, SCHEMES } from '../harness/readAheadPlatform';
import { runNode, servicesNode } from '../harness/workflow';

const KEY = 'sk-live-READAHEAD-7e1c04b9d2a35f68';
/** Listings checked at once, each on two servers of its own (one per walk). */
const BATCH = 16;
const RUNS = Number(process.env.READ_AHEAD_RUNS ?? 128);
const ENGINE_RUNS = Math.max(1, Math.round(RUNS / 8));
const HANG_RUNS = Math.max(1, Math.round(RUNS / 32));
/** The Timeout of a listing with a page that never answers (others: 30 s): long enough for every other page on a loaded machine. */
const SHORT_TIMEOUT_MS = 1500;

let servers: LocalServer[] = [];
beforeAll(async () => {
	servers = await Promise.all(Array.from({ length: 2 * BATCH }, () => startLocalServer({ handler: (_req, res) => res.end() })));
});
afterAll(closeLocalServers);

interface Listing {
	spec: PlatformSpec;
	parallel: number;
	/** Max Response Size in bytes, when not the default. */
	maxBytes?: number;
}

/** What a walk gave: the ids in order, or its error; the requests it sent; its debug line. */
interface Walked {
	outcome: { ids: string[] } | { error: { kind: string; message: string; description: string } };
	sent: number;
	said: string;
}

/** An error as compared: its class and texts, durations (which depend on the clock) masked. */
function seen(error: unknown) {
	const masked = (value: unknown) =>
		String(value ?? '')
			.replace(/\d+(\.\d+)? (ms|s|min|h)\b/g, '<duration>')
			.replace(/127\.0\.0\.1:\d+/g, '<platform>');
	const { name, message, description } = error as { name?: string; message?: string; description?: string };
	return { kind: name ?? typeof error, message: masked(message), description: masked(description) };
}

function limitsOf({ spec, maxBytes }: Listing, parallel: number): RequestLimits {
	const hangs = spec.faults.some(({ kind }) => kind === 'timeout');
	return {
		timeoutMs: hangs ? SHORT_TIMEOUT_MS : 30_000,
		listingTimeMs: 600_000,
		maxResponseBytes: maxBytes ?? 64 * 1024 * 1024,
		retryOnRateLimit: true,
		parallelRequests: parallel,
	};
}

/** The listing walk with `parallel` requests at once, on a fresh platform of the spec on `server`. */
async function walk(listing: Listing, server: LocalServer, parallel: number): Promise<Walked> {
	const platform = platformOf(listing.spec, () => server.origin);
	server.script(platform.handle);
	const { context, sent, debug } = lightContext(KEY);
	const credentials = { apiKey: KEY, baseUrl: server.origin };
	const ids: string[] = [];
	let outcome: Walked['outcome'];
	try {
		const session = await openApiSession.call(context, { itemIndex: 0, limits: limitsOf(listing, parallel), credentials });
		for await (const page of listServicePages(session)) for (const record of page.records) ids.push(String(record.id_service));
		outcome = { ids };
	} catch (error) {
		outcome = { error: seen(error) };
	}
	return { outcome, sent: sent(), said: debug.join('\n') };
}

/**
 * What the generated listings made the walk do (from its debug line). Each of these does not depend
 * on timing and must have happened; reads giving way under Max Response Size (which depends on
 * which answers come first) are only counted.
 */
const WAYS: Record<string, RegExp> = {
	'read ahead': /\(([1-9]\d*) read ahead\)/,
	'dropped reads on a wrong guess or past the end': /(named another next page|was the last)[^;]*; [1-9]\d* read\(s\) ahead dropped/,
	'slowed down by a 429 or 503': /answered HTTP (429|503)/,
	'one at a time for want of a sequence': /carry no page number or offset/,
	'one at a time for want of an end': /does not say where the listing ends/,
};
const GAVE_WAY = /would pass Max Response Size/;
const happened = new Map<string, number>();

/** One listing, one by one and with its Parallel Requests: the same outcome, and at most N - 1 requests more. */
async function checkListing(listing: Listing, slot: number): Promise<string> {
	const [one, many] = await Promise.all([walk(listing, servers[2 * slot], 1), walk(listing, servers[2 * slot + 1], listing.parallel)]);
	const said = `${JSON.stringify(listing)}\none by one: ${JSON.stringify(one)}\nparallel:   ${JSON.stringify(many)}`;
	if (JSON.stringify(many.outcome) !== JSON.stringify(one.outcome)) throw new Error(`different outcomes for ${said}`);
	const more = many.sent - one.sent;
	if (more < 0 || more > listing.parallel - 1) throw new Error(`${more} requests more (at most ${listing.parallel - 1}) for ${said}`);
	for (const [way, pattern] of Object.entries({ ...WAYS, 'gave way under Max Response Size': GAVE_WAY })) {
		if (pattern.test(many.said)) happened.set(way, (happened.get(way) ?? 0) + 1);
	}
	return many.said;
}

// ---- generated listings ---------------------------------------------------------------------------

/** A value in a quarter of the listings, else undefined. */
const sometimes = <T>(value: fc.Arbitrary<T>) =>
	fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value });

const faultOf = (kinds: fc.Arbitrary<FaultKind>, pages = 8) =>
	fc.record({ page: fc.integer({ min: 1, max: pages }), kind: kinds, times: fc.integer({ min: 1, max: 4 }) });
const answered = fc.oneof(
	{ weight: 2, arbitrary: fc.constantFrom<FaultKind>('429', '503') },
	{ weight: 1, arbitrary: fc.constant<FaultKind>('broken') },
);

/** A platform; `hang`: one of its first pages never answers (a timeout), besides the other faults. */
const specOf = (hang: boolean): fc.Arbitrary<PlatformSpec> =>
	fc
		.record({
			convention: fc.constantFrom(...Object.keys(PLATFORM_CONVENTIONS)),
			scheme: fc.oneof(
				{ weight: 1, arbitrary: fc.constant<Scheme>('cursor') },
				{ weight: 4, arbitrary: fc.constantFrom<Scheme>(...SCHEMES.filter((scheme) => scheme !== 'cursor')) },
			),
			param: fc.constantFrom('page', 'p', 'page%5Bnumber%5D'),
			extra: fc.constantFrom<PlatformSpec['extra']>('none', 'before', 'after'),
			services: fc.nat(20),
			perPage: fc.integer({ min: 1, max: 4 }),
			breakAt: sometimes(fc.integer({ min: 1, max: 8 })),
			change: sometimes(
				fc.record({ page: fc.integer({ min: 2, max: 7 }), kind: fc.constantFrom<'gain' | 'lose'>('gain', 'lose'), index: fc.nat(20) }),
			),
			faults: hang
				? fc
						.tuple(fc.array(faultOf(answered), { maxLength: 3 }), faultOf(fc.constant<FaultKind>('timeout'), 4))
						.map(([others, timeout]) => [...others, timeout])
				: fc.oneof(
						{ weight: 3, arbitrary: fc.array(faultOf(answered), { maxLength: 0 }) },
						{ weight: 2, arbitrary: fc.array(faultOf(answered), { minLength: 1, maxLength: 4 }) },
					),
			strays: fc.constantFrom<PlatformSpec['strays']>('answered', 'not found'),
			delays: fc.array(fc.constantFrom(0, 0, 1, 2, 5), { maxLength: 4 }),
		})
		.map((drawn) => (drawn.scheme === 'offset' ? { ...drawn, param: 'offset' } : drawn));

/** Max Response Size near a listing's size (a page is 0.5 to 1.5 KB) in some: some too large, some read ahead giving way. */
const listingOf = (hang: boolean): fc.Arbitrary<Listing> =>
	fc.record({
		spec: specOf(hang),
		parallel: fc.integer({ min: 1, max: 8 }),
		maxBytes: sometimes(fc.integer({ min: 1000, max: 12_000 })),
	});
const listing = listingOf(false);

test(`the listing walk reading ahead gives what the one-by-one walk gives (${RUNS * BATCH} generated listings)`, async () => {
	await fc.assert(
		fc.asyncProperty(fc.array(listing, { minLength: BATCH, maxLength: BATCH }), async (listings) => {
			await Promise.all(listings.map(async (one, slot) => await checkListing(one, slot)));
		}),
		{ numRuns: RUNS },
	);
	// The generated listings reach every way of reading: a property that never read ahead would prove nothing.
	expect(Object.fromEntries(Object.keys(WAYS).map((way) => [way, (happened.get(way) ?? 0) > 0]))).toEqual(
		Object.fromEntries(Object.keys(WAYS).map((way) => [way, true])),
	);
	console.info(`read-ahead property: ${RUNS * BATCH} listings; ways of reading seen: ${JSON.stringify(Object.fromEntries(happened))}`);
}, 600_000);

test(`a page that never answers: the same error, whoever asked it first (${HANG_RUNS * BATCH} generated listings)`, async () => {
	// Apart, and all of a run at once: each waits out its Timeout, twice (one walk each).
	await fc.assert(
		fc.asyncProperty(fc.array(listingOf(true), { minLength: BATCH, maxLength: BATCH }), async (listings) => {
			await Promise.all(listings.map(async (one, slot) => await checkListing(one, slot)));
		}),
		{ numRuns: HANG_RUNS },
	);
}, 600_000);

// ---- through n8n's engine: List's items and their pairedItem --------------------------------------

/** List (Return All, raw) through n8n's engine: its items with pairedItem, or its error. */
async function listThroughEngine(listing: Listing, server: LocalServer, parallel: number) {
	const platform = platformOf(listing.spec, () => server.origin);
	server.script(platform.handle);
	const limits = limitsOf(listing, parallel);
	const options: IDataObject = {
		parallelRequests: parallel,
		timeout: limits.timeoutMs,
		maxResponseSize: limits.maxResponseBytes / 1024 / 1024,
	};
	const result = await runNode({
		node: servicesNode({ returnAll: true, simplify: false, options: options as never }),
		credentials: { apiKey: KEY, baseUrl: server.origin },
	});
	if (result.error !== undefined) return { error: seen(result.error) };
	return { items: result.items.map(({ json, pairedItem }) => ({ id: json.id_service, pairedItem })) };
}

test(`List through n8n's engine reading ahead gives the items, their order and pairedItem, or the error, of one by one (${ENGINE_RUNS * 4} generated listings)`, async () => {
	await fc.assert(
		fc.asyncProperty(fc.array(listing, { minLength: 4, maxLength: 4 }), async (listings) => {
			await Promise.all(
				listings.map(async (one, slot) => {
					const [byOne, byMany] = await Promise.all([
						listThroughEngine(one, servers[2 * slot], 1),
						listThroughEngine(one, servers[2 * slot + 1], one.parallel),
					]);
					expect({ listing: one, outcome: byMany }).toEqual({ listing: one, outcome: byOne });
				}),
			);
		}),
		{ numRuns: ENGINE_RUNS },
	);
}, 600_000);

// ---- fixed cases: each way a guess can fail --------------------------------------------------------

const base: PlatformSpec = {
	convention: 'Laravel',
	scheme: 'page from 1',
	param: 'page',
	extra: 'none',
	services: 20,
	perPage: 2,
	faults: [],
	strays: 'answered',
};

test.each<[string, Partial<PlatformSpec>, Partial<Listing>, RegExp]>([
	[
		'the links leave the sequence at page 4 (the old addresses still answer)',
		{ breakAt: 4 },
		{},
		/page 4 named another next page; 4 read\(s\) ahead dropped/,
	],
	[
		'the links leave the sequence at page 4 (the old addresses are not found)',
		{ breakAt: 4, strays: 'not found' },
		{},
		/page 4 named another next page/,
	],
	[
		'the listing loses a service while it is read: it ends a page before the count said',
		{ services: 19, change: { page: 8, kind: 'lose', index: 0 } },
		{},
		/page 9 was the last, before the end the platform stated; 1 read\(s\) ahead dropped/,
	],
	[
		'the listing gains a service at its start while it is read: a service listed twice, on the same page',
		{ change: { page: 3, kind: 'gain', index: 0 } },
		{},
		/failed on page 3/,
	],
	[
		'the listing gains a service at its end: no id twice, a page more',
		{ change: { page: 3, kind: 'gain', index: 20 } },
		{},
		/read whole in [^:]+: 11 page\(s\), 21 services/,
	],
	[
		'a 429 on a page read ahead, answered at the second ask',
		{ faults: [{ page: 5, kind: '429', times: 1 }] },
		{},
		/then one at a time: the platform answered HTTP 429/,
	],
	[
		'a 503 on a page read ahead, four times: the retries run out as one by one',
		{ faults: [{ page: 5, kind: '503', times: 4 }] },
		{},
		/failed on page 5/,
	],
	[
		"429s on many pages: the listing's 10 retries run out at the same page",
		{ faults: [3, 4, 5, 6].map((page) => ({ page, kind: '429' as const, times: 3 })) },
		{},
		/failed on page 6/,
	],
	['a page read ahead never answers', { faults: [{ page: 6, kind: 'timeout', times: 1 }] }, {}, /failed on page 6/],
	['a page read ahead has a broken body', { faults: [{ page: 6, kind: 'broken', times: 1 }] }, {}, /failed on page 6/],
	[
		'Max Response Size reached while pages are read ahead, answers out of order',
		{ delays: [0, 8] },
		{ maxBytes: 6000 },
		/failed on page 7/,
	],
	['Max Response Size reached by the listing: the same page fails', {}, { maxBytes: 2500 }, /failed on page/],
	[
		'offsets that leave the sequence',
		{ scheme: 'offset', param: 'offset', convention: 'offset and limit', breakAt: 3 },
		{},
		/page 3 named another next page/,
	],
	[
		'page numbers from 0 with a last link (GitHub)',
		{ scheme: 'page from 0', convention: 'GitHub (array, Link header)' },
		{},
		/up to 5 at a time \(9 read ahead\)/,
	],
	[
		'a cursor: one by one',
		{ scheme: 'cursor', convention: 'Stripe (has_more, with a next link)' },
		{},
		/one at a time: the next links carry no page number/,
	],
])('%s', async (_case, platform, options, said) => {
	expect(await checkListing({ spec: { ...base, ...platform }, parallel: 5, ...options }, 0)).toMatch(said);
});
