/**
 * The one redaction of the API key, applied to every foreign part of a text a user can see.
 *
 * Reading (decode.ts, readings.ts). A text is read into UNITS (bytes 0-255, units.ts), each remembering
 * the [start, end) of the text it came from: the UTF-8 bytes of a character after case folding (its
 * lower case, when that is one character), or the byte a byte escape stands for. Gaps (whitespace,
 * `+`, the controls of controls.ts) give no unit. The text is read LITERALLY (every character as
 * itself), and, where it holds a `%`, `\` or `&`, DECODED: layer 1 (the text decoded once) and layer
 * 2 (decoded twice, where that finds an escape again); DEPTH is 2. A decoded
 * layer is read both ways at every escape: a `%`, `\` or `&` that may or may not begin an escape (a
 * `%` of the text right before the key, the key's own `%41`, a layer's escape that belongs to
 * another layer) is also read as itself, by another cursor (readings.ts). What any reading finds is
 * redacted.
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
 * Linear time, whatever the text; no backtracking regular expression runs over it: each layer is
 * built in one pass over the one below, each reading is one table look-up per unit, and at most
 * OTHERS (3) other cursors read at once. A StepMeter counts the work; the tests bound it by the
 * length of text and key.
 *
 * A key shorter than MIN_KEY_LENGTH is left alone: resolveApiKey refuses it before anything is sent,
 * so no answer can echo it, and matching 1 to 7 characters would wreck ordinary text.
 */
import type { Matcher, Spans, StepMeter } from './automaton';
import { buildAutomaton } from './automaton';
import type { Layer } from './decode';
import { BYTE, decodeLayer, DEPTH, isGap, textLayer } from './decode';
import { unitsOfCode, utf8 } from './units';
import type { Trails } from './readings';
import { walk, walkLiterally } from './readings';

export type { StepMeter } from './automaton';
export type { Redact } from '../text/text';
import type { Redact } from '../text/text';

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

function matcherOf(key: string, meter: StepMeter): Matcher {
	const plain = unitsOf(textLayer(key), true, meter).length;
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
		// Its characters beyond ASCII also as they are, not folded: their UTF-8 bytes, escaped, may be
		// decoded in different layers (`%C3` in one, `%9C` in the next), as bytes that fold to nothing.
		const unfolded = /[^\x00-\x7f]/.test(form);
		let layer = textLayer(form);
		for (let depth = 0; depth <= DEPTH; depth++) {
			if (depth > 0) {
				layer = decodeLayer(layer);
				meter.steps += layer.below!.length;
			}
			texts.add(unitsOf(layer, true, meter));
			if (unfolded) texts.add(unitsOf(layer, false, meter));
		}
	}
	return [...texts].filter((units) => units.length >= minRun).map((units) => [...Buffer.from(units, 'latin1')]);
}

/** The units of a layer, as a latin1 string (one character a unit): folded, or beyond ASCII as they are. */
function unitsOf(layer: Layer, folded: boolean, meter: StepMeter): string {
	const units: number[] = [];
	const out = new Uint8Array(4);
	for (let index = 0; index < layer.length; index++) {
		const code = layer.codes[index];
		const count = folded || code < 0x80 || code >= BYTE || isGap(code) ? unitsOfCode(code, out) : utf8(code, out);
		for (let unit = 0; unit < count; unit++) units.push(out[unit]);
	}
	meter.steps += layer.length + units.length;
	return Buffer.from(units).toString('latin1');
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

function redactWith(text: string, matcher: Matcher, meter: StepMeter): string {
	const characters = textLayer(text);
	const trails: Trails = [];
	let spans = walkLiterally(characters, matcher, meter, trails);
	// Only a text holding a `%`, `\` or `&` reads differently decoded; a layer is walked where it
	// holds an escape (else it reads as the one below).
	if (/[%\\&]/.test(text)) {
		let layer = decodeLayer(characters);
		meter.steps += 2 * text.length;
		for (let depth = 1; depth <= DEPTH && layer.escapes > 0; depth++) {
			for (const found of walk(layer, matcher, meter, trails)) if (found.starts.length > 0) spans = union(spans, found);
			if (depth < DEPTH) {
				layer = decodeLayer(layer);
				meter.steps += layer.below!.length;
			}
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
