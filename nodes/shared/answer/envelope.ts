import { isJsonObject } from '../json/json';
import type { Text } from '../text/text';
import { foreign, own, text } from '../text/text';
import {
	fieldText,
	nextNotALink,
	quoted,
	SERVICES_PATH,
	unknownField,
	unknownLink,
	unknownPagingField,
	unknownValue,
	unreadable,
} from './answerTexts';
import type { FoundLink, PageOfPages, Reading } from './evidence';
import type { KeysOf } from './repeatedKeys';
import { cursorOf, flagOf, isCountKind, linkOf } from './evidence';
import { byName, isPagingLike, normalName } from './names';
import type { SignalKind } from './signalTable';
import { FIELD_SIGNALS, LINK_RELATIONS } from './signalTable';

/**
 * Reads every field of a paged envelope besides its records, at any level, with the signal table:
 * understood (a signal for the Reading), known to be harmless, or an error naming it. Next to the
 * records an unknown field is an error. Inside a holder (`meta`, `pagination`, ...) the world is
 * closed too: a number or true/false under a name the table does not know is an error (it may be a
 * total or a flag about the rest: Solr's `numFound`, `done: false`), and so is an unknown name that
 * is paging-like (names.ts) or a text that links to the listing; other texts are harmless (request
 * ids, copyrights, warnings), and what an unknown object or list holds is judged the same way.
 */

const FIELDS = byName(FIELD_SIGNALS);
const RELATIONS = byName(LINK_RELATIONS);

/** Where a field is: next to the records, in a holder, or inside an unknown object or list in a holder. */
type Place = 'top' | 'holder' | 'unknown';
/** An object or list being read: its fields are read one by one, depth first, in the answer's order. */
interface Frame {
	value: Record<string, unknown> | unknown[];
	/** Its keys; undefined for a list. */
	keys: string[] | undefined;
	index: number;
	/** Its place in the answer as the platform wrote it (`meta.pagination`, `meta.codes[2]`). */
	path: string;
	place: Place;
	/** The page of pages of the holder it is in. */
	holder: PageOfPages;
	skip?: string;
}
/** One field as readSignal reads it. */
interface Field {
	value: unknown;
	path: string;
	holder: PageOfPages;
}
/** What reading the envelope carries: the objects and lists still being read, the keys of each object (listed once). */
interface Walk {
	reading: Reading;
	stack: Frame[];
	keysOf: KeysOf;
}

/**
 * `keys`: the envelope's keys to read (its status fields that say "no error" left out), `recordsKey`
 * among them; `keysOf` lists an object's keys (once per answer: repeatedKeys.ts reads them too).
 */
export function readEnvelope(
	envelope: Record<string, unknown>,
	keys: string[],
	recordsKey: string,
	reading: Reading,
	keysOf: KeysOf,
): void {
	const top: PageOfPages = {};
	reading.pageOfPages.push(top);
	// An explicit stack of objects (not of fields: a holder of a million fields allocates nothing per field): an envelope nested thousands deep is no crash.
	const stack: Frame[] = [{ value: envelope, keys, index: 0, path: '', place: 'top', holder: top, skip: recordsKey }];
	const walk: Walk = { reading, stack, keysOf };
	while (stack.length > 0) {
		const frame = stack[stack.length - 1];
		const { keys, value } = frame;
		const at = frame.index++;
		if (keys === undefined) {
			if (at < (value as unknown[]).length) readElement(frame, at, walk);
			else stack.pop();
		} else if (at < keys.length) {
			if (keys[at] !== frame.skip) readField(frame, keys[at], walk);
		} else stack.pop();
	}
}

function push(walk: Walk, value: Record<string, unknown> | unknown[], path: string, place: Place, holder: PageOfPages): void {
	walk.stack.push({ value, keys: Array.isArray(value) ? undefined : walk.keysOf(value), index: 0, path, place, holder });
}

function readField(frame: Frame, key: string, walk: Walk): void {
	const { place, holder } = frame;
	const value = (frame.value as Record<string, unknown>)[key];
	const kind = kindOf(FIELDS.get(normalName(key)), value, place);
	if (kind !== undefined && (place !== 'unknown' || kind === 'harmless'))
		return readSignal(kind, { value, path: pathOf(frame, key), holder }, walk);
	if (place === 'top')
		throw isPagingLike(key) ? unknownPagingField(fieldText(pathOf(frame, key))) : unknownField(fieldText(pathOf(frame, key)));
	if (isPagingLike(key)) throw unknownPagingField(fieldText(pathOf(frame, key)));
	if (typeof value === 'string') {
		if (looksLikeListingLink(value)) throw unknownLink(fieldText(pathOf(frame, key)), value);
	} else readUnknown(value, pathOf(frame, key), holder, walk);
}

/** A field's path, made only where it is needed: most fields of a holder of many are harmless texts. */
const pathOf = (frame: Frame, key: string) => (frame.path === '' ? key : `${frame.path}.${key}`);

/** An element of an unknown list: judged as a value under the list's name. */
function readElement(frame: Frame, index: number, walk: Walk): void {
	readUnknown((frame.value as unknown[])[index], `${frame.path}[${index}]`, frame.holder, walk);
}

/** A value in a holder under a name the table does not know (and not paging-like). */
function readUnknown(value: unknown, path: string, holder: PageOfPages, walk: Walk): void {
	if (typeof value === 'number' || typeof value === 'boolean') throw unknownValue(fieldText(path), value);
	if (typeof value === 'string') {
		if (looksLikeListingLink(value)) throw unknownLink(fieldText(path), value);
	} else if (value !== null && typeof value === 'object') push(walk, value as Record<string, unknown>, path, 'unknown', holder);
}

