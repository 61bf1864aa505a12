/**
 * Reading a text the way the redactor sees it (redact.ts): as PIECES, each a character of the text or
 * an escape standing for one, at a chosen DEPTH of decoding. Depth 0 reads every character as itself.
 * Depth d reads the text decoded d times over, as layers: layer d sees the pieces of layer d - 1, and
 * where one of them is a `%`, `\` or `&` that, with the pieces after it, makes an escape, it reads the
 * escape as what it stands for. So `%2541` is `%41` at depth 1 and `A` at depth 2, and `&#37;41`,
 * `\u002541` and `%26%2365%3B` (`&#65;` percent-encoded) are `A` at depth 2.
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
 * Each layer reads greedily, left to right, as a decoder would. Reading is linear: a piece looks at the
 * characters of its escape a bounded number of times per layer, and an escape that fails is read again,
 * one layer down, as the pieces it was made of.
 */
import { isControl } from './controls';

/** How many layers of escapes the redactor decodes. */
export const DEPTH = 2;

/** What a piece stands for, besides a code point: a byte that begins no UTF-8 character. */
export const BYTE = 0x110000;

const [PERCENT, AMPERSAND, BACKSLASH, SEMICOLON, HASH] = [0x25, 0x26, 0x5c, 0x3b, 0x23];

/** Whether a code point is a trigger: a character that may begin an escape. */
export function isTrigger(code: number): boolean {
	return code === PERCENT || code === BACKSLASH || code === AMPERSAND;
}

/**
 * Whether what follows a trigger at `position` may continue an escape of `depth` layers: a gap always
 * may; else a hex digit after `%`, a letter after `\`, `#` or a letter after `&`; or, with a layer
 * below, a trigger that may itself begin such a character (`%%34%31` is `%41` at depth 1).
 */
export function mayContinue(text: string, trigger: number, position: number, depth: number): boolean {
	const after = text.charCodeAt(position);
	if (after < 0x80 ? ASCII_GAP[after] === 1 : isGap(after)) return true;
	const direct =
		trigger === PERCENT
			? hexValue(after) >= 0
			: trigger === BACKSLASH
				? after < 0x80 && (SIMPLE[after] >= 0 || after === 0x75 || after === 0x78)
				: after === HASH || ((after | 0x20) >= 0x61 && (after | 0x20) <= 0x7a);
	return direct || (isTrigger(after) && depth > 1 && mayContinue(text, after, position + 1, depth - 1));
}

/** Whitespace (what `\s` matches), `+` (a space in form encoding), or a control of controls.ts: no unit. */
export function isGap(code: number): boolean {
	if (code < 0x80) return code === 0x20 || code === 0x2b || code < 0x20 || code === 0x7f;
	return (
		code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x202f || code === 0x205f || code === 0x3000 ||
		code === 0xfeff || isControl(code) || (code >= 0xd800 && code <= 0xdfff)
	);
}

const ASCII_GAP = Uint8Array.from({ length: 128 }, (_, code) => (isGap(code) ? 1 : 0));

function hexValue(code: number): number {
	if (code >= 0x30 && code <= 0x39) return code - 0x30;
	const letter = code | 0x20;
	return letter >= 0x61 && letter <= 0x66 ? letter - 0x57 : -1;
}

/** The character of each simple backslash escape, by the letter after the backslash; -1 for none. */
const SIMPLE = new Int16Array(128).fill(-1);
for (const [letter, code] of Object.entries({ '"': 0x22, '\\': 0x5c, '/': 0x2f, b: 8, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 })) {
	SIMPLE[letter.charCodeAt(0)] = code;
}

