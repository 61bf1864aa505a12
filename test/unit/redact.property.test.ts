/**
 * Property-based tests (fast-check; the seed is printed on failure) of the one redaction of the key
 * (nodes/shared/text/redact.ts), with an oracle written apart from it: the key is embedded, in every form
 * the README promises, between ordinary wording; each text is cut at every length; in every cut no
 * window of 8 consecutive characters of the key (as they stand in that form) may survive, and the
 * wording must come out unchanged. Then the work: steps counted by the redactor stay within a constant
 * times the length of the text for the worst texts known, also at 1 MB (time itself lives in
 * bench/redact.mjs: no timed unit tests).
 */
import fc from 'fast-check';

import type { StepMeter } from '../../nodes/shared/text/redact';
import { makeRedactor, REDACTED } from '../../nodes/shared/text/redact';

// ---- keys ------------------------------------------------------------------------------------------

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const REGEX = '.*+?^${}()|[]\\/-_~';
const ENCODING = '%+/= ';
const UNICODE = ['é', 'Ü', 'ß', 'ñ', '€', '漢', '鍵', '✓', '🔑', '𝄞'];
/** Pieces a reader could take for escapes when the key is echoed as it is. */
const ESCAPE_LIKE = ['%41', '%2b', '%C3%A9', '%2', '\\n', '\\u00e9', '\\uD83D', '\\\\', '"'];
/** Characters the redactor reads as gaps (whitespace, and `+` for a form-encoded space). */
const isGap = (char: string): boolean => char === '+' || /^\s$/u.test(char);
const nonGaps = (text: string): number => [...text].filter((char) => !isGap(char)).length;

const keyChar = fc.oneof(
	{ weight: 8, arbitrary: fc.constantFrom(...LETTERS) },
	{ weight: 2, arbitrary: fc.constantFrom(...REGEX) },
	{ weight: 2, arbitrary: fc.constantFrom(...ENCODING) },
	{ weight: 1, arbitrary: fc.constantFrom(...UNICODE) },
	{ weight: 1, arbitrary: fc.constantFrom(...ESCAPE_LIKE) },
);
const keyChars = (size: fc.SizeForArbitrary) =>
	fc.array(keyChar, { minLength: 8, maxLength: 200, size }).map((chars) => [...chars.join('')].slice(0, 200).join(''));
/** Trimmed keys of 8 to 200 characters, at least 8 of them not gaps, some with `Bearer ` before. */
const keyArb = fc
	.tuple(fc.boolean(), fc.oneof({ weight: 4, arbitrary: keyChars('small') }, { weight: 1, arbitrary: keyChars('max') }))
	.map(([bearer, chars]) => `${bearer ? 'Bearer ' : ''}${chars}`.trim())
	.filter((key) => nonGaps(key) >= 8);

/** Ordinary wording: characters no key, escape or base64 text uses, so it cannot hold a window of the key. */
const WORDING = [' ', ' ', ' ', '\n', ',', ';', ':', '!', "'", '<', '>', '@', '#', '&', 'α', 'β', 'γ', 'λ', 'ό', 'ς'];
const wordingArb = fc.array(fc.constantFrom(...WORDING), { maxLength: 24 }).map((chars) => chars.join(''));

// ---- the forms a key is echoed in, with the spans of its characters ----------------------------

/** An embedded form: its text, and the [start, end) in it of each counted character of the key. */
interface Embedded {
	text: string;
	tokens: Array<[number, number]>;
}

/** A small deterministic generator for the choices inside one form (from a fast-check seed). */
function choices(seed: number): <T>(options: readonly T[]) => T {
	let state = seed >>> 0;
	return (options) => {
		state = (state + 0x6d2b79f5) >>> 0;
		let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
		mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
		return options[((mixed ^ (mixed >>> 14)) >>> 0) % options.length];
	};
}

/** The key character by character, each encoded, optionally something between; gaps are not counted. */
function perChar(key: string, encode: (char: string) => string, between: () => string = () => '', wrap = ''): Embedded {
	let text = wrap;
	const tokens: Array<[number, number]> = [];
	[...key].forEach((char, index) => {
		if (index > 0) text += between();
		const start = text.length;
		text += encode(char);
		if (!isGap(char)) tokens.push([start, text.length]);
	});
	return { text: text + wrap, tokens };
}

const hex = (value: number, digits: number, lower: boolean): string => {
	const digitsText = value.toString(16).padStart(digits, '0');
	return lower ? digitsText : digitsText.toUpperCase();
};
const percentChar = (char: string, lower: boolean, space: string): string =>
	char === ' ' ? space : [...Buffer.from(char, 'utf8')].map((byte) => `%${hex(byte, 2, lower)}`).join('');
