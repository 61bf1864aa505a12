import type { Extent } from '../answer/evidence';

/**
 * The platform's own page sequence, where its links show one (issue 33): the addresses of the pages
 * after the next one, for reading them ahead, and how far the platform says the listing goes. Pure:
 * it reads addresses and numbers, never a network. A prediction is only ever a guess the walk checks:
 * a page read ahead is kept only when the page before it named exactly its address as next
 * (readAhead.ts).
 */

/** A sequence of page addresses that differ in one integer query parameter, and nothing else. */
export interface PageSequence {
	/** The walk's position (1 = the first page read) of the page at index 0: the next page of the page it was found on. */
	readonly at: number;
	/** The parameter, as written in the address (`page`, `offset`, `page%5Bnumber%5D`). */
	readonly name: string;
	/** A page number (moves by 1) or an offset (moves by the records of a page). */
	readonly kind: 'page number' | 'offset';
	readonly step: number;
	/** The parameter's value in the address of the page at index 0. */
	readonly value: number;
	/** The address around the value. */
	readonly before: string;
	readonly after: string;
}

/** A whole number as an address writes it: no sign, no leading zero, no more digits than a safe integer holds. */
const INTEGER = /^(?:0|[1-9]\d{0,14})$/;

interface Address {
	base: string;
	/** The query's `name=value` parts as written, in order (none without a `?`). */
	parts: string[];
}

function split(href: string): Address {
	const url = href.split('#', 1)[0];
	const mark = url.indexOf('?');
	const query = mark < 0 ? '' : url.slice(mark + 1);
	return { base: mark < 0 ? url : url.slice(0, mark), parts: query === '' ? [] : query.split('&') };
}

/** A part's name and value (`page=2`), or undefined when it has no `=`. */
function nameValue(part: string): { name: string; value: string } | undefined {
	const at = part.indexOf('=');
	return at <= 0 ? undefined : { name: part.slice(0, at), value: part.slice(at + 1) };
}

/** How many parts are named `name`. */
const named = (parts: readonly string[], name: string) => parts.filter((part) => nameValue(part)?.name === name).length;

/**
 * The sequence the link from `read` (the address just read, `records` on it, at walk position
 * `position`) to `next` shows, or undefined. It shows one when `next` is `read` with one integer
 * query parameter moved on, everything else equal (the same parameters in the same order):
 * - by 1: a page number; by the page's records: an offset (both when the page held one record);
 * - on an address without that parameter (a first page often leaves it out), added with 1 or 2 (a
 *   page number counted from 0 or 1) or with the page's records (an offset), when only one of them
 *   fits: a page of 2 records linking to `page=2` could be either, and shows none.
 */
export function findSequence(
	read: string,
	next: string,
	{ records, position }: { records: number; position: number },
): PageSequence | undefined {
	const from = split(read);
	const to = split(next);
	if (from.base !== to.base) return undefined;
	const moved = (name: string, value: number, index: number, start: number | undefined): PageSequence | undefined => {
		const page = start === undefined ? value === 1 || value === 2 : value - start === 1;
		const offset = records > 0 && (start === undefined ? value === records : value - start === records);
		if (!page && !offset) return undefined;
		// A page of one record: both read the same addresses. Else both at once cannot be told apart.
		if (page && offset && records !== 1) return undefined;
		if (named(to.parts, name) !== 1) return undefined;
		const before = `${to.base}?${[...to.parts.slice(0, index), `${name}=`].join('&')}`;
		const after = index + 1 < to.parts.length ? `&${to.parts.slice(index + 1).join('&')}` : '';
		return { at: position + 1, name, kind: page ? 'page number' : 'offset', step: page ? 1 : records, value, before, after };
	};
	if (to.parts.length === from.parts.length) {
		const differ = to.parts.flatMap((part, index) => (part === from.parts[index] ? [] : [index]));
		if (differ.length !== 1) return undefined;
		const [index] = differ;
		const was = nameValue(from.parts[index]);
		const is = nameValue(to.parts[index]);
		if (was === undefined || is === undefined || was.name !== is.name || !INTEGER.test(was.value) || !INTEGER.test(is.value))
			return undefined;
		return moved(is.name, Number(is.value), index, Number(was.value));
	}
	if (to.parts.length !== from.parts.length + 1) return undefined;
	const kept = from.parts;
	for (let index = 0; index < to.parts.length; index++) {
		const rest = [...to.parts.slice(0, index), ...to.parts.slice(index + 1)];
		if (rest.length !== kept.length || rest.some((part, i) => part !== kept[i])) continue;
		const is = nameValue(to.parts[index]);
		if (is === undefined || !INTEGER.test(is.value) || named(kept, is.name) > 0) return undefined;
		return moved(is.name, Number(is.value), index, undefined);
	}
	return undefined;
}

/** The address the sequence gives the page at walk position `position` (at or after `sequence.at`). */
export function addressAt(sequence: PageSequence, position: number): string {
	const value = sequence.value + (position - sequence.at) * sequence.step;
	return `${sequence.before}${value}${sequence.after}`;
}

/**
 * The walk position of the last page, by what the answer of the page at `position` (holding
 * `records`) states, or undefined when it states nothing that places it in the sequence. The
 * smallest of: a page count (pages counted from the walk's first, as the completeness check counts
 * them; not in a walk begun at a later page); a total with the page size stated, or else the records
 * of this page (not the last: it has a next link) as the size of a page, counted in pages or, for an
 * offset, against the offsets; a last link that is an address of the sequence.
 */
export function lastPosition(
	sequence: PageSequence,
	{ extent, position, records, resumed }: { extent: Extent; position: number; records: number; resumed: boolean },
): number | undefined {
	const ends: number[] = [];
	if (extent.pages !== undefined && !resumed) ends.push(extent.pages);
	const { total } = extent;
	const size = extent.pageSize !== undefined && extent.pageSize > 0 ? extent.pageSize : records;
	if (total !== undefined) {
		if (sequence.kind === 'offset') ends.push(sequence.at + Math.ceil((total - sequence.value) / sequence.step) - 1);
		else if (size > 0 && !resumed) ends.push(Math.ceil(total / size));
	}
	for (const link of extent.lastLinks) {
		const bare = link.split('#', 1)[0];
		if (!bare.startsWith(sequence.before) || !bare.endsWith(sequence.after)) continue;
		const digits = bare.slice(sequence.before.length, bare.length - sequence.after.length);
		if (INTEGER.test(digits)) ends.push(sequence.at + Math.floor((Number(digits) - sequence.value) / sequence.step));
	}
	// The next page is there (a link names it) whatever a count says.
	return ends.length === 0 ? undefined : Math.max(position + 1, Math.min(...ends));
}
