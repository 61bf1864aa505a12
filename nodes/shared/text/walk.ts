/**
 * The walks of the redactor (redact.ts) through a text: the literal reading and each decoded layer,
 * the latter read both ways at every escape. Each walk gives the spans of the runs of at least minRun
 * units that are substrings of a pattern (automaton.ts).
 */
import type { Automaton, StepMeter } from './automaton';
import { GOES_ON, RUN_CAP } from './automaton';
import type { Layer } from './decode';
import { Decoder, positionOf } from './decode';
import { ASCII_UNIT, unitsOfCode } from './units';

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

	/** Whether its last element, an escape, is worth reading the other way: its units broke the run, or its trigger is in a pattern (a run may go through it, or begin with it). */
	forkWorthIt(trigger: number): boolean {
		return (this.units > this.before.units && this.run !== this.before.run + 1) || this.matcher.automaton.classOf[trigger] !== 0;
	}

	/** Whether it had a run before its last element, and `trigger` read as itself goes on with it. */
	continuesRunWith(trigger: number): boolean {
		return this.before.run > 0 && this.triggerGoesOn(trigger);
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
export function walkLiterally(text: string, matcher: Matcher, meter: StepMeter): Spans {
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
 * OTHERS is free: the work is at most that many times the layer's.
 */
export function walk(layer: Layer, matcher: Matcher, meter: StepMeter): Spans {
	const below = layer.below!;
	const decoder = new Decoder(below);
	const main = new Cursor(matcher);
	const others = Array.from({ length: OTHERS }, () => new Cursor(matcher));
	/** Per other: -2 not reading; -1 reading, not yet where main is; else its units when it got there. */
	const metAt = new Int32Array(OTHERS).fill(-2);
	let alive = 0;
	let steps = 0;
	/** After `cursor` read an escape beginning at element `start` below: an other takes up the other way, if one is free. */
	const forkFrom = (cursor: Cursor, start: number, worthIt = false): void => {
		const trigger = below.codes[start];
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
	/** (escape's first element below, main's units at its end, units it must match) triples; at most WAITING of them. */
	const waiting = new Int32Array(3 * WAITING);
	let waitingCount = 0;
	let end = positionOf(layer, 0);
	for (let index = 0; index < layer.length; index++) {
		const begin = end;
		end = positionOf(layer, index + 1);
		main.recording = alive > 0;
		main.element(layer.codes[index], begin, end);
		const start = layer.src[index];
		main.at = layer.src[index + 1];
		let kept = 0;
		for (let at = 0; at < waitingCount; at += 3) {
			const matched = main.units - waiting[at + 1];
			if (main.run < matched) continue;
			if (matched >= waiting[at + 2]) forkFrom(main, waiting[at], true);
			else {
				waiting.copyWithin(kept, at, at + 3);
				kept += 3;
			}
		}
		waitingCount = kept;
		if (main.at > start + 1) {
			const trigger = below.codes[start];
			if (classOf[trigger] !== 0 || waitingCount === waiting.length) forkFrom(main, start);
			else if (main.forkWorthIt(trigger)) {
				waiting[waitingCount++] = start;
				waiting[waitingCount++] = main.units;
				waiting[waitingCount++] = matcher.minRun - (main.at - start - 1);
			}
		}
		for (let other = 0; alive > 0 && other < OTHERS; other++) {
			if (metAt[other] === -2) continue;
			const cursor = others[other];
			if (metAt[other] >= 0) {
				cursor.replay(main);
				// The main one's escape is this one's too: read the other way from this one's run as well
				// (a trigger in no pattern ends every run: that way is the main one's, waiting above).
				// Only where it goes on with this one's own run: at the root, it is the main one's fork.
				if (main.at > start + 1 && classOf[below.codes[start]] !== 0 && cursor.continuesRunWith(below.codes[start])) forkFrom(cursor, start, true);
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
export function union(one: Spans, other: Spans): Spans {
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
