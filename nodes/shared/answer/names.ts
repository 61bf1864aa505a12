import type { Signal, SignalKind } from './signalTable';
import { FILLER_WORDS, NOT_IN_HEADERS, PAGING_WORDS } from './signalTable';

/**
 * Names as the signal table knows them, and the judgement of a name the table does not know: is it
 * paging-like? Pure functions of a name; what to do with the answer is envelope.ts's and headers.ts's.
 * An answer may hold a million names (a map of records, a holder of many fields), so both are one
 * pass over the name's characters, without regular expressions for ASCII: their cost stays within
 * what JSON.parse paid for the name (tools/bench/answer-cost.mjs).
 */

/** A name in any case and separator style as one key: `has_more`, `hasMore`, `Has-More`, `_links` -> `hasmore`, `links`. */
export function normalName(name: string): string {
	const lower = name.toLowerCase();
	let out = '';
	let from = 0;
	for (let at = 0; at < lower.length; at++) {
		const code = lower.charCodeAt(at);
		if (code >= 0x80) return lower.replace(/[^\p{L}\p{N}]/gu, '');
		if (isLowerAscii(code) || isDigit(code)) continue;
		out += lower.slice(from, at);
		from = at + 1;
	}
	return from === 0 ? lower : out + lower.slice(from);
}

/** The table's signals by normalized name: several kinds for one name are told apart by the value (envelope.ts). */
export function byName(signals: readonly Signal[]): ReadonlyMap<string, readonly SignalKind[]> {
	const map = new Map<string, SignalKind[]>();
	for (const { kind, names } of signals) {
		for (const name of names) {
			const key = normalName(name);
			const kinds = map.get(key) ?? [];
			if (!kinds.includes(kind)) kinds.push(kind);
			map.set(key, kinds);
		}
	}
	return map;
}

/** Whether an unknown field's name is paging-like: one of its words is made of paging words (PAGING_WORDS). */
export const isPagingLike = (name: string): boolean => hasPagingWord(name, FIELD_WORDS);

/** The same for a header name, without the words that are common outside paging there (`Retry-After`, `X-CSRF-Token`). */
export const isPagingLikeHeader = (name: string): boolean => hasPagingWord(name, HEADER_WORDS);

// ---- words of a name -----------------------------------------------------------------------------

const isLowerAscii = (code: number) => code >= 0x61 && code <= 0x7a;
const isUpperAscii = (code: number) => code >= 0x41 && code <= 0x5a;
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/** What a character is to the splitting into words: a separator, a lower or upper case letter, another letter, a digit. */
const enum Class {
	Separator,
	Lower,
	Upper,
	Letter,
	Digit,
}

function classOf(code: number): Class {
	if (code < 0x80)
		return isLowerAscii(code) ? Class.Lower : isUpperAscii(code) ? Class.Upper : isDigit(code) ? Class.Digit : Class.Separator;
	const char = String.fromCodePoint(code);
	if (/\p{Ll}/u.test(char)) return Class.Lower;
	if (/\p{Lu}/u.test(char)) return Class.Upper;
	if (/\p{L}/u.test(char)) return Class.Letter;
	return /\p{N}/u.test(char) ? Class.Digit : Class.Separator;
}

const isLetter = (of: Class) => of === Class.Lower || of === Class.Upper || of === Class.Letter;

/** A new word starts at a character of class `at` after one of class `before`, followed by one of class `after`. */
function startsWord(before: Class, at: Class, after: Class): boolean {
	if (before === Class.Lower && at === Class.Upper) return true; // hasMore
	if (before === Class.Upper && at === Class.Upper && after === Class.Lower) return true; // XMLHttp: the last capital of a run
	return (isLetter(before) && at === Class.Digit) || (before === Class.Digit && isLetter(at)); // page2, 2pages
}

/** Letter `code` lower-cased as a letter a..z (0..25), or -1: a word holding anything else cannot be a paging word. */
function letterIndex(code: number, of: Class): number {
	if (code < 0x80) return of === Class.Digit ? -1 : (code | 0x20) - 0x61;
	// Outside ASCII only the Kelvin sign lower-cases to a letter a..z (k); test it rather than know it.
	const lower = String.fromCodePoint(code).toLowerCase();
	return lower.length === 1 && isLowerAscii(lower.charCodeAt(0)) ? lower.charCodeAt(0) - 0x61 : -1;
}

