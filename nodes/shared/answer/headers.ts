import type { Text } from '../text/text';
import { foreign, own, text } from '../text/text';
import { quoted, unknownPagingField, unknownStatus, unreadable } from './answerTexts';
import type { PageOfPages, Reading } from './evidence';
import { isCountKind } from './evidence';
import { relation } from './envelope';
import { byName, isPagingLikeHeader, normalName } from './names';
import { CONTENT_RANGE, HEADER_SIGNALS, STATUS_SIGNALS } from './signalTable';

/**
 * Reads an answer's status and every header with the signal table: the Link header's relations,
 * totals, pages, page sizes, cursors, Content-Range; a header the table does not know is harmless
 * unless its name is paging-like (names.ts), then an error naming it.
 */

const HEADERS = byName(HEADER_SIGNALS);
const KNOWN_STATUSES = new Set(STATUS_SIGNALS.map(({ status }) => status));

/** `x-total-count` as a user reads it: `X-Total-Count`. */
const headerName = (name: string): string =>
	name.replace(/(^|-)(\w)/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
const theHeader = (name: string): Text => text`the ${foreign(headerName(name), 60)} header`;

export function readHeaders(headers: Record<string, string | undefined>, status: number, reading: Reading): void {
	if (!KNOWN_STATUSES.has(status)) throw unknownStatus(status);
	if (status === 206) reading.unsettled(own('the platform answered HTTP 206 Partial Content'));
	const pages: PageOfPages = {};
	reading.pageOfPages.push(pages);
	for (const name of Object.keys(headers)) {
		const value = headers[name];
		if (value === undefined) continue;
		if (name === CONTENT_RANGE.name) {
			readContentRange(value, reading);
			continue;
		}
		const kind = HEADERS.get(normalName(name))?.[0];
		const where = theHeader(name);
		if (kind === undefined) {
			if (isPagingLikeHeader(name)) throw unknownPagingField(where);
			continue;
		}
		if (isCountKind(kind)) {
			reading.count(kind, value, where, pages);
			continue;
		}
		switch (kind) {
			case 'links':
				reading.hasNextField = true;
				readLinkHeader(value, reading);
				break;
			case 'cursor':
				if (value.trim() !== '' && value.trim() !== '0')
					reading.more(text`${where} is ${quoted(value)} (a next page the node would have to ask for itself)`);
				break;
			default:
				break; // harmless
		}
	}
}

/** `Link: <https://...?page=2>; rel="next", <...>; rel="last"` (RFC 8288); rel may list several types. */
function readLinkHeader(header: string, reading: Reading): void {
	// A parameter value may be a quoted string holding ',' or ';' (title="a, b"): read it whole.
	for (const match of header.matchAll(/<([^>]*)>((?:\s*;\s*(?:[^;,"]|"[^"]*")+)*)/g)) {
		const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2]);
		const link = match[1].trim();
		for (const type of (rel?.[1] ?? rel?.[2] ?? '').split(/\s+/).filter((word) => word !== '')) {
			relation(type, link, 'Link', text`the Link header's rel="${foreign(type.toLowerCase(), 40)}"`, reading);
		}
	}
}

/**
 * `Content-Range: items 0-19/40` (any unit; `*` for an unknown total): the answer's part of the
 * whole. Ending before its total says more follows; a `*` total does not say; its total (unless in
 * bytes) is a total of the listing too.
 */
function readContentRange(value: string, reading: Reading): void {
	const where = theHeader(CONTENT_RANGE.name);
	const range = /^\s*(?:([A-Za-z][\w-]*)\s+)?(?:(\d{1,15})-(\d{1,15})|\*)\/(\d{1,15}|\*)\s*$/.exec(value);
	if (range === null) throw unreadable(where, value, own('as a range (e.g. "items 0-19/40")'));
	const [, unit = 'items', , end, total] = range;
	const said = text`${where} says ${quoted(value.trim())}`;
	if (total === '*') return reading.unsettled(text`${said}, which does not say how many there are in all`);
	if (unit.toLowerCase() !== 'bytes') reading.total(Number(total), where);
	// `*/40`: none of the range (a page past the end, or an empty one); complete only when there is nothing at all.
	if (end === undefined ? Number(total) > 0 : Number(end) + 1 < Number(total)) reading.more(said);
	else reading.complete(said);
}
