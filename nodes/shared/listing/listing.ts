import type { Answer } from '../answer/answer';
import { readAnswer } from '../answer/answer';
import type { FoundLink, Position, StatedTotal } from '../answer/evidence';
import { PROVIDER_HINT, SERVICES_PATH } from '../answer/answerTexts';
import { checkPageRecords } from '../record/pageRecords';
import type { ServiceRecord, SimplifiedService } from '../record/serviceRecord';
import { ServiceResponseError } from '../record/serviceRecord';
import { DescribedError } from '../errors/errors';
import type { Text } from '../text/text';
import { foreign, formatDuration, own, text, thousands } from '../text/text';
import type { ApiSession } from '../transport/transport';
import type { ApiContext, RequestLimits } from '../transport/types';
import { ownPathUrl } from '../transport/quotedUrl';
import { openApiSession } from '../transport/transport';
import { checkNothingLeft } from './completeness';
import { ReadAhead } from './readAhead';

/**
 * The services listing: the walk over its pages. Each page goes one way: the transport fetches it,
 * the answer stage reads it (answer/), the records stage checks its records (record/pageRecords.ts),
 * and the listing joins it here (its next link checked, the whole listing adding up: completeness.ts).
 */

/** Far more pages than a real account fills (100,000 services in pages of 100); past it, a loop. */
export const MAX_LISTING_PAGES = 1000;

/** What the transport's texts say the node was doing ("... while trying to list services"). */
const LIST_ACTION = own('list services');

/** The service the user asked for is not in the listing. */
export class ServiceNotFoundError extends DescribedError {}

// ---- the whole listing ----------------------------------------------------------------------------

/**
 * Resolves a next-page link against the URL that answered and checks it may be fetched: same origin
 * as the credential's Base URL (the key goes nowhere else), not fetched before, within the page cap.
 */
export function nextPageUrl(
	next: FoundLink,
	{ answeredUrl, baseUrl, fetched, pagesRead }: { answeredUrl: string; baseUrl: string; fetched: Set<string>; pagesRead: number },
): string {
	if (!URL.canParse(next.link, answeredUrl)) {
		throw new ServiceResponseError(
			text`The listing's next-page link in ${next.foundIn} is not a valid URL: "${foreign(next.link, 120)}"`,
			PROVIDER_HINT,
		);
	}
	const url = new URL(next.link, answeredUrl);
	url.hash = '';
	const origin = new URL(baseUrl).origin;
	if (url.origin !== origin) {
		throw new ServiceResponseError(
			text`The listing's next page is on another address (${foreign(url.href, 120)}); the node does not follow it`,
			text`The link came in ${next.foundIn}. The API key is only sent to the address in the credential (${foreign(origin)}), so the other pages were not read. If the platform moved, put its new address as the Base URL in the Service Platform API credential. ${PROVIDER_HINT}`,
		);
	}
	// URL's origin leaves out "user:password@": such a link would send other credentials (axios swaps
	// them for the key) and show a password in our texts; no page of this API needs one.
	if (url.username !== '' || url.password !== '') {
		throw new ServiceResponseError(
			own("The listing's next-page link carries a user name or password; the node does not follow it"),
			text`The link came in ${next.foundIn}. The API key is the only credential the node sends, and only to ${foreign(origin)}. ${PROVIDER_HINT}`,
		);
	}
	if (fetched.has(url.href)) {
		throw new ServiceResponseError(
			text`The listing's pages loop: the next-page link leads back to a page already read (${foreign(url.href, 120)})`,
			text`After ${pagesRead} page(s) the link in ${next.foundIn} repeats an earlier page, so the listing would never end. ${PROVIDER_HINT}`,
		);
	}
	if (pagesRead >= MAX_LISTING_PAGES) {
		throw new ServiceResponseError(
			text`The listing has more than ${MAX_LISTING_PAGES} pages; the node stopped reading`,
			text`No real account needs that many pages, so this looks like a listing that never ends. ${PROVIDER_HINT}`,
		);
	}
	return url.href;
}

/** One page of the listing: its checked records and, unless it is the last, the URL of the next one. */
export interface ServicePage {
	records: ServiceRecord[];
	/** With `simplify`: each record's Simplify view, made in the pass that checked it. */
	services?: SimplifiedService[];
	next: string | undefined;
}

/** What the walk carries from page to page. */
interface Walk {
	readonly resumed: boolean;
	/** id (by the id rule) -> page: an id listed twice anywhere in the listing is an error. */
	readonly seen: Map<string, number>;
	readonly fetched: Set<string>;
	/** The latest total any page stated: the last page may not state one. */
	stated?: StatedTotal & { page: number };
}

