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
import { keepExactIntegers, repeatedTopLevelKey } from './jsonText';
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
	if (isJsonObject(body)) {
		const repeated = repeatedTopLevelKey(json, Object.keys(body));
		if (repeated !== undefined) throw repeatedKey(repeated);
	}
	const found = readShape(body, reading, position.page);
	reading.judge(url, found.items.length);
	return { ...found, next: reading.next(url), signals: reading.signals, extent: reading.extent(url), url, status };
}

/**
 * The records of an answer. The spec does not say whether the listing is one record or a collection,
 * so every plausible wrapping is accepted: an array, a single record, a map keyed by id, an object
 * with one property holding the array, or a paged envelope (records under `data`, `items`,
 * `results`, `services` or `content`, every other field read by envelope.ts). Status fields saying
 * "no error" are set aside first. Anything else is an error naming what came.
 */
function readShape(answer: unknown, reading: Reading, page: number): RecordsOfPage {
	const onPage = page > 1 ? text` on page ${page}` : own('');
	const byPosition = (items: unknown[], where: Text = own('')): RecordsOfPage => ({
		items,
		labelOf: (i) => text`#${i + 1} of ${items.length}${where}${onPage}`,
	});
	if (Array.isArray(answer)) return byPosition(answer);
	if (isJsonObject(answer)) {
		if ('id_service' in answer) return byPosition([answer]);
		const body = withoutStatus(answer);
		const keys = Object.keys(body);
		if (keys.length === 1 && Array.isArray(body[keys[0]])) {
			return byPosition(body[keys[0]] as unknown[], text` in "${foreign(keys[0], 60)}"`);
		}
		const recordsKey = pagedEnvelopeKey(body);
		if (recordsKey !== undefined) {
			readEnvelope(body, recordsKey, reading);
			return byPosition(body[recordsKey] as unknown[], text` in "${foreign(recordsKey, 60)}"`);
		}
		const values = Object.values(body);
		// `{}` is an empty map; `{"errors": []}` only reports a status, and holds no listing.
		const onlyStatus = keys.length === 0 && body !== answer;
		if (!onlyStatus && values.every((value) => isJsonObject(value) && 'id_service' in value)) {
			return { items: values, labelOf: (i) => text`"${foreign(keys[i], 60)}" (#${i + 1} of ${keys.length})${onPage}` };
		}
		const arrays = values.some(Array.isArray);
		const pagingLike = keys.find((key) => isPagingLike(key) || kindsOf(key).some((kind) => kind !== 'records' && kind !== 'status'));
		throw unknownShape(answer, arrays || pagingLike !== undefined ? { field: pagingLike } : undefined);
	}
	throw unknownShape(answer);
}

/** The records key of a paged envelope: the one key of the records kind that holds an array (two: none, the shape is unknown). */
function pagedEnvelopeKey(body: Record<string, unknown>): string | undefined {
	const keys = Object.keys(body).filter((key) => Array.isArray(body[key]) && kindsOf(key).includes('records'));
	return keys.length === 1 ? keys[0] : undefined;
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

/** An answer without the status fields that say "no error"; throws the platform's error if one says there is one. */
function withoutStatus(body: Record<string, unknown>): Record<string, unknown> {
	let fine: string[] | undefined;
	for (const key of Object.keys(body)) {
		// A map of 100,000 ids: only short keys can be a status field.
		if (key.length > 12 || !kindsOf(key).includes('status')) continue;
		const failed = reportsError(key, body[key]);
		if (failed) throw platformError(platformMessageOf(body));
		if (failed === false) (fine ??= []).push(key);
	}
	if (fine === undefined) return body;
	const rest = { ...body };
	for (const key of fine) delete rest[key];
	return rest;
}
