/**
 * Property-based (fast-check), through n8n's engine against a real paged server on 127.0.0.1 (issue 28,
 * build 1): a listing in any common paging convention, its pages counted from 0 or 1, is either read
 * whole or refused with an error naming a field; never part of it returned as all of it.
 *
 * - Whole listings whose signals agree (with harmless noise in random places: texts under generated
 *   names the table does not know) are read exactly.
 * - The same listings with an unknown paging-like field (any case and separator style) in a random
 *   place (next to the records, in a holder, inside an unknown object in a holder, a link relation,
 *   a header) end in an error naming that field.
 * - The same listings with a number or true/false under a generated name the table does not know, in
 *   a random place of the paging metadata (a holder, an unknown object or list in it), end in an error
 *   naming it (issue 34: the closed world does not guess by name; the issue's own names, `numFound`,
 *   `nbHits`, `done`, ..., are fixed examples in closed-world.test.ts and among the drawn names here).
 * - The same listings cut short (the last page served links nowhere, its metadata intact) end in
 *   "The listing is incomplete".
 * And, in memory: any JSON answer with any paging headers and status gives records found in it or a
 * ServiceResponseError, never another error. ANSWER_PROPERTY_RUNS=1000 explores longer (120 a property here).
 */
import fc from 'fast-check';

import {
	FIELD_SIGNALS,
	FILLER_WORDS,
	HEADER_SIGNALS,
	LINK_RELATIONS,
	NOT_IN_HEADERS,
	PAGING_WORDS,
} from '../../nodes/shared/answer/signalTable';
import { isPagingLike, normalName } from '../../nodes/shared/answer/names';
import { listServicePages } from '../../nodes/shared/listing/listing';
import { ServiceResponseError } from '../../nodes/shared/record/serviceRecord';
import { render } from '../../nodes/shared/text/text';
import type { ApiSession } from '../../nodes/shared/transport/transport';
import type { PageAnswer } from '../harness/conventions';
import { CONVENTIONS, isEnvelope, LINKS_ONLY } from '../harness/conventions';
import { serviceRecord } from '../harness/fixtures';
import { closeLocalServers } from '../harness/localServer';
import type { LocalApi } from '../harness/pagedApi';
import { LISTING_PATH, startLocalApi } from '../harness/pagedApi';
import { runNode, servicesNode } from '../harness/workflow';

const KEY = 'sk-live-ANSWERPROP-6d0c2e9b4a7f1358';
const RUNS = Number(process.env.ANSWER_PROPERTY_RUNS ?? 120);

// ---- one server for every case: it serves whatever the case put in `pages` ----------------------

let pages: PageAnswer[] = [];
let api: LocalApi;
beforeAll(async () => {
	api = await startLocalApi(() => (url) => {
		const n = url.pathname === LISTING_PATH ? Number(url.searchParams.get('page') ?? 1) : NaN;
		const page = pages[n - 1];
		if (page === undefined) return { status: 404, body: { message: 'no such page' } };
		return { status: page.status, body: page.body, headers: page.headers };
	});
});
afterAll(closeLocalServers);

/** List with Return All and Simplify off, through the engine: the ids it gave, or its error message. */
async function list(): Promise<{ ids?: string[]; error?: string }> {
	const result = await runNode({
		node: servicesNode({ returnAll: true, simplify: false }),
		credentials: { apiKey: KEY, baseUrl: api.origin },
	});
	if (result.error !== undefined) return { error: String(result.error.message) };
	return { ids: result.items.map((item) => String(item.json.id_service)) };
}

// ---- names ---------------------------------------------------------------------------------------

const KNOWN = new Set([...FIELD_SIGNALS, ...LINK_RELATIONS, ...HEADER_SIGNALS].flatMap(({ names }) => names.map(normalName)));
const STYLES = ['snake', 'camel', 'pascal', 'kebab', 'upper', 'compound', 'dotted'] as const;
function styled(words: string[], style: (typeof STYLES)[number]): string {
	const capital = (word: string) => word[0].toUpperCase() + word.slice(1);
	switch (style) {
		case 'snake':
			return words.join('_');
		case 'camel':
			return words[0] + words.slice(1).map(capital).join('');
		case 'pascal':
			return words.map(capital).join('');
		case 'kebab':
			return words.join('-');
		case 'upper':
			return words.join('_').toUpperCase();
		case 'compound':
			return words.join('');
		default:
			return `@${words.join('.')}`;
	}
}

