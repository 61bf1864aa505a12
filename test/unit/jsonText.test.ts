/**
 * What the answer stage reads from an answer's raw JSON text (nodes/shared/answer/jsonText.ts and
 * repeatedKeys.ts), with
 * generated texts: a key named twice at the top of an object is found, however it is spelled
 * (escapes) and wherever the same word also appears; a key named twice anywhere outside the records
 * of a paged envelope is found with its path, one inside the records never; every integer JSON.parse
 * cannot hold exactly is given back as its exact digits, and nothing else changes. The engine tests
 * are in answer-findings.test.ts and closed-world.test.ts.
 */
import fc from 'fast-check';

import { inexactIntegers, keepExactIntegers } from '../../nodes/shared/answer/jsonText';
import { keyLists, repeatedKeyOutside, repeatedTopLevelKey } from '../../nodes/shared/answer/repeatedKeys';

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

// ---- a key named twice anywhere outside the records ----------------------------------------------

/** A JSON value written by hand, so an object may name a key twice: its entries as written. */
type Written = { leaf: unknown } | { entries: Array<[string, Written]> } | { items: Written[] };

const writtenArb: fc.Arbitrary<Written> = fc.letrec<{ node: Written }>((tie) => ({
	node: fc.oneof(
		{ depthSize: 'small', withCrossShrink: true },
		fc.jsonValue({ maxDepth: 0 }).map((leaf) => ({ leaf })),
		fc
			.array(fc.tuple(fc.constantFrom('next', 'has_more', 'a', 'b', 'x"y', 'é', '0', '7'), tie('node')), { maxLength: 4 })
			.map((entries) => ({ entries })),
		fc.array(tie('node'), { maxLength: 3 }).map((items) => ({ items })),
	),
})).node;

function write(value: Written, escapes: number, space: string): string {
	if ('leaf' in value) return JSON.stringify(value.leaf);
	if ('items' in value) return `[${space}${value.items.map((item) => write(item, escapes, space)).join(`,${space}`)}${space}]`;
	return `{${space}${value.entries.map(([key, item]) => `${spelled(key, escapes)}${space}:${space}${write(item, escapes, space)}`).join(`,${space}`)}${space}}`;
}

/** Where `value` (at `path`) names a key twice in one object, however deep: the oracle. */
function repeatsIn(value: Written, path: string): string[] {
	if ('leaf' in value) return [];
	if ('items' in value) return value.items.flatMap((item, index) => repeatsIn(item, `${path}[${index}]`));
	const seen = new Set<string>();
	return value.entries.flatMap(([key, item]) => {
		const here = seen.has(key) ? [`${path}.${key}`] : [];
		seen.add(key);
		return [...here, ...repeatsIn(item, `${path}.${key}`)];
	});
}

test('a key named twice in any object outside the records of an envelope is found with its path; inside the records never', () => {
	const member = fc.tuple(fc.constantFrom('meta', 'links', 'pagination', 'errors', 'next', 'total', '0', '12', 'k\\"'), writtenArb);
	const envelope = fc.record({
		members: fc.uniqueArray(member, { selector: ([key]) => key, maxLength: 5 }),
		recordsAt: fc.nat(),
		records: fc.array(writtenArb, { maxLength: 3 }),
		escapes: fc.nat(),
		space: fc.constantFrom('', ' ', '\n\t'),
	});
	fc.assert(
		fc.property(envelope, ({ members, recordsAt, records, escapes, space }) => {
			const at = recordsAt % (members.length + 1);
			const written: Array<[string, Written]> = [...members.slice(0, at), ['data', { items: records }], ...members.slice(at)];
			const json = write({ entries: written }, escapes, space);
			const body = JSON.parse(json) as Record<string, unknown>;
			const expected = members.flatMap(([key, value]) => repeatsIn(value, key));
			const found = repeatedKeyOutside(json, body, 'data', keyLists());
			if (expected.length === 0) expect(found).toBeUndefined();
			else {
				expect(expected).toContain(found?.path);
				expect(found?.path.endsWith(`.${found.key}`)).toBe(true);
			}
		}),
		{ numRuns: 2000 },
	);
});

test("the issue's examples: a next link named twice, has_more true then false, each at its path", () => {
	const found = (json: string) => {
		const body = JSON.parse(json) as Record<string, unknown>;
		return repeatedKeyOutside(json, body, 'data', keyLists());
	};
	expect(found('{"data": [{"id_service": "a", "id_service": "b"}], "links": {"next": "/p2", "next": null}}')).toEqual({
		key: 'next',
		path: 'links.next',
	});
	expect(found('{"meta": {"page": {"has_more": true, "has_more": false}}, "data": []}')).toEqual({
		key: 'has_more',
		path: 'meta.page.has_more',
	});
	expect(found('{"data": [], "meta": [{"a": 1}, {"a": 1, "b": 2, "a": 3}]}')).toEqual({ key: 'a', path: 'meta[1].a' });
	expect(found('{"data": [{"x": 1, "x": 2}], "links": {"next": null}}')).toBeUndefined();
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
