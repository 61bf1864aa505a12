import {
	BACKSLASH,
	CLOSE_ARRAY,
	CLOSE_OBJECT,
	COMMA,
	isSpace,
	keyOf,
	OPEN_ARRAY,
	OPEN_OBJECT,
	QUOTE,
	skipBack,
	skipSpace,
	stringEnd,
	valueEnd,
} from './jsonText';

/**
 * A key named twice in one object of an answer's raw text, which JSON.parse keeps silently (the last
 * value wins): at the top of an object answer (a map of records, an envelope, one record) and anywhere
 * outside the records of a paged envelope (`{"links": {"next": "/p2", "next": null}}` would end the
 * listing after page 1). Linear, and about what JSON.parse paid for the same text at most
 * (tools/bench/answer-cost.mjs); a page costs what its paging metadata holds, not what its records do.
 */

/**
 * The first key the object `json` (valid JSON text of an object, parsed as `keys`) names twice at its
 * top level, or undefined. When the object has few keys (an envelope, one record), each spelled
 * plainly in a text without `\u` escapes, a key found only once in the whole text cannot be twice
 * (a fast native search). Otherwise (a map of records) its top level is read: where its keys are
 * `keys` in their order, no key is there twice (JSON.parse keeps each key once, where it first came);
 * only where they part (a key named twice, a key spelled with escapes, an index key like `"7"`, which
 * JavaScript lists first) are they read one by one.
 */
export function repeatedTopLevelKey(json: string, keys: readonly string[]): string | undefined {
	const plain = keys.length <= 16 && !json.includes('\\u') && keys.every((key) => PLAIN_KEY.test(key) && !occursTwice(json, key));
	return plain || topLevelKeysAre(json, keys) ? undefined : scanTopLevelKeys(json);
}

