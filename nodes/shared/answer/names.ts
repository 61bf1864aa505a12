import type { Signal, SignalKind } from './signalTable';
import { FILLER_WORDS, NOT_IN_HEADERS, PAGING_WORDS } from './signalTable';

/**
 * Names as the signal table knows them, and the judgement of a name the table does not know: is it
 * paging-like? Pure functions of a name; what to do with the answer is envelope.ts's and headers.ts's.
 */

/** A name in any case and separator style as one key: `has_more`, `hasMore`, `Has-More`, `_links` -> `hasmore`, `links`. */
export function normalName(name: string): string {
	return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
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

/** Words of a name: split at anything but letters and digits, at a lower-to-upper case change and before the last capital of a run (`XMLHttp`). */
export function wordsOf(name: string): string[] {
	return name
		.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
		.replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
		.replace(/(\p{L})(\p{N})/gu, '$1 $2')
		.replace(/(\p{N})(\p{L})/gu, '$1 $2')
		.split(/[^\p{L}\p{N}]+/u)
		.filter((word) => word !== '')
		.map((word) => word.toLowerCase());
}

const STEMS = new Set(PAGING_WORDS);
const FILLERS = new Set(FILLER_WORDS);
const HEADER_STEMS = new Set(PAGING_WORDS.filter((word) => !NOT_IN_HEADERS.includes(word)));
const LONGEST = Math.max(...[...PAGING_WORDS, ...FILLER_WORDS].map((word) => word.length)) + 2;

/**
 * Whether a word is made only of paging and filler words (each maybe plural), one paging word at
 * least: `nextpagetoken`, `hasmore`, `totalcount` are; `account`, `country`, `homepage` are not.
 */
function isPagingWord(word: string, stems: ReadonlySet<string>): boolean {
	// reach[i]: word.slice(0, i) splits into known words; 1 = fillers only, 2 = with a paging word.
	const reach = new Uint8Array(word.length + 1);
	reach[0] = 1;
	for (let start = 0; start < word.length; start++) {
		if (reach[start] === 0) continue;
		for (let end = start + 1; end <= Math.min(word.length, start + LONGEST); end++) {
			const found = kindOf(word.slice(start, end), stems);
			if (found !== 0) reach[end] = Math.max(reach[end], found === 2 ? 2 : reach[start]);
		}
	}
	return reach[word.length] === 2;
}

/** 2: a paging word, 1: a filler, 0: neither; each maybe plural (`pages`, `entries` is listed, `matches` not needed). */
function kindOf(part: string, stems: ReadonlySet<string>): number {
	for (const form of [part, part.endsWith('s') ? part.slice(0, -1) : '', part.endsWith('es') ? part.slice(0, -2) : '']) {
		if (stems.has(form)) return 2;
		if (FILLERS.has(form)) return 1;
	}
	return 0;
}

/** Whether an unknown field's name is paging-like: one of its words is made of paging words (PAGING_WORDS). */
export function isPagingLike(name: string): boolean {
	return wordsOf(name).some((word) => isPagingWord(word, STEMS));
}

/** The same for a header name, without the words that are common outside paging there (`Retry-After`, `X-CSRF-Token`). */
export function isPagingLikeHeader(name: string): boolean {
	return wordsOf(name).some((word) => isPagingWord(word, HEADER_STEMS));
}
