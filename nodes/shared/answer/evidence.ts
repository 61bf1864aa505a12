import type { Text } from '../text/text';
import { foreign, own, text } from '../text/text';
import { disagreeingNextLinks, unreadable } from './answerTexts';

/**
 * What one answer says about the rest of the listing, gathered while envelope.ts and headers.ts read
 * it, and the readers of the values its signals take. The judgement of the whole listing (does it
 * add up on its last page?) is the listing's (listing/completeness.ts).
 */

/** A count the answer states, and where. */
export interface StatedTotal {
	count: number;
	field: Text;
}

/** A link the answer gives, as written, and where. */
export interface FoundLink {
	link: string;
	foundIn: Text;
}

/** What one answer says about the rest of the listing, in three strengths. */
export interface PageSignals {
	/** The largest whole-listing count it states. */
	total?: StatedTotal;
	/** Why it says more records follow (`"has_more" is true`): an error when no next link came. */
	more?: Text;
	/** Why more may follow (a last link to another address): an error when no next link came and nothing settles it. */
	unsettled?: Text;
	/** Why this page is the last (`"last" is true`): settles `unsettled`, never `more`. */
	complete?: Text;
}

/**
 * What an answer says about where the listing ends, for reading ahead along the platform's own page
 * sequence (listing/pageSequence.ts): the smallest page count and the largest page size it states,
 * its total, and its last links resolved against its address.
 */
export interface Extent {
	pages?: number;
	pageSize?: number;
	total?: number;
	lastLinks: readonly string[];
}

/** Where the answer stands in the walk: its page number (1 = the first read) and whether the walk began at a later page. */
export interface Position {
	page: number;
	resumed: boolean;
}

/** One holder's page of pages (`page`, `total_pages`, Spring's `number`), judged when the answer is read. */
export interface PageOfPages {
	page?: StatedTotal;
	pages?: StatedTotal;
	fromZero?: StatedTotal;
}

/** The kinds of signal whose value is a count: listed once, the type read off the list. */
const COUNT_KINDS = ['total', 'page', 'pages', 'pageFromZero', 'pageSize'] as const;
type CountKind = (typeof COUNT_KINDS)[number];
const COUNT_KIND_SET: ReadonlySet<string> = new Set(COUNT_KINDS);
export const isCountKind = (kind: string): kind is CountKind => COUNT_KIND_SET.has(kind);

/** Collects what one answer says while it is read. */
export class Reading {
	readonly signals: PageSignals = {};

	readonly nexts: FoundLink[] = [];

	readonly lastLinks: FoundLink[] = [];

	readonly firstLinks: FoundLink[] = [];

	readonly selfLinks: FoundLink[] = [];

	readonly pageSizes: StatedTotal[] = [];

	readonly pageOfPages: PageOfPages[] = [];

	/** The answer has a field or header for the next link (even an empty one): links, not invented addresses, are its convention. */
	hasNextField = false;

	constructor(readonly position: Position) {}

	more(why: Text): void {
		this.signals.more ??= why;
	}

	unsettled(why: Text): void {
		this.signals.unsettled ??= why;
	}

	complete(why: Text): void {
		this.signals.complete ??= why;
	}

	total(count: number, field: Text): void {
		if (this.signals.total === undefined || count > this.signals.total.count) this.signals.total = { count, field };
	}

	/** A signal that is a count (a total, a page's number, the number of pages, a page size), at `where` in `holder`: null is none, another value an error naming it. */
	count(kind: CountKind, value: unknown, where: Text, holder: PageOfPages): void {
		const stated = statedCount(value, where);
		if (stated === undefined) return;
		if (kind === 'total') this.total(stated.count, stated.field);
		else if (kind === 'pageSize') this.pageSizes.push(stated);
		else if (kind === 'page') holder.page ??= stated;
		else if (kind === 'pages') holder.pages ??= stated;
		else holder.fromZero ??= stated;
	}

	/** The one next link of the answer: every place that gave one must give the same page (resolved against `url`). */
	next(url: string): FoundLink | undefined {
		const [first, ...others] = this.nexts;
		if (first === undefined) return undefined;
		const resolved = resolve(first.link, url);
		const other = others.find((next) => resolve(next.link, url) !== resolved);
		if (other !== undefined) throw disagreeingNextLinks(first, other);
		return first;
	}

