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
import { BYTE, DEPTH, isGap, isTrigger, mayContinue, Reader } from './decode';

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
	const reader = new Reader(text);
	const units: number[] = [];
	const out = new Uint8Array(4);
	for (let position = 0; position < text.length; ) {
		position = reader.piece(position, depth);
		const count = unitsOfCode(reader.code, out);
		for (let index = 0; index < count; index++) units.push(out[index]);
	}
	meter.steps += text.length + reader.steps + units.length;
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

const GAP = -1;
const PIECE = -2;

/** A reading's table: the unit of each ASCII character, GAP, or PIECE where the reader must read it. */
type Reading = Int16Array;

const LITERAL: Reading = Int16Array.from({ length: 128 }, (_, code) => (isGap(code) ? GAP : fold(code)));
const DECODED: Reading = LITERAL.map((unit, code) => (isTrigger(code) ? PIECE : unit));

// ---- the walk -----------------------------------------------------------------------------------

/** Spans of the text, [starts[i], ends[i]), sorted and apart. */
interface Spans {
	starts: number[];
	ends: number[];
}

function redactWith(text: string, matcher: Matcher, meter: StepMeter): string {
	const reader = new Reader(text);
	let spans = walk(text, reader, 1, matcher, meter);
	// A deeper reading differs only where a layer's escape stood for a `%`, `\` or `&`; the literal
	// one only where the text holds an escape at all.
	for (let depth = 2; depth <= DEPTH && (reader.triggers & (1 << (depth - 1))) !== 0; depth++) {
		spans = union(spans, walk(text, reader, depth, matcher, meter));
	}
	if (reader.layers !== 0) spans = union(spans, walk(text, reader, 0, matcher, meter));
	meter.steps += reader.steps;
	let out = '';
	let position = 0;
	spans.starts.forEach((start, index) => {
		out += text.slice(position, start) + REDACTED;
		position = spans.ends[index];
	});
	return out + text.slice(position);
}

/**
 * One reading's walk through a text: where it is, its state in the automaton, the run of pattern
 * units ending there, and the spans of the runs of at least minRun units. Runs are found in the order
 * they end, and begin in order too (a run is at most one unit longer than the one before it), so each
 * either joins the last span or starts a new one.
 */
class Cursor {
	position = 0;
	units = 0;
	run = 0;
	readonly spans: Spans = { starts: [], ends: [] };
	private row = 0;
	private lastUnit = -2;
	/** Where a run beginning at each of the last 256 units begins in the text (runs reach back at most RUN_CAP). */
	readonly begins = new Int32Array(256);
	private readonly piece = new Uint8Array(4);

	constructor(
		private readonly text: string,
		private readonly reader: Reader,
		private readonly reading: Reading,
		private readonly depth: number,
		private readonly matcher: Matcher,
	) {}

	/**
	 * Takes up where `main` was before the escape it just read at `position`, reading its `%`, `\` or
	 * `&` as that character: with main's run when the character continues it (a key holding `%`), at
	 * the root otherwise (its spans kept).
	 */
	fork(main: Cursor, position: number, trigger: number, triggerEnd: number): void {
		this.position = position;
		this.lastUnit = -2;
		if (main.triggerGoesOn(trigger)) {
			({ row: this.row, run: this.run, units: this.units } = main.before);
			// The history its run may reach back into.
			for (let back = 1; back <= this.run && back < 256; back++) this.begins[(this.units - back) & 255] = main.begins[(this.units - back) & 255];
		} else {
			this.row = 0;
			this.run = 0;
		}
		this.add(trigger, position, triggerEnd);
		this.position = triggerEnd;
	}

	/** Whether its last piece, an escape, is worth reading the other way: its units broke the run, or its trigger as itself goes on with it. */
	forkWorthIt(trigger: number): boolean {
		const broke = this.units > this.before.units && this.run !== this.before.run + 1;
		return broke || this.triggerGoesOn(trigger);
	}

	/** Whether the trigger of its last piece, read as itself, goes on with the run before it. */
	private triggerGoesOn(trigger: number): boolean {
		const { classOf, lengths } = this.matcher.automaton;
		const moved = lengths[this.before.row + classOf[trigger]];
		return moved === GOES_ON || moved > 1;
	}

	/** Where this cursor was before its last piece (what fork() takes up from). */
	private readonly before = { row: 0, run: 0, units: 0 };
	/** The units its last step added, as (unit, begin, stop): what a cursor that has reached it replays. */
	private readonly added = new Int32Array(12);
	private addedCount = 0;
	/** Whether its steps record what they add (only while an other may replay them: an other that has reached it replays its next steps). */
	recording = false;

