import { API_VERSION_SEGMENT } from './baseUrl';
import { platformMessageOf } from './httpErrors';
import { clip, isJsonObject } from './json';
import type { ServiceRecord, SimplifiedService } from './serviceRecord';
import { describeType, parseServiceRecord, parseSimplifiedServiceRecord, ServiceResponseError } from './serviceRecord';
import type { Text } from './text';
import { foreign } from './text';

/**
 * One answer of the listing: which shapes are accepted, where its records and next-page link are, and
 * its checked records. The walk over all pages is in listing.ts.
 */

/** The one endpoint the spec documents: GET {base}/v2026/services. The only place its path is written. */
export const SERVICES_PATH = `/${API_VERSION_SEGMENT}/services`;

export { ServiceResponseError };

export const PROVIDER_HINT =
	'The platform answered with data the node cannot use. If the platform changed its API, report it to the provider; ' +
	`to look at the raw answer, call GET ${SERVICES_PATH} with the HTTP Request node and this credential.`;

// ---- one answer -----------------------------------------------------------------------------------

/** Keys whose array holds the records in a paged envelope (`{ "data": [...], "links": {...} }`). */
const RECORD_KEYS = new Set(['data', 'items', 'results', 'services']);

/**
 * Keys a paged envelope may carry next to its records (Laravel, JSON:API, DRF, GitHub-style APIs).
 * Any other key makes the object unknown: an error, never a guess that may drop pages.
 */
const PAGING_KEYS = new Set([
	'meta',
	'links',
	'pagination',
	'paging',
	'total',
	'total_count',
	'count',
	'page',
	'per_page',
	'page_size',
	'pages',
	'total_pages',
	'current_page',
	'last_page',
	'from',
	'to',
	'path',
	'limit',
	'offset',
	'has_more',
	'next',
	'previous',
	'prev',
	'next_page_url',
	'prev_page_url',
	'first_page_url',
	'last_page_url',
]);

/** One answer of the listing: its records (not yet checked), how to name each, and where the next page is. */
export interface ListingPage {
	items: unknown[];
	/** How to name record `index` to a user: its position, or its key in a map, e.g. `#3 of 40 on page 2`. */
	labelOf: (index: number) => string;
	/** The next page's link as the server wrote it (absolute or relative) and where it was found. */
	next?: { link: string; foundIn: string };
	/** A count of all records the answer states (`total`), to notice a listing that stops early. */
	statedTotal?: number;
	/** The answer says more records exist (`has_more: true`). */
	statesMore: boolean;
}

/**
 * Reads one answer. The spec does not say whether the listing is one record or a collection, so every
 * plausible wrapping is accepted: an array, a single record, a map keyed by id, an object with one
 * property holding the array, or a paged envelope (records under `data`, `items`, `results` or
 * `services` next to paging keys only). Anything else is an error that names what came, never silently
 * an empty list.
 */
export function readListingPage(body: unknown, { linkHeader, page = 1 }: { linkHeader?: string; page?: number } = {}): ListingPage {
	const onPage = page > 1 ? ` on page ${page}` : '';
	const byPosition = (items: unknown[], where = ''): ListingPage => ({
		items,
		labelOf: (i) => `#${i + 1} of ${items.length}${where}${onPage}`,
		next: nextFromLinkHeader(linkHeader),
		statesMore: false,
	});
	if (Array.isArray(body)) return byPosition(body);
	if (isJsonObject(body)) {
		if ('id_service' in body) return byPosition([body]);
		// Before the envelope rule: `{"errors": [...]}` is one key holding an array, not an empty listing.
		const said = 'error' in body || 'errors' in body ? platformMessageOf(body) : undefined;
		if (said !== undefined || Array.isArray(body.errors)) throw platformError(said);
		const keys = Object.keys(body);
		if (keys.length === 1 && Array.isArray(body[keys[0]])) {
			return byPosition(body[keys[0]] as unknown[], ` in "${clip(keys[0])}"`);
		}
		const recordsKey = pagedEnvelopeKey(body);
		if (recordsKey !== undefined) {
			return {
				...byPosition(body[recordsKey] as unknown[], ` in "${recordsKey}"`),
				next: nextFromEnvelope(body) ?? nextFromLinkHeader(linkHeader),
				statedTotal: statedTotalOf(body),
				statesMore: body.has_more === true,
			};
		}
		const values = Object.values(body);
		if (values.every((value) => isJsonObject(value) && 'id_service' in value)) {
			return {
				items: values,
				labelOf: (i) => `"${clip(keys[i])}" (#${i + 1} of ${keys.length})${onPage}`,
				next: nextFromLinkHeader(linkHeader),
				statesMore: false,
			};
		}
	}
	throw new ServiceResponseError(
		`The API answered with ${describeShape(body)}, not a list of services`,
		'Expected an array of service records, a single record, a map of records keyed by id, or an object with ' +
			'one property holding the array. ' +
			(looksPaginated(body)
				? 'The answer looks paginated in a way the node does not know: it reads pages whose records are under data, items, ' +
					'results or services next to paging keys only (next, links, meta, total, page, per_page and the like); report this to the package maintainers. '
				: '') +
			PROVIDER_HINT,
	);
}