/**
 * Reads the listing page by page through one session (its deadline, size cap and retries cover the
 * whole listing, all pages together) and yields each page. Stop early by leaving the loop: no further
 * page is requested, and what was read ahead is dropped. On the last page (no next link) the listing
 * must add up (completeness.ts): a listing that says more exists than was read is an error, never
 * returned as if it were whole. `from` resumes at a page URL an earlier read gave as `next` (then
 * only that page's own signals count); `simplify` asks for each page's `services` too;
 * `pagesWanted`, called with each page just before it is yielded, says how many pages after it the
 * caller may still read (Get: none once the id is found): no more are read ahead. Pages are read ahead along the platform's own sequence
 * (readAhead.ts); the pages yielded, and the errors, are the one-by-one walk's. Errors are n8n
 * errors with the item index, already redacted. One debug log line per listing says what it did.
 */
export async function* listServicePages(
	session: ApiSession,
	{ from, simplify = false, pagesWanted }: { from?: string; simplify?: boolean; pagesWanted?: (page: ServicePage) => number } = {},
): AsyncGenerator<ServicePage, void, undefined> {
	const walk: Walk = { resumed: from !== undefined, seen: new Map(), fetched: new Set() };
	const ahead = new ReadAhead(session, { action: LIST_ACTION, resumed: walk.resumed, maxPages: MAX_LISTING_PAGES });
	// The first page's address is the node's own path on the Base URL: quoted so (transport/quotedUrl.ts).
	let target: string | { path: Text } = from ?? { path: SERVICES_PATH };
	const startedAt = Date.now();
	let pagesRead = 0;
	let ended = own('failed on page 1');
	try {
		for (let pageNumber = 1; ; pageNumber++) {
			ended = text`failed on page ${pageNumber}`;
			walk.fetched.add(typeof target === 'string' ? target : ownPathUrl(session.baseUrl, target.path).href);
			const answer = await fetchAnswer(session, ahead, target, { page: pageNumber, resumed: walk.resumed });
			const page = joinPage(session, walk, answer, pageNumber, simplify);
			pagesRead = pageNumber;
			const wanted = pagesWanted?.(page) ?? Infinity;
			ahead.follow(answer, { position: pageNumber, records: page.records.length, next: page.next, wanted });
			ended = page.next === undefined ? own('read whole') : own('stopped early by its reader');
			yield page;
			if (page.next === undefined) return;
			target = page.next;
		}
	} finally {
		ahead.close();
		const took = formatDuration(Date.now() - startedAt);
		session.debug(
			text`Services listing ${ended} in ${took}: ${pagesRead} page(s), ${thousands(walk.seen.size)} services; ${ahead.summary()}`,
		);
	}
}

/** The transport (the page read ahead, or asked now), then the answer stage: the answer's raw text is let go before its records are checked. */
async function fetchAnswer(session: ApiSession, ahead: ReadAhead, target: string | { path: Text }, position: Position): Promise<Answer> {
	const response = await ahead.fetch(target);
	try {
		return readAnswer(response, position);
	} catch (error) {
		throw error instanceof ServiceResponseError ? session.toNodeError(error, response.status) : error;
	}
}

/** The records stage, then the listing the page joins: its next link checked, or on the last page the listing adding up. */
function joinPage(session: ApiSession, walk: Walk, answer: Answer, pageNumber: number, simplify: boolean): ServicePage {
	try {
		const services = simplify ? new Array<SimplifiedService>(answer.items.length) : undefined;
		const records = checkPageRecords(answer, { seen: walk.seen, pageNumber, simplified: services, advice: PROVIDER_HINT });
		walk.fetched.add(answer.url);
		if (answer.signals.total !== undefined) walk.stated = { ...answer.signals.total, page: pageNumber };
		if (answer.next !== undefined) {
			return {
				records,
				services,
				next: nextPageUrl(answer.next, { answeredUrl: answer.url, baseUrl: session.baseUrl, fetched: walk.fetched, pagesRead: pageNumber }),
			};
		}
		checkNothingLeft({ last: answer.signals, stated: walk.stated, read: walk.seen.size, pages: pageNumber, resumed: walk.resumed });
		return { records, services, next: undefined };
	} catch (error) {
		throw error instanceof ServiceResponseError ? session.toNodeError(error, answer.status) : error;
	}
}

/** Every service, all pages read: for the trigger, which must never compare a partial listing. */
export async function fetchServiceRecords(
	this: ApiContext,
	{ itemIndex, limits }: { itemIndex: number; limits: RequestLimits },
): Promise<ServiceRecord[]> {
	const session = await openApiSession.call(this, { itemIndex, limits });
	const records: ServiceRecord[] = [];
	for await (const page of listServicePages(session)) {
		for (const record of page.records) records.push(record);
	}
	return records;
}
