/**
 * The decoding of the redactor (nodes/shared/redaction/decode.ts) has two readers: decodeLayer builds a
 * layer in one pass, with fast paths of its own for the commonest escapes (`%XX`, `\n`) and for a
 * trigger no escape can follow; a Decoder reads the layer anew from any element, for the other
 * cursors and the look ahead (readings.ts, prospect.ts). Both must read the same elements, or an escape
 * read "the other way" would rejoin the main reading out of step. Random texts of escape pieces, over
 * two layers: the layer is exactly what the Decoder reads, element by element, from its start.
 */
import fc from 'fast-check';

import type { Layer } from '../../nodes/shared/redaction/decode';
import { decodeLayer, Decoder, textLayer } from '../../nodes/shared/redaction/decode';

const PIECES = [
	'%',
	'%4',
	'%41',
	'%2541',
	'%25',
	'%c3',
	'%A9',
	'%e2%82%ac',
	'%F0%9F%94%91',
	'%ff',
	'%C2',
	'%ed%a0%bd',
	'\\',
	'\\n',
	'\\u',
	'\\u00e9',
	'\\uD83D',
	'\\uDD11',
	'\\x41',
	'\\xc3\\xa9',
	'\\\\',
	'\\"',
	'\\/',
	'&',
	'&#',
	'&#65;',
	'&#x41;',
	'&#x1F511;',
	'&amp;',
	'&AMP;',
	'&percnt;',
	'&nbsp;',
	'&lt',
	'&#1114112;',
	' ',
	'\n',
	'+',
	'\u0000',
	'\u202e',
	'a',
	'A',
	'9',
	';',
	'x',
	'é',
	'🔑',
	'\ud83d',
	'\udd11',
];
const textArb = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((pieces) => pieces.join(''));

/** What the Decoder reads from the start of `below`: each element's code and where it begins. */
function readByDecoder(below: Layer): { codes: number[]; src: number[] } {
	const decoder = new Decoder(below);
	const codes: number[] = [];
	const src: number[] = [];
	for (let index = 0; index < below.length;) {
		src.push(index);
		index = decoder.step(index);
		codes.push(decoder.code);
	}
	return { codes, src };
}

const elements = (layer: Layer) => ({ codes: [...layer.codes.subarray(0, layer.length)], src: [...layer.src.subarray(0, layer.length)] });

test('decodeLayer reads each layer as the Decoder does, element by element (layers 1 and 2)', () => {
	fc.assert(
		fc.property(textArb, (text) => {
			const first = decodeLayer(textLayer(text));
			expect(elements(first)).toEqual(readByDecoder(first.below!));
			const second = decodeLayer(first);
			expect(elements(second)).toEqual(readByDecoder(first));
		}),
		{ numRuns: 2000 },
	);
});