	/** Adds the units `main`'s last step added, where this cursor has reached it: the same pieces, not read again. */
	replay(main: Cursor): void {
		for (let index = 0; index < main.addedCount; index += 3) this.add(main.added[index], main.added[index + 1], main.added[index + 2]);
		this.position = main.position;
	}

	/** Whether, at the same place, this cursor's run is held by `main`'s: the same state, no longer. */
	heldBy(main: Cursor): boolean {
		return this.row === main.row && this.run <= main.run;
	}

	/** Reads one piece (a gap, a plain ASCII character or, by the reader, anything else); returns whether it was an escape. */
	step(): boolean {
		const position = this.position;
		this.before.row = this.row;
		this.before.run = this.run;
		this.before.units = this.units;
		this.addedCount = 0;
		const code = this.text.charCodeAt(position);
		let unit = code < 0x80 ? this.reading[code] : PIECE;
		// A `%`, `\` or `&` that what follows cannot make an escape of is itself.
		if (unit === PIECE && code < 0x80 && !mayContinue(this.text, code, position + 1, this.depth)) unit = code;
		if (unit === GAP) this.position++;
		else if (unit >= 0) {
			// Plain ASCII, most characters: one unit.
			this.add(unit, position, position + 1);
			this.position++;
		} else {
			// A character of the Basic Multilingual Plane from its table, anything else by the reader.
			const packed = code >= 0x80 && (code < 0xd800 || code > 0xdfff) ? unitsOfBmp(code) : -1;
			const end = packed < 0 ? this.reader.read(position, this.depth) : position + 1;
			const count = packed < 0 ? unitsOfCode(this.reader.code, this.piece) : packed >>> 24;
			for (let index = 0; index < count; index++) {
				// A piece only partly in a run (a UTF-8 byte of a character, say) is kept: a run
				// beginning inside it begins after it, one ending inside it ends before it.
				const unitOf = packed < 0 ? this.piece[index] : (packed >> (16 - 8 * index)) & 0xff;
				this.add(unitOf, index === 0 ? position : end, index === count - 1 ? end : position);
			}
			this.position = end;
			return packed < 0 && this.reader.escaped;
		}
		return false;
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

/** How many other cursors may read at once (see walk). */
const OTHERS = 3;

/**
 * The spans of one reading at `depth`, read both ways where it takes an escape: the MAIN cursor takes
 * it; an OTHER cursor reads on from its `%`, `\` or `&` as if that were no escape but the character
 * itself (`%AAAA...` where the key is `AAAA...`, or holds `%AA` of its own, decoded by a layer that is
 * not the key's). An other reaches the main one at a piece's boundary; from there both read the same
 * pieces, and the other is dropped once its run no longer reaches back before that point (the main
 * one's run then holds it). Each cursor's escapes are read both ways so, while one of OTHERS is free:
 * the work is at most that many times the text's.
 */
function walk(text: string, reader: Reader, depth: number, matcher: Matcher, meter: StepMeter): Spans {
	const reading = depth === 0 ? LITERAL : DECODED;
	const main = new Cursor(text, reader, reading, depth, matcher);
	const count = depth > 0 ? OTHERS : 0;
	const others = Array.from({ length: count }, () => new Cursor(text, reader, reading, depth, matcher));
	/** Per other: -2 not reading; -1 reading, not yet at main's place; else its units when it got there. */
	const metAt = new Int32Array(count).fill(-2);
	let alive = 0;
	let steps = 0;
	/** After `cursor` read an escape that began at `from`: an other takes up the other way, if one is free. */
	const forkFrom = (cursor: Cursor, from: number): void => {
		if (alive === count || !cursor.forkWorthIt(reader.trigger)) return;
		let free = 0;
		while (metAt[free] !== -2) free++;
		others[free].fork(cursor, from, reader.trigger, reader.triggerEnd);
		metAt[free] = -1;
		alive++;
	};
	while (main.position < text.length) {
		const from = main.position;
		main.recording = alive > 0;
		if (main.step() && count > 0) forkFrom(main, from);
		steps++;
		for (let index = 0; alive > 0 && index < count; index++) {
			if (metAt[index] === -2) continue;
			const other = others[index];
			if (metAt[index] >= 0) other.replay(main);
			while (other.position < main.position) {
				const at = other.position;
				if (other.step()) forkFrom(other, at);
				steps++;
			}
			if (other.position === main.position) {
				if (metAt[index] < 0) metAt[index] = other.units;
				if (other.run <= other.units - metAt[index] || other.heldBy(main)) {
					metAt[index] = -2;
					alive--;
				}
			}
		}
	}
	meter.steps += steps + main.units;
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