/**
 * Whether one of the name's words is made of paging and filler words (each maybe plural), one paging
 * word at least: `nextPageToken`, `has_more`, `total_count` are; `account`, `country`, `homepage` are
 * not. Words are split at anything but letters and digits, at a lower-to-upper case change, before
 * the last capital of a run (`XMLHttp`) and between letters and digits.
 */
function hasPagingWord(name: string, words: WordTrie): boolean {
	// One list of letters for every name (a map of a million names allocates nothing per name): `count` of them in use.
	const letters = LETTERS;
	let count = 0;
	let possible = true;
	let before = Class.Separator;
	let at = 0;
	let code = name.length > 0 ? name.codePointAt(0)! : 0;
	let of = name.length > 0 ? classOf(code) : Class.Separator;
	while (at < name.length) {
		const next = at + (code > 0xffff ? 2 : 1);
		const nextCode = next < name.length ? name.codePointAt(next)! : 0;
		const after = next < name.length ? classOf(nextCode) : Class.Separator;
		if (of === Class.Separator || startsWord(before, of, after)) {
			if (count > 0 && possible && madeOfWords(letters, count, words)) return true;
			count = 0;
			possible = true;
		}
		if (of !== Class.Separator && possible) {
			const letter = letterIndex(code, of);
			if (letter < 0) possible = false;
			else letters[count++] = letter;
		}
		before = of;
		at = next;
		code = nextCode;
		of = after;
	}
	return count > 0 && possible && madeOfWords(letters, count, words);
}

// ---- paging and filler words -----------------------------------------------------------------------

/** The paging and filler words, each also plural (+s, +es), as a trie over a..z: `kind` 2 ends a paging word, 1 a filler. */
interface WordTrie {
	next: Int32Array;
	kind: Uint8Array;
}

function wordTrie(stems: readonly string[]): WordTrie {
	const next: number[] = [];
	const kind: number[] = [];
	const node = () => {
		for (let letter = 0; letter < 26; letter++) next.push(-1);
		return kind.push(0) - 1;
	};
	node();
	const paging = new Set(stems);
	const fillers = new Set(FILLER_WORDS);
	// What a part of a word is: the first of its forms (as it is, less -s, less -es) that is a word decides.
	const kindOfPart = (part: string) => {
		for (const form of [part, part.replace(/s$/, ''), part.replace(/es$/, '')]) {
			if (paging.has(form)) return 2;
			if (fillers.has(form)) return 1;
		}
		return 0;
	};
	for (const word of [...stems, ...FILLER_WORDS]) {
		for (const form of [word, `${word}s`, `${word}es`]) {
			let at = 0;
			for (const char of form) {
				const slot = at * 26 + char.charCodeAt(0) - 0x61;
				if (next[slot] < 0) next[slot] = node();
				at = next[slot];
			}
			kind[at] = kindOfPart(form);
		}
	}
	return { next: Int32Array.from(next), kind: Uint8Array.from(kind) };
}

const FIELD_WORDS = wordTrie(PAGING_WORDS);
const HEADER_WORDS = wordTrie(PAGING_WORDS.filter((word) => !NOT_IN_HEADERS.includes(word)));

const LETTERS: number[] = [];
let REACH = new Uint8Array(64);

/** Whether the first `count` of `letters` (0..25) split into words of the trie, one paging word at least. */
function madeOfWords(letters: readonly number[], count: number, { next, kind }: WordTrie): boolean {
	// reach[i]: letters[0, i) splits into known words; 1 = fillers only, 2 = with a paging word.
	if (REACH.length <= count) REACH = new Uint8Array(count * 2 + 1);
	const reach = REACH;
	reach.fill(0, 0, count + 1);
	reach[0] = 1;
	for (let start = 0; start < count; start++) {
		if (reach[start] === 0) continue;
		for (let end = start, at = 0; end < count; end++) {
			at = next[at * 26 + letters[end]];
			if (at < 0) break;
			if (kind[at] !== 0) reach[end + 1] = Math.max(reach[end + 1], kind[at] === 2 ? 2 : reach[start]);
		}
	}
	return reach[count] === 2;
}
