/**
 * Search as a person reads it (issue 34): one rule, searchKey (parameters/filters.ts), for Filters ->
 * Search and Status, the editor's From List search and the AI tool's search. Its properties are
 * generated (texts rich in the letters case folding and normal forms treat specially); the three entry
 * points are run through n8n's engine against a real loopback server, with the findings of the issue.
 */
import fc from 'fast-check';
import { LoadOptionsContext } from 'n8n-core';
import type { INodeListSearchResult, INodeType } from 'n8n-workflow';

import { Services } from '../../nodes/Services/Services.node';
import { matchesServiceFilters, parseServiceFilters, searchKey } from '../../nodes/shared/parameters/filters';
import { serviceRecord } from '../harness/fixtures';
import type { LocalApi } from '../harness/pagedApi';
import { startPagedApi } from '../harness/pagedApi';
import { exampleToolNode, runAgent } from '../harness/tool';
import { createAdditionalData, createHooks, createWorkflow, runNode, servicesNode } from '../harness/workflow';

const KEY = 'sk-live-SEARCH-5c1e0b7a9d2f4e68';

/** Letters whose case or normal form is special: ß ẞ ﬁ ﬀ ŉ İ ı ſ Σ σ ς ǅ ǆ ᾳ, marks, Hangul, precomposed and decomposed é. */
const SPECIAL = [
	'ß',
	'ẞ',
	'ﬁ',
	'ﬀ',
	'ŉ',
	'İ',
	'ı',
	'ſ',
	'Σ',
	'σ',
	'ς',
	'ǅ',
	'ǆ',
	'ᾳ',
	'\u0301',
	'\u0307',
	'\u0345',
	'한',
	'é',
	'e\u0301',
	'Å',
	'Ω',
	'K',
];
const letter = fc.oneof(
	fc.constantFrom(...SPECIAL),
	fc.constantFrom(...'abcxyzABCXYZ-_. 0123'),
	fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
);
const name = fc.array(letter, { maxLength: 12 }).map((letters) => letters.join(''));

/** The grapheme clusters of a text: a person's letters, each with its marks. */
function graphemes(value: string): string[] {
	return [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(value)].map((segment) => segment.segment);
}

/**
 * How a person may type the same text: another normal form, another case. A case change is made on the
 * decomposed text, as Unicode's canonical caseless match (D145) has it: upper-casing "ᾳ̇" as it is puts
 * the dot on the iota that ͅ becomes, another text (found by the explorer, kept below).
 */
const VARIANTS: Array<[string, (value: string) => string]> = [
	['as it is', (value) => value],
	['NFC', (value) => value.normalize('NFC')],
	['NFD', (value) => value.normalize('NFD')],
	['upper case', (value) => value.normalize('NFD').toUpperCase()],
	['lower case', (value) => value.normalize('NFD').toLowerCase()],
	['upper case, NFC', (value) => value.normalize('NFD').toUpperCase().normalize('NFC')],
];

const matches = (serviceName: string, search: string) =>
	matchesServiceFilters({ name: serviceName, alias: null, status: null }, parseServiceFilters({ search }));

