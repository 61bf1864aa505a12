/**
 * Over 300 lines because the three kinds of escapes, each with its gaps, UTF-8 sequences and surrogate
 * pairs, are one decoder: a layer is built by it, and the redactor's other readings use it too.
 *
 * Reading a text the way the redactor sees it (redact.ts): as LAYERS of elements, each a character or
 * an escape standing for one, with where it came from. Layer 0 is the text's characters (a surrogate
 * pair one element). Layer d is layer d - 1 decoded once: where an element is a `%`, `\` or `&` that,
 * with the elements after it, makes an escape, the escape is one element standing for what it means.
 * So `%2541` is `%41` in layer 1 and `A` in layer 2, and `&#37;41`, `\u002541` and `%26%2365%3B`
 * (`&#65;` percent-encoded) are `A` in layer 2.
 *
 * The escapes (issue 28):
 * - percent: `%XX` (hex, any case) is that byte; a UTF-8 sequence of them, one character;
 * - JSON and C: `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t`; `\uXXXX` (a surrogate pair of them, one
 *   character); `\xXX` a byte, like `%XX`;
 * - HTML: `&#NNN;` and `&#xHHH;` (the `;` required), and the named references of every ASCII
 *   character that has one (`&amp;` `&lt;` `&quot;` `&apos;` `&sol;` `&percnt;` ... see NAMED), `&nbsp;`.
 * Gaps (whitespace, `+`, and the controls of controls.ts) may lie anywhere inside an escape: a line
 * wrapped inside one is read past.
 *
 * Each layer reads greedily, left to right, as a decoder would; a surrogate pair escaped as two halves,
 * or its halves decoded in different layers, is one character. Each layer is built in one pass over the
 * one below (an escape that fails is read again as the elements it was made of: a bounded number of
 * looks at each), and a Decoder reads it anew from any element for the redactor's other readings.
 */
import { isControl } from '../text/controls';

/** How many layers of escapes the redactor decodes. */
export const DEPTH = 2;

/** What a piece stands for, besides a code point: a byte that begins no UTF-8 character. */
const BYTE = 0x110000;
// Exported by name: read for every escape, as this module's own constant (not a property of exports).
export { BYTE };

const [PERCENT, AMPERSAND, BACKSLASH, SEMICOLON, HASH] = [0x25, 0x26, 0x5c, 0x3b, 0x23];

/** Whether a code point is a trigger: a character that may begin an escape. */
export function isTrigger(code: number): boolean {
	return code === PERCENT || code === BACKSLASH || code === AMPERSAND;
}

/** Whitespace (what `\s` matches), `+` (a space in form encoding), or a control of controls.ts: no unit. */
export function isGap(code: number): boolean {
	if (code < 0x80) return code === 0x20 || code === 0x2b || code < 0x20 || code === 0x7f;
	return (
		code === 0xa0 ||
		code === 0x1680 ||
		(code >= 0x2000 && code <= 0x200a) ||
		code === 0x202f ||
		code === 0x205f ||
		code === 0x3000 ||
		code === 0xfeff ||
		isControl(code) ||
		(code >= 0xd800 && code <= 0xdfff)
	);
}

const ASCII_GAP = Uint8Array.from({ length: 128 }, (_, code) => (isGap(code) ? 1 : 0));

/** The value of each ASCII hex digit, -1 for any other character. */
const HEX = Int8Array.from({ length: 128 }, (_, code) => {
	if (code >= 0x30 && code <= 0x39) return code - 0x30;
	const letter = code | 0x20;
	return letter >= 0x61 && letter <= 0x66 ? letter - 0x57 : -1;
});

function hexValue(code: number): number {
	return code < 0x80 ? HEX[code] : -1;
}

/** The character of each simple backslash escape, by the letter after the backslash; -1 for none. */
const SIMPLE = new Int16Array(128).fill(-1);
for (const [letter, code] of Object.entries({ '"': 0x22, '\\': 0x5c, '/': 0x2f, b: 8, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 })) {
	SIMPLE[letter.charCodeAt(0)] = code;
}