/** `\uXXXX` for each UTF-16 unit of the character (a surrogate pair for one beyond U+FFFF). */
const unicodeEscape = (char: string, lower: boolean): string =>
	Array.from({ length: char.length }, (_, index) => `\\u${hex(char.charCodeAt(index), 4, lower)}`).join('');

/**
 * base64 (standard or URL-safe) of prefix + key: the counted characters are those whose 6 bits all
 * come from the key's bytes (a `+`, read as a gap, is not counted).
 */
function base64Of(prefix: string, key: string, alphabet: 'base64' | 'base64url'): Embedded {
	const text = Buffer.from(prefix + key, 'utf8').toString(alphabet);
	const from = 8 * Buffer.byteLength(prefix);
	const to = from + 8 * Buffer.byteLength(key);
	const tokens: Array<[number, number]> = [];
	for (let index = 0; index < text.length; index++) {
		if (6 * index >= from && 6 * index + 6 <= to && text[index] !== '+' && text[index] !== '=') tokens.push([index, index + 1]);
	}
	return { text, tokens };
}

type Form = (key: string, stored: string, pick: <T>(options: readonly T[]) => T) => Embedded;

const FORMS: Record<string, Form> = {
	asStored: (_key, stored) => perChar(stored, (char) => char),
	trimmed: (key) => perChar(key, (char) => char),
	whitespaceInside: (key, _stored, pick) => perChar(key, (char) => char, () => pick(['', '', ' ', '\n', '\r\n', '\t', '  \n  '])),
	percentAll: (key, _stored, pick) => {
		const lower = pick([false, true]);
		const space = pick(['+', '%20']);
		return perChar(key, (char) => percentChar(char, lower, space));
	},
	// Some characters encoded; `%` and `\` always (an encoder that leaves them would make the text ambiguous).
	percentSome: (key, _stored, pick) => {
		const lower = pick([false, true]);
		const space = pick(['+', '%20', ' ']);
		return perChar(key, (char) => (char === '%' || char === '\\' || pick([false, true]) ? percentChar(char, lower, space) : char));
	},
	// Whitespace anywhere in the encoded text, also inside an escape (a line wrapped by a proxy).
	percentWrapped: (key, _stored, pick) => {
		const gap = (): string => pick(['', '', '', ' ', '\n', '\r\n\t']);
		return perChar(key, (char) => [...percentChar(char, pick([false, true]), '%20')].join(gap()), gap);
	},
	jsonStringify: (key) => perChar(key, (char) => JSON.stringify(char).slice(1, -1), undefined, '"'),
	jsonUnicodeEscapes: (key, _stored, pick) => {
		const lower = pick([false, true]);
		return perChar(key, (char) => unicodeEscape(char, lower), undefined, '"');
	},
	jsonUnicodeWrapped: (key, _stored, pick) => {
		const gap = (): string => pick(['', '', '', ' ', '\n']);
		return perChar(key, (char) => [...unicodeEscape(char, pick([false, true]))].join(gap()), gap, '"');
	},
	base64: (key) => base64Of('', key, 'base64'),
	base64url: (key) => base64Of('', key, 'base64url'),
	bearerBase64: (key, _stored, pick) => base64Of('Bearer ', key, pick(['base64', 'base64url'] as const)),
	basicBase64: (key, _stored, pick) => base64Of('user:', key, pick(['base64', 'base64url'] as const)),
	// A random prefix of 0 to 5 bytes: the key at every byte alignment.
	prefixedBase64: (key, _stored, pick) => base64Of(pick(['', 'a', 'ab', 'abc', 'abcd', 'x9Z_-']), key, pick(['base64', 'base64url'] as const)),
};

/** Every window of 8 consecutive counted characters lying within the first `limit` characters of the text. */
function windows(embedded: Embedded, offset: number, limit: number): string[] {
	const { text, tokens } = embedded;
	const found: string[] = [];
	for (let first = 0; first + 8 <= tokens.length && offset + tokens[first + 7][1] <= limit; first++) {
		found.push(text.slice(tokens[first][0], tokens[first + 7][1]));
	}
	return found;
}

// ---- properties --------------------------------------------------------------------------------