describe('searchKey: one rule on both sides', () => {
	test('the findings of issue 34: ß and ẞ are ss, ﬁ is fi, NFD finds NFC and back', () => {
		expect(matches('Straße-01', 'STRASSE')).toBe(true);
		expect(matches('STRAẞE-01', 'strasse')).toBe(true);
		expect(matches('ﬁle-server', 'FILE-SERVER')).toBe(true);
		expect(matches('café-eu', 'cafe\u0301')).toBe(true);
		expect(matches('cafe\u0301-eu', 'CAFÉ')).toBe(true);
		expect(matches('ΟΔΟΣ-1', 'οδος')).toBe(true);
		// A letter with its mark is one letter: "e" does not find "é", in either normal form.
		expect(matches('café', 'cafe')).toBe(false);
		expect(matches('cafe\u0301', 'cafe')).toBe(false);
		expect(matches('web-01', 'web-02')).toBe(false);
	});

	test('counterexamples the explorer found, kept: the iota subscript ͅ beside another mark', () => {
		expect(matches('ᾳ\u0307', 'ᾳ\u0307'.normalize('NFD').toUpperCase())).toBe(true);
		expect(matches('\u0345\u0301', '\u0301')).toBe(matches('\u0345\u0301'.normalize('NFD').toUpperCase(), '\u0301'));
	});

	test('a whole-letter part of a name, typed in any case or normal form, finds the name (generated)', () => {
		fc.assert(
			fc.property(name, fc.nat(), fc.nat(), fc.constantFrom(...VARIANTS), (serviceName, a, b, [, variant]) => {
				const letters = graphemes(serviceName);
				const [from, to] = [a % (letters.length + 1), b % (letters.length + 1)].sort((x, y) => x - y);
				const part = letters.slice(from, to).join('');
				expect(matches(serviceName, variant(part))).toBe(true);
			}),
			{ numRuns: 2000 },
		);
	});

	test('a name in another case or normal form is found by exactly the same searches (generated)', () => {
		fc.assert(
			fc.property(name, name, fc.constantFrom(...VARIANTS), (serviceName, search, [, variant]) => {
				expect(matches(variant(serviceName), search)).toBe(matches(serviceName, search));
			}),
			{ numRuns: 2000 },
		);
	});

	test('the key is stable: keying a key changes nothing (generated)', () => {
		fc.assert(
			fc.property(name, (value) => {
				expect(searchKey(searchKey(value))).toBe(searchKey(value));
			}),
			{ numRuns: 2000 },
		);
	});

	test('Status uses the same rule', () => {
		const service = { name: null, alias: null, status: 'AKTİV' };
		expect(matchesServiceFilters(service, parseServiceFilters({ status: 'akti\u0307v' }))).toBe(true);
		expect(matchesServiceFilters({ ...service, status: 'Straße' }, parseServiceFilters({ status: 'STRASSE, x' }))).toBe(true);
	});
});

describe('the three searches, through n8n', () => {
	const records = [
		serviceRecord({ id: 'srv-1', name: 'Straße-01', alias: 'Berlin' }),
		serviceRecord({ id: 'srv-2', name: 'ﬁle-server', alias: 'Storage' }),
		serviceRecord({ id: 'srv-3', name: 'cafe\u0301-eu', alias: 'Shop' }),
		serviceRecord({ id: 'srv-4', name: 'web-04', alias: 'Front' }),
	];
	const SEARCHES: Array<[string, string]> = [
		['STRASSE', 'srv-1'],
		['FILE-SERVER', 'srv-2'],
		['café', 'srv-3'],
	];
	let local: LocalApi;
	beforeEach(async () => {
		local = await startPagedApi([records], 'next');
	});
	afterEach(async () => {
		await local.close();
	});

	test.each(SEARCHES)('List, Filters -> Search %p finds %p', async (search, id) => {
		const result = await runNode({
			node: servicesNode({ operation: 'list', returnAll: true, filters: { search } }),
			credentials: { apiKey: KEY, baseUrl: local.origin },
		});
		expect(result.items.map((item) => item.json.id_service)).toEqual([id]);
	});

	test.each(SEARCHES)("Get's From List search %p finds %p", async (search, id) => {
		const node = servicesNode({ operation: 'get' });
		const additionalData = createAdditionalData({ apiKey: KEY, baseUrl: local.origin }, createHooks('internal', node));
		const context = new LoadOptionsContext(createWorkflow([node]), node, additionalData, 'serviceId');
		const found: INodeListSearchResult = await (new Services() as INodeType).methods!.listSearch!.searchServices.call(context, search);
		expect(found.results.map((result) => result.value)).toEqual([id]);
	});

	test.each(SEARCHES)("the AI tool's search %p finds %p", async (search, id) => {
		const { outcomes } = await runAgent({
			tools: [exampleToolNode('List services')],
			calls: [{ tool: 'List_services', args: { search } }],
			credentials: { apiKey: KEY, baseUrl: local.origin },
		});
		const outcome = outcomes[0];
		if (!('answer' in outcome)) throw new Error(`expected an answer, got ${outcome.error}`);
		expect((JSON.parse(outcome.answer) as Array<{ id_service: string }>).map((service) => service.id_service)).toEqual([id]);
	});
});
