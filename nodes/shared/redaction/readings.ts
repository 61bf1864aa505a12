/**
 * The walks of the redactor (redact.ts) through a text: the literal reading and each decoded layer,
 * the latter read both ways at every escape. Each walk gives the spans of the runs of at least minRun
 * units that are substrings of a pattern (automaton.ts).
 */
import type { Matcher, Spans, StepMeter } from './automaton';
import { Cursor } from './automaton';
import type { Layer } from './decode';
import { Decoder, isTrigger, positionOf } from './decode';
import { Prospect } from './prospect';

/**
 * The TRAIL of a layer's main cursor: its state and run (Cursor.state) before each element of the
 * layer, by depth; the walk of the layer above reads it (see walk). Reused from one text to the next,
 * held weakly, as the layers' arrays are (decode.ts).
 */
export type Trails = Int32Array[];
const pool: Array<WeakRef<Int32Array> | undefined> = [];

function trailOf(layer: Layer, trails: Trails): Int32Array {
	let trail = pool[layer.depth]?.deref();
	if (trail === undefined || trail.length < layer.length) pool[layer.depth] = new WeakRef((trail = new Int32Array(layer.length)));
	return (trails[layer.depth] = trail);
}

/** The literal reading: every character of the text (layer 0) as itself. */
export function walkLiterally(layer: Layer, matcher: Matcher, meter: StepMeter, trails: Trails): Spans {
	const cursor = new Cursor(matcher);
	const { codes, length, pos } = layer;
	const trail = trailOf(layer, trails);
	// Each element one character (where it is in the text: its index, or pos with pairs).
	for (let index = 0; index < length; index++) {
		if (codes[index] < 0x80) index = cursor.ascii(codes, pos, index, length, trail);
		if (index < length) {
			trail[index] = cursor.state;
			cursor.read(codes[index], pos === undefined ? index : pos[index], pos === undefined ? index + 1 : pos[index + 1]);
		}
	}
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
export function walk(layer: Layer, matcher: Matcher, meter: StepMeter, trails: Trails): Spans[] {
	const below = layer.below!;
	// The trail of the layer below; none where a state and its run do not fit in one number.
	const belowTrail = matcher.automaton.next.length < 1 << 23 ? trails[below.depth] : undefined;
	const trail = trailOf(layer, trails);
	/** Main's units at the end of its last escape. */
	let escapeEnd = 0;
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
	/** The waiting escapes: each forks once the main cursor has matched enough after it (or is dropped). */
	const settle = (): void => {
		let kept = 0;
		for (let at = 0; at < waitingCount; at += 3) {
			const matched = main.units - waiting[at + 1];
			if (main.run < matched) continue;
			// Then too, only where the look ahead finds that way may matter (from the root: the trigger is in no pattern).
			if (matched >= waiting[at + 2]) {
				if (alive < OTHERS && prospect.mayFind(waiting[at], 0, 0, false)) forkFrom(main, src[waiting[at]], true);
			} else {
				waiting.copyWithin(kept, at, at + 3);
				kept += 3;
			}
		}
		waitingCount = kept;
	};
	/** After the main cursor read the escape at element `index` (beginning at `start` below): its fork now, later or never. */
	const escapeAt = (index: number, start: number): void => {
		const trigger = belowCodes[start];
		const inPattern = classOf[trigger] !== 0;
		if (inPattern || waitingCount === waiting.length) {
			// A trigger in a pattern is read the other way where a look ahead finds that way may matter
			// (prospect.ts). Where main's run lies in elements of the layer below since its last escape, and
			// main is as that layer's main cursor was at the escape, that way reads as that cursor did until
			// the next escape: what it finds before is found already (SYNCED).
			const synced =
				belowTrail !== undefined &&
				main.beforeRun <= main.beforeUnits - escapeEnd &&
				belowTrail[start] === ((main.beforeRow << 8) | main.beforeRun);
			if (!inPattern || alive === OTHERS || !isTrigger(trigger) || prospect.mayFind(index, main.beforeRow, main.beforeRun, synced))
				forkFrom(main, start);
		} else if (main.forkWorthIt(trigger)) {
			waiting[waitingCount++] = index;
			waiting[waitingCount++] = main.units;
			waiting[waitingCount++] = matcher.minRun - (main.at - start - 1);
		}
	};
	/** The other cursors, up to where the main one is after its element `code` over [begin, end) of the text (beginning at `start` below). */
	const readOthers = (code: number, begin: number, end: number, start: number, escape: boolean): void => {
		for (let other = 0; alive > 0 && other < OTHERS; other++) {
			if (metAt[other] === -2) continue;
			const cursor = others[other];
			if (metAt[other] >= 0) {
				// It reads main's element too, not decoded again.
				if (escape) cursor.element(code, begin, end);
				else cursor.read(code, begin, end);
				cursor.at = main.at;
				// The main one's escape is this one's too: read the other way from this one's run as well
				// (a trigger in no pattern ends every run: that way is the main one's, waiting above).
				// Only where it goes on with this one's own run: at the root, it is the main one's fork.
				if (escape && classOf[belowCodes[start]] !== 0 && cursor.continuesRunWith(belowCodes[start])) forkFrom(cursor, start, true);
			}
			while (cursor.at < main.at) {
				const at = cursor.at;
				// A character that begins no escape (most of them) is itself, as the decoder would read it.
				const plain = belowCodes[at] < 0x80 && !isTrigger(belowCodes[at]);
				cursor.at = plain ? at + 1 : decoder.step(at);
				if (cursor.at > at + 1) {
					cursor.element(decoder.code, positionOf(below, at), positionOf(below, cursor.at));
					forkFrom(cursor, at);
				} else cursor.read(plain ? belowCodes[at] : decoder.code, positionOf(below, at), positionOf(below, cursor.at));
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
	};
	// The main cursor's loop; the rest only where there is an escape, a waiting one, or an other cursor reading.
	const { escaped } = layer;
	/** The next escape: escaped[escapes]. */
	let escapes = 0;
	let nextEscape = layer.escapes > 0 ? escaped[0] : length;
	for (let index = 0; index < length; index++) {
		if (waitingCount === 0 && alive === 0 && index < nextEscape && codes[index] < 0x80) {
			// Elements that are neither escapes nor beyond ASCII, no other cursor reading: the main cursor alone.
			index = main.ascii(codes, pos, index, nextEscape, trail);
			if (index === length) break;
			end = pos[index];
		}
		const begin = end;
		end = pos[index + 1];
		const code = codes[index];
		const start = src[index];
		main.at = src[index + 1];
		const escape = main.at > start + 1;
		trail[index] = main.state;
		if (escape) main.element(code, begin, end);
		else main.read(code, begin, end);
		if (waitingCount > 0) settle();
		if (escape) {
			escapeAt(index, start);
			escapeEnd = main.units;
			nextEscape = ++escapes < layer.escapes ? escaped[escapes] : length;
		}
		if (alive > 0) readOthers(code, begin, end, start, escape);
	}
	meter.steps += layer.length + steps + decoder.steps + main.units + prospect.steps;
	return [main.spans, ...others.map((other) => other.spans)];
}
