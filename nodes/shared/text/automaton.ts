/**
 * The matcher of the redactor (redact.ts): a suffix automaton of its patterns, completed into a table,
 * so one look-up per unit of text gives the longest run ending there that is a substring of a pattern.
 */
import { ASCII_UNIT } from './units';

/** Test hook: counts the steps of reading, building and walking (characters read, units, table cells). */
export interface StepMeter {
	steps: number;
}


/** Runs are counted up to this many units: a longer run was already marked from its start (see walk). */
export const RUN_CAP = 254;
/** In `lengths`: the run goes on (one more unit), rather than restarting at a length of its own. */
export const GOES_ON = 255;

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

