/**
 * The one redaction of the API key, applied to every foreign part of a text a user can see.
 * Over 300 lines because the patterns, the units and the walk that joins them only make sense
 * together, next to this comment that says why the result holds and why it takes linear time.
 *
 * Reading. A text is read into UNITS (bytes 0-255), each remembering the [start, end) of the text it
 * came from: its pieces (decode.ts: characters, or escapes at a depth of decoding) as the UTF-8 bytes
 * of what they stand for after case folding (its lower case, when that is one character), a byte
 * escape that begins no character as that byte. Gaps (whitespace, `+`, the controls of controls.ts)
 * give no unit. Each text is read both ways, LITERALLY (depth 0: no escapes) and DECODED (depth
 * DEPTH: escapes of escapes), when the decoded reading took an escape at all: a `%`, `\` or `&` that
 * may or may not begin an escape (the key's own `%41`, or a `%` of the text right before the key's
 * first characters) is read as both. What either reading finds is redacted.
 *
 * Patterns: the units of each form of the key read at every depth from 0 to DEPTH (a key holding
 * `%41` of its own reads as `%41` and as `A`): the trimmed key, the key JSON-escaped, the hex of its
 * UTF-8 bytes (bytes apart or `:` between them), and the base64 (standard and URL-safe) of its UTF-8
 * bytes: whole, and at each of the 3 byte alignments only the characters that depend on the key
 * alone, so `Bearer <key>` or `user:<key>` encoded is found too.
 *
 * Matching: every run of 8 or more consecutive units of a reading that is a SUBSTRING of a pattern (a
 * text cut at either end still holds a window of the key) is replaced, over the text it came from, by
 * REDACTED; runs that overlap, touch or lie only gaps apart become one. A character only partly in a
 * run (it shares a byte with the key, such as a UTF-8 lead byte) is kept. A key of 4 to 7 units (8
 * characters or more, most of them gaps, such as `a b c d e`) lowers the run to its own length, for
 * all its patterns; a key of fewer units is found only in base64 and hex (so few characters are no
 * secret, and would wreck ordinary words). The gaps a key begins or ends with (`+`) are no secret and
 * are left as the text has them.
 *
 * Cost. The automaton's table (automaton.ts) has a row per state (at most twice the patterns' units,
 * about 40 per byte of the key) and a column per distinct unit in them; built once per redactor.
 *
 * Linear time, whatever the text; no regular expression runs over it. The reader looks at a
 * character a bounded number of times per layer of decoding; each reading is one table look-up per
 * unit. A StepMeter counts the work; the tests bound it by the length of text and key.
 *
 * A key shorter than MIN_KEY_LENGTH is left alone: resolveApiKey refuses it before anything is sent,
 * so no answer can echo it, and matching 1 to 7 characters would wreck ordinary text.
 */
import type { Automaton, StepMeter } from './automaton';
import { buildAutomaton, GOES_ON, RUN_CAP } from './automaton';
import type { Layer } from './decode';
import { BYTE, Decoder, decodeLayer, DEPTH, isGap, positionOf, textLayer } from './decode';

export type { StepMeter } from './automaton';
export type Redact = (text: string) => string;

export const REDACTED = '[redacted]';

/** The shortest key the node sends (resolveApiKey) and so the shortest it redacts. */
export const MIN_KEY_LENGTH = 8;
/** The shortest run of units redacted: shorter windows of a key would also match ordinary words. */
const MIN_RUN = 8;
/** The shortest key (in units) matched in its plain forms; see the comment above. */
const MIN_PLAIN = 4;

/** A redactor is made for each item's session; its automaton only when it first has a text to redact. */
export function makeRedactor(secret: unknown, meter: StepMeter = { steps: 0 }): Redact {
	const key = typeof secret === 'string' ? secret.trim() : '';
	if ([...key].length < MIN_KEY_LENGTH) return (text) => text;
	let matcher: Matcher | undefined;
	return (text) => {
		if (typeof text !== 'string') return text;
		matcher ??= matcherOf(key, meter);
		return redactWith(text, matcher, meter);
	};
}

/** What a redactor matches with: its automaton and its shortest run. */
interface Matcher {
	automaton: Automaton;
	minRun: number;
}

function matcherOf(key: string, meter: StepMeter): Matcher {
	const plain = unitsOf(key, 0, meter).length;
	const minRun = plain >= MIN_PLAIN && plain < MIN_RUN ? plain : MIN_RUN;
	return { automaton: buildAutomaton(patternsOf(key, minRun, meter), meter), minRun };
}

// ---- patterns ------------------------------------------------------------------------------------