/** A key JSON can only write one way without `\u`: no quote, backslash, slash or control character. */
const PLAIN_KEY = /^[^"\\/\u0000-\u001f]*$/;

/** Whether `"key"` is in `json` twice: a search for `key"` (a search that starts with a quote is ten times slower), each found checked for its opening quote. */
function occursTwice(json: string, key: string): boolean {
	const token = `${key}"`;
	let found = 0;
	for (let at = json.indexOf(token, 1); at >= 0; at = json.indexOf(token, at + 1)) {
		if (json.charCodeAt(at - 1) === QUOTE && ++found === 2) return true;
	}
	return false;
}

/** Whether the top-level keys of the object `json` are `keys`, as written (no escapes), in their order. */
function topLevelKeysAre(json: string, keys: readonly string[]): boolean {
	let at = skipSpace(json, 0);
	if (json.charCodeAt(at) !== OPEN_OBJECT) return false;
	at = skipSpace(json, at + 1);
	let index = 0;
	while (json.charCodeAt(at) === QUOTE) {
		const key = keys[index++];
		// A key with a backslash may be written as another key's escapes; such keys are read one by one.
		if (key === undefined || key.includes('\\') || !json.startsWith(key, at + 1) || json.charCodeAt(at + 1 + key.length) !== QUOTE)
			return false;
		at = skipSpace(json, skipSpace(json, at + key.length + 2) + 1); // past the colon
		at = skipSpace(json, valueEnd(json, at));
		if (json.charCodeAt(at) !== COMMA) break;
		at = skipSpace(json, at + 1);
	}
	return index === keys.length;
}

function scanTopLevelKeys(json: string): string | undefined {
	let at = skipSpace(json, 0);
	if (json.charCodeAt(at) !== OPEN_OBJECT) return undefined;
	const keys = new Set<string>();
	at = skipSpace(json, at + 1);
	while (json.charCodeAt(at) === QUOTE) {
		const end = stringEnd(json, at);
		const key = keyOf(json.slice(at, end));
		if (keys.has(key)) return key;
		keys.add(key);
		at = skipSpace(json, skipSpace(json, end) + 1); // past the colon
		at = skipSpace(json, valueEnd(json, at));
		if (json.charCodeAt(at) !== COMMA) break;
		at = skipSpace(json, at + 1);
	}
	return undefined;
}

/** The keys of an object of one parsed answer, listed once: the answer stage reads them twice (here and in envelope.ts). */
export type KeysOf = (object: object) => string[];

/** Lists each object's keys once: Object.keys of an object of a million keys costs about half its JSON.parse. */
export function keyLists(): KeysOf {
	const lists = new Map<object, string[]>();
	return (object) => {
		let keys = lists.get(object);
		if (keys === undefined) lists.set(object, (keys = Object.keys(object)));
		return keys;
	};
}

/** A key named twice in one object, and where: its path as the platform wrote it (`links.next`, `meta.items[2].id`). */
interface RepeatedKey {
	key: string;
	path: string;
}

/**
 * The first key named twice in one object anywhere in the paged envelope `json` outside its records
 * (the value of `recordsKey` at its top level), or undefined. `envelope`: as JSON.parse gave it, no key
 * named twice at its top level (repeatedTopLevelKey said so). Only the text around the
 * records is read: the members before them from the start, those after them from the end (as many as
 * `keys` has after `recordsKey`), so a page costs what its paging metadata holds, not what its records
 * do. Where the keys' order is not the text's (a key like `"0"` comes first in JavaScript), the
 * records are skipped by a scan.
 */
export function repeatedKeyOutside(
	json: string,
	envelope: Record<string, unknown>,
	recordsKey: string,
	keysOf: KeysOf,
): RepeatedKey | undefined {
	const keys = keysOf(envelope);
	let at = skipSpace(json, 0);
	if (json.charCodeAt(at) !== OPEN_OBJECT) return undefined;
	at = skipSpace(json, at + 1);
	let recordsStart = -1;
	while (json.charCodeAt(at) === QUOTE) {
		const keyEnd = stringEnd(json, at);
		const key = keyOf(json.slice(at, keyEnd));
		at = skipSpace(json, skipSpace(json, keyEnd) + 1); // past the colon
		if (key === recordsKey && recordsStart < 0) {
			recordsStart = at;
			if (keys.every((name) => !isIndexKey(name)))
				return repeatedKeyAfter(json, envelope, keys.length - 1 - keys.indexOf(recordsKey), keysOf);
			at = skipSpace(json, valueEnd(json, at));
		} else {
			const scanned = scanKeys(json, at, key, envelope[key], keysOf);
			if (typeof scanned !== 'number') return scanned;
			at = skipSpace(json, scanned);
		}
		if (json.charCodeAt(at) !== COMMA) break;
		at = skipSpace(json, at + 1);
	}
	return undefined;
}

/** An array index as JavaScript orders keys (before every other key of the object, whatever the text's order). */
const isIndexKey = (key: string) => /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1;

/** The last `count` members of the object `json`, read from its end. */
function repeatedKeyAfter(json: string, envelope: Record<string, unknown>, count: number, keysOf: KeysOf): RepeatedKey | undefined {
	let at = skipBack(json, json.length - 1) - 1; // before the closing brace
	for (let member = 0; member < count; member++) {
		const valueStart = valueStartBefore(json, skipBack(json, at));
		const keyClose = skipBack(json, skipBack(json, valueStart - 1) - 1); // before the colon
		const keyOpen = stringStartBefore(json, keyClose);
		const key = keyOf(json.slice(keyOpen, keyClose + 1));
		const scanned = scanKeys(json, valueStart, key, envelope[key], keysOf);
		if (typeof scanned !== 'number') return scanned;
		at = skipBack(json, keyOpen - 1) - 1; // before the comma
	}
	return undefined;
}

/** The opening quote of the string whose closing quote is at `close`: a quote after an even run of backslashes. */
function stringStartBefore(json: string, close: number): number {
	let open = json.lastIndexOf('"', close - 1);
	for (;;) {
		let backslashes = 0;
		while (json.charCodeAt(open - 1 - backslashes) === BACKSLASH) backslashes++;
		if (backslashes % 2 === 0) return open;
		open = json.lastIndexOf('"', open - 1);
	}
}

/** Where the value that ends at `last` (its last character) starts. */
function valueStartBefore(json: string, last: number): number {
	const code = json.charCodeAt(last);
	if (code === QUOTE) return stringStartBefore(json, last);
	if (code !== CLOSE_OBJECT && code !== CLOSE_ARRAY) {
		let at = last;
		while (at > 0 && !isSpace(json.charCodeAt(at - 1)) && json.charCodeAt(at - 1) !== 0x3a) at--;
		return at;
	}
	let depth = 0;
	for (let at = last; ; at--) {
		const char = json.charCodeAt(at);
		if (char === QUOTE) at = stringStartBefore(json, at);
		else if (char === CLOSE_OBJECT || char === CLOSE_ARRAY) depth++;
		else if ((char === OPEN_OBJECT || char === OPEN_ARRAY) && --depth === 0) return at;
	}
}

/**
 * Reads the value that starts at `at` (the value of the key `name`, parsed as `value`) for a key named
 * twice in one of its objects, however deep: the first found, or the index after the value. Each
 * object's keys in the text are counted against the keys JSON.parse kept (a key named twice is kept
 * once); only an object where they differ is read again, key by key, to name the key.
 */
function scanKeys(json: string, at: number, name: string, value: unknown, keysOf: KeysOf): RepeatedKey | number {
	const first = json.charCodeAt(at);
	if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) return valueEnd(json, at);
	const open: OpenValue[] = [];
	for (;;) {
		const code = json.charCodeAt(at);
		if (code === QUOTE) {
			const end = stringEnd(json, at);
			const inside = open[open.length - 1];
			// A string right after `{` or `,` in an object is its next key.
			if (inside.keys !== undefined) {
				const before = json.charCodeAt(skipBack(json, at - 1));
				if (before === OPEN_OBJECT || before === COMMA) {
					inside.count++;
					inside.key = at;
				}
			}
			at = end;
			continue;
		}
		if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
			const parsed = open.length === 0 ? value : valueAt(json, open[open.length - 1]);
			const keys = code === OPEN_OBJECT ? (isObject(parsed) && !Array.isArray(parsed) ? keysOf(parsed) : []) : undefined;
			open.push({ value: parsed, keys, count: 0, key: -1, start: at });
		} else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
			const closed = open[open.length - 1];
			if (closed.keys !== undefined && closed.count !== closed.keys.length) {
				const repeated = firstRepeatedKey(json, closed.start, pathTo(json, name, open));
				if (repeated !== undefined) return repeated;
			}
			open.pop();
			if (open.length === 0) return at + 1;
		} else if (code === COMMA && open[open.length - 1].keys === undefined) open[open.length - 1].count++;
		at++;
	}
}

