/**
 * The units the redactor (redact.ts) matches: the UTF-8 bytes of a character after case folding, or
 * the byte a byte escape stands for; none for a gap.
 */
import { BYTE as BYTE_BASE, isGap } from './decode';

// Read for every character beyond ASCII: held here (an import is read as a property of the other module).
const BYTE = BYTE_BASE;

/**
 * The lower case of a code point when that is one code point. Beyond the Basic Multilingual Plane
 * only U+10400 to U+1E95F (Deseret to Adlam) have cases at all.
 */
export function fold(code: number): number {
	if (code < 0x80) return code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
	return code <= 0xffff || (code >= 0x10400 && code <= 0x1e95f) ? lowerOf(code) : code;
}

function lowerOf(code: number): number {
	const lower = String.fromCodePoint(code).toLowerCase();
	const first = lower.codePointAt(0)!;
	return lower.length === (first > 0xffff ? 2 : 1) ? first : code;
}

const LEAD_BITS = [0, 0, 0xc0, 0xe0, 0xf0];

/** Writes the UTF-8 bytes of a code point; returns how many. */
export function utf8(code: number, out: Uint8Array): number {
	const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
	out[0] = LEAD_BITS[size] | (code >> (6 * (size - 1)));
	for (let index = 1; index < size; index++) out[index] = 0x80 | ((code >> (6 * (size - 1 - index))) & 0x3f);
	return size;
}

let bmpUnits: Int32Array | undefined;

/**
 * The units of a character of the Basic Multilingual Plane, folded, packed as count << 24 and up to
 * 3 bytes (0 for a gap); from a table filled as characters are met.
 */
function unitsOfBmp(code: number): number {
	bmpUnits ??= new Int32Array(0x10000).fill(-1);
	if (bmpUnits[code] < 0) {
		const folded = fold(code) <= 0xffff ? fold(code) : code;
		const bytes = new Uint8Array(4);
		const count = isGap(code) || isGap(folded) ? 0 : utf8(folded, bytes);
		bmpUnits[code] = (count << 24) | (bytes[0] << 16) | (bytes[1] << 8) | bytes[2];
	}
	return bmpUnits[code];
}

/** The units of what a piece stands for (reader.code): how many, written to `out`. */
export function unitsOfCode(code: number, out: Uint8Array): number {
	if (code >= BYTE) {
		out[0] = code - BYTE;
		return 1;
	}
	if (code > 0xffff) return utf8(fold(code), out);
	const packed = unitsOfBmp(code);
	out[0] = packed >> 16;
	out[1] = packed >> 8;
	out[2] = packed;
	return packed >>> 24;
}

/** The unit of each ASCII character, or -1 for a gap: the walks' fast path. */
export const ASCII_UNIT = Int16Array.from({ length: 128 }, (_, code) => (isGap(code) ? -1 : fold(code)));
