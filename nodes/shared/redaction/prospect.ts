/**
 * Whether the other way of an escape can find anything (readings.ts): a look ahead, before an other cursor
 * is taken up for a `%`, `\` or `&` that is in a pattern.
 *
 * Why it may be skipped. The other way of the main cursor's escape E reads E's trigger as itself, then
 * the layer anew; what it finds that the main reading does not is a run reaching back into what it
 * read apart from the main cursor (E's own part). A run that begins later, where it reads what the main
 * cursor reads, is the main cursor's; one that reaches back only into a later escape E' read as itself
 * is the other way of E' (the main cursor's fork there, from a run at least as long). So the other way
 * of E can matter only if some reading of the text after E's trigger, each escape in it either way,
 * holds a run of minRun units reaching back into E's own part.
 *
 * The look ahead follows exactly those readings (a depth-first search over the layer below, both ways
 * at every escape, the automaton's table for the runs): a reading is dropped once its run no longer
 * reaches back into E's part, which happens within minRun units of where it rejoins the main cursor's
 * elements. It reads more ways than the other cursors would (they take up an escape only while one of
 * them is free, and only where a run goes on), never fewer: when it finds no such run, no other cursor
 * could. In a text of escapes (a `%25` storm, say, with a key holding `%`) every reading ends within an
 * element or two, and no other cursor is taken up at all. When it would look further than LOOK_STEPS
 * steps, or the texts's share of look-ahead steps is spent, the other way is read as before.
 *
 * SYNCED (readings.ts): where the main cursor is, before E, in the state the layer below's main cursor
 * was in there (its trail), with a run that lies in elements of the layer below (none of this
 * layer's escapes in it), E's other way reads as that cursor did: E's trigger and its other
 * characters are elements of the layer below, and so are the main cursor's elements up to its next
 * escape. A run that the first reading finds before that escape is that cursor's, found already; so
 * the first reading counts runs only from that escape on (the other readings, pushed, count all).
 */
import type { Automaton } from './automaton';
import { GOES_ON as GOES, RUN_CAP as CAP } from './automaton';
import type { Layer } from './decode';
import { Decoder, isTrigger } from './decode';
import { unitsOfCode } from './units';

const GOES_ON = GOES;
const RUN_CAP = CAP;

/** The most steps (elements and units) one look ahead takes before it gives up (the other way is then read). */
const LOOK_STEPS = 48;
/**
 * The look-ahead steps each escape earns, per element of the layer below it spans; what one look ahead
 * does not spend, the next may (so the look aheads of a layer take at most SHARE steps per element below).
 */
const SHARE = 4;
/**
 * The most readings waiting in one look ahead. Each is a position below, the main element holding it,
 * a state and run, and `since`: NONE_YET while it has read nothing of its own (only a trigger that is
 * the main cursor's unit too), OWN while it reads apart from the main cursor, then the units it has
 * read since it rejoined the main cursor's elements (its run must reach back before them).
 */
const READINGS = 16;
const [NONE_YET, OWN] = [-2, -1];

export class Prospect {
	private readonly decoder: Decoder;
	private readonly piece = new Uint8Array(4);
	/** The readings waiting (see READINGS). */
	private readonly stack = new Int32Array(5 * READINGS);
	private allowance: number;
	/** The readings waiting in the current look ahead. */
	private depth = 0;
	private looked = 0;
	/** Whether first() found a run. */
	private hit = false;
	// The layer's and the automaton's arrays, held here: a look ahead is taken at most escapes.
	private readonly src: Int32Array;
	private readonly codes: Int32Array;
	private readonly below: Int32Array;
	private readonly count: number;
	private readonly classOf: Uint16Array;
	private readonly asciiClass: Int16Array;
	private readonly next: Int32Array;
	private readonly lengths: Uint8Array;

	constructor(
		layer: Layer,
		automaton: Automaton,
		private readonly minRun: number,
	) {
		this.decoder = new Decoder(layer.below!);
		this.allowance = 0;
		({ src: this.src, codes: this.codes } = layer);
		({ codes: this.below, length: this.count } = layer.below!);
		({ classOf: this.classOf, asciiClass: this.asciiClass, next: this.next, lengths: this.lengths } = automaton);
	}

	/**
	 * Whether reading the trigger of the main cursor's escape (layer element `index`) as itself, after
	 * the main cursor's state before it (row, run), may find a run of minRun units reaching back into
	 * the escape's own part; true also when the look ahead gives up.
	 */
	mayFind(index: number, row: number, run: number, synced: boolean): boolean {
		const { src, codes } = this;
		this.allowance += SHARE * (src[index + 1] - src[index]);
		if (this.allowance < LOOK_STEPS >> 2) return true;
		const { below, count, classOf, asciiClass, next, lengths, stack, piece, minRun, decoder } = this;
		const budget = Math.min(LOOK_STEPS, this.allowance);
		this.depth = 0;
		// The first reading (the trigger as itself, then the main cursor's elements) in a loop of its own: most end there.
		let left = budget - this.first(index, row, run, budget, synced);
		let found = this.hit || left < 0;
		while (!found && this.depth > 0) {
			const top = 5 * --this.depth;
			let at = stack[top];
			let element = stack[top + 1];
			let state = stack[top + 2];
			let reach = stack[top + 3];
			let since = stack[top + 4];
			left--;
			while (at < count && left >= 0) {
				while (src[element + 1] <= at) element++;
				// On an element of the main cursor's: it reads that element; elsewhere one decoded anew from
				// here (a character that begins no escape is itself).
				const onMain = src[element] === at;
				let end = at + 1;
				let code = below[at];
				if (onMain) {
					// Rejoining the main cursor: its run must hold a unit of its own (not a run at all: none).
					if (since === NONE_YET || (since === OWN && reach === 0)) break;
					if (since === OWN) since = 0;
					end = src[element + 1];
					code = codes[element];
				} else if (code >= 0x80 || isTrigger(code)) {
					const looked = decoder.steps;
					end = decoder.step(at);
					code = decoder.code;
					left -= decoder.steps - looked;
				}
				if (end > at + 1 && isTrigger(below[at])) {
					left--;
					if ((found = this.push(at + 1, element, state, reach, since >= 0 ? since + 1 : OWN, below[at]))) break;
				}
				const units = code >= 0x80 ? unitsOfCode(code, piece) : asciiClass[code] >= 0 ? 1 : 0;
				for (let unit = 0; unit < units; unit++) {
					const cell = state + (code < 0x80 ? asciiClass[code] : classOf[piece[unit]]);
					const moved = lengths[cell];
					reach = moved !== GOES_ON ? moved : reach < RUN_CAP ? reach + 1 : RUN_CAP;
					state = next[cell];
					since = since >= 0 ? since + 1 : OWN;
					if (reach >= minRun && (since === OWN || reach > since)) found = true;
				}
				if (found) break;
				left -= units + 1;
				at = end;
				// Once it read the main cursor's elements, its run must reach back before them.
				if (since >= 0 && reach <= since) break;
			}
			if (left < 0) found = true;
		}
		const spent = budget - left;
		this.looked += spent;
		this.allowance -= spent;
		return found;
	}

