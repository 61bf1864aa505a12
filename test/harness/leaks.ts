/**
 * An oracle for leaked keys, written independently of the redactor (nodes/shared/redaction/redact.ts and
 * decode.ts): the windows of 8 characters of each form the README promises never to show. A text
 * leaks when it holds any of them. keyForms/leakedWindows: the forms of a key, for texts from the
 * engine; FORMS: a key embedded in each form (and compositions of up to two layers of escapes) with the
 * span of each of its characters, for the property tests, which check every window of 8 of them.
 */
const WINDOW = 8;

/** The base64 characters of `prefix + key` that depend on the key alone (standard and URL-safe). */
function base64Cores(key: string): string[] {
	const cores: string[] = [];
	for (const prefix of ['', 'x', 'xy', 'Bearer ', 'user:']) {
		const bytes = Buffer.concat([Buffer.from(prefix), Buffer.from(key)]);
		const encoded = bytes.toString('base64').replace(/=+$/, '');
		// The characters covering the prefix's bytes, and the last partial group, mix in other bytes.
		const p = prefix.length;
		const start = Math.floor(p / 3) * 4 + [0, 2, 3][p % 3];
		const end = bytes.length % 3 === 0 ? encoded.length : encoded.length - 1;
		const core = encoded.slice(start, end);
		cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return cores;
}

/** Every form of `key` whose 8-character windows must not appear anywhere. */
export function keyForms(key: string): string[] {
	return [key, encodeURIComponent(key), JSON.stringify(key).slice(1, -1), ...base64Cores(key)];
}

/** The windows of `key`'s forms found in `text` (empty: no leak). */
export function leakedWindows(text: string, key: string): string[] {
	const found = new Set<string>();
	for (const form of keyForms(key)) {
		for (let start = 0; start + WINDOW <= form.length; start++) {
			const window = form.slice(start, start + WINDOW);
			if (text.includes(window)) found.add(window);
		}
	}
	return [...found];
}

// ---- the forms a key is echoed in, with the spans of its characters ----------------------------

/** An embedded form: its text, and the [start, end) in it of each counted character of the key. */
export interface Embedded {
	text: string;
	tokens: Array<[number, number]>;
}

/** A small deterministic generator for the choices inside one form (from a fast-check seed). */
export function choices(seed: number): <T>(options: readonly T[]) => T {
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

export type Form = (key: string, stored: string, pick: <T>(options: readonly T[]) => T) => Embedded;

/** Characters docs/security.md promises the redactor reads past like whitespace: controls, separators, bidi controls, a lone low surrogate, an ANSI sequence's ESC. */
const CONTROLS = [
	'\u0000',
	'\u0007',
	'\u001b',
	'\u007f',
	'\u0085',
	'\u009b',
	'\u2028',
	'\u2029',
	'\u061c',
	'\u200f',
	'\u202e',
	'\u2069',
	'\udc00',
];

const SINGLE_FORMS: Record<string, Form> = {
	asStored: (_key, stored) => perChar(stored, (char) => char),
	trimmed: (key) => perChar(key, (char) => char),
	whitespaceInside: (key, _stored, pick) =>
		perChar(
			key,
			(char) => char,
			() => pick(['', '', ' ', '\n', '\r\n', '\t', '  \n  ', ...CONTROLS]),
		),
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
	prefixedBase64: (key, _stored, pick) =>
		base64Of(pick(['', 'a', 'ab', 'abc', 'abcd', 'x9Z_-']), key, pick(['base64', 'base64url'] as const)),
};

/** Whether a character is a gap to the redactor (whitespace, `+`); gaps of the key are not counted. */
export const isGap = (char: string): boolean => char === '+' || /^\s$/u.test(char);

// ---- issue 28: hex of the key's bytes, and layers of escapes over any form ---------------------

/** The hex of the key's UTF-8 bytes: every digit a counted character (each depends on one byte of the key). */
function hexOf(key: string, upper: boolean, separator: string): Embedded {
	let text = '';
	const tokens: Array<[number, number]> = [];
	[...Buffer.from(key, 'utf8')].forEach((byte, index) => {
		if (index > 0) text += separator;
		for (const digit of hex(byte, 2, !upper)) {
			tokens.push([text.length, text.length + 1]);
			text += digit;
		}
	});
	return { text, tokens };
}

/** Escapes one character (a code point) of a layer, or returns it as it is. */
type Escaper = (char: string, pick: <T>(options: readonly T[]) => T) => string;

const NAMED: Record<string, string[]> = {
	'&': ['&amp;', '&AMP;'],
	'<': ['&lt;'],
	'>': ['&gt;'],
	'"': ['&quot;'],
	"'": ['&apos;'],
	'/': ['&sol;'],
	'%': ['&percnt;'],
	'\\': ['&bsol;'],
	'=': ['&equals;'],
	'+': ['&plus;'],
};
const utf8Bytes = (char: string) => [...Buffer.from(char, 'utf8')];

/**
 * One layer of escaping as an encoder writes it: its own trigger always escaped (`%` by percent, `\`
 * by JSON and by `\x`, `&` by HTML: else the text is ambiguous), any other character sometimes.
 */
export const LAYERS: Record<string, Escaper> = {
	percent: (char, pick) =>
		char === '%' || pick([false, true])
			? utf8Bytes(char)
					.map((byte) => `%${hex(byte, 2, pick([false, true]))}`)
					.join('')
			: char,
	json: (char, pick) =>
		char === '\\' ? '\\\\' : char === '"' ? '\\"' : pick([false, true]) ? unicodeEscape(char, pick([false, true])) : char,
	backslashX: (char, pick) =>
		char === '\\' || pick([false, true])
			? utf8Bytes(char)
					.map((byte) => `\\x${hex(byte, 2, pick([false, true]))}`)
					.join('')
			: char,
	html: (char, pick) => {
		const code = char.codePointAt(0)!;
		const ways = [`&#${code};`, `&#x${hex(code, 1, pick([false, true]))};`, ...(NAMED[char] ?? [])];
		return char === '&' || pick([false, true]) ? pick(ways) : char;
	},
};

/** Every character percent-encoded; every character an HTML numeric reference. */
const percentEvery: Escaper = (char, pick) =>
	utf8Bytes(char)
		.map((byte) => `%${hex(byte, 2, pick([false, true]))}`)
		.join('');
const entityEvery: Escaper = (char, pick) =>
	pick([false, true]) ? `&#${char.codePointAt(0)!};` : `&#x${hex(char.codePointAt(0)!, 1, pick([false, true]))};`;

/**
 * The same layer, escaping every `%`, `\\` and `&` too (as encodeURIComponent does): the inner of two
 * layers, where the key holds one of its own (the promise: one of the two layers escapes it).
 */
function strictly(kind: string): Escaper {
	const forced: Record<string, Escaper> = {
		percent: (char, pick) =>
			utf8Bytes(char)
				.map((byte) => `%${hex(byte, 2, pick([false, true]))}`)
				.join(''),
		json: (char, pick) => (char === '\\' ? '\\\\' : unicodeEscape(char, pick([false, true]))),
		backslashX: (char, pick) =>
			utf8Bytes(char)
				.map((byte) => `\\x${hex(byte, 2, pick([false, true]))}`)
				.join(''),
		html: (char, pick) => pick([`&#${char.codePointAt(0)!};`, ...(NAMED[char] ?? [])]),
	};
	return (char, pick) => ('%\\&'.includes(char) ? forced[kind](char, pick) : LAYERS[kind](char, pick));
}

/** A layer over an embedded form: each character escaped or not; each counted span becomes the span of its escapes. */
export function layer(embedded: Embedded, escaper: Escaper, pick: <T>(options: readonly T[]) => T): Embedded {
	const starts: number[] = [];
	let text = '';
	for (let index = 0; index < embedded.text.length;) {
		const char = String.fromCodePoint(embedded.text.codePointAt(index)!);
		for (let unit = 0; unit < char.length; unit++) starts[index + unit] = text.length;
		text += escaper(char, pick);
		index += char.length;
	}
	starts[embedded.text.length] = text.length;
	return { text, tokens: embedded.tokens.map(([start, end]) => [starts[start], starts[end]]) };
}

/**
 * Any form of the key (as it is, hex, base64 at any alignment), then 1 or 2 layers of escapes of any
 * kind; of two, the inner escapes every `%`, `\\` and `&`, and so does the outer where the key holds one.
 */
function composed(key: string, stored: string, pick: <T>(options: readonly T[]) => T): Embedded {
	const inner = pick(['trimmed', 'hex', 'base64', 'prefixedBase64', 'asStored']);
	const embedded = inner === 'hex' ? hexOf(key, pick([false, true]), pick(['', ' ', ':'])) : SINGLE_FORMS[inner](key, stored, pick);
	if (pick([1, 2]) === 1) return layer(embedded, LAYERS[pick(Object.keys(LAYERS))], pick);
	// Of two layers over a key holding `%`, `\\` or `&`, each escapes all three (the promise).
	const outer = /[%\\&]/.test(key) ? strictly(pick(Object.keys(LAYERS))) : LAYERS[pick(Object.keys(LAYERS))];
	return layer(layer(embedded, strictly(pick(Object.keys(LAYERS))), pick), outer, pick);
}

/**
 * Two layers of any kind over any form, neither escaping the key's own `%`, `\\` or `&` (before the
 * promise said one of them must): kept for the counterexamples found with it, which hold.
 */
function composedLoosely(key: string, stored: string, pick: <T>(options: readonly T[]) => T): Embedded {
	const inner = pick(['trimmed', 'hex', 'base64', 'prefixedBase64', 'asStored']);
	let embedded = inner === 'hex' ? hexOf(key, pick([false, true]), pick(['', ' ', ':'])) : SINGLE_FORMS[inner](key, stored, pick);
	for (let depth = pick([1, 2]); depth > 0; depth--) embedded = layer(embedded, LAYERS[pick(Object.keys(LAYERS))], pick);
	return embedded;
}

/** Two layers, only the inner escaping every `%`, `\\` and `&` (the generator explored for a while): kept likewise. */
function composedInnerStrictly(key: string, stored: string, pick: <T>(options: readonly T[]) => T): Embedded {
	const inner = pick(['trimmed', 'hex', 'base64', 'prefixedBase64', 'asStored']);
	let embedded = inner === 'hex' ? hexOf(key, pick([false, true]), pick(['', ' ', ':'])) : SINGLE_FORMS[inner](key, stored, pick);
	if (pick([1, 2]) === 2) embedded = layer(embedded, strictly(pick(Object.keys(LAYERS))), pick);
	return layer(embedded, LAYERS[pick(Object.keys(LAYERS))], pick);
}

/** Forms only fixed cases use (see composedLoosely, composedInnerStrictly). */
export const FIXED_FORMS: Record<string, Form> = { composedLoosely, composedInnerStrictly };

/** Every form: the single ones, hex, and compositions of up to two layers of escapes. */
export const FORMS: Record<string, Form> = {
	...SINGLE_FORMS,
	hex: (key, _stored, pick) => hexOf(key, pick([false, true]), pick(['', ' ', ':', '\n'])),
	percentTwice: (key, stored, pick) => layer(layer(SINGLE_FORMS.trimmed(key, stored, pick), percentEvery, pick), percentEvery, pick),
	htmlEntities: (key, stored, pick) => layer(SINGLE_FORMS.trimmed(key, stored, pick), entityEvery, pick),
	backslashXEvery: (key, stored, pick) =>
		layer(
			SINGLE_FORMS.trimmed(key, stored, pick),
			(char, choose) =>
				utf8Bytes(char)
					.map((byte) => `\\x${hex(byte, 2, choose([false, true]))}`)
					.join(''),
			pick,
		),
	composed,
	composedAgain: composed,
};

/** Every window of 8 consecutive counted characters lying within the first `limit` characters of the text. */
export function windows(embedded: Embedded, offset: number, limit: number): string[] {
	const { text, tokens } = embedded;
	const found: string[] = [];
	for (let first = 0; first + 8 <= tokens.length && offset + tokens[first + 7][1] <= limit; first++) {
		found.push(text.slice(tokens[first][0], tokens[first + 7][1]));
	}
	return found;
}
