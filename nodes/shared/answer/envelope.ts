import { isJsonObject } from '../json/json';
import type { Text } from '../text/text';
import { foreign, own, text } from '../text/text';
import { fieldText, nextNotALink, quoted, SERVICES_PATH, unknownField, unknownLink, unknownPagingField, unreadable } from './answerTexts';
import type { FoundLink, PageOfPages, Reading } from './evidence';
import { cursorOf, flagOf, isCountKind, linkOf } from './evidence';
import { byName, isPagingLike, normalName } from './names';
import type { SignalKind } from './signalTable';
import { FIELD_SIGNALS, LINK_RELATIONS } from './signalTable';

/**
 * Reads every field of a paged envelope besides its records, at any level, with the signal table:
 * understood (a signal for the Reading), known to be harmless, or an error naming it. Next to the
 * records an unknown field is an error; inside a holder (`meta`, `pagination`, ...) an unknown field
 * is harmless unless its name is paging-like (names.ts) or its value is a link to the listing, and
 * what it holds is read the same way.
 */

const FIELDS = byName(FIELD_SIGNALS);
const RELATIONS = byName(LINK_RELATIONS);

/** Where a field is: next to the records, in a holder, or inside an unknown object in a holder. */
type Place = 'top' | 'holder' | 'unknown';
interface Field {
	key: string;
	value: unknown;
	path: string;
	place: Place;
	/** The page of pages of the holder it is in. */
	holder: PageOfPages;
}

export function readEnvelope(envelope: Record<string, unknown>, recordsKey: string, reading: Reading): void {
	const top: PageOfPages = {};
	reading.pageOfPages.push(top);
	const stack: Field[] = [];
	pushFields(stack, envelope, '', 'top', top, recordsKey);
	// Depth first, in the answer's order; an explicit stack: an envelope nested thousands deep is no crash.
	for (let field = stack.pop(); field !== undefined; field = stack.pop()) readField(field, reading, stack);
}

function pushFields(stack: Field[], holder: Record<string, unknown>, at: string, place: Place, pages: PageOfPages, skip?: string): void {
	const keys = Object.keys(holder);
	for (let index = keys.length - 1; index >= 0; index--) {
		const key = keys[index];
		if (key !== skip) stack.push({ key, value: holder[key], path: at === '' ? key : `${at}.${key}`, place, holder: pages });
	}
}

function readField(field: Field, reading: Reading, stack: Field[]): void {
	const { key, value, path, place } = field;
	if (place !== 'unknown') {
		const kind = kindOf(FIELDS.get(normalName(key)), value, place);
		if (kind !== undefined) return readSignal(kind, field, reading, stack);
		if (place === 'top') throw isPagingLike(key) ? unknownPagingField(fieldText(path)) : unknownField(fieldText(path));
	}
	if (isPagingLike(key)) throw unknownPagingField(fieldText(path));
	if (typeof value === 'string' && looksLikeListingLink(value)) throw unknownLink(fieldText(path), value);
	if (isJsonObject(value)) pushFields(stack, value, path, 'unknown', field.holder);
	else if (Array.isArray(value)) {
		for (let index = value.length - 1; index >= 0; index--) {
			stack.push({ key: '', value: value[index], path: `${path}[${index}]`, place: 'unknown', holder: field.holder });
		}
	}
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

function readSignal(kind: SignalKind, field: Field, reading: Reading, stack: Field[]): void {
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
				return pushFields(stack, value, path, 'holder', pages);
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
		return; // another relation (alternate, describedby, ...): harmless
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
