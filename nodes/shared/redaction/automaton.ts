/**
 * The matcher of the redactor (redact.ts): a suffix automaton of its patterns, completed into a table,
 * so one look-up per unit of text gives the longest run ending there that is a substring of a pattern;
 * and the Cursor, one reading's walk through it (readings.ts moves the cursors through a text's layers).
 */
import { ASCII_UNIT, unitsOfCode } from './units';

/** Test hook: counts the steps of reading, building and walking (characters read, units, table cells). */
export interface StepMeter {
	steps: number;
}

/** Runs are counted up to this many units: a longer run was already marked from its start (see walk). */
const RUN_CAP = 254;
/** In `lengths`: the run goes on (one more unit), rather than restarting at a length of its own. */
const GOES_ON = 255;
// Exported by name, so that this module reads them as its own constants (an `export const` is read as a property of exports).
export { GOES_ON, RUN_CAP };

/**
 * The suffix automaton of the patterns, completed into a table: for each state and each unit class,
 * the next state (its row) and the run length after the move. Units that occur in no pattern share
 * class 0, which leads back to the root. One table look-up per unit of text.
 */
export interface Automaton {
	/** The class of each unit (0: in no pattern): the table's column. */
	classOf: Uint16Array;
	/** The class of each ASCII character's unit, -1 for a gap (no unit): the readings' fast path. */
	asciiClass: Int16Array;
	/** By row + class: the row of the next state (state * width). */
	next: Int32Array;
	/** By row + class: the run after the move, GOES_ON for one more unit than before. */
	lengths: Uint8Array;
}

export function buildAutomaton(patterns: number[][], meter: StepMeter): Automaton {
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
	return { classOf, asciiClass: ASCII_UNIT.map((unit) => (unit < 0 ? -1 : classOf[unit])), next, lengths };
}

/** What a redactor matches with: its automaton and its shortest run. */
export interface Matcher {
	automaton: Automaton;
	minRun: number;
}

/** Spans of the text, [starts[i], ends[i]), sorted and apart. */
export interface Spans {
	starts: number[];
	ends: number[];
}

/**
 * One reading's walk: its state in the automaton, the run of pattern units ending where it is, and
 * the spans of the runs of at least minRun units. Runs are found in the order they end, and begin in
 * order too (a run is at most one unit longer than the one before it), so each either joins the last
 * span or starts a new one.
 */
export class Cursor {
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
	beforeRow = 0;
	beforeRun = 0;
	beforeUnits = 0;
	// The matcher's arrays, held here: they are read for every unit.
	private readonly classOf: Uint16Array;
	private readonly asciiClass: Int16Array;
	private readonly next: Int32Array;
	private readonly lengths: Uint8Array;
	private readonly minRun: number;

	constructor(matcher: Matcher) {
		({ classOf: this.classOf, asciiClass: this.asciiClass, next: this.next, lengths: this.lengths } = matcher.automaton);
		this.minRun = matcher.minRun;
	}

	/** One more element, an escape, standing for `code`, over [begin, end) of the text: where it was before it kept for fork(). */
	element(code: number, begin: number, end: number): void {
		this.beforeRow = this.row;
		this.beforeRun = this.run;
		this.beforeUnits = this.units;
		this.read(code, begin, end);
	}

	/** One more element that no fork() takes up from (not an escape). */
	read(code: number, begin: number, end: number): void {
		if (code < 0x80) {
			const column = this.asciiClass[code];
			if (column >= 0) this.add(column, begin, end);
		} else this.wide(code, begin, end);
	}

