/**
 * The names of an answer (nodes/shared/answer/names.ts) are read in one pass over their characters,
 * for speed (an answer may hold a million names: tools/bench/answer-cost.mjs). Its judgement is the
 * one 0.5.0 made with regular expressions, kept here as the reference: for generated names in every
 * case and separator style, with digits and letters outside ASCII (the Kelvin sign lower-cases to
 * `k`), both say the same.
 */
import fc from 'fast-check';

import { isPagingLike, isPagingLikeHeader, normalName } from '../../nodes/shared/answer/names';
import { FILLER_WORDS, NOT_IN_HEADERS, PAGING_WORDS } from '../../nodes/shared/answer/signalTable';

// ---- the reference: 0.5.0's regular expressions ---------------------------------------------------

const referenceNormal = (name: string) => name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

function referenceWords(name: string): string[] {
	return name
		.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
		.replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
		.replace(/(\p{L})(\p{N})/gu, '$1 $2')
		.replace(/(\p{N})(\p{L})/gu, '$1 $2')
		.split(/[^\p{L}\p{N}]+/u)
		.filter((word) => word !== '')
		.map((word) => word.toLowerCase());
}

function referencePagingLike(name: string, stems: readonly string[]): boolean {
	const paging = new Set(stems);
	const fillers = new Set(FILLER_WORDS);
	const longest = Math.max(...[...stems, ...FILLER_WORDS].map((word) => word.length)) + 2;
	const kindOf = (part: string) => {
		for (const form of [part, part.endsWith('s') ? part.slice(0, -1) : '', part.endsWith('es') ? part.slice(0, -2) : '']) {
			if (paging.has(form)) return 2;
			if (fillers.has(form)) return 1;
		}
		return 0;
	};
	return referenceWords(name).some((word) => {
		const reach = new Uint8Array(word.length + 1);
		reach[0] = 1;
		for (let start = 0; start < word.length; start++) {
			if (reach[start] === 0) continue;
			for (let end = start + 1; end <= Math.min(word.length, start + longest); end++) {
				const found = kindOf(word.slice(start, end));
				if (found !== 0) reach[end] = Math.max(reach[end], found === 2 ? 2 : reach[start]);
			}
		}
		return reach[word.length] === 2;
	});
}

// ---- generated names -------------------------------------------------------------------------------

const WORDS = [...PAGING_WORDS, ...FILLER_WORDS, 'account', 'home', 'request', 'x', 'numFound', 'nb', 'hits'];
/** Pieces a name is made of: known words in any case, separators, digits, letters outside ASCII. */
const piece = fc.oneof(
	fc.constantFrom(...WORDS),
	fc.constantFrom(...WORDS).map((word) => word.toUpperCase()),
	fc.constantFrom(...WORDS).map((word) => word[0].toUpperCase() + word.slice(1)),
	fc.constantFrom('_', '-', '.', ' ', '@', '$', '0', '12', 's', 'es', 'S'),
	fc.constantFrom('\u212a', 'é', 'É', 'ǅ', 'ß', 'İ', 'ı', 'Σ', 'ς', '中', '٣', '\u{1d400}', '\u{1d41a}', 'ﬁ', 'Ⅻ'),
	fc.string({ unit: 'grapheme', maxLength: 3 }),
);
const nameArb = fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join(''));

test('names read in one pass judge as the regular expressions did: paging-like, in headers, normal form', () => {
	const headerStems = PAGING_WORDS.filter((word) => !NOT_IN_HEADERS.includes(word));
	fc.assert(
		fc.property(nameArb, (name) => {
			expect(isPagingLike(name)).toBe(referencePagingLike(name, PAGING_WORDS));
			expect(isPagingLikeHeader(name)).toBe(referencePagingLike(name, headerStems));
			expect(normalName(name)).toBe(referenceNormal(name));
		}),
		{ numRuns: 3000 },
	);
});

test.each([
	['TO\u212aEN', true],
	['nextPageToken', true],
	['XMLNextPage', true],
	['page2', true],
	['2pages', true],
	['pagesé', false],
	['numFound', false],
	['nbHits', false],
	['', false],
])('%j is paging-like: %s (as the regular expressions said)', (name, expected) => {
	expect(isPagingLike(name)).toBe(expected);
	expect(referencePagingLike(name, PAGING_WORDS)).toBe(expected);
});