/** A name the table does not know, made of a paging word and maybe others, in any style. */
const pagingName = (stems: readonly string[]) =>
	fc
		.tuple(
			fc.constantFrom(...stems),
			fc.array(fc.constantFrom(...stems, ...FILLER_WORDS), { maxLength: 2 }),
			fc.nat(),
			fc.constantFrom(...STYLES),
		)
		.map(([stem, others, at, style]) => {
			const words = [...others];
			words.splice(at % (others.length + 1), 0, stem);
			return styled(words, style);
		})
		.filter((name) => !KNOWN.has(normalName(name)));
const HEADER_STEMS = PAGING_WORDS.filter((word) => !NOT_IN_HEADERS.includes(word));

/** A name the table does not know, of any words and letters (not only paging words): generated, not listed. */
const unknownName = fc
	.oneof(
		fc.constantFrom('numFound', 'nbHits', 'found', 'numResults', 'done', 'complete', 'remaining'),
		fc
			.tuple(fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 1, maxLength: 3 }), fc.constantFrom(...STYLES))
			.map(([words, style]) => styled(words, style)),
		fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }),
	)
	.filter((name) => /^[\p{L}\p{N}_\-.@$ ]+$/u.test(name) && !KNOWN.has(normalName(name)));
/** A value that may be a count or a flag. */
const countOrFlag = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean());

// ---- listings ------------------------------------------------------------------------------------

const conventionNames = Object.keys(CONVENTIONS);
const listingShape = fc.record({
	convention: fc.constantFrom(...conventionNames),
	total: fc.nat(9),
	perPage: fc.integer({ min: 1, max: 4 }),
	base: fc.constantFrom<0 | 1>(0, 1),
});

/** The answers of a listing of `total` records in `convention`, `served` of its pages served. */
function build(
	{ convention, total, perPage, base }: { convention: string; total: number; perPage: number; base: 0 | 1 },
	cut = false,
	write = CONVENTIONS[convention],
) {
	const records = Array.from({ length: total }, (_, i) => serviceRecord({ id: `srv-${i + 1}` }));
	const count = Math.max(1, Math.ceil(total / perPage));
	const served = cut ? count - 1 : count;
	const answers = Array.from({ length: served }, (_, i) =>
		write({
			records: records.slice(i * perPage, (i + 1) * perPage),
			n: i + 1,
			pages: count,
			served,
			base,
			total,
			perPage,
			origin: api.origin,
		}),
	);
	return { answers, ids: records.slice(0, served * perPage).map((record) => record.id_service as string), count };
}

/** Objects of an envelope that are holders (or links): where a field may be put besides the top. */
function holdersOf(body: Record<string, unknown>): Array<{ path: string; holder: Record<string, unknown>; links: boolean }> {
	const found: Array<{ path: string; holder: Record<string, unknown>; links: boolean }> = [];
	const visit = (holder: Record<string, unknown>, path: string) => {
		for (const [key, value] of Object.entries(holder)) {
			if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
			const name = normalName(key);
			const at = path === '' ? key : `${path}.${key}`;
			if (['meta', 'pagination', 'paging', 'page', 'responsemetadata'].includes(name)) {
				found.push({ path: at, holder: value as Record<string, unknown>, links: false });
				visit(value as Record<string, unknown>, at);
			} else if (name === 'links') found.push({ path: at, holder: value as Record<string, unknown>, links: true });
		}
	};
	visit(body, '');
	return found;
}

/** Any page, to tell which conventions answer with an object. */
const SAMPLE = { records: [], n: 1, pages: 1, served: 1, base: 1 as const, total: 0, perPage: 1, origin: '' };

const copy = (answers: PageAnswer[]): PageAnswer[] => JSON.parse(JSON.stringify(answers)) as PageAnswer[];

