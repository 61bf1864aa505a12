/**
 * Issue 23: the key-safety promise held by construction. Every text that leaves the nodes goes
 * through one boundary (nodes/shared/text/text.ts): this file checks that nothing goes around it.
 * - The exits (every way text reaches a user or the editor) found in nodes/ and credentials/ are
 *   exactly the ones docs/security.md lists: a new exit fails here until it is listed (and routed).
 * - Only render() cuts text: no other code shortens strings (a cut before redaction can leave a piece
 *   of the key the redactor no longer recognises), except the listed cuts of non-text values.
 * - own() takes only literals, and nothing but text.ts casts a string to Text, so foreign text can
 *   only enter a Text through foreign().
 * - render() itself: foreign parts redacted then bounded, the node's own wording untouched.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import fc from 'fast-check';

import { makeRedactor } from '../../nodes/shared/redaction/redact';
import type { Text } from '../../nodes/shared/text/text';
import { SERVICES_PATH } from '../../nodes/shared/answer/answerTexts';
import { CUT_MARK, DESCRIPTION_MAX, elide, foreign, MESSAGE_MAX, own, render, text } from '../../nodes/shared/text/text';
import { describeHttpStatus } from '../../nodes/shared/transport/httpErrors';
import { ownPathUrl } from '../../nodes/shared/transport/quotedUrl';
import { REPO_DIR, sourceFiles } from '../harness/houseRules';
import { RAW_CONTROL } from '../harness/text';

const files = sourceFiles(['nodes', 'credentials']).map((file) => ({ file, source: readFileSync(join(REPO_DIR, file), 'utf8') }));

/** Code only: comments removed (line and block), strings kept. */
const code = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** Ways text reaches a user or the editor, by the code that does it. */
const EXIT_PATTERNS: Record<string, RegExp> = {
	'n8n error': /new Node(?:Operation|Api)Error\(/,
	'error item': /json:\s*\{\s*error:/,
	'editor search list': /paginationToken:|results\.push\(\{\s*name:/,
	'AI tool note': /\bnote:/,
	'log line': /\blogger\.\w+\(/,
	'credential test message': /type:\s*'responseCode'/,
	'key not sent': /new KeyNotSentError\(/,
};

function exitsInCode(): string[] {
	const found = new Set<string>();
	for (const { file, source } of files) {
		for (const [kind, pattern] of Object.entries(EXIT_PATTERNS)) if (pattern.test(code(source))) found.add(`${kind} | ${file}`);
	}
	return [...found].sort();
}

function exitsInDocs(): string[] {
	const doc = readFileSync(join(REPO_DIR, 'docs/security.md'), 'utf8');
	const section = doc.slice(doc.indexOf('## Where text leaves the nodes'), doc.indexOf('Not texts:'));
	return [...section.matchAll(/^\| ([^|`]+?) \| `([^`]+)` \|/gm)].map((match) => `${match[1]} | ${match[2]}`).sort();
}

describe('the exits', () => {
	test('every exit in nodes/ and credentials/ is listed in docs/security.md, and every listed one exists', () => {
		const inCode = exitsInCode();
		expect(inCode.length).toBeGreaterThanOrEqual(6);
		expect(inCode).toEqual(exitsInDocs());
	});

	test('the patterns find what they are for', () => {
		expect(EXIT_PATTERNS['n8n error'].test('throw new NodeApiError(node, {})')).toBe(true);
		expect(EXIT_PATTERNS['log line'].test('this.logger.info(`x`)')).toBe(true);
		expect(EXIT_PATTERNS['error item'].test("returnData.push({ json: { error: 'x' } })")).toBe(true);
		expect(code('// new NodeApiError(\nconst a = 1; /* logger.warn( */')).not.toMatch(/NodeApiError|logger/);
	});

	test("render() is called only at the exits: toNodeError, the session (listSearch), the trigger and the credential's refusal", () => {
		const callers = files
			.filter(({ file, source }) => file !== 'nodes/shared/text/text.ts' && /\brender\(/.test(code(source)))
			.map(({ file }) => file);
		expect(callers.sort()).toEqual(
			[
				'nodes/ServicesTrigger/ServicesTrigger.node.ts',
				'nodes/shared/errors/errors.ts',
				'nodes/shared/credential/authenticate.ts',
				'nodes/shared/transport/transport.ts',
			].sort(),
		);
	});
});

/**
 * Cuts of values that are not text shown to anyone: each is listed with why. Anything else that
 * shortens a string fails the test below.
 */
const ALLOWED_CUTS: Array<{ file: string; line: string; why: string }> = [
	{
		file: 'nodes/shared/record/serviceRecord.ts',
		line: 'for (const key of field.path.slice(0, -1)) {',
		why: 'an array: a field path without its last key',
	},
	{ file: 'nodes/shared/redaction/redact.ts', line: '', why: 'the key itself, to build what is redacted: no text is shown from it' },
	{
		file: 'nodes/shared/answer/answerTexts.ts',
		line: 'keys.slice(0, 10).map(',
		why: 'an array: the first ten keys of an answer, each then quoted with foreign()',
	},
	{
		file: 'nodes/shared/answer/jsonText.ts',
		line: '',
		why: "tokens of the answer's raw JSON (keys, numbers' digits) and paths: read whole, a key quoted only with foreign()",
	},
	{ file: 'nodes/shared/answer/names.ts', line: '', why: 'parts of a name, compared with the signal table: never shown' },
	{
		file: 'nodes/shared/answer/repeatedKeys.ts',
		line: '',
		why: "keys and paths of the answer's raw JSON, read to find a key named twice: a key shown only quoted with foreign()",
	},
	{
		file: 'nodes/shared/listing/pageSequence.ts',
		line: '',
		why: "page addresses split into their query's parts and put together again to read ahead: never shown",
	},
	{
		file: 'nodes/shared/transport/retry.ts',
		line: 'match.slice(',
		why: "an array: a date's hour, minute and second groups of a regular-expression match",
	},
];

describe('only render() cuts text', () => {
	test('no clip(), slice(), substring() or substr() outside text.ts, but the listed cuts of values that are not texts', () => {
		const cuts = files.flatMap(({ file, source }) =>
			file === 'nodes/shared/text/text.ts'
				? []
				: code(source)
						.split('\n')
						.filter((line) => /\b(clip|slice|substring|substr)\(/.test(line))
						.map((line) => ({ file, line: line.trim() })),
		);
		const unexplained = cuts.filter(
			({ file, line }) => !ALLOWED_CUTS.some((allowed) => allowed.file === file && line.includes(allowed.line)),
		);
		expect(unexplained).toEqual([]);
	});

	test('own() is only given literals, and only text.ts turns a string into a Text', () => {
		const misuse = files.flatMap(({ file, source }) =>
			code(source)
				.split('\n')
				.filter(
					(line) =>
						file !== 'nodes/shared/text/text.ts' &&
						(/\bown\(\s*(?![')"]|$)|\bown\(\s*`|\bown\(\s*'[^']*'\s*\+/.test(line) || /\bas Text\b/.test(line)),
				)
				.map((line) => `${file}: ${line.trim()}`),
		);
		expect(misuse).toEqual([]);
	});
});

describe('render(): redact first, then bound; the own wording untouched', () => {
	const key = 'services-9f8e7d6c5b4a';
	const redact = makeRedactor(key);

	test("the node's own wording is never redacted, even where it reads like the key", () => {
		const shown = render(
			text`The platform found nothing at the address used to list services-9f8e (${foreign(`x ${key} y`)})`,
			redact,
			300,
		);
		expect(shown).toBe('The platform found nothing at the address used to list services-9f8e (x [redacted] y)');
	});

	test('a foreign part is redacted whole before it is cut, and the cut is marked', () => {
		const base64 = Buffer.from(`Bearer ${key}`).toString('base64');
		for (let pad = 0; pad < 60; pad++) {
			const shown = render(text`said: ${foreign(`${'x'.repeat(pad)}${base64}`, 40)}`, redact, 300);
			expect(shown).not.toContain(base64.slice(12, 20));
			expect(shown.length).toBeLessThanOrEqual('said: '.length + 40);
		}
		expect(render(text`${foreign('a'.repeat(50), 10)}`, redact, 300)).toBe(`${'a'.repeat(9)}${CUT_MARK}`);
	});

	test('the whole is bounded too, never splitting a surrogate pair; markers in foreign text cannot forge a slot', () => {
		expect(render(text`${foreign('😀'.repeat(100), 1000)}`, redact, 11)).toBe(`${'😀'.repeat(5)}${CUT_MARK}`);
		const forged = foreign('\uE0009\uE001abc\uE002');
		expect(render(text`<${forged}>`, redact, 300)).toBe('<\uFFFD9\uFFFDabc\uFFFD>');
	});

	test("an Error's plain message leaves the foreign parts out", () => {
		expect(elide(text`No service with id_service "${foreign(key)}"`)).toBe(`No service with id_service "${CUT_MARK}"`);
		const constant: Text = own('Check the Base URL.');
		expect(render(constant, redact, 300)).toBe('Check the Base URL.');
	});
});

describe('render() neutralises: no control character, separator, bidi control or lone surrogate of a foreign part is shown raw', () => {
	/** Any code point of any plane, lone surrogates, and the characters the boundary escapes, often. */
	const codePoint = fc.oneof(
		fc
			.integer({ min: 0, max: 0x10ffff })
			.filter((code) => code < 0xd800 || code > 0xdfff)
			.map((code) => String.fromCodePoint(code)),
		fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
		fc.constantFrom(
			'\u0000',
			'\u0007',
			'\b',
			'\u001b[31m',
			'\r\n',
			'\n',
			'\u0085',
			'\u009b',
			'\u007f',
			'\u2028',
			'\u2029',
			'\u202e',
			'\u2066',
			'\u200f',
			'\u061c',
		),
		fc.constantFrom(...'abc xyz-0123'),
	);
	const hostile = fc.array(codePoint, { maxLength: 60 }).map((parts) => parts.join(''));
	const key = 'services-9f8e7d6c5b4a';
	const redact = makeRedactor(key);
	/** The escapes undone: what the user reads stands for exactly what the platform sent. */
	const unescaped = (shown: string) =>
		shown.replace(/\\u([0-9A-F]{4})/g, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

	test('every output is free of them, each escape whole, and stands for the text sent (without a cut)', () => {
		fc.assert(
			fc.property(hostile, hostile, fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 120 }), (first, second, max, partMax) => {
				const value = text`said ${foreign(first, partMax)} and ${foreign(second)}.`;
				const shown = render(value, redact, max);
				expect(shown).not.toMatch(RAW_CONTROL);
				expect(shown.length).toBeLessThanOrEqual(max);
				// No escape cut in half: every \u the boundary wrote has its four digits (the texts hold no backslash).
				expect(shown).not.toMatch(/\\(?!u[0-9A-F]{4})/);
				const whole = render(text`${foreign(first, 1e9)}`, (t) => t, 1e9);
				expect(unescaped(whole)).toBe(first);
			}),
			{ numRuns: 2000 },
		);
	});

	test('every code unit of the Basic Multilingual Plane, alone: escaped exactly when it is one of them (the quick test and the loop agree)', () => {
		const wrong: string[] = [];
		for (let code = 0; code <= 0xffff; code++) {
			const char = String.fromCharCode(code);
			const shown = render(text`${foreign(char)}`, (t) => t, 100);
			// U+E000 to U+E002 mark the slots of foreign parts: foreign() replaces them (see text.ts).
			const expected = RAW_CONTROL.test(char)
				? `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`
				: code >= 0xe000 && code <= 0xe002
					? '\uFFFD'
					: char;
			if (shown !== expected) wrong.push(`U+${code.toString(16).padStart(4, '0')}: ${JSON.stringify(shown)}`);
		}
		expect(wrong).toEqual([]);
	});

	test('the key split by control characters is still found: redaction comes first', () => {
		fc.assert(
			fc.property(
				fc.array(fc.constantFrom('\u0000', '\u001b', '\r\n', '\u0085', '\u2028', '\u202e', '\u2069', '\ud800', ''), {
					minLength: key.length,
					maxLength: key.length,
				}),
				(splits) => {
					const split = [...key].map((char, index) => char + splits[index]).join('');
					const shown = render(text`<${foreign(split)}>`, redact, 300);
					expect(shown).toMatch(/^<\[redacted\](\\u[0-9A-F]{4})*>$/);
				},
			),
			{ numRuns: 300 },
		);
	});

	test('a CR/LF cannot begin a line of its own in a log line: one line in, one line out', () => {
		const forged = 'x\r\n2026-01-01T00:00:00.000Z | error | forged line\u2028another\u0085NEL';
		const shown = render(text`Services Trigger "${foreign(forged)}": damaged`, redact, 2300);
		expect(shown.split(/\r\n|\r|\n|\u2028|\u2029|\u0085/)).toHaveLength(1);
		expect(shown).toBe('Services Trigger "x\\u000D\\u000A2026-01-01T00:00:00.000Z | error | forged line\\u2028another\\u0085NEL": damaged');
	});
});

describe("the node's own path in a quoted URL is its own wording (issue 28, finding 7)", () => {
	const OWN = ['/v2026/services', 'v2026/services', 'services', 'list services', 'The platform found nothing at the address used to'];
	/** Keys that are prefixes or pieces of the node's own wording, with a random tail: at least 8 characters. */
	const ownLikeKey = fc
		.tuple(
			fc.constantFrom(...OWN),
			fc.nat(),
			fc.nat(),
			fc.string({ unit: fc.constantFrom(...'abcdef0123456789-_'), minLength: 0, maxLength: 12 }),
		)
		.map(([wording, from, length, tail]) => {
			const start = from % wording.length;
			return `${wording.slice(start, start + Math.max(1, length % (wording.length - start + 1)))}${tail}`;
		})
		.map((key) => key.trim())
		.filter((key) => key.length >= 8);

	test('a key like /v2026/services, services-..., list services: the quoted request URL and the wording survive', () => {
		fc.assert(
			fc.property(ownLikeKey, (key) => {
				const url = ownPathUrl('https://api.example.com', SERVICES_PATH);
				const described = describeHttpStatus(404, { url: url.quoted, action: own('list services'), serverMessage: `echo ${key}` });
				const redact = makeRedactor(key);
				const message = render(described.message, redact, MESSAGE_MAX);
				const description = render(described.description, redact, DESCRIPTION_MAX);
				expect(message).toBe('The platform found nothing at the address used to list services (HTTP 404)');
				expect(description).toContain('the node requested https://api.example.com/v2026/services.');
				// The platform's echo of the key is foreign: redacted.
				expect(description).toContain('The platform said: "echo [redacted]"');
			}),
			{ numRuns: 500 },
		);
	});
});
