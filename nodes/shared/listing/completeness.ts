import { isJsonObject } from '../text/json';
import type { Text } from '../text/text';
import { foreign, own, text } from '../text/text';

/**
 * Does a listing add up? The signs the common paging conventions give that more records exist than
 * one answer holds (Laravel, Django REST Framework, Rails' kaminari / will_paginate / pagy, Stripe,
 * JSON:API, Spring, GitLab-style headers), read from one answer, and the check on the last page read:
 * a listing that promises more than was read is an error naming the field, never part of the listing
 * returned as if it were all of it. docs/paging.md lists the fields and the rules.
 */

/** Where paging metadata sits: the envelope itself, or one of these objects in it (`meta.pagination`: Fractal). */
const PLACES: ReadonlyArray<{ path: readonly string[]; name?: Text }> = [
	{ path: [] },
	{ path: ['meta'], name: own('meta') },
	{ path: ['pagination'], name: own('pagination') },
	{ path: ['meta', 'pagination'], name: own('meta.pagination') },
	{ path: ['paging'], name: own('paging') },
	{ path: ['page'], name: own('page') }, // Spring HATEOAS: "page": { "totalElements", "totalPages", "number" }
	{ path: ['meta', 'page'], name: own('meta.page') },
];

/** The whole listing's size (DRF's `count`; a `count` of one page's records is never more than was read, so harmless). */
const TOTAL_KEYS = [
	own('total'),
	own('total_count'),
	own('totalCount'),
	own('total_entries'),
	own('total_items'),
	own('totalItems'),
	own('total_results'),
	own('totalResults'),
	own('totalElements'),
	own('count'),
];
/** This page's number, counted from 1 (0 is read as the first page of a count from 0). */
const PAGE_KEYS = [own('page'), own('current_page'), own('currentPage')];
/** The number of the last page (the number of pages). */
const LAST_PAGE_KEYS = [own('total_pages'), own('totalPages'), own('last_page'), own('lastPage'), own('pages'), own('page_count'), own('pageCount')];
/** Yes/no: more records follow. */
const MORE_FLAGS = [own('has_more'), own('hasMore'), own('has_next'), own('hasNext'), own('has_next_page'), own('hasNextPage')];
/** Yes/no: this is the last page (Spring `last`); only true or false count, `last` is also a link elsewhere. */
const LAST_FLAGS = [own('last'), own('is_last'), own('isLast')];
/** A cursor for the next page: more records follow, but only at an address the node would have to invent. */
const CURSOR_KEYS = [own('next_cursor'), own('nextCursor')];

const HEADER_TOTALS = [
	{ header: 'x-total-count', name: own('the X-Total-Count header') },
	{ header: 'x-total', name: own('the X-Total header') },
	{ header: 'total-count', name: own('the Total-Count header') },
	{ header: 'total', name: own('the Total header') },
];
const HEADER_PAGES = [
	{ page: 'x-page', last: 'x-total-pages', name: own('the X-Page and X-Total-Pages headers') },
	{ page: 'current-page', last: 'total-pages', name: own('the Current-Page and Total-Pages headers') },
];

/** Keys an envelope may carry for the signals above (they are paging keys: the shape is known). */
export const SIGNAL_KEYS: readonly string[] = [
	...TOTAL_KEYS,
	...PAGE_KEYS,
	...LAST_PAGE_KEYS,
	...MORE_FLAGS,
	...LAST_FLAGS,
	...CURSOR_KEYS,
	'number', // Spring: this page's number, counted from 0
	...PLACES.map(({ path }) => path[0]).filter((key) => key !== undefined),
];

/** A count the answer states, and where. */
export interface StatedTotal {
	count: number;
	field: Text;
}

/** What one answer says about the rest of the listing. */
export interface PageSignals {
	/** The largest whole-listing count it states. */
	total?: StatedTotal;
	/** Why it says more records follow (e.g. `"has_more" is true`), for the error if no next page came. */
	more?: Text;
}

/** The objects at PLACES in an envelope, each with its name (`undefined`: the envelope itself). */
export function placesOf(body: Record<string, unknown>): Array<{ holder: Record<string, unknown>; name?: Text }> {
	const found: Array<{ holder: Record<string, unknown>; name?: Text }> = [];
	for (const { path, name } of PLACES) {
		let holder: unknown = body;
		for (const key of path) holder = isJsonObject(holder) ? holder[key] : undefined;
		if (isJsonObject(holder)) found.push({ holder, name });
	}
	return found;
}

export const fieldName = (place: Text | undefined, key: Text): Text => (place === undefined ? key : text`${place}.${key}`);

/** A whole number >= 0, as a JSON number or a string of digits; anything else is no count. */
function countOf(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
	return typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value) ? Number(value) : undefined;
}