/** HTML's named references for ASCII characters (HTML 5), and `nbsp`. Names are case-sensitive. */
const NAMED = new Map<string, number>(
	Object.entries({
		Tab: 9,
		NewLine: 10,
		excl: 33,
		quot: 34,
		QUOT: 34,
		num: 35,
		dollar: 36,
		percnt: 37,
		amp: 38,
		AMP: 38,
		apos: 39,
		lpar: 40,
		rpar: 41,
		ast: 42,
		midast: 42,
		plus: 43,
		comma: 44,
		period: 46,
		sol: 47,
		colon: 58,
		semi: 59,
		lt: 60,
		LT: 60,
		equals: 61,
		gt: 62,
		GT: 62,
		quest: 63,
		commat: 64,
		lsqb: 91,
		lbrack: 91,
		bsol: 92,
		rsqb: 93,
		rbrack: 93,
		Hat: 94,
		lowbar: 95,
		UnderBar: 95,
		grave: 96,
		DiacriticalGrave: 96,
		lcub: 123,
		lbrace: 123,
		verbar: 124,
		vert: 124,
		VerticalLine: 124,
		rcub: 125,
		rbrace: 125,
		nbsp: 0xa0,
		NonBreakingSpace: 0xa0,
	}),
);
const LONGEST_NAME = Math.max(...[...NAMED.keys()].map((name) => name.length));
/** The most digits of an HTML numeric reference, decimal and hex (`&#1114111;`, `&#x10FFFF;`, a few leading zeros). */
const [MAX_DECIMAL, MAX_HEX] = [10, 8];

/** By the length of a UTF-8 sequence: the smallest code point it may hold, the payload bits of its first byte. */
const [SMALLEST, PAYLOAD_BITS] = [
	[0, 0, 0x80, 0x800, 0x10000],
	[0x7f, 0x7f, 0x1f, 0x0f, 0x07],
];

/**
 * By the character after a trigger: the triggers it may go on an escape with (1 `%`, 2 `\`, 4 `&`; all
 * for a gap). A trigger followed by none of its characters is itself, without asking the decoder.
 */
const FOLLOWS = Uint8Array.from({ length: 128 }, (_, code) => {
	const char = String.fromCharCode(code);
	if (ASCII_GAP[code] === 1) return 7;
	return (
		(HEX[code] >= 0 ? 1 : 0) | (SIMPLE[code] >= 0 || char === 'x' || char === 'u' ? 2 : 0) | (char === '#' || /[A-Za-z]/.test(char) ? 4 : 0)
	);
});

/** Whether `next`, after the trigger `code`, may go on an escape with it (beyond ASCII: may, a gap perhaps). */
function mayFollow(code: number, next: number): boolean {
	return next >= 0x80 || (FOLLOWS[next] & (code === PERCENT ? 1 : code === BACKSLASH ? 2 : 4)) !== 0;
}

/**
 * One layer of a text: what each element stands for, and where each begins in the layer below. Its
 * arrays are the pool's (see scratch) and may be longer than the layer: valid up to `length`, and until
 * the next text is read into layers.
 */
export interface Layer {
	/** A code point, or BYTE + a byte. */
	codes: Int32Array;
	/** Where each element begins in the layer below (in the text, for layer 0); src[length]: where the last ends. */
	src: Int32Array;
	/** Where each element begins in the text (pos[length]: where the last ends); undefined: the index itself (layer 0, no pairs). */
	pos: Int32Array | undefined;
	length: number;
	below: Layer | undefined;
	depth: number;
	/** How many elements are escapes (none: the layer reads as the one below). */
	escapes: number;
	/** Which: their indexes, in order (the pool's, as codes). */
	escaped: Int32Array;
}

