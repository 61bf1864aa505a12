import { escapeOf, isControl, MAY_NEED_ESCAPE } from './controls';

/**
 * The one boundary for foreign text (issue 23). Every text the nodes show (error messages and
 * descriptions, error items, the editor's search list, the tool answer's note, trigger log lines) is
 * the node's own wording, a `Text`, with foreign parts put into it by `foreign()`: anything from the
 * platform, the credential, a URL, a header or a parameter value.
 *
 * A foreign part stays marked inside the Text until `render()`, the only way out. There, and only
 * there, each foreign part is redacted first (a cut made before redaction can leave a piece of the key
 * the redactor no longer recognises; the redactor reads control characters as gaps, so it must see
 * them raw), then neutralised (each control character, line separator, bidi control or lone surrogate
 * of controls.ts shown escaped, `\u202E`: no terminal sequence, forged log line or reordered text) and
 * then bounded, never cutting an escape in half; the cut is marked, and the whole text is bounded again. The node's own wording is never redacted, so a key that happens to start like one
 * of its words cannot eat it. The cutting helper is private to this module (a house test checks
 * that nothing else cuts text).
 */

/** A redactor: the key of one credential, in every form, taken out of a text (redaction/redact.ts makes it). */
export type Redact = (text: string) => string;

declare const ownWording: unique symbol;
/** The node's own wording, possibly holding marked foreign parts. Made only by `text`, `own` and `foreign`. */
export type Text = string & { readonly [ownWording]: true };

/** Longest quoted foreign value (a URL, an id, a header value, a key of an answer). */
export const QUOTE_MAX = 200;
/** Longest excerpt of a body (the platform's own message). */
export const EXCERPT_MAX = 1000;
/** Longest error message a user sees: the node's own wording and its quotes together. */
export const MESSAGE_MAX = 300;
/** Longest error description (how to fix it). */
export const DESCRIPTION_MAX = 2000;
/** Longest entry name in the editor's search list. */
export const NAME_MAX = 200;

// Private-use characters: they never occur in the node's own wording, and are replaced in foreign text.
const OPEN = '\uE000';
const SEP = '\uE001';
const CLOSE = '\uE002';
const MARKERS = /[\uE000-\uE002]/g;
const SLOT = /\uE000(\d+)\uE001([^\uE000-\uE002]*)\uE002/g;
/** What a cut looks like: the visible end of a bounded part. */
export const CUT_MARK = '…';

/**
 * A foreign value put into the node's wording: kept whole and marked until `render` redacts it and
 * then bounds it to `max` characters. Not a string: any value, shown with String().
 */
export function foreign(value: unknown, max: number = QUOTE_MAX): Text {
	const raw = typeof value === 'string' ? value : String(value);
	return `${OPEN}${Math.max(1, Math.floor(max))}${SEP}${raw.replace(MARKERS, '\uFFFD')}${CLOSE}` as Text;
}

/** The node's own wording with parts put in: each part is Text (own or foreign) or a number the node computed. */
export function text(strings: TemplateStringsArray, ...parts: ReadonlyArray<Text | number>): Text {
	let out = strings[0];
	for (let index = 0; index < parts.length; index++) out += String(parts[index]) + strings[index + 1];
	return out as Text;
}

/** A constant of the node's own wording. Only ever called with a literal (a house test checks). */
export function own(wording: string): Text {
	return wording as Text;
}

/** A number the node computed, written with thousands separators (1,000,001): the node's own wording. */
export function thousands(value: number): Text {
	return value.toLocaleString('en-US') as Text;
}

/** Texts one after another. */
export function join(parts: readonly Text[], separator: Text = '' as Text): Text {
	return parts.join(separator) as Text;
}

/**
 * The text as a user may see it: each foreign part redacted, neutralised, then bounded to its own
 * maximum; the whole then bounded to `max`. The only function that turns a Text into a plain string.
 */
export function render(value: Text, redact: Redact, max: number): string {
	let out = '';
	/** Where the escapes put in by neutralise() begin in `out`: no cut may fall inside one. */
	const escapes: number[] = [];
	let last = 0;
	for (const slot of value.matchAll(SLOT)) {
		// Markers can only be left by a slot that was itself cut apart: drop them rather than show them.
		out += value.slice(last, slot.index).replace(MARKERS, '');
		const shown = neutralise(redact(slot[2]));
		const kept = cut(shown.text, Number(slot[1]), shown.escapes);
		// The escapes kept whole (cut() cuts before an escape, never inside one).
		for (const at of shown.escapes) if (at + ESCAPE_LENGTH <= kept.length) escapes.push(out.length + at);
		out += kept;
		last = slot.index + slot[0].length;
	}
	return cut(out + value.slice(last).replace(MARKERS, ''), max, escapes);
}

/** The length of an escape neutralise() puts in: `\u` and four hex digits. */
const ESCAPE_LENGTH = 6;

/** Foreign text with each character of controls.ts escaped, and where each escape begins. */
function neutralise(value: string): { text: string; escapes: number[] } {
	if (!MAY_NEED_ESCAPE.test(value)) return { text: value, escapes: [] };
	let text = '';
	const escapes: number[] = [];
	let from = 0;
	for (let index = 0; index < value.length; index++) {
		const code = value.charCodeAt(index);
		if (code >= 0xd800 && code <= 0xdbff) {
			const low = value.charCodeAt(index + 1);
			if (low >= 0xdc00 && low <= 0xdfff) {
				index++;
				continue;
			}
		} else if (!isControl(code) && !(code >= 0xdc00 && code <= 0xdfff)) continue;
		text += value.slice(from, index);
		escapes.push(text.length);
		text += escapeOf(code);
		from = index + 1;
	}
	return { text: text + value.slice(from), escapes };
}

/** A text whose foreign parts are left out (…): safe to hold in an Error's message, whatever happens to it. */
export function elide(value: Text): string {
	return value.replace(SLOT, CUT_MARK).replace(MARKERS, '');
}

/**
 * At most `max` characters, the cut marked. Private on purpose: cutting happens only after redaction,
 * in render(). Never splits a surrogate pair, nor an escape beginning at one of `escapes` (sorted).
 */
function cut(value: string, max: number, escapes: readonly number[] = []): string {
	if (value.length <= max) return value;
	let end = Math.max(0, max - CUT_MARK.length);
	const code = value.charCodeAt(end - 1);
	if (code >= 0xd800 && code <= 0xdbff) end--;
	for (const at of escapes) {
		if (at >= end) break;
		if (at + ESCAPE_LENGTH > end) end = at;
	}
	return value.slice(0, end) + CUT_MARK;
}

/** A duration in words, as the node says it ("250 ms", "1.5 s", "5 min", "2 h"). */
export function formatDuration(ms: number): Text {
	if (ms < 1000) return text`${Math.round(ms)} ms`;
	const seconds = ms / 1000;
	if (seconds < 120) return text`${Number.isInteger(seconds) ? seconds : Number(seconds.toFixed(1))} s`;
	if (seconds < 2 * 3600) return text`${Math.round(seconds / 60)} min`;
	return text`${Math.round(seconds / 3600)} h`;
}

export function formatBytes(bytes: number): Text {
	const mb = bytes / (1024 * 1024);
	if (mb >= 1) return Number.isInteger(mb) ? text`${mb} MB` : text`${Number(mb.toFixed(1))} MB`;
	return text`${Math.ceil(bytes / 1024)} KB`;
}