/** An object or list open in scanKeys: its parsed value, the keys JSON.parse kept (a list: none), its keys or elements so far in the text. */
interface OpenValue {
	value: unknown;
	keys: string[] | undefined;
	/** Keys so far (an object); the index of the current element (a list). */
	count: number;
	/** Where the current key starts in the text (an object). */
	key: number;
	start: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The parsed value of the current key or element of `inside` (undefined where the text and the parse part ways). */
function valueAt(json: string, inside: OpenValue): unknown {
	if (!isObject(inside.value)) return undefined;
	return inside.keys === undefined ? inside.value[inside.count] : inside.value[keyOf(json.slice(inside.key, stringEnd(json, inside.key)))];
}

/** The path from `name` to the current key or element of the innermost open value. */
function pathTo(json: string, name: string, open: readonly OpenValue[]): Array<string | number> {
	const path: Array<string | number> = [name];
	for (const inside of open.slice(0, -1))
		path.push(inside.keys === undefined ? inside.count : keyOf(json.slice(inside.key, stringEnd(json, inside.key))));
	return path;
}

/** The first key named twice in one object of the value that starts at `at` (an object or list), reading its keys one by one; `path` leads to it. */
function firstRepeatedKey(json: string, at: number, path: Array<string | number>): RepeatedKey | undefined {
	// Per open object its keys so far, per open list none.
	const seen: Array<Set<string> | undefined> = [];
	for (;;) {
		const code = json.charCodeAt(at);
		if (code === QUOTE) {
			const end = stringEnd(json, at);
			const keys = seen[seen.length - 1];
			const before = keys === undefined ? 0 : json.charCodeAt(skipBack(json, at - 1));
			if (keys !== undefined && (before === OPEN_OBJECT || before === COMMA)) {
				const key = keyOf(json.slice(at, end));
				path[path.length - 1] = key;
				if (keys.has(key)) return { key, path: pathText(path) };
				keys.add(key);
			}
			at = end;
			continue;
		}
		if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
			seen.push(code === OPEN_OBJECT ? new Set() : undefined);
			path.push(code === OPEN_OBJECT ? '' : 0);
		} else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
			seen.pop();
			path.pop();
			if (seen.length === 0) return undefined;
		} else if (code === COMMA && seen[seen.length - 1] === undefined) (path[path.length - 1] as number)++;
		at++;
	}
}

/** `["links", "next"]` -> `links.next`; `["meta", "items", 2, "id"]` -> `meta.items[2].id`. */
const pathText = (path: ReadonlyArray<string | number>) =>
	path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