describe('through the engine, against a real paged server', () => {
	test('a whole listing whose signals agree, in any convention and base, with harmless noise: exactly every record', async () => {
		const noise = fc.record({
			where: fc.nat(),
			header: fc.boolean(),
			meta: fc.oneof(
				fc.constantFrom('request_id', 'copyright', 'api_version', 'generated_at', 'warnings'),
				unknownName.filter((name) => !isPagingLike(name)),
			),
			said: fc.string({ maxLength: 12 }).filter((said) => !said.includes(LISTING_PATH)),
		});
		await fc.assert(
			fc.asyncProperty(listingShape, noise, async (shape, { where, header, meta, said }) => {
				const { answers, ids } = build(shape);
				pages = copy(answers);
				for (const page of pages) {
					if (header)
						Object.assign(page.headers, { 'X-Request-Id': 'r1', 'Last-Modified': 'Mon, 02 Nov 2026 10:00:00 GMT', 'Retry-After': '0' });
					if (!isEnvelope(page)) continue;
					const holders = holdersOf(page.body as Record<string, unknown>).filter(({ links }) => !links);
					if (holders.length > 0) holders[where % holders.length].holder[meta] = meta === 'warnings' ? [said] : said;
				}
				expect(await list()).toEqual({ ids });
			}),
			{ numRuns: RUNS },
		);
	});

	test('the same listing with an unknown paging-like field in a random place: an error naming it', async () => {
		const injection = fc.record({
			page: fc.nat(),
			where: fc.nat(),
			nested: fc.boolean(),
			relation: fc.boolean(),
			name: pagingName(PAGING_WORDS),
			header: pagingName(HEADER_STEMS).map((name) => name.replace(/^@/, '').replace(/[._]/g, '-')),
			value: fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean(), fc.constant(null), fc.constant({ next: 'x' })),
		});
		await fc.assert(
			fc.asyncProperty(listingShape, injection, async (shape, { page, where, nested, relation, name, header, value }) => {
				const { answers } = build(shape);
				pages = copy(answers);
				const target = pages[page % pages.length];
				let named: string;
				if (!isEnvelope(target) || where % 4 === 0) {
					// A header, or a relation of the Link header.
					if (relation) {
						target.headers.Link = [target.headers.Link, `</v2026/services?x=1>; rel="${name.toLowerCase()}"`].filter(Boolean).join(', ');
						named = `rel="${name.toLowerCase()}"`;
					} else {
						target.headers[header] = 'v';
						named = header;
					}
				} else {
					const body = target.body as Record<string, unknown>;
					const places = [{ path: '', holder: body, links: false }, ...holdersOf(body)];
					const place = places[where % places.length];
					if (place.path === '' || place.links || !nested) {
						place.holder[name] = value;
						named = place.path === '' ? name : `${place.path}.${name}`;
					} else {
						place.holder.extra = { [name]: value };
						named = `${place.path}.extra.${name}`;
					}
				}
				const { ids, error } = await list();
				expect(ids).toBeUndefined();
				expect(error?.toLowerCase()).toContain(named.toLowerCase());
			}),
			{ numRuns: RUNS },
		);
	});

	test('the same listing with a number or true/false under a name the node does not know, in the paging metadata: an error naming it', async () => {
		const shape = listingShape.filter(({ convention }) => isEnvelope(CONVENTIONS[convention]({ ...SAMPLE, origin: api.origin })));
		const injection = fc.record({
			page: fc.nat(),
			where: fc.nat(),
			how: fc.constantFrom('field', 'object', 'list'),
			name: unknownName,
			value: countOrFlag,
		});
		await fc.assert(
			fc.asyncProperty(shape, injection, async (listing, { page, where, how, name, value }) => {
				pages = copy(build(listing).answers);
				const body = pages[page % pages.length].body as Record<string, unknown>;
				const holders = holdersOf(body).filter(({ links }) => !links);
				if (holders.length === 0) holders.push({ path: 'meta', holder: (body.meta = {}), links: false });
				const { path, holder } = holders[where % holders.length];
				const key = how === 'field' ? name : 'extra';
				holder[key] = how === 'field' ? value : how === 'object' ? { [name]: value } : [{ [name]: value }];
				const named = how === 'field' ? `${path}.${name}` : how === 'object' ? `${path}.extra.${name}` : `${path}.extra[0].${name}`;
				const { ids, error } = await list();
				expect(ids).toBeUndefined();
				expect(error?.toLowerCase()).toContain(`"${named.toLowerCase()}"`);
			}),
			{ numRuns: RUNS },
		);
	});

	test('the same listing cut short (its last page served links nowhere): "The listing is incomplete", never part of it', async () => {
		const shape = listingShape.filter(({ total, perPage }) => total > perPage);
		await fc.assert(
			fc.asyncProperty(shape, async (listing) => {
				pages = copy(build(listing, true).answers);
				const { ids, error } = await list();
				expect(ids).toBeUndefined();
				expect(error).toMatch(/^The listing is incomplete: /);
			}),
			{ numRuns: RUNS },
		);
	});

	test('a convention whose only sign of more pages is the next link: read whole when whole (a cut is not visible to anyone)', async () => {
		for (const [name, write] of Object.entries(LINKS_ONLY)) {
			const { answers, ids } = build({ convention: name, total: 7, perPage: 3, base: 1 }, false, write);
			pages = copy(answers);
			expect(await list()).toEqual({ ids });
		}
	});
});