/** The units of each form of the key at each depth, each once; one too short to match is left out. */
function patternsOf(key: string, minRun: number, meter: StepMeter): number[][] {
	const bytes = [...Buffer.from(key, 'utf8')].map((byte) => byte.toString(16).padStart(2, '0'));
	const forms = [key, JSON.stringify(key).slice(1, -1), bytes.join(''), bytes.join(':'), ...base64Forms(key)];
	const texts = new Set<string>();
	for (const form of forms) {
		for (let depth = 0; depth <= DEPTH; depth++) texts.add(Buffer.from(unitsOf(form, depth, meter)).toString('latin1'));
	}
	return [...texts].filter((units) => units.length >= minRun).map((units) => [...Buffer.from(units, 'latin1')]);
}

function unitsOf(text: string, depth: number, meter: StepMeter): number[] {
	let layer = textLayer(text);
	for (let at = 0; at < depth; at++) layer = decodeLayer(layer);
	const units: number[] = [];
	const out = new Uint8Array(4);
	for (let index = 0; index < layer.length; index++) {
		const count = unitsOfCode(layer.codes[index], out);
		for (let unit = 0; unit < count; unit++) units.push(out[unit]);
	}
	meter.steps += (depth + 1) * text.length + units.length;
	return units;
}

/**
 * The base64 of the key alone (with its padding), and, where the key starts 1 or 2 bytes into a group
 * of 3, the part of base64(x + key + y) that depends on the key alone (at a group's start that part
 * is the start of the key's own base64); each also URL-safe.
 */