/** HTML's named references for ASCII characters (HTML 5), and `nbsp`. Names are case-sensitive. */
const NAMED = new Map<string, number>(
	Object.entries({
		Tab: 9, NewLine: 10, excl: 33, quot: 34, QUOT: 34, num: 35, dollar: 36, percnt: 37, amp: 38, AMP: 38, apos: 39, lpar: 40,
		rpar: 41, ast: 42, midast: 42, plus: 43, comma: 44, period: 46, sol: 47, colon: 58, semi: 59, lt: 60, LT: 60, equals: 61,
		gt: 62, GT: 62, quest: 63, commat: 64, lsqb: 91, lbrack: 91, bsol: 92, rsqb: 93, rbrack: 93, Hat: 94, lowbar: 95,
		UnderBar: 95, grave: 96, DiacriticalGrave: 96, lcub: 123, lbrace: 123, verbar: 124, vert: 124, VerticalLine: 124,
		rcub: 125, rbrace: 125, nbsp: 0xa0, NonBreakingSpace: 0xa0,
	}),
);
const LONGEST_NAME = Math.max(...[...NAMED.keys()].map((name) => name.length));
/** The most digits of an HTML numeric reference, decimal and hex (`&#1114111;`, `&#x10FFFF;`, a few leading zeros). */
const [MAX_DECIMAL, MAX_HEX] = [10, 8];

/** By the length of a UTF-8 sequence: the smallest code point it may hold, the payload bits of its first byte. */
const [SMALLEST, PAYLOAD_BITS] = [[0, 0, 0x80, 0x800, 0x10000], [0x7f, 0x7f, 0x1f, 0x0f, 0x07]];

/**
 * Reads pieces of one text. `piece(position, depth)` returns where the piece ends and leaves what it
 * stands for in `code` (a code point, or BYTE + a byte); `layers` which layers took an escape and
 * `triggers` which decoded one to a trigger,
 * `steps` every character looked at (the redactor's meter).
 */
export class Reader {
	code = 0;
	steps = 0;
	/** Whether the last piece `read` was an escape; if so, where its trigger (a piece one layer down) ends, and what it is. */
	escaped = false;
	triggerEnd = 0;
	trigger = 0;
	/** Bit d set: a layer d escape was taken (a reading at depth d - 1 differs). */
	layers = 0;
	/** Bit d set: a layer d escape stood for a `%`, `\` or `&` (a reading at depth d + 1 may differ). */
	triggers = 0;

	/**
	 * The last pieces read at a trigger, by depth and position (64 a depth): an escape's body reads the
	 * pieces after it, which the walk then reads again; with these, each is worked out once.
	 */
	private readonly memoAt = new Int32Array(64 * (DEPTH + 1)).fill(-1);
	private readonly memoEnd = new Int32Array(64 * (DEPTH + 1));
	private readonly memoCode = new Int32Array(64 * (DEPTH + 1));
	private readonly memoTriggerEnd = new Int32Array(64 * (DEPTH + 1));
	private readonly memoTrigger = new Int32Array(64 * (DEPTH + 1));

	constructor(private readonly text: string) {}

	private at(position: number): number {
		this.steps++;
		return position < this.text.length ? this.text.charCodeAt(position) : -1;
	}

	/** The piece at `position` read at `depth`; `escaped` says whether it was an escape. */
	read(position: number, depth: number): number {
		let end = this.piece(position, depth);
		const high = this.code;
		if (high >= 0xd800 && high <= 0xdbff && end < this.text.length) {
			// Halves of a pair escaped apart, or one decoded a layer early (`\u%64%38%33%64\udd11`): one character.
			const { trigger, triggerEnd } = this;
			const lowEnd = this.piece(end, depth);
			if (this.code >= 0xdc00 && this.code <= 0xdfff) {
				this.code = ((high - 0xd800) << 10) + (this.code - 0xdc00) + 0x10000;
				end = lowEnd;
			} else this.code = high;
			[this.trigger, this.triggerEnd] = [trigger, triggerEnd];
		}
		this.escaped = end > position + 1 && !(end === position + 2 && this.code > 0xffff && this.code < BYTE);
		return end;
	}