// ---- in memory: any answer -----------------------------------------------------------------------

const BASE = 'https://api.example.com';

/** A session that answers every request with `answer`; errors pass through as they are. */
function memorySession(answer: PageAnswer & { text: string }): ApiSession {
	return {
		baseUrl: BASE,
		get: async (target) => ({
			body: JSON.parse(answer.text) as unknown,
			text: answer.text,
			headers: answer.headers,
			status: answer.status,
			url: typeof target === 'string' ? target : `${BASE}${target.path}`,
		}),
		readAhead: () => {
			throw new Error('one by one');
		},
		parallelRequests: 1,
		oneAtATime: undefined,
		debug: () => undefined,
		toNodeError: (error) => error as Error,
		show: (value, max) => render(value, (part) => part, max),
	};
}

test('any JSON answer, with any paging headers and status: records found in it, or a ServiceResponseError; never another error', async () => {
	const headerNames = [...HEADER_SIGNALS.flatMap(({ names }) => names), 'content-range', 'x-next-token', 'link'];
	const headers = fc.dictionary(
		fc.constantFrom(...headerNames),
		fc.oneof(fc.string({ maxLength: 8 }), fc.nat(5).map(String), fc.constant('items 0-1/2')),
	);
	const idsIn = (value: unknown): string[] => JSON.stringify(value).match(/"id_service":"((?:[^"\\]|\\.)*)"/g) ?? [];
	const record = fc.record({ id_service: fc.string({ minLength: 1, maxLength: 6 }) });
	const signals = fc.dictionary(
		fc.constantFrom(...FIELD_SIGNALS.flatMap(({ names }) => names), 'extra', 'nextToken'),
		fc.jsonValue({ maxDepth: 2 }),
		{ maxKeys: 3 },
	);
	const body = fc.oneof(
		fc.jsonValue({ maxDepth: 4 }),
		fc.array(record, { maxLength: 4 }),
		fc
			.tuple(fc.constantFrom('data', 'items', 'content'), fc.array(record, { maxLength: 4 }), signals)
			.map(([key, records, rest]) => ({ ...rest, [key]: records })),
	);
	await fc.assert(
		fc.asyncProperty(body, headers, fc.constantFrom(200, 200, 203, 206, 201), async (value, sent, status) => {
			const ids: string[] = [];
			try {
				for await (const page of listServicePages(memorySession({ status, body: value, text: JSON.stringify(value), headers: sent }))) {
					ids.push(...page.records.map((one) => one.id_service));
					if (page.next !== undefined) break;
				}
			} catch (error) {
				if (error instanceof ServiceResponseError) return;
				throw error;
			}
			const found = idsIn(value);
			expect(ids.every((id) => found.includes(`"id_service":${JSON.stringify(id)}`))).toBe(true);
		}),
		{ numRuns: 1500 },
	);
});