describe('no window of 8 characters of the key survives, in any form, cut at any length; the wording stays', () => {
	const caseArb = fc.record({
		key: keyArb,
		padding: fc.constantFrom('', '  ', '\t', ' \n'),
		form: fc.constantFrom(...Object.keys(FORMS)),
		seed: fc.integer(),
		before: wordingArb,
		after: wordingArb,
	});

	test('every form, every cut', () => {
		fc.assert(
			fc.property(caseArb, ({ key, padding, form, seed, before, after }) => {
				const stored = `${padding}${key}${padding}`;
				const redact = makeRedactor(stored);
				const embedded = FORMS[form](key, stored, choices(seed));
				const text = before + embedded.text + after;
				const formEnd = before.length + embedded.text.length;
				const failures: Array<{ cut: string; output: string; left: string[]; wordingKept: boolean }> = [];
				for (let limit = 0; limit <= text.length; limit++) {
					const cut = text.slice(0, limit);
					const output = redact(cut);
					// (1) What identifies 8 characters of the key is gone.
					const left = windows(embedded, before.length, limit).filter((window) => output.includes(window) && !REDACTED.includes(window));
					// (2) The wording before and after the key is as it was.
					const wordingKept =
						(limit <= before.length ? output === cut : output.startsWith(before)) && (limit <= formEnd || output.endsWith(text.slice(formEnd, limit)));
					if (left.length > 0 || !wordingKept) failures.push({ cut, output, left, wordingKept });
				}
				expect(failures.slice(0, 3)).toEqual([]);
			}),
			{ numRuns: 1500 },
		);
	});

	test('the key among other echoes of itself and of other keys: each echo goes, the wording between stays', () => {
		fc.assert(
			fc.property(keyArb, fc.array(fc.tuple(fc.constantFrom(...Object.keys(FORMS)), fc.integer(), wordingArb), { minLength: 1, maxLength: 6 }), (key, parts) => {
				const redact = makeRedactor(key);
				let text = '';
				const placed: Array<{ embedded: Embedded; offset: number }> = [];
				for (const [form, seed, wording] of parts) {
					const embedded = FORMS[form](key, key, choices(seed));
					placed.push({ embedded, offset: text.length });
					text += embedded.text + (wording || ' ');
				}
				const output = redact(text);
				for (const { embedded, offset } of placed) {
					expect(windows(embedded, offset, text.length).filter((window) => output.includes(window) && !REDACTED.includes(window))).toEqual([]);
				}
				// Nothing but the echoes is taken: what is left, markers aside, is the wording, in order.
				expect(output.split(REDACTED).join('').length).toBeLessThanOrEqual(text.length);
				for (const [, , wording] of parts) if (wording.trim() !== '') expect(output).toContain(wording.trim());
			}),
			{ numRuns: 500 },
		);
	});
});

// ---- the examples of the first redaction, kept ---------------------------------------------------