	/** An element beyond ASCII: its UTF-8 bytes after folding, or the byte it stands for. */
	private wide(code: number, begin: number, end: number): void {
		const count = unitsOfCode(code, this.piece);
		for (let index = 0; index < count; index++) {
			// An element only partly in a run (a UTF-8 byte of a character, say) is kept: a run
			// beginning inside it begins after it, one ending inside it ends before it.
			this.add(this.classOf[this.piece[index]], index === 0 ? begin : end, index === count - 1 ? end : begin);
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
			this.row = from.beforeRow;
			this.run = from.beforeRun;
			this.units = from.beforeUnits;
			// The history its run may reach back into.
			for (let back = 1; back <= this.run && back < 256; back++)
				this.begins[(this.units - back) & 255] = from.begins[(this.units - back) & 255];
		} else {
			this.row = 0;
			this.run = 0;
		}
		this.element(trigger, begin, end);
	}

	/** Whether its last element, an escape, is worth reading the other way: its units broke the run, or its trigger is in a pattern (a run may go through it, or begin with it). */
	forkWorthIt(trigger: number): boolean {
		return (this.units > this.beforeUnits && this.run !== this.beforeRun + 1) || this.classOf[trigger] !== 0;
	}

	/** Whether it had a run before its last element, and `trigger` read as itself goes on with it. */
	continuesRunWith(trigger: number): boolean {
		return this.beforeRun > 0 && this.triggerGoesOn(trigger);
	}

	private triggerGoesOn(trigger: number): boolean {
		const moved = this.lengths[this.beforeRow + this.classOf[trigger]];
		return moved === GOES_ON || moved > 1;
	}

	/** Its state and run in one number, for a trail (see readings.ts). */
	get state(): number {
		return (this.row << 8) | this.run;
	}

	/** Whether, at the same place, this cursor's run is held by `main`'s: the same state, no longer. */
	heldBy(main: Cursor): boolean {
		return this.row === main.row && this.run <= main.run;
	}

	/** One more unit (of class `column`), beginning at `begin` in the text, a run through it ending at `stop`. */
	private add(column: number, begin: number, stop: number): void {
		this.begins[this.units & 255] = begin;
		const cell = this.row + column;
		this.row = this.next[cell];
		const moved = this.lengths[cell];
		this.run = moved !== GOES_ON ? moved : this.run < RUN_CAP ? this.run + 1 : RUN_CAP;
		if (this.run >= this.minRun) this.mark(stop);
		this.units++;
	}

	/**
	 * Reads elements from `index` on, up to `limit` (the next escape), while each is an ASCII
	 * character; returns where it stopped. What add() does, in locals: the hot loop of every walk.
	 * `pos` undefined: layer 0 without pairs (an element's index is where it is in the text). Its
	 * state before each `%`, `\` or `&` goes to `trail` (see readings.ts: only such an element begins an
	 * escape of the layer above).
	 */
	ascii(codes: Int32Array, pos: Int32Array | undefined, index: number, limit: number, trail: Int32Array): number {
		const { asciiClass, next, lengths, begins, minRun } = this;
		const { ends } = this.spans;
		let row = this.row;
		let run = this.run;
		let units = this.units;
		let lastUnit = this.lastUnit;
		for (; index < limit; index++) {
			const code = codes[index];
			if (code >= 0x80) break;
			if (code === 0x25 || code === 0x26 || code === 0x5c) trail[index] = (row << 8) | run;
			const column = asciiClass[code];
			if (column < 0) continue;
			begins[units & 255] = pos === undefined ? index : pos[index];
			const cell = row + column;
			row = next[cell];
			const moved = lengths[cell];
			run = moved !== GOES_ON ? moved : run < RUN_CAP ? run + 1 : RUN_CAP;
			if (run >= minRun) {
				const stop = pos === undefined ? index + 1 : pos[index + 1];
				if (lastUnit === units - 1) {
					// The unit before was marked: this run joins its span (mark() without the call).
					if (ends[ends.length - 1] < stop) ends[ends.length - 1] = stop;
				} else {
					this.units = units;
					this.run = run;
					this.lastUnit = lastUnit;
					this.mark(stop);
				}
				lastUnit = units;
			}
			units++;
		}
		this.row = row;
		this.run = run;
		this.units = units;
		this.lastUnit = lastUnit;
		return index;
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
