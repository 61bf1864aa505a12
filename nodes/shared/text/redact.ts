/**
 * The one redaction of the API key, applied to every foreign part of a text a user can see.
 * Over 300 lines because reading a text, the automaton and the walk that joins them only make sense
 * together, next to this comment that says why the result holds and why it takes linear time.
 *
 * Reading. A text is read into UNITS (bytes 0-255), each remembering the [start, end) of the text it
 * came from. A character is its UTF-8 bytes after case folding (its lower case, when that is one
 * character; a lone surrogate is U+FFFD). GAPS, whitespace and `+` (a space in form encoding), give no
 * unit. The DECODED reading also takes escapes for what they stand for: `%XX` (hex, any case) is that
 * byte, a UTF-8 sequence of them its character; the JSON escapes `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t`
 * `\uXXXX` (a surrogate pair of them is one character) are their character; gaps may lie anywhere
 * inside and between them (`%4 1` is `A`: a line wrapped inside an escape). So the key, with
 * whitespace put anywhere, percent-encoded (`+` or `%20` for a space), `\u`-escaped, in another case,
 * reads as the same units. When the key holds a `%` or `\`, a text in which that reading took an
 * escape is also read LITERALLY (no escapes): such a key, echoed as it is or JSON-escaped, may hold a
 * `%41` or `\n` of its own that decoding changes (and may be cut inside one). Each reading is walked
 * on its own; what either finds is redacted.
 *
 * Patterns: the units of the trimmed key, of the key JSON-escaped, and of the base64 (standard and
 * URL-safe) of its UTF-8 bytes: whole, and at each of the 3 byte alignments only the characters that
 * depend on the key alone, so `Bearer <key>` or `user:<key>` encoded is found too.
 *
 * Matching: every run of 8 or more consecutive units of a reading that is a SUBSTRING of a pattern (a
 * text cut at either end still holds a window of the key) is replaced, over the text it came from, by
 * REDACTED; runs that overlap or touch become one. A character only partly in a run (it shares a byte
 * with the key, such as a UTF-8 lead byte) is kept. The `+` a key begins or ends with gives no unit:
 * where the text has it (or `%2B`) right next to a span, it goes with the span. A key of 4 to 7 units
 * (8 characters or more, most of them gaps, such as `a b c d e`) lowers the run to its own length, for
 * all its patterns; a key of fewer units is found only in base64 (so few characters are no secret,
 * and would wreck ordinary words).
 *
 * Cost. The automaton's table has a row per state (at most twice the patterns' units, about 25 per
 * byte of the key) and a column per distinct unit in them: some hundred KB for a key of 40 characters,
 * built in about a millisecond, once per redactor.
 *
 * Linear time, whatever the text; no regular expression runs over it. The reader looks at a character
 * a bounded number of times (an escape that fails is read again as plain characters). The runs come
 * from a suffix automaton of the patterns (joined by separators no unit equals), completed into a
 * table: for each state and unit, the next state and the length of the run after it (the suffix-link
 * walk of a mismatch resolved when the table is built). So one look-up per unit gives the longest
 * run ending there. A StepMeter counts the work; the tests bound it by the length of text and key.
 *
 * A key shorter than MIN_KEY_LENGTH is left alone: resolveApiKey refuses it before anything is sent,
 * so no answer can echo it, and matching 1 to 7 characters would wreck ordinary text.
 */
export type Redact = (text: string) => string;

export const REDACTED = '[redacted]';

/** The shortest key the node sends (resolveApiKey) and so the shortest it redacts. */
export const MIN_KEY_LENGTH = 8;
/** The shortest run of units redacted: shorter windows of a key would also match ordinary words. */
const MIN_RUN = 8;
/** The shortest key (in units) matched in its plain forms; see the comment above. */
const MIN_PLAIN = 4;

/** Test hook: counts the steps of reading, building and walking (characters read, units, table cells). */
export interface StepMeter {
	steps: number;
}

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

