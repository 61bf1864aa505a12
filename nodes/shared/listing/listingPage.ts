import { API_VERSION_SEGMENT } from '../transport/baseUrl';
import type { PageSignals } from './completeness';
import { fieldName, incompleteness, placesOf, readSignals, SIGNAL_KEYS } from './completeness';
import { platformMessageOf } from '../transport/httpErrors';
import { isJsonObject } from '../text/json';
import type { ServiceRecord, SimplifiedService } from '../record/serviceRecord';
import { describeType, parseServiceRecord, parseSimplifiedServiceRecord, ServiceResponseError } from '../record/serviceRecord';
import type { Text } from '../text/text';
import { EXCERPT_MAX, foreign, join, own, text } from '../text/text';

/** One answer of the listing: accepted shapes, its records and next-page link, its checked records (the walk: listing.ts). */

/**
 * The one endpoint the spec documents: GET {base}/v2026/services. The only place its path is written;
 * the node's own wording, also where a text quotes the URL (transport/quotedUrl.ts).
 */
export const SERVICES_PATH = text`/${API_VERSION_SEGMENT}/services`;

export { ServiceResponseError };

/** Ends the description of every answer the node cannot use. Its path is SERVICES_PATH (a test checks). */
export const PROVIDER_HINT = own(
	'The platform answered with data the node cannot use. If the platform changed its API, report it to the provider; to look at the raw answer, call GET /v2026/services with the HTTP Request node and this credential.',
);

// ---- one answer -----------------------------------------------------------------------------------

/** Keys whose array holds the records in a paged envelope (`{ "data": [...], "links": {...} }`; Spring: `content`). */
const RECORD_KEYS = [own('data'), own('items'), own('results'), own('services'), own('content')];

/** Where an envelope gives its next page's link, in each of completeness.ts's places (`next`, `meta.pagination.links.next`, `paging.next`, ...). */
const NEXT_KEYS = [own('next'), own('links'), own('_links'), own('next_page_url'), own('next_url'), own('next_page')];

/**
 * Keys a paged envelope may carry next to its records (Laravel, JSON:API, DRF, Stripe, Spring,
 * GitHub-style APIs), the completeness signals among them. Any other key makes the object unknown:
 * an error, never a guess that may drop pages.
 */
const PAGING_KEYS = new Set<string>([
	...NEXT_KEYS,
	...SIGNAL_KEYS,
	...['per_page', 'perPage', 'page_size', 'pageSize', 'limit', 'offset', 'from', 'to', 'path'],
	...['previous', 'prev', 'prev_page_url', 'prev_url', 'prev_page', 'previous_page', 'first_page_url', 'last_page_url'],
	...['size', 'numberOfElements', 'first', 'empty', 'sort', 'pageable'], // Spring
	...['object', 'url'], // Stripe: "object": "list", and the list's own address
	'jsonapi',
]);

/**
 * Keys with which an answer says it succeeded or failed. `error`/`errors` that are null, false, 0,
 * "" (or only spaces), [] or {} say "no error"; any other value is the platform answering with an
 * error. `success`/`ok`: true is fine, false an error; another value is no status (an unknown key).
 */
const STATUS_KEYS = ['error', 'errors', 'success', 'ok'];

function reportsError(key: string, value: unknown): boolean | undefined {
	if (key === 'success' || key === 'ok') return typeof value === 'boolean' ? !value : undefined;
	if (value === null || value === false || value === 0) return false;
	if (typeof value === 'string') return value.trim() !== '';
	if (Array.isArray(value)) return value.length > 0;
	if (isJsonObject(value)) return Object.keys(value).length > 0;
	return true;
}

/** An answer without the status keys that say "no error"; throws the platform's error if one says there is one. */
function withoutStatus(body: Record<string, unknown>): Record<string, unknown> {
	let fine: string[] | undefined;
	for (const key of STATUS_KEYS) {
		if (!(key in body)) continue;
		const failed = reportsError(key, body[key]);
		if (failed) throw platformError(platformMessageOf(body));
		if (failed === false) (fine ??= []).push(key);
	}
	if (fine === undefined) return body;
	const rest = { ...body };
	for (const key of fine) delete rest[key];
	return rest;
}

/** One answer of the listing: its records (not yet checked), how to name each, where the next page is. */
export interface ListingPage {
	items: unknown[];
	/** How to name record `index` to a user: its position, or its key in a map, e.g. `#3 of 40 on page 2`. */
	labelOf: (index: number) => Text;
	/** The next page's link as the server wrote it (absolute or relative) and where it was found. */
	next?: { link: string; foundIn: Text };
	/** What the answer says about the rest of the listing (a total, more pages): completeness.ts. */
	signals: PageSignals;
}

/**
 * Reads one answer. The spec does not say whether the listing is one record or a collection, so every
 * plausible wrapping is accepted: an array, a single record, a map keyed by id, an object with one
 * property holding the array, or a paged envelope (records under `data`, `items`, `results`,
 * `services` or `content` next to paging keys only). Status keys saying "no error" (`errors: []`,
 * `error: false`, `success: true`) are set aside first. Anything else is an error that names what
 * came, never silently an empty list. `headers`: lower-case names (Link, X-Total-Count, ...).
 */
