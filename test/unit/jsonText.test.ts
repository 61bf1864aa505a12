/**
 * What the answer stage reads from an answer's raw JSON text (nodes/shared/answer/jsonText.ts), with
 * generated texts: a key named twice at the top of an object is found, however it is spelled
 * (escapes) and wherever the same word also appears; every integer JSON.parse cannot hold exactly is
 * given back as its exact digits, and nothing else changes. The engine tests are in answer-findings.test.ts.
 */
import fc from 'fast-check';

import { inexactIntegers, keepExactIntegers, repeatedTopLevelKey } from '../../nodes/shared/answer/jsonText';

/** A key as JSON may write it: plainly, or with some of its UTF-16 units as \u escapes (quotes, backslashes and controls always). */
function spelled(key: string, escapes: number): string {
	let out = '"';
	for (let index = 0; index < key.length; index++) {
		const code = key.charCodeAt(index);
		const escape = code === 0x22 || code === 0x5c || code < 0x20 || (escapes >> index) % 2 === 1;
		out += escape ? `\\u${code.toString(16).padStart(4, '0')}` : key[index];
	}
	return `${out}"`;
}

const keyArb = fc.oneof(
	fc.constantFrom('data', 'next', 'total', 'srv-1', '__proto__', 'a"b', 'x/y', '', 'é', 'next"'),
	fc.string({ maxLength: 6 }),
	fc.string({ unit: 'grapheme', maxLength: 3 }),
);
const valueArb = fc.oneof(
	fc.jsonValue({ maxDepth: 2 }),
	keyArb.map((key) => ({ [key]: `"${key}"` })),
	keyArb,
);

test('a key named twice at the top of an object is found, however spelled; one named once never is', () => {
	fc.assert(
		fc.property(fc.array(fc.tuple(keyArb, valueArb, fc.nat(), fc.constantFrom('', ' ', '\n\t ')), { maxLength: 24 }), (entries) => {
			const text = `{${entries.map(([key, value, escapes, space]) => `${space}${spelled(key, escapes)}${space}:${space}${JSON.stringify(value)}${space}`).join(',')}}`;
			const seen = new Set<string>();
			const twice = entries.map(([key]) => key).find((key) => (seen.has(key) ? true : (seen.add(key), false)));
			expect(repeatedTopLevelKey(text, Object.keys(JSON.parse(text) as object))).toBe(twice);
		}),
		{ numRuns: 2000 },
	);
});

test('the key check reads only the top level: the same key deeper, or in a string, is no repeat', () => {
	const text = '{"data": [{"data": 1, "next": "\\"next\\""}], "next": "data\\"", "meta": {"next": null}}';
	expect(repeatedTopLevelKey(text, ['data', 'next', 'meta'])).toBeUndefined();
	expect(repeatedTopLevelKey('{"next": 1, "ne\\u0078t": 2}', ['next'])).toBe('next');
	expect(repeatedTopLevelKey('{"a\\/b": 1, "a/b": 2}', ['a/b'])).toBe('a/b');
});

/** A JSON tree whose leaves may be big integers, written where `@@n@@` strings stood. */
const BIG = fc.oneof(
	fc.bigInt({ min: 2n ** 53n + 1n, max: 10n ** 30n }),
	fc.bigInt({ min: -(10n ** 30n), max: -(2n ** 53n) - 1n }),
	fc.constantFrom(2n ** 53n, 2n ** 53n - 1n, 10n ** 19n, 12345678901234567890n, -9007199254740993n),
);
const treeArb = fc.letrec((tie) => ({
	node: fc.oneof(
		{ depthSize: 'small' },
		fc.jsonValue({ maxDepth: 0 }),
		BIG,
		fc.constant('1234567890123456789012'),
		fc.array(tie('node'), { maxLength: 4 }),
		fc.dictionary(keyArb, tie('node'), { maxKeys: 4 }),
	),
})).node;

test('every integer JSON.parse cannot hold exactly comes back as its exact digits; everything else as parsed', () => {
	fc.assert(
		fc.property(treeArb, fc.constantFrom(0, 2, '\t'), (tree, indent) => {
			const bigs: bigint[] = [];
			const text = JSON.stringify(
				tree,
				(_key, value: unknown) => (typeof value === 'bigint' ? `@@${bigs.push(value) - 1}@@` : value),
				indent,
			).replace(/"@@(\d+)@@"/g, (_m, n: string) => String(bigs[Number(n)]));
			const expected = JSON.parse(
				JSON.stringify(tree, (_key, value: unknown) =>
					typeof value === 'bigint' ? (String(Number(value)) === String(value) ? Number(value) : String(value)) : value,
				),
			) as unknown;
			expect(keepExactIntegers(JSON.parse(text), text)).toEqual(expected);
		}),
		{ numRuns: 2000 },
	);
});

test('an inexact integer is found at any offset of the text (the first look samples every 16th character)', () => {
	for (let pad = 0; pad < 48; pad++) {
		for (const digits of ['9007199254740993', '-9007199254740993', '123456789012345678901234567']) {
			const text = `{"${'k'.repeat(pad)}":${' '.repeat(pad % 3)}[${'7,'.repeat(pad % 5)}${digits}]}`;
			expect(inexactIntegers(text).map((found) => found.digits)).toEqual([digits]);
		}
	}
});

test('a long run of digits in a string, or a decimal, is no integer to keep', () => {
	expect(inexactIntegers('{"serial": "12345678901234567890", "x": 1.2345678901234567890, "y": 12345678901234567890e2}')).toEqual([]);
	expect(inexactIntegers('[1, {"a": [12345678901234567890]}]')).toEqual([{ path: [1, 'a', 0], digits: '12345678901234567890' }]);
	// A later key of the same name wins in JSON.parse: its value is left as parsed.
	expect(keepExactIntegers(JSON.parse('{"a": 12345678901234567890, "a": 5}'), '{"a": 12345678901234567890, "a": 5}')).toEqual({ a: 5 });
	expect(keepExactIntegers(12345678901234567890, '12345678901234567890')).toBe('12345678901234567890');
});