function matcherOf(key: string, meter: StepMeter): Matcher {
	const plain = unitsOf(key, meter).length;
	const minRun = plain >= MIN_PLAIN && plain < MIN_RUN ? plain : MIN_RUN;
	const automaton = buildAutomaton(patternsOf(key, minRun, meter), meter);
	// Only a key holding `%` or `\` reads differently as it is and decoded.
	const literally = key.includes('%') || key.includes('\\');
	return { automaton, minRun, literally, ...edgesOf(key) };
}

/**
 * The gaps the key begins or ends with (`+`, as it is trimmed): they give no unit, so no run holds
 * them; each as the text may write it, nearest to the key first.
 */
function edgesOf(key: string): { leading: string[][]; trailing: string[][] } {
	const chars = [...key];
	const gap = (char: string): boolean => isGap(char.charCodeAt(0));
	const first = chars.findIndex((char) => !gap(char));
	if (first < 0) return { leading: [], trailing: [] };
	const last = chars.length - 1 - [...chars].reverse().findIndex((char) => !gap(char));
	return { leading: chars.slice(0, first).reverse().map(spellings), trailing: chars.slice(last + 1).map(spellings) };
}

// ---- patterns ------------------------------------------------------------------------------------

/** The units of each form of the key, each once; one too short to match is left out. */
function patternsOf(key: string, minRun: number, meter: StepMeter): number[][] {
	const forms = [key, JSON.stringify(key).slice(1, -1), ...base64Forms(key)];
	const texts = new Set(forms.map((form) => Buffer.from(unitsOf(form, meter)).toString('latin1')));
	return [...texts].filter((units) => units.length >= minRun).map((units) => [...Buffer.from(units, 'latin1')]);
}

