/**
 * The walks of the redactor (redact.ts) through a text: the literal reading and each decoded layer,
 * the latter read both ways at every escape. Each walk gives the spans of the runs of at least minRun
 * units that are substrings of a pattern (automaton.ts).
 */
import type { Automaton, StepMeter } from './automaton';
import { GOES_ON as GOES, RUN_CAP as CAP } from './automaton';
import type { Layer } from './decode';
import { Decoder, isTrigger, positionOf } from './decode';
import { Prospect } from './prospect';
import { unitsOfCode } from './units';

// Module constants read for every unit, held here (a property of another module is looked up each time).
const GOES_ON = GOES;
const RUN_CAP = CAP;

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
	beforeRow = 0;
	beforeRun = 0;
	private beforeUnits = 0;
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

	/** One more element, standing for `code`, over [begin, end) of the text. */
	element(code: number, begin: number, end: number): void {
		this.beforeRow = this.row;
		this.beforeRun = this.run;
		this.beforeUnits = this.units;
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
			for (let back = 1; back <= this.run && back < 256; back++) this.begins[(this.units - back) & 255] = from.begins[(this.units - back) & 255];
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

	triggerGoesOn(trigger: number): boolean {
		const moved = this.lengths[this.beforeRow + this.classOf[trigger]];
		return moved === GOES_ON || moved > 1;
	}

	/** Whether, at the same place, this cursor's run is held by `main`'s: the same state, no longer. */
	heldBy(main: Cursor): boolean {
		return this.row === main.row && this.run <= main.run;
	}

	/** One more unit (of class `column`), beginning at `begin` in the text, a run through it ending at `stop`. */
	add(column: number, begin: number, stop: number): void {
		this.begins[this.units & 255] = begin;
		const cell = this.row + column;
		this.row = this.next[cell];
		const moved = this.lengths[cell];
		this.run = moved !== GOES_ON ? moved : this.run < RUN_CAP ? this.run + 1 : RUN_CAP;
		if (this.run >= this.minRun) this.mark(stop);
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

/** The literal reading: every character of the text (layer 0) as itself. */
export function walkLiterally(layer: Layer, matcher: Matcher, meter: StepMeter): Spans {
	const cursor = new Cursor(matcher);
	const { codes, length, pos } = layer;
	const { asciiClass } = matcher.automaton;
	if (pos === undefined) {
		// Each element one character: its index is where it is in the text.
		for (let index = 0; index < length; index++) {
			const code = codes[index];
			if (code >= 0x80) cursor.element(code, index, index + 1);
			else if (asciiClass[code] >= 0) cursor.add(asciiClass[code], index, index + 1);
		}
	} else for (let index = 0; index < length; index++) cursor.element(codes[index], pos[index], pos[index + 1]);
	meter.steps += length + cursor.units;
	return cursor.spans;
}

/** How many escapes may wait for their fork at once (see walk); beyond, they fork at once. */
const WAITING = 8;

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
 * OTHERS is free: the work is at most that many times the layer's. The spans of each cursor.
 */
export function walk(layer: Layer, matcher: Matcher, meter: StepMeter): Spans[] {
	const below = layer.below!;
	const belowCodes = below.codes;
	const decoder = new Decoder(below);
	const main = new Cursor(matcher);
	const prospect = new Prospect(layer, matcher.automaton, matcher.minRun);
	const others = Array.from({ length: OTHERS }, () => new Cursor(matcher));
	/** Per other: -2 not reading; -1 reading, not yet where main is; else its units when it got there. */
	const metAt = new Int32Array(OTHERS).fill(-2);
	let alive = 0;
	let steps = 0;
	/** After `cursor` read an escape beginning at element `start` below: an other takes up the other way, if one is free. */
	const forkFrom = (cursor: Cursor, start: number, worthIt = false): void => {
		const trigger = belowCodes[start];
		if (alive === OTHERS || !(worthIt || cursor.forkWorthIt(trigger))) return;
		let free = 0;
		while (metAt[free] !== -2) free++;
		others[free].fork(cursor, trigger, positionOf(below, start), positionOf(below, start + 1));
		others[free].at = start + 1;
		metAt[free] = -1;
		alive++;
	};
	/**
	 * The main cursor's escapes whose `%`, `\` or `&` is in no pattern wait for their fork: read as
	 * itself, such a trigger ends any run, so the other way can only find a run that begins after it,
	 * in the escape's other elements (at most one unit each) and goes on with what the main cursor
	 * reads after the escape (from there both read the same units, and a run of them is a run of the
	 * main one too; another escape read as itself would end it again). So the fork can only matter once
	 * the main cursor has matched, without a break since the escape, minRun less those elements; in a
	 * text of escapes that never happens, and no other cursor is taken up at all.
	 */
	const { classOf } = matcher.automaton;
	/** (escape's element, main's units at its end, units it must match) triples; at most WAITING of them. */
	const waiting = new Int32Array(3 * WAITING);
	let waitingCount = 0;
	const { src, codes, length } = layer;
	// A decoded layer has its own positions (only layer 0 may read them as indexes).
	const pos = layer.pos!;
	let end = pos[0];
	for (let index = 0; index < length; index++) {
		const begin = end;
		end = pos[index + 1];
		const code = codes[index];
		main.element(code, begin, end);
		const start = src[index];
		main.at = src[index + 1];
		let kept = 0;
		for (let at = 0; at < waitingCount; at += 3) {
			const matched = main.units - waiting[at + 1];
			if (main.run < matched) continue;
			// Then too, only where the look ahead finds that way may matter (from the root: the trigger is in no pattern).
			if (matched >= waiting[at + 2]) {
				if (alive < OTHERS && prospect.mayFind(waiting[at], 0, 0)) forkFrom(main, src[waiting[at]], true);
			}
			else {
				waiting.copyWithin(kept, at, at + 3);
				kept += 3;
			}
		}
		waitingCount = kept;
		if (main.at > start + 1) {
			const trigger = belowCodes[start];
			const inPattern = classOf[trigger] !== 0;
			if (inPattern || waitingCount === waiting.length) {
				// A trigger in a pattern is read the other way where a look ahead finds that way may matter (prospect.ts).
				if (!inPattern || alive === OTHERS || !isTrigger(trigger) || prospect.mayFind(index, main.beforeRow, main.beforeRun)) forkFrom(main, start);
			}
			else if (main.forkWorthIt(trigger)) {
				waiting[waitingCount++] = index;
				waiting[waitingCount++] = main.units;
				waiting[waitingCount++] = matcher.minRun - (main.at - start - 1);
			}
		}
		for (let other = 0; alive > 0 && other < OTHERS; other++) {
			if (metAt[other] === -2) continue;
			const cursor = others[other];
			if (metAt[other] >= 0) {
				// It reads main's element too, not decoded again.
				cursor.element(code, begin, end);
				cursor.at = main.at;
				// The main one's escape is this one's too: read the other way from this one's run as well
				// (a trigger in no pattern ends every run: that way is the main one's, waiting above).
				// Only where it goes on with this one's own run: at the root, it is the main one's fork.
				if (main.at > start + 1 && classOf[belowCodes[start]] !== 0 && cursor.continuesRunWith(belowCodes[start])) forkFrom(cursor, start, true);
			}
			while (cursor.at < main.at) {
				const at = cursor.at;
				// A character that begins no escape (most of them) is itself, as the decoder would read it.
				const plain = belowCodes[at] < 0x80 && !isTrigger(belowCodes[at]);
				cursor.at = plain ? at + 1 : decoder.step(at);
				cursor.element(plain ? belowCodes[at] : decoder.code, positionOf(below, at), positionOf(below, cursor.at));
				if (cursor.at > at + 1) forkFrom(cursor, at);
				steps += plain ? 2 : 1;
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
	meter.steps += layer.length + steps + decoder.steps + main.units + prospect.steps;
	return [main.spans, ...others.map((other) => other.spans)];
}