	/**
	 * The look ahead's first reading, as the loop of mayFind would read it, without the stack: the
	 * escape's trigger as itself, its other characters (each itself, as long as they are ASCII and
	 * begin no escape; else the reading waits for that loop), then the main cursor's elements, each
	 * escape's other way pushed. Sets `hit` when it finds a run (when `synced`, one from the main
	 * cursor's next escape on; see above); returns the steps taken.
	 */
	private first(index: number, row: number, run: number, budget: number, synced: boolean): number {
		const { src, codes, below, count, classOf, asciiClass, next, lengths, minRun, piece } = this;
		this.hit = false;
		const start = src[index];
		const trigger = below[start];
		let cell = row + classOf[trigger];
		let moved = lengths[cell];
		let reach = moved !== GOES_ON ? moved : run < RUN_CAP ? run + 1 : RUN_CAP;
		let state = next[cell];
		if (reach >= minRun && !synced) return ((this.hit = true), 1);
		// An escape that stands for its own trigger (`%25`, `\\`, `&amp;`): the trigger read as itself is the main cursor's unit too.
		let since = codes[index] === trigger ? NONE_YET : OWN;
		let steps = 2;
		let at = start + 1;
		for (const end = src[index + 1]; at < end; at++, steps++) {
			const code = below[at];
			if (code >= 0x80 || isTrigger(code)) return ((this.hit = this.save(at, index, state, reach, since)), steps);
			if (asciiClass[code] < 0) continue;
			cell = state + asciiClass[code];
			moved = lengths[cell];
			reach = moved !== GOES_ON ? moved : reach < RUN_CAP ? reach + 1 : RUN_CAP;
			state = next[cell];
			since = OWN;
			if (reach >= minRun && !synced) return ((this.hit = true), steps);
		}
		// Rejoining the main cursor: its run must hold a unit of its own (not a run at all: none).
		if (since === NONE_YET || reach === 0) return steps;
		since = 0;
		for (let element = index + 1; at < count; element++) {
			const end = src[element + 1];
			if (end > at + 1) {
				// An escape: the main cursor's reading of it is not the layer below's (no longer synced).
				synced = false;
				steps++;
				if (isTrigger(below[at]) && (this.hit = this.push(at + 1, element, state, reach, since + 1, below[at]))) return steps;
			}
			const code = codes[element];
			const units = code >= 0x80 ? unitsOfCode(code, piece) : asciiClass[code] >= 0 ? 1 : 0;
			for (let unit = 0; unit < units; unit++) {
				cell = state + (code < 0x80 ? asciiClass[code] : classOf[piece[unit]]);
				moved = lengths[cell];
				reach = moved !== GOES_ON ? moved : reach < RUN_CAP ? reach + 1 : RUN_CAP;
				state = next[cell];
				since++;
				if (reach >= minRun && reach > since && !synced) return ((this.hit = true), steps);
			}
			steps += units + 1;
			at = end;
			// Once it read the main cursor's elements, its run must reach back before them.
			if (reach <= since || steps > budget) return steps;
		}
		return steps;
	}

	/** A reading waits at `at` (see READINGS); true when there is no room (the look ahead gives up). */
	private save(at: number, element: number, state: number, reach: number, since: number): boolean {
		if (this.depth === READINGS) return true;
		const top = 5 * this.depth++;
		this.stack[top] = at;
		this.stack[top + 1] = element;
		this.stack[top + 2] = state;
		this.stack[top + 3] = reach;
		this.stack[top + 4] = since;
		return false;
	}

	/**
	 * Reads `unit` (a trigger) as itself after (row, run), to go on at `at` with `since` (see READINGS):
	 * true if that finds a run of its own, else the reading waits (unless its run cannot reach back).
	 */
	private push(at: number, element: number, row: number, run: number, since: number, unit: number): boolean {
		const { classOf, next, lengths } = this;
		const cell = row + classOf[unit];
		const moved = lengths[cell];
		const reach = moved !== GOES_ON ? moved : run < RUN_CAP ? run + 1 : RUN_CAP;
		if (reach >= this.minRun && (since === OWN || reach > since)) return true;
		if (since >= 0 && reach <= since) return false;
		return this.save(at, element, next[cell], reach, since);
	}

	/** The steps taken: elements and units looked at, and the decoder's. */
	get steps(): number {
		return this.looked;
	}
}