describe('one redaction: the key in no form survives, whatever surrounds it', () => {
	const keyCharOld = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~+/='.split(''));
	const key = fc.array(keyCharOld, { minLength: 8, maxLength: 80 }).map((chars) => chars.join('')).filter((secret) => nonGaps(secret) >= 8);
	const filler = fc.string({ maxLength: 40 });
	/** The key up to its 8th character that is not a gap: the shortest piece that must never survive. */
	const firstWindow = (secret: string): string => secret.slice(0, [...secret].findIndex((_, index) => nonGaps(secret.slice(0, index + 1)) === 8) + 1);
	/** The forms a server, proxy or Location header may echo the key in. */
	const forms = (secret: string): Record<string, (k: string) => string> => ({
		raw: (k) => k,
		urlEncoded: (k) => encodeURIComponent(k),
		urlEncodedEverything: (k) => [...Buffer.from(k)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
		base64: (k) => Buffer.from(k).toString('base64'),
		base64url: (k) => Buffer.from(k).toString('base64url'),
		bearerBase64: (k) => Buffer.from(`Bearer ${k}`).toString('base64'),
		basicBase64: (k) => Buffer.from(`user:${k}`).toString('base64'),
		wrapped: (k) => `${k.slice(0, secret.length >> 1)}\n  ${k.slice(secret.length >> 1)}`,
		prefixCut: (k) => `${k.slice(0, Math.max(firstWindow(k).length, k.length - 3))}...`,
	});

	test('every form is removed; the cores that identify the key are gone from the output', () => {
		fc.assert(
			fc.property(key, filler, filler, fc.constantFrom(...Object.keys(forms('x'))), fc.boolean(), (secret, before, after, form, padded) => {
				const redact = makeRedactor(padded ? `  ${secret}\t` : secret);
				const echoed = forms(secret)[form](secret);
				const output = redact(`${before}${echoed}${after}`);
				expect(output).toContain('[redacted]');
				expect(output).not.toContain(secret);
				expect(output).not.toContain(firstWindow(secret));
				// Redaction is idempotent and only ever removes: running it twice changes nothing more.
				expect(redact(output)).toBe(output);
			}),
			{ numRuns: 400 },
		);
	});

	test('the base64 of the key is gone at every alignment inside a longer base64 text', () => {
		fc.assert(
			fc.property(key.filter((k) => k.length >= 12), fc.string({ maxLength: 5 }), (secret, prefix) => {
				const output = makeRedactor(secret)(Buffer.from(`${prefix}${secret}`).toString('base64'));
				// What is left cannot hold the key: decoding it gives no 8-character piece of it.
				const decoded = Buffer.from(output.replace(/\[redacted\]/g, ''), 'base64').toString('latin1');
				for (let i = 0; i + 8 <= secret.length; i++) expect(decoded).not.toContain(secret.slice(i, i + 8));
			}),
			{ numRuns: 300 },
		);
	});

	test('no key (empty or missing) leaves texts alone', () => {
		expect(makeRedactor(undefined)('a b c')).toBe('a b c');
		expect(makeRedactor('   ')('a b c')).toBe('a b c');
	});
});

// ---- linear work ---------------------------------------------------------------------------------

/** Steps a redaction may take per character of text (reading twice, a few looks per character, up to 3 units each). */
const STEPS_PER_CHARACTER = 16;
/** Steps building the redactor may take per UTF-8 byte of the key (automaton states times unit classes). */
const STEPS_PER_KEY_BYTE = 100_000;

function measured(key: string): { redact: (text: string) => string; meter: StepMeter; build: number } {
	const meter: StepMeter = { steps: 0 };
	const redact = makeRedactor(key, meter);
	// The automaton is built for the first text.
	redact('');
	return { redact, meter, build: meter.steps };
}

function stepsFor(key: string, text: string): number {
	const { redact, meter, build } = measured(key);
	redact(text);
	return meter.steps - build;
}

const SPACED_KEY = 'Bearer sk-live-PROPERTY 3e8b1f0c9a27d456';
const ESCAPED_KEY = 'k%41%2B+key+%%\\n\\u00e9-0123456789';
const MB = 1 << 20;
const fill = (piece: string, size = MB): string => piece.repeat(Math.ceil(size / piece.length)).slice(0, size);

const WORST: Array<[string, string, string]> = [
	['whitespace runs, key with a space', SPACED_KEY, `Bearer${' \n\t '.repeat(64)}x`],
	['whitespace between every character', SPACED_KEY, [...SPACED_KEY.slice(0, 12)].join('   \n ')],
	['repeated 7-character prefix', SPACED_KEY, SPACED_KEY.slice(0, 7)],
	['repeated 8-character prefix', SPACED_KEY, SPACED_KEY.slice(0, 8)],
	['repeated prefix, one short of the whole key', SPACED_KEY, SPACED_KEY.slice(0, -1)],
	['the key echoed back to back', SPACED_KEY, SPACED_KEY],
	['percent storm', ESCAPED_KEY, '%'],
	['percent and one digit', ESCAPED_KEY, '%4'],
	['percent with gaps inside', ESCAPED_KEY, '% 4 '],
	['UTF-8 lead bytes that never finish', ESCAPED_KEY, '%E2%82'],
	['\\u storm', ESCAPED_KEY, '\\u'],
	['unfinished surrogate pairs', ESCAPED_KEY, '\\uD83D\\u'],
	['backslashes and gaps', ESCAPED_KEY, '\\ '],
	['mixed escapes', ESCAPED_KEY, '%\\u%4\\'],
	['non-ASCII', ESCAPED_KEY, '漢字かな🔑é'],
];

describe('linear work: steps within a constant times the length of the text, whatever the text', () => {
	test.each(WORST)('1 MB: %s', (_name, key, piece) => {
		const text = fill(piece);
		const steps = stepsFor(key, text);
		expect(steps).toBeLessThanOrEqual(STEPS_PER_CHARACTER * text.length);
		// Twice the text, twice the work (give or take the end).
		expect(stepsFor(key, fill(piece, MB / 2)) * 2).toBeGreaterThanOrEqual(steps * 0.99);
	});

	test('random texts made of hostile pieces, random keys', () => {
		const pieces = ['%', '%2', '%C3', '\\', '\\u', '\\uD83D', ' ', '\n', '+', 'é', '🔑', 'a', 'Bearer'];
		fc.assert(
			fc.property(keyArb, fc.array(fc.oneof(fc.constantFrom(...pieces), keyArb.map((key) => key.slice(0, 9))), { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 400 }), (key, parts, times) => {
				const text = parts.join('').repeat(times);
				const { redact, meter, build } = measured(key);
				expect(build).toBeLessThanOrEqual(STEPS_PER_KEY_BYTE * Buffer.byteLength(key));
				redact(text);
				expect(meter.steps - build).toBeLessThanOrEqual(STEPS_PER_CHARACTER * text.length + 1);
			}),
			{ numRuns: 300 },
		);
	});

	test('building the redactor is linear in the key', () => {
		for (const piece of ['a', 'Ab9-', 'é漢🔑', '%41\\n ']) {
			const small = measured(fill(piece, 100)).build;
			const large = measured(fill(piece, 400)).build;
			expect(large).toBeLessThanOrEqual(4.5 * small);
		}
	});
});