	/** The piece at `position` of the text decoded `depth` times: its end; `code` what it stands for. */
	piece(position: number, depth: number): number {
		const char = this.at(position);
		if (depth === 0 || !isTrigger(char)) return this.character(position, char);
		if (depth === 1) {
			// The first layer, most escapes: the trigger is the character itself (no memo needed).
			const escaped = this.escape(char, position + 1, 0);
			this.triggerEnd = position + 1;
			this.trigger = char;
			if (escaped < 0) {
				this.code = char;
				return position + 1;
			}
			this.layers |= 2;
			if (isTrigger(this.code)) this.triggers |= 2;
			return escaped;
		}
		const slot = depth * 64 + (position & 63);
		if (this.memoAt[slot] === position) {
			this.code = this.memoCode[slot];
			this.triggerEnd = this.memoTriggerEnd[slot];
			this.trigger = this.memoTrigger[slot];
			return this.memoEnd[slot];
		}
		let end = this.piece(position, depth - 1);
		// The trigger of the piece one layer down, when that is an escape (else its own end).
		let triggerEnd = end > position + 1 ? this.triggerEnd : end;
		let triggerCode = end > position + 1 ? this.trigger : this.code;
		const trigger = this.code;
		if (isTrigger(trigger) && mayContinue(this.text, trigger, end, depth)) {
			const escaped = this.escape(trigger, end, depth - 1);
			if (escaped >= 0) {
				this.layers |= 1 << depth;
				if (isTrigger(this.code)) this.triggers |= 1 << depth;
				[triggerEnd, triggerCode] = [end, trigger];
				end = escaped;
			} else this.code = trigger;
		}
		this.triggerEnd = triggerEnd;
		this.trigger = triggerCode;
		this.memoAt[slot] = position;
		this.memoEnd[slot] = end;
		this.memoCode[slot] = this.code;
		this.memoTriggerEnd[slot] = triggerEnd;
		this.memoTrigger[slot] = triggerCode;
		return end;
	}

