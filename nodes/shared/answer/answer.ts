import type { RecordsOfPage } from '../record/pageRecords';
import { isJsonObject, platformMessageOf } from '../json/json';
import type { Text } from '../text/text';
import { foreign, own, text } from '../text/text';
import type { ApiResponse } from '../transport/transport';
import { platformError, repeatedKey, unknownShape } from './answerTexts';
import { readEnvelope } from './envelope';
import type { Extent, FoundLink, PageSignals, Position } from './evidence';
import { Reading } from './evidence';
import { readHeaders } from './headers';
import { keepExactIntegers } from './jsonText';
import { keyLists, repeatedKeyOutside, repeatedTopLevelKey } from './repeatedKeys';
import { byName, isPagingLike, normalName } from './names';
import { FIELD_SIGNALS } from './signalTable';

/**
 * The answer stage: one answer of the listing read whole, between the transport (which fetched it)
 * and the records stage (record/pageRecords.ts, which checks what is found here). Its shape (an array,
 * a single record, a map by id, a one-key object, a paged envelope), its status and headers, every
 * field of its envelope (envelope.ts), and what its raw text says that JSON.parse hides (jsonText.ts).
 * Every part besides the records is understood, harmless, or an error naming it.
 */

/** One answer as the listing uses it: its records (not yet checked), its next link, what it says about the rest. */
export interface Answer extends RecordsOfPage {
	/** The next page's link as the platform wrote it (absolute or relative), and where it was found. */
	next?: FoundLink;
	signals: PageSignals;
	/** Where it says the listing ends: the walk reads ahead only as far (listing/readAhead.ts). */
	extent: Extent;
	/** The URL that answered (after redirects) and its status. */
	url: string;
	status: number;
}

const FIELDS = byName(FIELD_SIGNALS);
const kindsOf = (key: string) => FIELDS.get(normalName(key)) ?? [];

/**
 * Reads one answer. `response.text`, the raw JSON, is read for repeated keys and integers beyond
 * 2^53 (kept as their exact digits, in a string) and then no longer needed. `position` says which page
 * of the walk this is (the page of pages is judged by it). Errors are ServiceResponseErrors.
 */
export function readAnswer(response: Pick<ApiResponse, 'body' | 'text' | 'headers' | 'status' | 'url'>, position: Position): Answer {
	const { text: json, headers, status, url } = response;
	const body = keepExactIntegers(response.body, json);
	const reading = new Reading(position);
	readHeaders(headers, status, reading);
	const found = readShape(body, json, reading, position.page);
	reading.judge(url, found.items.length);
	return { ...found, next: reading.next(url), signals: reading.signals, extent: reading.extent(url), url, status };
}

/**
 * The records of an answer. The spec does not say whether the listing is one record or a collection,
 * so every plausible wrapping is accepted: an array, a single record, a map keyed by id, an object
 * with one property holding the array, or a paged envelope (records under `data`, `items`,
 * `results`, `services` or `content`, every other field read by envelope.ts). Status fields saying
 * "no error" are set aside first. An object answer that is one of these has no key named twice
 * (repeatedKeys.ts); anything else is an error naming what came. An answer of a million keys costs about
 * what JSON.parse paid for it: its keys are listed once, and each is read once.
 */