	/** Judges each holder's page of pages, and each last link, once the whole answer is read. */
	judge(url: string, records: number): void {
		for (const holder of this.pageOfPages) this.judgePageOfPages(holder);
		const { page, resumed } = this.position;
		for (const last of this.lastLinks) {
			const to = resolve(last.link, url);
			const same = (links: FoundLink[]) => links.some((link) => resolve(link.link, url) === to);
			if (to === resolve(url, url) || same(this.selfLinks) || (page === 1 && !resumed && same(this.firstLinks))) {
				this.complete(text`${last.foundIn} is this page`);
			} else {
				this.unsettled(text`${last.foundIn} leads to another page ("${foreign(last.link, 120)}")`);
			}
		}
		if (!this.hasNextField && records > 0) {
			const size = this.pageSizes.find(({ count }) => count > 0 && records >= count);
			if (size !== undefined)
				this.unsettled(text`the page holds ${records} services, as many as ${size.field} ${size.count} says a page holds`);
		}
	}

	/** Where the answer says the listing ends (read once the whole answer is read). */
	extent(url: string): Extent {
		const counts = (values: Array<number | undefined>) => values.filter((value): value is number => value !== undefined && value > 0);
		const pages = counts(this.pageOfPages.map((holder) => holder.pages?.count));
		const sizes = counts(this.pageSizes.map((size) => size.count));
		return {
			...(pages.length > 0 && { pages: Math.min(...pages) }),
			...(sizes.length > 0 && { pageSize: Math.max(...sizes) }),
			...(this.signals.total !== undefined && { total: this.signals.total.count }),
			lastLinks: this.lastLinks.map((last) => resolve(last.link, url)),
		};
	}

	private judgePageOfPages({ page, pages, fromZero }: PageOfPages): void {
		if (pages === undefined) return;
		const { page: read, resumed } = this.position;
		// From the first page on, the pages read are counted: the count settles it whatever the numbering.
		if (!resumed) {
			const said =
				page === undefined
					? text`${pages.field} is ${pages.count} (pages read: ${read})`
					: text`${page.field} is ${page.count} of ${pages.field} ${pages.count} (pages read: ${read})`;
			if (pages.count > read) this.more(said);
			else this.complete(said);
		} else if (page !== undefined) {
			if (page.count + 1 < pages.count) this.more(text`${page.field} is ${page.count} of ${pages.field} ${pages.count}`);
			else if (page.count >= pages.count) this.complete(text`${page.field} is ${page.count} of ${pages.field} ${pages.count}`);
			else this.unsettled(text`${page.field} is ${page.count} of ${pages.field} ${pages.count} (one more page if pages count from 1)`);
		}
		if (fromZero !== undefined) {
			const of = text`${fromZero.field} is ${fromZero.count} (counted from 0) of ${pages.field} ${pages.count}`;
			if (fromZero.count + 1 < pages.count) this.more(of);
			else this.complete(of);
		}
	}
}

/** A link resolved against the page's URL, for comparing (an unresolvable link stays as written). */
function resolve(link: string, url: string): string {
	if (!URL.canParse(link, url)) return link;
	const resolved = new URL(link, url);
	resolved.hash = '';
	return resolved.href;
}

// ---- the values signals take -------------------------------------------------------------------

/** A whole number >= 0, as a JSON number or a string of at most 15 digits; null: none; anything else: unreadable. */
function countOf(value: unknown): number | null | 'unreadable' {
	if (value === null) return null;
	if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : 'unreadable';
	return typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value) ? Number(value) : 'unreadable';
}

/** The count a signal states at `where`, or undefined for null; an error naming it when it is no count. */
function statedCount(value: unknown, where: Text): StatedTotal | undefined {
	const count = countOf(value);
	if (count === 'unreadable') throw unreadable(where, value, own('as a count'));
	return count === null ? undefined : { count, field: where };
}

/** true / 1 / "true" / "1" / "yes" (any case): yes; false / 0 / "false" / "0" / "no": no; null: none. */
export function flagOf(value: unknown): 'yes' | 'no' | null | 'unreadable' {
	if (value === null) return null;
	const said = typeof value === 'string' ? value.trim().toLowerCase() : value;
	if (said === true || said === 1 || said === 'true' || said === '1' || said === 'yes') return 'yes';
	if (said === false || said === 0 || said === 'false' || said === '0' || said === 'no') return 'no';
	return 'unreadable';
}

/** A link: a text, or `{ "href": text }` (JSON:API, HAL); null, "", false: none. */
export function linkOf(value: unknown): { link: string; at: string } | null | 'unreadable' {
	if (value === null || value === false || value === '') return null;
	if (typeof value === 'string') return { link: value, at: '' };
	if (typeof value === 'object' && !Array.isArray(value) && typeof (value as { href?: unknown }).href === 'string') {
		const href = (value as { href: string }).href;
		return href === '' ? null : { link: href, at: '.href' };
	}
	return 'unreadable';
}

/** A cursor for a next page: set (more follows) or not; an object, a list or `true` is unreadable. */
export function cursorOf(value: unknown): 'set' | null | 'unreadable' {
	if (value === null || value === false || value === '' || value === 0 || value === '0') return null;
	if (typeof value === 'string' || typeof value === 'number') return 'set';
	return 'unreadable';
}