/**
 * The arrays of the layers, reused from one text to the next: a text of 1 MB is some tens of MB of
 * them, and allocating them anew for each text had the garbage collector take as long as the reading.
 * Held weakly: a full collection frees them. Slot 3 * depth + 0, 1, 2 for a layer's codes, src, pos;
 * 3 * DEPTH + 3 + depth for its escaped.
 */
const pool: Array<WeakRef<Int32Array> | undefined> = [];
let widening: WeakRef<Uint16Array> | undefined;

function scratch(slot: number, size: number): Int32Array {
	const held = pool[slot]?.deref();
	if (held !== undefined && held.length >= size) return held;
	const fresh = new Int32Array(size);
	pool[slot] = new WeakRef(fresh);
	return fresh;
}

/** Layer 0: the text's characters, a surrogate pair one element, a lone surrogate as it is. */
export function textLayer(text: string): Layer {
	const codes = scratch(0, text.length);
	// A text without a high surrogate is its UTF-16 code units, widened natively (no loop here).
	if (!/[\uD800-\uDBFF]/.test(text)) {
		let units = widening?.deref();
		if (units === undefined || units.length < text.length) widening = new WeakRef((units = new Uint16Array(text.length)));
		Buffer.from(units.buffer).write(text, 'utf16le');
		codes.set(units.subarray(0, text.length));
		return { codes, src: IDENTITY, pos: undefined, length: text.length, below: undefined, depth: 0, escapes: 0, escaped: IDENTITY };
	}
	const src = scratch(1, text.length + 1);
	let length = 0;
	for (let index = 0; index < text.length;) {
		const code = text.charCodeAt(index);
		src[length] = index;
		if (code >= 0xd800 && code <= 0xdbff) {
			const low = text.charCodeAt(index + 1);
			if (low >= 0xdc00 && low <= 0xdfff) {
				codes[length++] = ((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
				index += 2;
				continue;
			}
		}
		codes[length++] = code;
		index++;
	}
	src[length] = text.length;
	return { codes, src, pos: src, length, below: undefined, depth: 0, escapes: 0, escaped: IDENTITY };
}

/** Layer 0's src when every element is one character of the text: read as the index itself. */
const IDENTITY = new Int32Array(0);

/** The layer above `below`: it decoded once, greedily. */
export function decodeLayer(below: Layer): Layer {
	const { codes: from, length: count, pos: belowPos } = below;
	const depth = below.depth + 1;
	const codes = scratch(3 * depth, count);
	const src = scratch(3 * depth + 1, count + 1);
	// Over layer 0 without pairs, where an element begins below is where it begins in the text.
	const pos = belowPos === undefined ? src : scratch(3 * depth + 2, count + 1);
	const decoder = new Decoder(below);
	let length = 0;
	const escaped = scratch(3 * DEPTH + 3 + depth, count);
	let escapes = 0;
	for (let index = 0; index < count;) {
		// Elements that begin no escape (most of them), in a loop of their own.
		const run = index;
		if (belowPos === undefined) {
			for (; index < count; index++) {
				const code = from[index];
				if (isTrigger(code) || (code >= 0xd800 && code <= 0xdbff)) break;
				src[length] = index;
				codes[length++] = code;
			}
		} else {
			for (; index < count; index++) {
				const code = from[index];
				if (isTrigger(code) || (code >= 0xd800 && code <= 0xdbff)) break;
				src[length] = index;
				pos[length] = belowPos[index];
				codes[length++] = code;
			}
		}
		if (index === count) break;
		if (index > run) continue;
		const code = from[index];
		src[length] = index;
		if (belowPos !== undefined) pos[length] = belowPos[index];
		if (!isTrigger(code) ? !(code >= 0xd800 && code <= 0xdbff) : index + 1 < count && !mayFollow(code, from[index + 1])) {
			codes[length++] = code;
			index++;
			continue;
		}
		// The commonest escapes, as the decoder reads them, without it: `%XX` of an ASCII character, `\n` and the like.
		// (A byte that begins no UTF-8 character, 0x80 to 0xC1 or 0xF5 and up, stands for itself.)
		const high = code === PERCENT && index + 2 < count ? hexValue(from[index + 1]) : -1;
		const byte = high >= 0 && hexValue(from[index + 2]) >= 0 ? high * 16 + hexValue(from[index + 2]) : -1;
		if (byte >= 0 && (byte < 0xc2 || byte >= 0xf5)) {
			escaped[escapes++] = length;
			codes[length++] = byte < 0x80 ? byte : BYTE + byte;
			index += 3;
			continue;
		}
		if (code === BACKSLASH && index + 1 < count && from[index + 1] < 0x80 && SIMPLE[from[index + 1]] >= 0) {
			escaped[escapes++] = length;
			codes[length++] = SIMPLE[from[index + 1]];
			index += 2;
			continue;
		}
		const end = decoder.step(index);
		if (end > index + 1) escaped[escapes++] = length;
		codes[length++] = decoder.code;
		index = end;
	}
	src[length] = count;
	if (belowPos !== undefined) pos[length] = belowPos[count];
	return { codes, src, pos, length, below, depth, escapes, escaped };
}

/** Where element `index` of a layer (or its end, at `length`) is in the text. */
export function positionOf(layer: Layer, index: number): number {
	return layer.pos === undefined ? index : layer.pos[index];
}

/**
 * Decodes one element of the layer above `below`, from any element of it: `step(index)` returns where
 * it ends (in `below`) and leaves what it stands for in `code`. `steps` counts the elements looked at.
 */
export class Decoder {
	code = 0;
	steps = 0;
	private readonly codes: Int32Array;
	private readonly length: number;
	/** The value of the escape just read. */
	private value = 0;

	constructor(below: Layer) {
		this.codes = below.codes;
		this.length = below.length;
	}

	step(index: number): number {
		let end = this.one(index);
		const high = this.code;
		if (high >= 0xd800 && high <= 0xdbff && end < this.length) {
			// Halves of a pair escaped apart, or one decoded a layer early: one character.
			const lowEnd = this.one(end);
			if (this.code >= 0xdc00 && this.code <= 0xdfff) {
				this.code = ((high - 0xd800) << 10) + (this.code - 0xdc00) + 0x10000;
				end = lowEnd;
			} else this.code = high;
		}
		return end;
	}

	/** One element: an escape, or the element below as it is. */
	private one(index: number): number {
		const code = this.codes[index];
		this.steps++;
		const end =
			code === PERCENT
				? this.bytes(index + 1, PERCENT)
				: code === BACKSLASH
					? this.backslash(index + 1)
					: code === AMPERSAND
						? this.reference(index + 1)
						: -1;
		if (end < 0) {
			this.code = code;
			return index + 1;
		}
		this.code = this.value;
		return end;
	}

	/** The next element from `index` that is not a gap; -1 at the end. */
	private next(index: number): number {
		while (index < this.length) {
			const code = this.codes[index];
			if (code < 0x80 ? ASCII_GAP[code] === 0 : !isGap(code)) return index;
			this.steps++;
			index++;
		}
		return -1;
	}

	/** `count` hex digits from `index`: their value (in `value`) and end; -1 if they are not there. */
	private hex(index: number, count: number): number {
		let value = 0;
		for (let digit = 0; digit < count; digit++) {
			let digitValue = index < this.length ? hexValue(this.codes[index]) : -1;
			if (digitValue < 0) {
				// Not a digit right there: gaps may come first.
				index = this.next(index);
				digitValue = index < 0 ? -1 : hexValue(this.codes[index]);
			}
			if (digitValue < 0) return -1;
			value = value * 16 + digitValue;
			index++;
			this.steps++;
		}
		this.value = value;
		return index;
	}

	/**
	 * `XX` after a `%` (or `\x`): a byte; with the escapes after it, when they make one, a UTF-8
	 * character; a byte that begins none stands for itself (BYTE + it).
	 */
	private bytes(index: number, trigger: number): number {
		const first = this.hex(index, 2);
		if (first < 0) return -1;
		const lead = this.value;
		if (lead < 0x80) return first;
		const size = lead >= 0xf5 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 1;
		let code = lead & PAYLOAD_BITS[size];
		let end = first;
		for (let byteIndex = 1; byteIndex < size && code >= 0; byteIndex++) {
			let at = this.next(end);
			if (at >= 0 && this.codes[at] === trigger && trigger === BACKSLASH) {
				at = this.next(at + 1);
				if (at >= 0 && this.codes[at] !== 0x78) at = -1;
			} else if (at >= 0 && this.codes[at] !== trigger) at = -1;
			end = at < 0 ? -1 : this.hex(at + 1, 2);
			code = end >= 0 && (this.value & 0xc0) === 0x80 ? (code << 6) | (this.value & 0x3f) : -1;
		}
		this.value = size > 1 && code >= SMALLEST[size] && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? code : BYTE + lead;
		return this.value === BYTE + lead ? first : end;
	}

	/** A JSON or C escape after `\`; `\uXXXX\uXXXX` of a surrogate pair is one character. */
	private backslash(index: number): number {
		const at = this.next(index);
		if (at < 0) return -1;
		const letter = this.codes[at];
		if (letter < 0x80 && SIMPLE[letter] >= 0) {
			this.value = SIMPLE[letter];
			return at + 1;
		}
		if (letter === 0x78) return this.bytes(at + 1, BACKSLASH);
		if (letter !== 0x75) return -1;
		const end = this.hex(at + 1, 4);
		if (end < 0) return -1;
		const high = this.value;
		if (high >= 0xd800 && high <= 0xdbff) {
			const slash = this.next(end);
			const u = slash >= 0 && this.codes[slash] === BACKSLASH ? this.next(slash + 1) : -1;
			const lowEnd = u >= 0 && this.codes[u] === 0x75 ? this.hex(u + 1, 4) : -1;
			if (lowEnd >= 0 && this.value >= 0xdc00 && this.value <= 0xdfff) {
				this.value = ((high - 0xd800) << 10) + (this.value - 0xdc00) + 0x10000;
				return lowEnd;
			}
		}
		this.value = high;
		return end;
	}

	/** An HTML character reference after `&`: numeric (`#` digits, `#x` hex digits) or named, then `;`. */
	private reference(index: number): number {
		let at = this.next(index);
		if (at < 0) return -1;
		if (this.codes[at] === HASH) {
			at = this.next(at + 1);
			const hex = at >= 0 && (this.codes[at] | 0x20) === 0x78;
			if (hex) at = this.next(at + 1);
			let value = 0;
			for (let digits = 0; ; digits++) {
				if (at < 0) return -1;
				const char = this.codes[at];
				const digit = hex ? hexValue(char) : char >= 0x30 && char <= 0x39 ? char - 0x30 : -1;
				if (digit < 0) {
					if (digits === 0 || char !== SEMICOLON || value > 0x10ffff) return -1;
					this.value = value;
					return at + 1;
				}
				if (digits >= (hex ? MAX_HEX : MAX_DECIMAL)) return -1;
				value = value * (hex ? 16 : 10) + digit;
				this.steps++;
				at = this.next(at + 1);
			}
		}
		let name = '';
		for (; ; at = this.next(at + 1)) {
			if (at < 0) return -1;
			const letter = this.codes[at];
			if (letter === SEMICOLON) break;
			if (name.length >= LONGEST_NAME || !((letter | 0x20) >= 0x61 && (letter | 0x20) <= 0x7a)) return -1;
			name += String.fromCharCode(letter);
			this.steps++;
		}
		const code = NAMED.get(name);
		if (code === undefined) return -1;
		this.value = code;
		return at + 1;
	}
}