/** The records key of a paged envelope: exactly one of RECORD_KEYS holds an array, every other key is a paging key. */
function pagedEnvelopeKey(body: Record<string, unknown>): string | undefined {
	let recordsKey: string | undefined;
	for (const key of Object.keys(body)) {
		if (RECORD_KEYS.has(key) && Array.isArray(body[key])) {
			if (recordsKey !== undefined) return undefined;
			recordsKey = key;
		} else if (!PAGING_KEYS.has(key)) {
			return undefined;
		}
	}
	return recordsKey;
}

/**
 * The next-page link of an envelope, in the first of these places that has one: `next`, `links.next`
 * (or `links.next.href`), `next_page_url`, `meta.next`, `pagination.next`. `null` or an empty string
 * there means "last page"; a number or another type is not a link the node can follow without
 * inventing an address, so it is an error.
 */
function nextFromEnvelope(body: Record<string, unknown>): ListingPage['next'] {
	const links = isJsonObject(body.links) ? body.links : undefined;
	const linksNext = links && isJsonObject(links.next) && 'href' in links.next ? { value: links.next.href, at: 'links.next.href' } : { value: links?.next, at: 'links.next' };
	const places: Array<{ value: unknown; at: string }> = [
		{ value: body.next, at: 'next' },
		linksNext,
		{ value: body.next_page_url, at: 'next_page_url' },
		{ value: isJsonObject(body.meta) ? body.meta.next : undefined, at: 'meta.next' },
		{ value: isJsonObject(body.pagination) ? body.pagination.next : undefined, at: 'pagination.next' },
	];
	for (const { value, at } of places) {
		if (value === undefined || value === null || value === false || value === '') continue;
		if (typeof value === 'string') return { link: value, foundIn: `"${at}"` };
		throw new ServiceResponseError(
			`The listing gives its next page in "${at}" as ${describeType(value)}, not as a link`,
			'The node follows only next-page links the platform gives (a URL, absolute or relative); it does not invent page addresses. ' +
				PROVIDER_HINT,
		);
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
		if (types.includes('next') && match[1].trim() !== '') return { link: match[1].trim(), foundIn: 'the Link header' };
	}
	return undefined;
}

function statedTotalOf(body: Record<string, unknown>): number | undefined {
	const meta = isJsonObject(body.meta) ? body.meta : {};
	const pagination = isJsonObject(body.pagination) ? body.pagination : {};
	for (const value of [body.total, body.total_count, meta.total, pagination.total]) {
		if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
	}
	return undefined;
}

/** A JSON error object answered with HTTP 200, with the platform's own words when it gave some. */
function platformError(said: string | undefined): ServiceResponseError {
	return new ServiceResponseError(
		'The platform answered with an error instead of the services',
		`${said === undefined ? 'It gave no message. ' : `The platform said: "${said}". `}Try again later; if it persists, check the key and the Base URL in the credential. ${PROVIDER_HINT}`,
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
	// TRANSITIONAL (issue 23): labelOf gives a plain string that may quote a key of the answer; once it
	// gives a Text, pass it as it is. PROVIDER_HINT is the node's own wording, still a plain string.
	let index = 0;
	const label = () => foreign(page.labelOf(index), 120);
	const advice = PROVIDER_HINT as Text;
	const repeated = (id: string, firstPage: number) => {
		const where = firstPage === pageNumber ? '' : ` on page ${firstPage}`;
		return new ServiceResponseError(
			`The listing contains id_service "${clip(id)}" more than once`,
			`Record ${page.labelOf(index)} repeats an id already listed${where}. Each service must appear once; ` +
				(firstPage === pageNumber ? '' : 'if services were added or removed while the pages were read, run again. ') +
				PROVIDER_HINT,
		);
	};
	// On the listing's first page (nothing seen yet) a repeated id can only be from this page: one Map
	// operation per record (set, then compare the size) instead of a lookup and a set (bench/records.mjs).
	const firstOfListing = seen.size === 0;
	for (; index < page.items.length; index++) {
		const item = page.items[index];
		let id: string;
		if (simplified === undefined) {
			id = parseServiceRecord(item, label, advice).id_service;
		} else {
			const service = parseSimplifiedServiceRecord(item, label, advice);
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

/** The checked records of one answer on its own (no paging): what a one-page listing gives. */
export function extractServiceRecords(body: unknown): ServiceRecord[] {
	return checkPageRecords(readListingPage(body), new Map());
}

// ---- texts ----------------------------------------------------------------------------------------

/** Names a JSON value's shape without its content: types, sizes and at most ten top-level keys. */
export function describeShape(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return `an array of ${value.length} item(s)`;
	if (isJsonObject(value)) {
		const keys = Object.keys(value);
		if (keys.length === 0) return 'an empty object';
		const listed = keys
			.slice(0, 10)
			.map((key) => `${clip(key)} (${describeType(value[key])})`)
			.join(', ');
		return `an object with key(s) ${listed}${keys.length > 10 ? `, and ${keys.length - 10} more` : ''}`;
	}
	return `a ${describeType(value)}`;
}

function looksPaginated(body: unknown): boolean {
	return isJsonObject(body) && Object.values(body).some(Array.isArray);
}
