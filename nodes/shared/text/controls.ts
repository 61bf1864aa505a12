/**
 * The characters no foreign text may show raw (issue 28): they move a terminal's cursor, ring its bell,
 * start ANSI sequences, forge a log line (CWE-117), reorder what is read (bidi overrides, "Trojan
 * source") or are not characters at all. render() (text.ts) shows each escaped, as `\u202E`; the
 * redactor (redaction/redact.ts) reads them as gaps, so a key split by them is still found.
 * - C0 controls U+0000 to U+001F (NUL, BEL, BS, TAB, LF, CR, ESC, ...) and DEL U+007F;
 * - C1 controls U+0080 to U+009F (NEL U+0085, CSI U+009B, ...);
 * - the line and paragraph separators U+2028, U+2029;
 * - the bidi controls: ALM U+061C, LRM and RLM U+200E, U+200F, the embeddings and overrides U+202A
 *   to U+202E, the isolates U+2066 to U+2069;
 * - a lone surrogate (U+D800 to U+DFFF not in a pair).
 */

/** Whether a UTF-16 code unit (or code point) is one of the characters above, lone surrogates aside (they need their neighbours: neutralise() in text.ts). */
export function isControl(code: number): boolean {
	if (code < 0xa0) return code < 0x20 || code >= 0x7f;
	return code === 0x061c || code === 0x200e || code === 0x200f || (code >= 0x2028 && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

/** Characters that may need escaping, for a quick test of a whole string (the rest are never escaped). */
export const MAY_NEED_ESCAPE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]/;

/** A code unit as its escape: `\u` and four upper-case hex digits. */
export function escapeOf(code: number): string {
	return `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