export function readListingPage(answer: unknown, { headers = {}, page = 1 }: { headers?: Record<string, string | undefined>; page?: number } = {}): ListingPage {
	const onPage = page > 1 ? text` on page ${page}` : own('');
	// The next link and the signals are read once: from the envelope (when there is one) and the headers.
	const byPosition = (items: unknown[], where: Text = own(''), envelope?: Record<string, unknown>): ListingPage => ({
		items,
		labelOf: (i) => text`#${i + 1} of ${items.length}${where}${onPage}`,
		next: (envelope && nextFromEnvelope(envelope)) ?? nextFromLinkHeader(headers.link),
		signals: readSignals(envelope, headers),
	});
	if (Array.isArray(answer)) return byPosition(answer);
	if (isJsonObject(answer)) {
		if ('id_service' in answer) return byPosition([answer]);
		const body = withoutStatus(answer);
		const keys = Object.keys(body);
		if (keys.length === 1 && Array.isArray(body[keys[0]])) {
			const known = RECORD_KEYS.find((name) => name === keys[0]);
			return byPosition(body[keys[0]] as unknown[], text` in "${known ?? foreign(keys[0], 60)}"`);
		}
		const recordsKey = pagedEnvelopeKey(body);
		if (recordsKey !== undefined) {
			return byPosition(body[recordsKey] as unknown[], text` in "${recordsKey}"`, body);
		}
		const values = Object.values(body);
		// `{}` is an empty map; `{"errors": []}` only reports a status, and holds no listing.
		const onlyStatus = keys.length === 0 && body !== answer;
		if (!onlyStatus && values.every((value) => isJsonObject(value) && 'id_service' in value)) {
			return {
				...byPosition(values),
				labelOf: (i) => text`"${foreign(keys[i], 60)}" (#${i + 1} of ${keys.length})${onPage}`,
			};
		}
	}
	throw new ServiceResponseError(
		text`The API answered with ${describeShape(answer)}, not a list of services`,
		text`Expected an array of service records, a single record, a map of records keyed by id, or an object with one property holding the array. ${
			looksPaginated(answer)
				? own(
						'The answer looks paginated in a way the node does not know: it reads pages whose records are under data, items, results, services or content next to paging keys only (next, links, meta, total, page, per_page and the like, listed in docs/paging.md); report this to the package maintainers. ',
					)
				: own('')
		}${PROVIDER_HINT}`,
	);
}

/** The records key of a paged envelope: exactly one of RECORD_KEYS holds an array, every other key is a paging key. */
function pagedEnvelopeKey(body: Record<string, unknown>): Text | undefined {
	let recordsKey: Text | undefined;
	for (const key of Object.keys(body)) {
		const asRecords = RECORD_KEYS.find((name) => name === key);
		if (asRecords !== undefined && Array.isArray(body[key])) {
			if (recordsKey !== undefined) return undefined;
			recordsKey = asRecords;
		} else if (!PAGING_KEYS.has(key)) {
			return undefined;
		}
	}
	return recordsKey;
}

/**
 * The next-page link of an envelope: in each place paging metadata sits (the envelope, `meta`,
 * `pagination`, `meta.pagination`, `paging`, ...), the first of `next`, `links.next` (or its
 * `.href`), `_links.next`, `next_page_url`, `next_url`, `next_page` that has one. `null`, `false`
 * or an empty string there means "last page"; a number or another type is not a link the node can
 * follow without inventing an address, so it is an error.
 */
function nextFromEnvelope(body: Record<string, unknown>): ListingPage['next'] {
	for (const { holder, name } of placesOf(body)) {
		for (const key of NEXT_KEYS) {
			let value = holder[key];
			let at = fieldName(name, key);
			if (key === 'links' || key === '_links') {
				value = isJsonObject(value) ? value.next : undefined;
				at = text`${at}.next`;
				if (isJsonObject(value) && 'href' in value) [value, at] = [value.href, text`${at}.href`];
			}
			if (value === undefined || value === null || value === false || value === '') continue;
			if (typeof value === 'string') return { link: value, foundIn: text`"${at}"` };
			throw new ServiceResponseError(
				text`The listing gives its next page in "${at}" as ${describeType(value)}, not as a link`,
				text`The node follows only next-page links the platform gives (a URL, absolute or relative); it does not invent page addresses. ${PROVIDER_HINT}`,
			);
		}
	}
	return undefined;
}

/** `Link: <https://...?page=2>; rel="next", <...>; rel="last"` (RFC 8288); rel may list several types. */
function nextFromLinkHeader(header: string | undefined): ListingPage['next'] {
	if (!header) return undefined;
	// A parameter value may be a quoted string holding ',' or ';' (title="a, b"): read it whole.
	for (const match of header.matchAll(/<([^>]*)>((?:\s*;\s*(?:[^;,"]|"[^"]*")+)*)/g)) {
		const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2]);
		const types = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
		if (types.includes('next') && match[1].trim() !== '') return { link: match[1].trim(), foundIn: own('the Link header') };
	}
	return undefined;
}