function unitsOf(text: string, meter: StepMeter): number[] {
	const reader = new Reader(text, LITERAL);
	const units: number[] = [];
	for (let position = 0; position < text.length; position = reader.end) {
		reader.piece(position, text.charCodeAt(position));
		units.push(...reader.units.subarray(0, reader.count));
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

// ---- reading: text to canonical units -----------------------------------------------------------

const PERCENT = 0x25;
const BACKSLASH = 0x5c;
const LETTER_U = 0x75;
/** The character of each simple JSON escape, by the letter after the backslash; -1 for none. */
const ESCAPED = new Int16Array(128).fill(-1);
for (const [letter, code] of Object.entries({ '"': 0x22, '\\': 0x5c, '/': 0x2f, b: 8, f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09 })) {
	ESCAPED[letter.charCodeAt(0)] = code;
}
/** The smallest code point a UTF-8 sequence of 2, 3, 4 bytes may hold (shorter forms are not characters). */
const SMALLEST = [0, 0, 0x80, 0x800, 0x10000];
/** By the length of a UTF-8 sequence: the marker bits of its first byte, and the bits of it that are payload. */
const LEAD_BITS = [0, 0, 0xc0, 0xe0, 0xf0];
const PAYLOAD_BITS = [0x7f, 0x7f, 0x1f, 0x0f, 0x07];

/** Whitespace (what `\s` matches) or `+`. */
function isGap(code: number): boolean {
	if (code < 0x80) return code === 0x20 || code === 0x2b || (code >= 0x09 && code <= 0x0d);
	return (
		code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
		code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
	);
}

/** Whether the character after a `%` or `\` may continue an escape (else the `%` or `\` is itself). */
function mayFollow(code: number, after: number): boolean {
	if (isGap(after)) return true;
	return code === PERCENT ? hexValue(after) >= 0 : after === LETTER_U || (after < 0x80 && ESCAPED[after] >= 0);
}

function hexValue(code: number): number {
	if (code >= 0x30 && code <= 0x39) return code - 0x30;
	const letter = code | 0x20;
	return letter >= 0x61 && letter <= 0x66 ? letter - 0x57 : -1;
}

/**
 * The lower case of a code point when that is one code point. Beyond the Basic Multilingual Plane
 * only U+10400 to U+1E95F (Deseret to Adlam) have cases at all.
 */
function fold(code: number): number {
	if (code < 0x80) return code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
	return code <= 0xffff || (code >= 0x10400 && code <= 0x1e95f) ? lowerOf(code) : code;
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
		const count = isGap(folded) ? 0 : utf8(folded, bytes);
		bmpUnits[code] = (count << 24) | (bytes[0] << 16) | (bytes[1] << 8) | bytes[2];
	}
	return bmpUnits[code];
}

function lowerOf(code: number): number {
	const lower = String.fromCodePoint(code).toLowerCase();
	const first = lower.codePointAt(0)!;
	return lower.length === (first > 0xffff ? 2 : 1) ? first : code;
}

/** Writes the UTF-8 bytes of a code point; returns how many. */
function utf8(code: number, out: Uint8Array): number {
	const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
	out[0] = LEAD_BITS[size] | (code >> (6 * (size - 1)));
	for (let index = 1; index < size; index++) out[index] = 0x80 | ((code >> (6 * (size - 1 - index))) & 0x3f);
	return size;
}

const GAP = -1;
const ESCAPE = -2;

/** A reading, as the unit of each ASCII character, GAP, or ESCAPE where an escape may begin. */
type Reading = Int16Array;

const LITERAL: Reading = Int16Array.from({ length: 128 }, (_, code) => (isGap(code) ? GAP : fold(code)));
const DECODED: Reading = LITERAL.map((unit, code) => (code === PERCENT || code === BACKSLASH ? ESCAPE : unit));

/**
 * Reads a piece of a text (an escape, where the reading decodes them, or a character) into its units
 * (none for a gap); the walk reads plain ASCII characters itself, from the reading's table.
 */
class Reader {
	/** The units of the piece read (0 to 4 of them), and where it ends. */
	readonly units = new Uint8Array(4);
	count = 0;
	end = 0;
	/** Characters looked at past the first of a piece (an escape that fails is read again as characters). */
	steps = 0;
	/** Escapes taken. */
	escapes = 0;
	/** Where the last hex number read ended. */
	private after = 0;

	constructor(
		private readonly text: string,
		private readonly reading: Reading,
	) {}

	piece(position: number, code: number): void {
		if (code >= 0x80 || this.reading[code] !== ESCAPE) this.character(position, code);
		else if (code === PERCENT ? this.percent(position) : this.backslash(position)) this.escapes++;
		else {
			// Not an escape after all: the `%` or `\` itself.
			this.units[0] = code;
			this.count = 1;
			this.end = position + 1;
		}
	}

	private codeAt(position: number): number {
		this.steps++;
		return position < this.text.length ? this.text.charCodeAt(position) : -1;
	}

	private skipGaps(position: number): number {
		while (isGap(this.codeAt(position))) position++;
		return position;
	}

	/** `digits` hex digits from `position`, gaps allowed before each; -1 if they are not there. */
	private hex(position: number, digits: number): number {
		let value = 0;
		for (let index = 0; index < digits; index++, position++) {
			let code = this.codeAt(position);
			while (isGap(code)) code = this.codeAt(++position);
			const digit = hexValue(code);
			if (digit < 0) return -1;
			value = value * 16 + digit;
		}
		this.after = position;
		return value;
	}

	private put(code: number, end: number): void {
		this.end = end;
		if (code > 0xffff) this.count = utf8(fold(code), this.units);
		else {
			const packed = unitsOfBmp(code);
			this.units[0] = packed >> 16;
			this.units[1] = packed >> 8;
			this.units[2] = packed;
			this.count = packed >>> 24;
		}
	}

	private character(position: number, code: number): void {
		if (code >= 0xd800 && code <= 0xdbff) {
			const low = this.codeAt(position + 1);
			if (low >= 0xdc00 && low <= 0xdfff) return this.put(((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000, position + 2);
		}
		this.put(code >= 0xd800 && code <= 0xdfff ? 0xfffd : code, position + 1);
	}

	/** `%XX`, or a UTF-8 sequence of them that makes one character. */
	private percent(position: number): boolean {
		const lead = this.hex(position + 1, 2);
		if (lead < 0) return false;
		const end = this.after;
		const size = lead >= 0xf5 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 1;
		let code = lead & PAYLOAD_BITS[size];
		let at = end;
		for (let index = 1; index < size && code >= 0; index++) {
			const next = this.skipGaps(at);
			const byte = this.codeAt(next) === PERCENT ? this.hex(next + 1, 2) : -1;
			code = byte >= 0 && (byte & 0xc0) === 0x80 ? (code << 6) | (byte & 0x3f) : -1;
			at = this.after;
		}
		if (lead < 0x80 || (size > 1 && code >= SMALLEST[size] && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff))) {
			this.put(code, lead < 0x80 ? end : at);
		} else {
			// A byte that begins no character: kept as it is.
			this.end = end;
			this.units[0] = lead;
			this.count = 1;
		}
		return true;
	}

	/** A JSON escape; `\uXXXX\uXXXX` of a surrogate pair is one character. */
	private backslash(position: number): boolean {
		const at = this.skipGaps(position + 1);
		const letter = this.codeAt(at);
		if (letter >= 0 && letter < 0x80 && ESCAPED[letter] >= 0) {
			this.put(ESCAPED[letter], at + 1);
			return true;
		}
		if (letter !== LETTER_U) return false;
		let code = this.hex(at + 1, 4);
		if (code < 0) return false;
		let end = this.after;
		if (code >= 0xd800 && code <= 0xdbff) {
			const slash = this.skipGaps(end);
			const u = this.codeAt(slash) === BACKSLASH ? this.skipGaps(slash + 1) : -1;
			const low = u >= 0 && this.codeAt(u) === LETTER_U ? this.hex(u + 1, 4) : -1;
			if (low >= 0xdc00 && low <= 0xdfff) {
				code = ((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
				end = this.after;
			}
		}
		this.put(code >= 0xd800 && code <= 0xdfff ? 0xfffd : code, end);
		return true;
	}
}

// ---- the automaton of the patterns --------------------------------------------------------------

/** Runs are counted up to this many units: a longer run was already marked from its start (see walk). */
const RUN_CAP = 254;
/** In `lengths`: the run goes on (one more unit), rather than restarting at a length of its own. */
const GOES_ON = 255;

/**
 * The suffix automaton of the patterns, completed into a table: for each state and each unit class,
 * the next state (its row) and the run length after the move. Units that occur in no pattern share
 * class 0, which leads back to the root. One table look-up per unit of text.
 */
interface Automaton {
	/** The class of each unit (0: in no pattern): the table's column. */
	classOf: Uint16Array;
	/** By row + class: the row of the next state (state * width). */
	next: Int32Array;
	/** By row + class: the run after the move, GOES_ON for one more unit than before. */
	lengths: Uint8Array;
}

function buildAutomaton(patterns: number[][], meter: StepMeter): Automaton {
	const edges: Map<number, number>[] = [new Map()];
	const link = [-1];
	const length = [0];
	let last = 0;
	const add = (symbol: number): void => {
		const current = edges.push(new Map()) - 1;
		length.push(length[last] + 1);
		link.push(0);
		let state = last;
		for (; state !== -1 && !edges[state].has(symbol); state = link[state]) {
			edges[state].set(symbol, current);
			meter.steps++;
		}
		if (state !== -1) {
			const target = edges[state].get(symbol)!;
			if (length[state] + 1 === length[target]) link[current] = target;
			else {
				const clone = edges.push(new Map(edges[target])) - 1;
				meter.steps += edges[target].size;
				length.push(length[state] + 1);
				link.push(link[target]);
				for (; state !== -1 && edges[state].get(symbol) === target; state = link[state]) {
					edges[state].set(symbol, clone);
					meter.steps++;
				}
				link[target] = link[current] = clone;
			}
		}
		last = current;
	};
	// Separators (256 and up) end each pattern, so no run can cross from one pattern into the next.
	patterns.forEach((units, index) => [...units, 256 + index].forEach(add));
	return complete(edges, link, length, meter);
}

/**
 * Resolves every suffix-link walk ahead of time: a state without an edge for a class moves as its
 * suffix link does (states in order of length, so the link's row is done first), with the run
 * restarting at the link's length + 1.
 */
function complete(edges: Map<number, number>[], link: number[], length: number[], meter: StepMeter): Automaton {
	const classOf = new Uint16Array(256);
	let width = 1;
	for (const map of edges) for (const symbol of map.keys()) if (symbol < 256 && classOf[symbol] === 0) classOf[symbol] = width++;
	const next = new Int32Array(edges.length * width);
	const lengths = new Uint8Array(edges.length * width);
	const byLength: number[][] = length.map(() => []);
	length.forEach((size, state) => byLength[size].push(state));
	for (const state of byLength.flat()) {
		const row = state * width;
		if (state !== 0) {
			const linked = link[state] * width;
			for (let column = 0; column < width; column++) {
				const run = lengths[linked + column];
				next[row + column] = next[linked + column];
				lengths[row + column] = run === GOES_ON ? Math.min(length[link[state]] + 1, RUN_CAP) : run;
				meter.steps++;
			}
		}
		for (const [symbol, target] of edges[state]) {
			if (symbol >= 256) continue;
			next[row + classOf[symbol]] = target * width;
			lengths[row + classOf[symbol]] = GOES_ON;
		}
	}
	return { classOf, next, lengths };
}

// ---- the walk -----------------------------------------------------------------------------------

/** Spans of the text, [starts[i], ends[i]), sorted and apart. */
interface Spans {
	starts: number[];
	ends: number[];
}

/**
 * What a redactor matches with: its automaton, its shortest run, whether texts are also read
 * literally, and the ways the gaps at the key's edges may be written, nearest first.
 */
interface Matcher {
	automaton: Automaton;
	minRun: number;
	literally: boolean;
	leading: string[][];
	trailing: string[][];
}

function redactWith(text: string, matcher: Matcher, meter: StepMeter): string {
	const { automaton, minRun, literally } = matcher;
	const decoded = walk(text, DECODED, automaton, minRun, meter);
	// Where the decoding reading took no escape, the literal one reads the same units.
	const found = literally && decoded.escapes > 0 ? union(decoded, walk(text, LITERAL, automaton, minRun, meter)) : decoded;
	const spans = widen(text, found, matcher);
	meter.steps += spans.starts.length * (1 + matcher.leading.length + matcher.trailing.length);
	let out = '';
	let position = 0;
	spans.starts.forEach((start, index) => {
		out += text.slice(position, start) + REDACTED;
		position = spans.ends[index];
	});
	return out + text.slice(position);
}

/**
 * The spans of the runs of one reading. Runs are found in the order they end, and begin in order too
 * (a run is at most one unit longer than the one before it), so each either joins the last span or
 * starts a new one.
 */
function walk(text: string, reading: Reading, automaton: Automaton, minRun: number, meter: StepMeter): Spans & { escapes: number } {
	const spans = { starts: [] as number[], ends: [] as number[], escapes: 0 };
	const reader = new Reader(text, reading);
	// Where a run beginning at each of the last 256 units begins in the text. Runs reach back at most
	// RUN_CAP units: a run counted as RUN_CAP was marked from its true start while it grew.
	const begins = new Int32Array(256);
	const { classOf, next, lengths } = automaton;
	let unitIndex = 0;
	let row = 0;
	let run = 0;
	let lastUnit = -2;
	let steps = 0;
	/** One more unit: the longest run of pattern units ending here, and the state standing for it. */
	const move = (unit: number): void => {
		const cell = row + classOf[unit];
		row = next[cell];
		const moved = lengths[cell];
		run = moved !== GOES_ON ? moved : run < RUN_CAP ? run + 1 : RUN_CAP;
	};
	/** The run ending at this unit, up to `stop` in the text, joins the last span or starts one. */
	const mark = (stop: number): void => {
		const from = unitIndex - run + 1;
		const start = begins[from & 255];
		if (stop < start) stop = start;
		const last = spans.ends.length - 1;
		// (Comparisons rather than Math.max: this runs for each unit of a long echo.)
		if (last >= 0 && (from <= lastUnit + 1 || start <= spans.ends[last])) {
			if (spans.ends[last] < stop) spans.ends[last] = stop;
		} else {
			spans.starts.push(start);
			spans.ends.push(stop);
		}
		lastUnit = unitIndex;
	};
	for (let position = 0; position < text.length; steps++) {
		const code = text.charCodeAt(position);
		let unit = code < 0x80 ? reading[code] : ESCAPE;
		// A `%` or `\` that begins no escape (what follows cannot continue one) is itself.
		if (unit === ESCAPE && code < 0x80 && !mayFollow(code, text.charCodeAt(position + 1))) unit = code;
		if (unit === GAP) position++;
		else if (unit >= 0) {
			// Plain ASCII, most characters: one unit.
			begins[unitIndex & 255] = position;
			move(unit);
			if (run >= minRun) mark(position + 1);
			position++;
			unitIndex++;
		} else {
			// A character of the Basic Multilingual Plane from its table, anything else by the reader.
			const packed = code >= 0x80 && (code < 0xd800 || code > 0xdfff) ? unitsOfBmp(code) : -1;
			if (packed < 0) reader.piece(position, code);
			const count = packed < 0 ? reader.count : packed >>> 24;
			const end = packed < 0 ? reader.end : position + 1;
			for (let index = 0; index < count; index++, unitIndex++) {
				// A piece only partly in a run (a UTF-8 byte of a character, say) is kept: a run
				// beginning inside it begins after it, one ending inside it ends before it.
				begins[unitIndex & 255] = index === 0 ? position : end;
				move(packed < 0 ? reader.units[index] : (packed >> (16 - 8 * index)) & 0xff);
				if (run >= minRun) mark(index === count - 1 ? end : position);
			}
			position = end;
		}
	}
	meter.steps += steps + unitIndex + reader.steps;
	spans.escapes = reader.escapes;
	return spans;
}


/** A gap character as a text may hold it: itself, percent-encoded, and `+` for a space. */
function spellings(char: string): string[] {
	const encoded = encodeURIComponent(char);
	return [...new Set([char, encoded, encoded.toLowerCase(), ...(char === ' ' ? ['+'] : [])])];
}

/** Each span with the gaps the key begins or ends with, where the text has them right next to it. */
function widen(text: string, spans: Spans, { leading, trailing }: Matcher): Spans {
	if (leading.length === 0 && trailing.length === 0) return spans;
	const widened: Spans = { starts: [], ends: [] };
	spans.starts.forEach((start, index) => {
		let end = spans.ends[index];
		for (const ways of trailing) {
			const way = ways.find((one) => text.startsWith(one, end));
			if (way === undefined) break;
			end += way.length;
		}
		for (const ways of leading) {
			const way = ways.find((one) => start >= one.length && text.startsWith(one, start - one.length));
			if (way === undefined) break;
			start -= way.length;
		}
		const last = widened.ends.length - 1;
		if (last >= 0 && start <= widened.ends[last]) {
			widened.starts[last] = Math.min(widened.starts[last], start);
			widened.ends[last] = Math.max(widened.ends[last], end);
		} else {
			widened.starts.push(start);
			widened.ends.push(end);
		}
	});
	return widened;
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