function base64Forms(key: string): string[] {
	const bytes = Buffer.from(key, 'utf8');
	const forms = [bytes.toString('base64')];
	for (let offset = 1; offset < 3; offset++) {
		const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
		const encoded = padded.toString('base64').replace(/=+$/, '');
		// Characters mixing in the unknown bytes before (offset 1: 2 characters, offset 2: 3) ...
		const start = offset + 1;
		// ... and after the key: a final partial group depends on the next byte.
		const trailing = padded.length % 3 === 0 ? 0 : 1;
		forms.push(encoded.slice(start, encoded.length - trailing));
	}
	return forms.flatMap((form) => [form, form.replace(/\+/g, '-').replace(/\//g, '_')]);
}

// ---- units -----------------------------------------------------------------------------------------

/**
 * The lower case of a code point when that is one code point. Beyond the Basic Multilingual Plane
 * only U+10400 to U+1E95F (Deseret to Adlam) have cases at all.
 */
function fold(code: number): number {
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
function utf8(code: number, out: Uint8Array): number {
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
function unitsOfCode(code: number, out: Uint8Array): number {
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
const ASCII_UNIT = Int16Array.from({ length: 128 }, (_, code) => (isGap(code) ? -1 : fold(code)));

// ---- the walk -----------------------------------------------------------------------------------

/** Spans of the text, [starts[i], ends[i]), sorted and apart. */
interface Spans {
	starts: number[];
	ends: number[];
}

function redactWith(text: string, matcher: Matcher, meter: StepMeter): string {
	let spans = walkLiterally(text, matcher, meter);
	// Only a text holding a `%`, `\` or `&` reads differently decoded; a deeper layer differs from the
	// one below only where that one's escapes stood for a `%`, `\` or `&`.
	if (/[%\\&]/.test(text)) {
		let layer = decodeLayer(textLayer(text));
		meter.steps += 2 * text.length;
		for (let depth = 1; depth <= DEPTH && layer.escapes; depth++) {
			spans = union(spans, walk(layer, matcher, meter));
			if (!layer.triggers) break;
			layer = decodeLayer(layer);
			meter.steps += layer.below!.length;
		}
	}
	let out = '';
	let position = 0;
	spans.starts.forEach((start, index) => {
		out += text.slice(position, start) + REDACTED;
		position = spans.ends[index];
	});
	return out + text.slice(position);
}

/**
 * One reading's walk: its state in the automaton, the run of pattern units ending where it is, and
 * the spans of the runs of at least minRun units. Runs are found in the order they end, and begin in
 * order too (a run is at most one unit longer than the one before it), so each either joins the last
 * span or starts a new one.
 */
class Cursor {
	/** Where it is in the layer it decodes anew (see walk). */
	at = 0;
	units = 0;
	run = 0;
	readonly spans: Spans = { starts: [], ends: [] };
	private row = 0;
	private lastUnit = -2;
	/** Where a run beginning at each of the last 256 units begins in the text (runs reach back at most RUN_CAP). */
	private readonly begins = new Int32Array(256);
	private readonly piece = new Uint8Array(4);
	/** Where it was before its last element (what fork() takes up from). */
	private readonly before = { row: 0, run: 0, units: 0 };
	/** The units its last element added, as (unit, begin, stop), when recording: what a cursor that has reached it replays. */
	private readonly added = new Int32Array(12);
	private addedCount = 0;
	recording = false;

	constructor(private readonly matcher: Matcher) {}

	/** One more element, standing for `code`, over [begin, end) of the text. */
	element(code: number, begin: number, end: number): void {
		this.before.row = this.row;
		this.before.run = this.run;
		this.before.units = this.units;
		this.addedCount = 0;
		if (code < 0x80) {
			const unit = ASCII_UNIT[code];
			if (unit >= 0) this.add(unit, begin, end);
			return;
		}
		const count = unitsOfCode(code, this.piece);
		for (let index = 0; index < count; index++) {
			// An element only partly in a run (a UTF-8 byte of a character, say) is kept: a run
			// beginning inside it begins after it, one ending inside it ends before it.
			this.add(this.piece[index], index === 0 ? begin : end, index === count - 1 ? end : begin);
		}
	}

	/**
	 * Takes up where `from` was before the escape it just read, reading its `%`, `\` or `&` (over
	 * [begin, end) of the text) as that character: with from's run when the character goes on with it
	 * (a key holding `%`), at the root otherwise (its spans kept).
	 */
	fork(from: Cursor, trigger: number, begin: number, end: number): void {
		this.lastUnit = -2;
		if (from.triggerGoesOn(trigger)) {
			({ row: this.row, run: this.run, units: this.units } = from.before);
			// The history its run may reach back into.
			for (let back = 1; back <= this.run && back < 256; back++) this.begins[(this.units - back) & 255] = from.begins[(this.units - back) & 255];
		} else {
			this.row = 0;
			this.run = 0;
		}
		this.element(trigger, begin, end);
	}

	/** Whether its last element, an escape, is worth reading the other way: its units broke the run, or its trigger as itself goes on with it. */
	forkWorthIt(trigger: number): boolean {
		return (this.units > this.before.units && this.run !== this.before.run + 1) || this.triggerGoesOn(trigger);
	}

	triggerGoesOn(trigger: number): boolean {
		const { classOf, lengths } = this.matcher.automaton;
		const moved = lengths[this.before.row + classOf[trigger]];
		return moved === GOES_ON || moved > 1;
	}

	/** Adds the units `main`'s last element added, where this cursor has reached it: the same elements, not decoded again. */
	replay(main: Cursor): void {
		this.before.row = this.row;
		this.before.run = this.run;
		this.before.units = this.units;
		for (let index = 0; index < main.addedCount; index += 3) this.add(main.added[index], main.added[index + 1], main.added[index + 2]);
		this.at = main.at;
	}

	/** Whether, at the same place, this cursor's run is held by `main`'s: the same state, no longer. */
	heldBy(main: Cursor): boolean {
		return this.row === main.row && this.run <= main.run;
	}

	/** One more unit, beginning at `begin` in the text, a run through it ending at `stop`. */
	private add(unit: number, begin: number, stop: number): void {
		const { classOf, next, lengths } = this.matcher.automaton;
		if (this.recording && this.addedCount < 12) {
			this.added[this.addedCount++] = unit;
			this.added[this.addedCount++] = begin;
			this.added[this.addedCount++] = stop;
		}
		this.begins[this.units & 255] = begin;
		const cell = this.row + classOf[unit];
		this.row = next[cell];
		const moved = lengths[cell];
		this.run = moved !== GOES_ON ? moved : this.run < RUN_CAP ? this.run + 1 : RUN_CAP;
		if (this.run >= this.matcher.minRun) this.mark(stop);
		this.units++;
	}

	/** The run ending at this unit, up to `stop` in the text, joins the last span or starts one. */
	private mark(stop: number): void {
		const from = this.units - this.run + 1;
		const start = this.begins[from & 255];
		if (stop < start) stop = start;
		const { starts, ends } = this.spans;
		const last = ends.length - 1;
		// (Comparisons rather than Math.max: this runs for each unit of a long echo.)
		if (last >= 0 && (from <= this.lastUnit + 1 || start <= ends[last])) {
			if (ends[last] < stop) ends[last] = stop;
		} else {
			starts.push(start);
			ends.push(stop);
		}
		this.lastUnit = this.units;
	}
}

/** The literal reading: every character as itself (a surrogate pair one character). */
function walkLiterally(text: string, matcher: Matcher, meter: StepMeter): Spans {
	const cursor = new Cursor(matcher);
	for (let index = 0; index < text.length; ) {
		const code = text.charCodeAt(index);
		if (code >= 0xd800 && code <= 0xdbff) {
			const low = text.charCodeAt(index + 1);
			if (low >= 0xdc00 && low <= 0xdfff) {
				cursor.element(((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000, index, index + 2);
				index += 2;
				continue;
			}
		}
		cursor.element(code, index, index + 1);
		index++;
	}
	meter.steps += text.length + cursor.units;
	return cursor.spans;
}

/** How many other cursors may read at once (see walk). */
const OTHERS = 3;

/**
 * The spans of one decoded layer, read both ways where it holds an escape: the MAIN cursor reads the
 * layer's elements, the escape as what it stands for; an OTHER cursor reads its `%`, `\` or `&` as
 * that character and decodes the layer anew after it (a Decoder over the layer below): `%AAAA...`
 * where the key is `AAAA...`, or a key holding `%AA` of its own that this layer should not decode.
 * An other reaches the main one at an element's boundary; from there both read the same elements
 * (it replays the main one's), and it is dropped once its run no longer reaches back before that
 * point, or the main one's holds it. The escapes of every cursor are read both ways so, while one of
 * OTHERS is free: the work is at most that many times the layer's.
 */
function walk(layer: Layer, matcher: Matcher, meter: StepMeter): Spans {
	const below = layer.below!;
	const decoder = new Decoder(below);
	const main = new Cursor(matcher);
	const others = Array.from({ length: OTHERS }, () => new Cursor(matcher));
	/** Per other: -2 not reading; -1 reading, not yet where main is; else its units when it got there. */
	const metAt = new Int32Array(OTHERS).fill(-2);
	let alive = 0;
	let steps = 0;
	/** After `cursor` read an escape beginning at element `start` below: an other takes up the other way, if one is free. */
	const forkFrom = (cursor: Cursor, start: number): void => {
		const trigger = below.codes[start];
		if (alive === OTHERS || !cursor.forkWorthIt(trigger)) return;
		let free = 0;
		while (metAt[free] !== -2) free++;
		others[free].fork(cursor, trigger, positionOf(below, start), positionOf(below, start + 1));
		others[free].at = start + 1;
		metAt[free] = -1;
		alive++;
	};
	let end = positionOf(layer, 0);
	for (let index = 0; index < layer.length; index++) {
		const begin = end;
		end = positionOf(layer, index + 1);
		main.recording = alive > 0;
		main.element(layer.codes[index], begin, end);
		const start = layer.src[index];
		main.at = layer.src[index + 1];
		if (main.at > start + 1) forkFrom(main, start);
		for (let other = 0; alive > 0 && other < OTHERS; other++) {
			if (metAt[other] === -2) continue;
			const cursor = others[other];
			if (metAt[other] >= 0) {
				cursor.replay(main);
				// The main one's escape is this one's too: read the other way from this one's run as well.
				if (main.at > start + 1) forkFrom(cursor, start);
			}
			while (cursor.at < main.at) {
				const at = cursor.at;
				cursor.at = decoder.step(at);
				cursor.element(decoder.code, positionOf(below, at), positionOf(below, cursor.at));
				if (cursor.at > at + 1) forkFrom(cursor, at);
				steps++;
			}
			if (cursor.at === main.at) {
				if (metAt[other] < 0) metAt[other] = cursor.units;
				if (cursor.run <= cursor.units - metAt[other] || cursor.heldBy(main)) {
					metAt[other] = -2;
					alive--;
				}
			}
		}
	}
	meter.steps += layer.length + steps + decoder.steps + main.units;
	return others.reduce((spans, other) => (other.spans.starts.length > 0 ? union(spans, other.spans) : spans), main.spans);
}

/** The spans of both, those that overlap or touch made one. */
function union(one: Spans, other: Spans): Spans {
	const merged: Spans = { starts: [], ends: [] };
	let left = 0;
	let right = 0;
	while (left < one.starts.length || right < other.starts.length) {
		const fromOne = right >= other.starts.length || (left < one.starts.length && one.starts[left] <= other.starts[right]);
		const start = fromOne ? one.starts[left] : other.starts[right];
		const end = fromOne ? one.ends[left++] : other.ends[right++];
		const last = merged.ends.length - 1;
		if (last >= 0 && merged.ends[last] >= start) {
			if (merged.ends[last] < end) merged.ends[last] = end;
		} else {
			merged.starts.push(start);
			merged.ends.push(end);
		}
	}
	return merged;
}
