import type { PageSignals, StatedTotal } from '../answer/evidence';
import { PROVIDER_HINT } from '../answer/answerTexts';
import { ServiceResponseError } from '../record/serviceRecord';
import type { Text } from '../text/text';
import { own, text } from '../text/text';

/**
 * Does a listing add up? Checked where the walk reaches its last page (no next link), from what the
 * answer stage found in each answer (answer/evidence.ts): the latest total any page stated, and the
 * last page's own signals. A listing that says, or may say, that more exists than was read is an
 * error naming the field, never part of the listing returned as if it were all of it.
 */

interface ListingSoFar {
	/** The last page's signals. */
	last: PageSignals;
	/** The latest total any page stated, and its page. */
	stated?: StatedTotal & { page: number };
	/** Services all pages held. */
	read: number;
	pages: number;
	/** The walk began at a later page (the editor's search): what was read is not the whole listing, totals are not compared. */
	resumed?: boolean;
}

/** What does not add up, or undefined. A stated total smaller than what was read is fine (the listing grew while it was read). */
export function incompleteness({ last, stated, read, pages, resumed = false }: ListingSoFar): Text | undefined {
	const total = resumed ? undefined : stated;
	if (total !== undefined && total.count > read) {
		const where = pages > 1 ? text` on page ${total.page}` : own('');
		const held = pages > 1 ? text`the ${pages} pages held ${read}` : text`the answer held ${read}`;
		return text`${total.field}${where} states ${total.count} services, but ${held}`;
	}
	if (last.more !== undefined) return text`${last.more}, but no link to the next page came (services read: ${read})`;
	// A total all pages reached settles what only may say more (a last link elsewhere, a full page, HTTP 206).
	if (last.unsettled !== undefined && last.complete === undefined && total === undefined) {
		return text`${last.unsettled}, but no link to the next page came and nothing says this page is the last (services read: ${read})`;
	}
	return undefined;
}

/** On the last page read (no next link), the listing must add up: else an error naming the field, what it promised and what was read. */
export function checkNothingLeft(check: ListingSoFar): void {
	const gap = incompleteness(check);
	if (gap === undefined) return;
	throw new ServiceResponseError(
		text`The listing is incomplete: ${gap}`,
		text`${own(
			"The node follows only the next-page links the platform gives (next, links.next, next_page_url and the like, or a Link header: the package's docs/paging.md lists them); it does not invent page addresses, and it does not return part of a listing as if it were all of it. If services were added or removed while the pages were read, run again. ",
		)}${PROVIDER_HINT}`,
	);
}