function readShape(answer: unknown, json: string, reading: Reading, page: number): RecordsOfPage {
	const onPage = page > 1 ? text` on page ${page}` : own('');
	const byPosition = (items: unknown[], where: Text = own('')): RecordsOfPage => ({
		items,
		labelOf: (i) => text`#${i + 1} of ${items.length}${where}${onPage}`,
	});
	if (Array.isArray(answer)) return byPosition(answer);
	if (!isJsonObject(answer)) throw unknownShape(answer);
	const keysOf = keyLists();
	const keys = keysOf(answer);
	const once = () => {
		const repeated = repeatedTopLevelKey(json, keys);
		if (repeated !== undefined) throw repeatedKey(repeated);
	};
	if ('id_service' in answer) {
		once();
		return byPosition([answer]);
	}
	const { rest, recordsKeys } = readNames(answer, keys);
	if (rest.length === 1 && Array.isArray(answer[rest[0]])) {
		once();
		return byPosition(answer[rest[0]] as unknown[], text` in "${foreign(rest[0], 60)}"`);
	}
	// A paged envelope: exactly one key of the records kind holds an array (two: none, the shape is unknown).
	const recordsKey = recordsKeys.length === 1 ? recordsKeys[0] : undefined;
	if (recordsKey !== undefined) {
		once();
		const repeated = repeatedKeyOutside(json, answer, recordsKey, keysOf);
		if (repeated !== undefined) throw repeatedKey(repeated.key, repeated.path);
		readEnvelope(answer, rest, recordsKey, reading, keysOf);
		return byPosition(answer[recordsKey] as unknown[], text` in "${foreign(recordsKey, 60)}"`);
	}
	// `{}` is an empty map; `{"errors": []}` only reports a status, and holds no listing.
	const records = rest.length > 0 || keys.length === 0 ? mapRecords(answer, rest) : undefined;
	if (records !== undefined) {
		once();
		return { items: records, labelOf: (i) => text`"${foreign(rest[i], 60)}" (#${i + 1} of ${rest.length})${onPage}` };
	}
	const arrays = rest.some((key) => Array.isArray(answer[key]));
	const pagingLike = rest.find((key) => isPagingLike(key) || kindsOf(key).some((kind) => kind !== 'records' && kind !== 'status'));
	throw unknownShape(answer, arrays || pagingLike !== undefined ? { field: pagingLike } : undefined, keys);
}

/** The values of `keys` when every one is a record (a map of records keyed by id), else undefined. */
function mapRecords(answer: Record<string, unknown>, keys: readonly string[]): unknown[] | undefined {
	const records = new Array<unknown>(keys.length);
	for (let index = 0; index < keys.length; index++) {
		// The records stage checks each record's type; here only whether it is one.
		const value = answer[keys[index]];
		if (typeof value !== 'object' || value === null || !('id_service' in value)) return undefined;
		records[index] = value;
	}
	return records;
}

/**
 * `error`/`errors` that are null, false, 0, "" (or only spaces), [] or {} say "no error"; any other
 * value is the platform answering with an error. `success`/`ok`: true is fine, false an error;
 * another value is left for the envelope's reading (an error naming it).
 */
function reportsError(key: string, value: unknown): boolean | undefined {
	const name = normalName(key);
	if (name === 'success' || name === 'ok') return typeof value === 'boolean' ? !value : undefined;
	if (value === null || value === false || value === 0) return false;
	if (typeof value === 'string') return value.trim() !== '';
	if (Array.isArray(value)) return value.length > 0;
	if (isJsonObject(value)) return Object.keys(value).length > 0;
	return true;
}

/**
 * The answer's keys read by name, once: `rest` without the status fields that say "no error" (throws
 * the platform's error if one says there is one), and `recordsKeys`, those of the records kind that hold
 * an array. A map of 100,000 ids: only short keys can be either (every name of the table is short).
 */
function readNames(answer: Record<string, unknown>, keys: string[]): { rest: string[]; recordsKeys: string[] } {
	let fine: Set<string> | undefined;
	const recordsKeys: string[] = [];
	for (const key of keys) {
		if (key.length > 32) continue;
		const kinds = FIELDS.get(normalName(key));
		if (kinds === undefined) continue;
		if (kinds.includes('records') && Array.isArray(answer[key])) recordsKeys.push(key);
		if (key.length > 12 || !kinds.includes('status')) continue;
		const failed = reportsError(key, answer[key]);
		if (failed) throw platformError(platformMessageOf(answer));
		if (failed === false) (fine ??= new Set()).add(key);
	}
	return { rest: fine === undefined ? keys : keys.filter((key) => !fine.has(key)), recordsKeys };
}