/** true / 1 / "true" / "1" / "yes": more; false / 0 / "false" / "0" / "no" / null: no more; anything else unreadable. */
function flagOf(value: unknown): 'yes' | 'no' | 'unreadable' | undefined {
	if (value === undefined || value === null) return undefined;
	const said = typeof value === 'string' ? value.trim().toLowerCase() : value;
	if (said === true || said === 1 || said === 'true' || said === '1' || said === 'yes') return 'yes';
	if (said === false || said === 0 || said === 'false' || said === '0' || said === 'no') return 'no';
	return 'unreadable';
}

/** A value of the answer as JSON writes it (`"true"`, `1`, `{}`): String() would run an object's own toString. */
const quoted = (value: unknown): Text => foreign(JSON.stringify(value), 40);

/** Why an object at one place says more records follow, if it does. */
function moreIn(holder: Record<string, unknown>, place: Text | undefined): Text | undefined {
	for (const key of MORE_FLAGS) {
		const flag = flagOf(holder[key]);
		if (flag === 'yes') return text`"${fieldName(place, key)}" is ${quoted(holder[key])}`;
		if (flag === 'unreadable') return text`"${fieldName(place, key)}" is ${quoted(holder[key])}, which the node cannot read as true or false`;
	}
	for (const key of LAST_FLAGS) {
		if (holder[key] === false) return text`"${fieldName(place, key)}" is false`;
	}
	for (const key of CURSOR_KEYS) {
		const cursor = holder[key];
		if (cursor !== undefined && cursor !== null && cursor !== false && cursor !== '' && cursor !== 0 && cursor !== '0') {
			return text`"${fieldName(place, key)}" is ${quoted(cursor)} (a cursor for a next page)`;
		}
	}
	const lastPage = firstCount(holder, LAST_PAGE_KEYS);
	if (lastPage === undefined) return undefined;
	const page = firstCount(holder, PAGE_KEYS);
	if (page !== undefined && Math.max(page.count, 1) < lastPage.count) {
		return text`"${fieldName(place, page.key)}" is ${page.count} of "${fieldName(place, lastPage.key)}" ${lastPage.count}`;
	}
	const number = countOf(holder.number); // Spring counts pages from 0
	if (page === undefined && number !== undefined && number + 1 < lastPage.count) {
		return text`"${fieldName(place, own('number'))}" is ${number} (counted from 0) of "${fieldName(place, lastPage.key)}" ${lastPage.count}`;
	}
	return undefined;
}

function firstCount(holder: Record<string, unknown>, keys: readonly Text[]): { key: Text; count: number } | undefined {
	for (const key of keys) {
		const count = countOf(holder[key]);
		if (count !== undefined) return { key, count };
	}
	return undefined;
}

/** What an answer says about the rest of the listing: its envelope (if it has one) and its headers. */
export function readSignals(envelope: Record<string, unknown> | undefined, headers: Record<string, string | undefined> = {}): PageSignals {
	const signals: PageSignals = {};
	const stated = (count: number | undefined, field: Text) => {
		if (count !== undefined && (signals.total === undefined || count > signals.total.count)) signals.total = { count, field };
	};
	for (const { holder, name } of envelope ? placesOf(envelope) : []) {
		for (const key of TOTAL_KEYS) stated(countOf(holder[key]), text`"${fieldName(name, key)}"`);
		signals.more ??= moreIn(holder, name);
	}
	for (const { header, name } of HEADER_TOTALS) stated(countOf(headers[header]), name);
	for (const { page, last, name } of HEADER_PAGES) {
		const [current, of] = [countOf(headers[page]), countOf(headers[last])];
		if (current !== undefined && of !== undefined && Math.max(current, 1) < of) signals.more ??= text`${name} say page ${current} of ${of}`;
	}
	const nextPage = headers['x-next-page']?.trim();
	if (nextPage) signals.more ??= text`the X-Next-Page header is ${quoted(nextPage)} (a next page's number)`;
	return signals;
}

/**
 * The check where the reader reaches the last page (no next link): its own signals, the latest total
 * any page stated, and how many records all pages held. Returns what does not add up, or undefined.
 * A stated total smaller than what was read is fine (the listing grew while it was read).
 * `resumed`: the walk began at a later page (the editor's search), so what was read is not the whole
 * listing and totals are not compared.
 */
export function incompleteness({
	last,
	stated,
	read,
	pages,
	resumed = false,
}: {
	last: PageSignals;
	stated?: StatedTotal & { page: number };
	read: number;
	pages: number;
	resumed?: boolean;
}): Text | undefined {
	if (!resumed && stated !== undefined && stated.count > read) {
		const where = pages > 1 ? text` on page ${stated.page}` : own('');
		const held = pages > 1 ? text`the ${pages} pages held ${read}` : text`the answer held ${read}`;
		return text`${stated.field}${where} states ${stated.count} services, but ${held}`;
	}
	if (last.more !== undefined) return text`${last.more}, but no link to the next page came (services read: ${read})`;
	return undefined;
}