/** A link to the listing the table does not know: the listing's path with a query or a further segment. */
const looksLikeListingLink = (value: string) => value.includes(`${SERVICES_PATH}?`) || value.includes(`${SERVICES_PATH}/`);

/** Which of a name's kinds the value is: `page` an object is a holder, `last` a text is a link, `first` a boolean is harmless. */
function kindOf(kinds: readonly SignalKind[] | undefined, value: unknown, place: Place): SignalKind | undefined {
	if (kinds === undefined) return undefined;
	const usable = place === 'top' ? kinds : kinds.filter((kind) => kind !== 'records' && kind !== 'status');
	// A second records key next to the records is not understood (the records are elsewhere).
	if (usable.length === 0 || usable[0] === 'records') return undefined;
	if (usable.includes('holder') && usable.length > 1) return isJsonObject(value) ? 'holder' : usable.find((kind) => kind !== 'holder');
	if (usable.includes('lastFlag')) return typeof value === 'boolean' || typeof value === 'number' ? 'lastFlag' : 'lastLink';
	if (usable.includes('firstLink')) return typeof value === 'boolean' ? 'harmless' : 'firstLink';
	return usable[0];
}

function readSignal(kind: SignalKind, field: Field, walk: Walk): void {
	const { reading } = walk;
	const { value, path, holder } = field;
	const where = fieldText(path);
	if (isCountKind(kind)) {
		reading.count(kind, value, where, holder);
		return;
	}
	switch (kind) {
		case 'holder':
			if (isJsonObject(value)) {
				const pages: PageOfPages = {};
				reading.pageOfPages.push(pages);
				push(walk, value, path, 'holder', pages);
				return;
			}
			// PHP writes an empty object as `[]` (`"meta": []`): nothing in it.
			if (value !== null && !(Array.isArray(value) && value.length === 0))
				throw unreadable(where, value, own('as an object of paging fields'));
			return;
		case 'links':
			return readLinks(value, path, reading);
		case 'next': {
			reading.hasNextField = true;
			const link = linkOf(value);
			if (link === 'unreadable') throw nextNotALink(where, value);
			if (link !== null) reading.nexts.push({ link: link.link, foundIn: fieldText(path + link.at) });
			return;
		}
		case 'moreFlag':
		case 'lastFlag': {
			const flag = flagOf(value);
			if (flag === 'unreadable') throw unreadable(where, value, own('as true or false'));
			if (flag === null) return;
			const said = text`${where} is ${quoted(value)}`;
			if ((flag === 'yes') === (kind === 'moreFlag')) reading.more(said);
			else reading.complete(said);
			return;
		}
		case 'cursor': {
			const cursor = cursorOf(value);
			if (cursor === 'unreadable') throw unreadable(where, value, own('as a cursor'));
			if (cursor === 'set') reading.more(text`${where} is ${quoted(value)} (a cursor for a next page)`);
			return;
		}
		case 'lastLink':
		case 'firstLink':
		case 'selfLink':
			return addLink(kind, value, path, where, reading);
		case 'status':
			throw unreadable(where, value, own('as true or false'));
		default:
			return; // harmless: not read further
	}
}

/** `links`: an object of relations (`links.next`, `_links.next.href`) or a list of `{rel, href}`. */
function readLinks(value: unknown, path: string, reading: Reading): void {
	if (value === null) return;
	reading.hasNextField = true;
	if (isJsonObject(value)) {
		for (const rel of Object.keys(value)) relation(rel, value[rel], `${path}.${rel}`, fieldText(`${path}.${rel}`), reading);
		return;
	}
	if (!Array.isArray(value)) throw unreadable(fieldText(path), value, own('as links'));
	value.forEach((item, index) => {
		const at = `${path}[${index}]`;
		// Laravel's paginator lists its page buttons as `{url, label, active}`: no relation, harmless (its `next_page_url` is read).
		if (isJsonObject(item) && item.rel === undefined && item.relation === undefined && typeof item.label === 'string') return;
		const rel = isJsonObject(item) ? (item.rel ?? item.relation) : undefined;
		const href = isJsonObject(item) ? (item.href ?? item.url ?? item.uri ?? null) : undefined;
		if (typeof rel !== 'string' || !(href === null || typeof href === 'string'))
			throw unreadable(fieldText(at), item, own('as a link ({rel, href})'));
		for (const type of rel.split(/\s+/).filter((word) => word !== '')) {
			relation(type, href, at, text`rel "${foreign(type, 40)}" in ${fieldText(at)}`, reading);
		}
	});
}

/** One link relation (of `links` or of the Link header): `where` names it for the user. */
export function relation(rel: string, value: unknown, path: string, where: Text, reading: Reading): void {
	const kind = RELATIONS.get(normalName(rel))?.[0];
	if (kind === undefined) {
		if (isPagingLike(rel)) throw unknownPagingField(where);
		// Another relation (alternate, describedby, ...) is harmless, unless it holds what may be a count or a flag.
		if (typeof value === 'number' || typeof value === 'boolean') throw unknownValue(where, value);
		return;
	}
	if (kind === 'harmless') return;
	addLink(kind, value, path, where, reading);
}

function addLink(kind: SignalKind, value: unknown, path: string, where: Text, reading: Reading): void {
	const link = linkOf(value);
	if (link === 'unreadable') throw kind === 'next' ? nextNotALink(where, value) : unreadable(where, value, own('as a link'));
	if (link === null) return;
	const found: FoundLink = { link: link.link, foundIn: link.at === '' ? where : fieldText(path + link.at) };
	if (kind === 'next') reading.nexts.push(found);
	else if (kind === 'lastLink') reading.lastLinks.push(found);
	else if (kind === 'firstLink') reading.firstLinks.push(found);
	else if (kind === 'selfLink') reading.selfLinks.push(found);
}
