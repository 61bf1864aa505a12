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

import { makeRedactor } from '../../nodes/shared/text/redact';
import type { Text } from '../../nodes/shared/text/text';
import { CUT_MARK, elide, foreign, own, render, text } from '../../nodes/shared/text/text';
import { REPO_DIR, sourceFiles } from '../harness/houseRules';

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

	test('render() is called only at the exits: toNodeError, the session (listSearch) and the trigger', () => {
		const callers = files.filter(({ file, source }) => file !== 'nodes/shared/text/text.ts' && /\brender\(/.test(code(source))).map(({ file }) => file);
		expect(callers.sort()).toEqual(['nodes/ServicesTrigger/ServicesTrigger.node.ts', 'nodes/shared/text/errors.ts', 'nodes/shared/transport/transport.ts'].sort());
	});
});

/**
 * Cuts of values that are not text shown to anyone: each is listed with why. Anything else that
 * shortens a string fails the test below.
 */
const ALLOWED_CUTS: Array<{ file: string; line: string; why: string }> = [
	{ file: 'nodes/shared/record/serviceRecord.ts', line: 'for (const key of field.path.slice(0, -1)) {', why: 'an array: a field path without its last key' },
	{ file: 'nodes/shared/text/redact.ts', line: '', why: 'the key itself, to build what is redacted: no text is shown from it' },
	{ file: 'nodes/shared/answer/answerTexts.ts', line: 'keys.slice(0, 10).map(', why: 'an array: the first ten keys of an answer, each then quoted with foreign()' },
	{ file: 'nodes/shared/answer/jsonText.ts', line: '', why: "tokens of the answer's raw JSON (keys, numbers' digits) and paths: read whole, a key quoted only with foreign()" },
	{ file: 'nodes/shared/answer/names.ts', line: '', why: 'parts of a name, compared with the signal table: never shown' },
	{ file: 'nodes/shared/transport/retryAfter.ts', line: 'match.slice(', why: "an array: a date's hour, minute and second groups of a regular-expression match" },
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
		const unexplained = cuts.filter(({ file, line }) => !ALLOWED_CUTS.some((allowed) => allowed.file === file && line.includes(allowed.line)));
		expect(unexplained).toEqual([]);
	});

	test('own() is only given literals, and only text.ts turns a string into a Text', () => {
		const misuse = files.flatMap(({ file, source }) =>
			code(source)
				.split('\n')
				.filter((line) => file !== 'nodes/shared/text/text.ts' && (/\bown\(\s*(?![')"]|$)|\bown\(\s*`|\bown\(\s*'[^']*'\s*\+/.test(line) || /\bas Text\b/.test(line)))
				.map((line) => `${file}: ${line.trim()}`),
		);
		expect(misuse).toEqual([]);
	});
});

describe('render(): redact first, then bound; the own wording untouched', () => {
	const key = 'services-9f8e7d6c5b4a';
	const redact = makeRedactor(key);

	test("the node's own wording is never redacted, even where it reads like the key", () => {
		const shown = render(text`The platform found nothing at the address used to list services-9f8e (${foreign(`x ${key} y`)})`, redact, 300);
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