	private character(position: number, char: number): number {
		if (char >= 0xd800 && char <= 0xdbff) {
			const low = this.at(position + 1);
			if (low >= 0xdc00 && low <= 0xdfff) {
				this.code = ((char - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
				return position + 2;
			}
		}
		this.code = char;
		return position + 1;
	}

	/** The next piece at `depth` from `position` that is not a gap (-1 at the end of the text). */
	private next(position: number, depth: number): number {
		const char = this.text.charCodeAt(position);
		if (char < 0x80 && ASCII_GAP[char] === 0 && (depth === 0 || !isTrigger(char))) {
			// A plain ASCII character, most often.
			this.steps++;
			this.code = char;
			return position + 1;
		}
		while (position < this.text.length) {
			const end = this.piece(position, depth);
			if (!isGap(this.code)) return end;
			position = end;
		}
		this.code = -1;
		return -1;
	}

	/** `count` hex digits as pieces at `depth` from `position`: their value (in `code`) and end; -1 if not. */
	private hex(position: number, depth: number, count: number): number {
		let value = 0;
		for (let index = 0; index < count; index++) {
			position = this.next(position, depth);
			const digit = position < 0 ? -1 : hexValue(this.code);
			if (digit < 0) return -1;
			value = value * 16 + digit;
		}
		this.code = value;
		return position;
	}

	/** The escape a trigger begins, its body read as pieces at `depth` from `position`; -1 if none. */
	private escape(trigger: number, position: number, depth: number): number {
		if (trigger === PERCENT) return this.bytes(position, depth, PERCENT);
		if (trigger === AMPERSAND) return this.reference(position, depth);
		const after = this.next(position, depth);
		if (after < 0) return -1;
		const letter = this.code;
		if (letter < 0x80 && SIMPLE[letter] >= 0) {
			this.code = SIMPLE[letter];
			return after;
		}
		if (letter === 0x78) return this.bytes(after, depth, BACKSLASH);
		return letter === 0x75 ? this.unicode(after, depth) : -1;
	}

	/**
	 * `XX` after a `%` (or `\x`): a byte; with the escapes after it, when they make one, a UTF-8
	 * character; a byte that begins none stands for itself (BYTE + it).
	 */
	private bytes(position: number, depth: number, trigger: number): number {
		const first = this.hex(position, depth, 2);
		if (first < 0) return -1;
		const lead = this.code;
		if (lead < 0x80) return first;
		const size = lead >= 0xf5 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 1;
		let code = lead & PAYLOAD_BITS[size];
		let end = first;
		for (let index = 1; index < size && code >= 0; index++) {
			const body = this.continuation(end, depth, trigger);
			const byteEnd = body >= 0 ? this.hex(body, depth, 2) : -1;
			const byte = byteEnd >= 0 ? this.code : -1;
			code = byte >= 0 && (byte & 0xc0) === 0x80 ? (code << 6) | (byte & 0x3f) : -1;
			end = byteEnd;
		}
		if (size > 1 && code >= SMALLEST[size] && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)) {
			this.code = code;
			return end;
		}
		this.code = BYTE + lead;
		return first;
	}

	/** Where the hex digits of the next `%XX` (or `\xXX`) from `position` begin; -1 if it is not there. */
	private continuation(position: number, depth: number, trigger: number): number {
		const at = this.next(position, depth);
		if (at < 0 || this.code !== trigger) return -1;
		if (trigger === PERCENT) return at;
		const x = this.next(at, depth);
		return x >= 0 && this.code === 0x78 ? x : -1;
	}

	/** `XXXX` after `\u`: a UTF-16 unit; a high surrogate followed by `\uXXXX` of a low one, one character. */
	private unicode(position: number, depth: number): number {
		const end = this.hex(position, depth, 4);
		if (end < 0) return -1;
		const high = this.code;
		if (high >= 0xd800 && high <= 0xdbff) {
			const slash = this.next(end, depth);
			const u = slash >= 0 && this.code === BACKSLASH ? this.next(slash, depth) : -1;
			const lowEnd = u >= 0 && this.code === 0x75 ? this.hex(u, depth, 4) : -1;
			if (lowEnd >= 0 && this.code >= 0xdc00 && this.code <= 0xdfff) {
				this.code = ((high - 0xd800) << 10) + (this.code - 0xdc00) + 0x10000;
				return lowEnd;
			}
		}
		this.code = high;
		return end;
	}

	/** An HTML character reference after `&`: numeric (`#` digits, `#x` hex digits) or named, then `;`. */
	private reference(position: number, depth: number): number {
		let at = this.next(position, depth);
		if (at < 0) return -1;
		if (this.code === HASH) {
			at = this.next(at, depth);
			const hex = at >= 0 && (this.code | 0x20) === 0x78;
			if (hex) at = this.next(at, depth);
			let value = 0;
			for (let digits = 0; ; digits++) {
				if (at < 0) return -1;
				const char: number = this.code;
				const digit = hex ? hexValue(char) : char >= 0x30 && char <= 0x39 ? char - 0x30 : -1;
				if (digit < 0) {
					if (digits === 0 || char !== SEMICOLON || value > 0x10ffff) return -1;
					this.code = value;
					return at;
				}
				if (digits >= (hex ? MAX_HEX : MAX_DECIMAL)) return -1;
				value = value * (hex ? 16 : 10) + digit;
				at = this.next(at, depth);
			}
		}
		let name = '';
		for (; ; at = this.next(at, depth)) {
			if (at < 0) return -1;
			const letter = this.code;
			if (letter === SEMICOLON) break;
			if (name.length >= LONGEST_NAME || !((letter | 0x20) >= 0x61 && (letter | 0x20) <= 0x7a)) return -1;
			name += String.fromCharCode(letter);
		}
		const code = NAMED.get(name);
		if (code === undefined) return -1;
		this.code = code;
		return at;
	}
}