/** A JSON error object answered with HTTP 200, with the platform's own words when it gave some. */
function platformError(said: string | undefined): ServiceResponseError {
	return new ServiceResponseError(
		own('The platform answered with an error instead of the services'),
		text`${said === undefined ? own('It gave no message. ') : text`The platform said: "${foreign(said, EXCERPT_MAX)}". `}Try again later; if it persists, check the key and the Base URL in the credential. ${PROVIDER_HINT}`,
	);
}

/**
 * The checked records of one page, in the API's order; `seen` (id -> page it was on) carries across
 * pages, so an id listed twice anywhere in the listing is an error. With `simplified`, each record's
 * Simplify view is put there too, at its index, in the same pass that checks it (each record read once).
 */
export function checkPageRecords(
	page: ListingPage,
	seen: Map<string, number>,
	pageNumber = 1,
	simplified?: SimplifiedService[],
): ServiceRecord[] {
	// One label function per page, not per record: it is only called for a record that fails.
	let index = 0;
	const label = () => page.labelOf(index);
	const repeated = (id: string, firstPage: number) =>
		new ServiceResponseError(
			text`The listing contains id_service "${foreign(id, 80)}" more than once`,
			firstPage === pageNumber
				? text`Record ${page.labelOf(index)} repeats an id already listed. Each service must appear once; ${PROVIDER_HINT}`
				: text`Record ${page.labelOf(index)} repeats an id already listed on page ${firstPage}. Each service must appear once; if services were added or removed while the pages were read, run again. ${PROVIDER_HINT}`,
		);
	// On the listing's first page a repeated id can only be from it: one Map operation per record (bench/records.mjs).
	const firstOfListing = seen.size === 0;
	for (; index < page.items.length; index++) {
		const item = page.items[index];
		let id: string;
		if (simplified === undefined) {
			id = parseServiceRecord(item, label, PROVIDER_HINT).id_service;
		} else {
			const service = parseSimplifiedServiceRecord(item, label, PROVIDER_HINT);
			simplified[index] = service;
			id = service.id_service;
		}
		if (firstOfListing) {
			const size = seen.size;
			if (seen.set(id, pageNumber).size === size) throw repeated(id, pageNumber);
		} else {
			const firstPage = seen.get(id);
			if (firstPage !== undefined) throw repeated(id, firstPage);
			seen.set(id, pageNumber);
		}
	}
	// Every item is a checked record, the very object the API sent: the page's own array, not a copy.
	return page.items as ServiceRecord[];
}

/**
 * On the last page read (no next link), the listing must add up (completeness.ts): else an error
 * naming the field, what it promised and what was read.
 */
export function checkNothingLeft(check: Parameters<typeof incompleteness>[0]): void {
	const gap = incompleteness(check);
	if (gap === undefined) return;
	throw new ServiceResponseError(
		text`The listing is incomplete: ${gap}`,
		text`${own(
			"The node follows only the next-page links the platform gives (next, links.next, next_page_url and the like, or a Link header: the package's docs/paging.md lists them); it does not invent page addresses, and it does not return part of a listing as if it were all of it. If services were added or removed while the pages were read, run again. ",
		)}${PROVIDER_HINT}`,
	);
}

/** The checked records of one answer on its own: what a one-page listing gives (so it must add up when it links no further). */
export function extractServiceRecords(body: unknown, headers?: Record<string, string | undefined>): ServiceRecord[] {
	const page = readListingPage(body, { headers });
	const records = checkPageRecords(page, new Map());
	if (page.next === undefined) checkNothingLeft({ last: page.signals, stated: page.signals.total && { ...page.signals.total, page: 1 }, read: records.length, pages: 1 });
	return records;
}

// ---- texts ----------------------------------------------------------------------------------------

/**
 * Names a JSON value's shape without its content: types, sizes and at most ten top-level keys.
 * (describeType, serviceRecord.ts, still gives a plain string: put in with foreign() until it gives Text.)
 */
export function describeShape(value: unknown): Text {
	if (value === null) return own('null');
	if (Array.isArray(value)) return text`an array of ${value.length} item(s)`;
	if (isJsonObject(value)) {
		const keys = Object.keys(value);
		if (keys.length === 0) return own('an empty object');
		const listed = join(
			keys.slice(0, 10).map((key) => text`${foreign(key, 40)} (${foreign(describeType(value[key]), 40)})`),
			own(', '),
		);
		return text`an object with key(s) ${listed}${keys.length > 10 ? text`, and ${keys.length - 10} more` : own('')}`;
	}
	return text`a ${foreign(describeType(value), 40)}`;
}

function looksPaginated(body: unknown): boolean {
	return isJsonObject(body) && Object.values(body).some(Array.isArray);
}
