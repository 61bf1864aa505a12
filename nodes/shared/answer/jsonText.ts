/**
 * What JSON.parse says nothing about, read from the answer's raw text: integers JavaScript cannot
 * hold exactly (beyond 2^53, JSON.parse rounds them), here, and a key named twice in one object
 * (repeatedKeys.ts), with the steps through valid JSON text both use. The scans are linear;
 * tools/bench/json-text.mjs measures them against JSON.parse of the same text.
 */

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const COMMA = 0x2c;

export const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

export function skipSpace(json: string, at: number): number {
	while (isSpace(json.charCodeAt(at))) at++;
	return at;
}

/** The index after the string that starts (with its quote) at `at`. */
export function stringEnd(json: string, at: number): number {
	let end = json.indexOf('"', at + 1);
	for (;;) {
		let backslashes = 0;
		while (json.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
		if (backslashes % 2 === 0) return end + 1;
		end = json.indexOf('"', end + 1);
	}
}

/** The index after the value that starts at `at` (valid JSON: it was parsed). */
export function valueEnd(json: string, at: number): number {
	const first = json.charCodeAt(at);
	if (first === QUOTE) return stringEnd(json, at);
	if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
		while (at < json.length) {
			const code = json.charCodeAt(at);
			if (code === COMMA || code === CLOSE_OBJECT || code === CLOSE_ARRAY || isSpace(code)) break;
			at++;
		}
		return at;
	}
	let depth = 0;
	for (;;) {
		const code = json.charCodeAt(at);
		if (code === QUOTE) {
			at = stringEnd(json, at);
			continue;
		}
		if (code === OPEN_OBJECT || code === OPEN_ARRAY) depth++;
		else if ((code === CLOSE_OBJECT || code === CLOSE_ARRAY) && --depth === 0) return at + 1;
		at++;
	}
}

/** A key token's text (its escapes read as JSON reads them: `"srv\u002d1"` is `srv-1`). */
export function keyOf(token: string): string {
	return token.includes('\\') ? (JSON.parse(token) as string) : token.slice(1, -1);
}

export function skipBack(json: string, at: number): number {
	while (at > 0 && isSpace(json.charCodeAt(at))) at--;
	return at;
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/**
 * Whether `json` has a run of 16 or more digits that starts a number (after `[`, `:` or `,`): the only
 * place an inexact integer can be. Such a run covers a position that is a multiple of 16, so only
 * every 16th character is looked at, and the runs around the digits found there.
 */
function hasLongNumber(json: string): boolean {
	for (let at = 0; at < json.length; at += 16) {
		// A run of 16 through `at` reaches 8 characters to its left or to its right: most digits end there.
		if (!isDigit(json.charCodeAt(at)) || !(isDigit(json.charCodeAt(at - 8)) || isDigit(json.charCodeAt(at + 8)))) continue;
		let start = at;
		while (start > 0 && isDigit(json.charCodeAt(start - 1))) start--;
		let end = at + 1;
		while (isDigit(json.charCodeAt(end))) end++;
		if (end - start < 16) continue;
		let before = start - 1;
		if (json.charCodeAt(before) === 0x2d) before--;
		while (before >= 0 && isSpace(json.charCodeAt(before))) before--;
		const code = json.charCodeAt(before);
		if (before < 0 || code === OPEN_ARRAY || code === 0x3a || code === COMMA) return true;
	}
	return false;
}

/** Where an integer JSON.parse rounded sits in the answer, and its exact digits. */
interface InexactInteger {
	path: Array<string | number>;
	digits: string;
}

/**
 * Every integer of `json` that JSON.parse does not hold exactly (its number does not print back to its
 * digits: beyond 2^53), with its path. Most answers have none: a first look for a long run of digits
 * after `[`, `:` or `,` (hasLongNumber) skips the scan.
 */
export function inexactIntegers(json: string): InexactInteger[] {
	if (!hasLongNumber(json)) return [];
	const found: InexactInteger[] = [];
	// The path to the value being read: an object's current key, an array's current index.
	const path: Array<string | number> = [];
	const inObject: boolean[] = [];
	for (let at = 0; at < json.length;) {
		const code = json.charCodeAt(at);
		if (code === QUOTE) {
			const end = stringEnd(json, at);
			// A string right after `{` or `,` in an object is its next key.
			const before = json.charCodeAt(skipBack(json, at - 1));
			if (inObject[inObject.length - 1] && (before === OPEN_OBJECT || before === COMMA)) path[path.length - 1] = keyOf(json.slice(at, end));
			at = end;
		} else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
			inObject.push(code === OPEN_OBJECT);
			path.push(code === OPEN_OBJECT ? '' : 0);
			at++;
		} else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
			inObject.pop();
			path.pop();
			at++;
		} else if (code === COMMA) {
			if (!inObject[inObject.length - 1]) (path[path.length - 1] as number)++;
			at++;
		} else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
			const end = valueEnd(json, at);
			const digits = json.slice(at, end);
			if (digits.length >= 16 && /^-?\d+$/.test(digits) && String(Number(digits)) !== digits) found.push({ path: path.slice(), digits });
			at = end;
		} else at++;
	}
	return found;
}

/**
 * `body` (JSON.parse of `json`) with every inexact integer put back as its exact digits, in a string:
 * never a silently different number. A value JSON.parse took from a later key of the same name is
 * left alone (the rounded number must be the one at its place).
 */
export function keepExactIntegers(body: unknown, json: string): unknown {
	let result = body;
	for (const { path, digits } of inexactIntegers(json)) {
		if (path.length === 0) {
			result = digits;
			continue;
		}
		let holder: unknown = result;
		for (const key of path.slice(0, -1))
			holder = typeof holder === 'object' && holder !== null ? (holder as Record<string, unknown>)[key] : undefined;
		const last = path[path.length - 1];
		if (typeof holder !== 'object' || holder === null || !Object.hasOwn(holder, last)) continue;
		const place = holder as Record<string | number, unknown>;
		if (place[last] === Number(digits)) place[last] = digits;
	}
	return result;
}
