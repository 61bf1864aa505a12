/**
 * Property-based tests (fast-check): random valid records keep every documented value through
 * normalisation and simplification; random JSON of any shape gives a result or a
 * ServiceResponseError, never anything else; through n8n's engine, random answers never crash the
 * node, and the API key never reaches a message. Run counts are kept small so the file takes seconds.
 */
import fc from 'fast-check';
import nock from 'nock';

import { extractServiceRecords } from '../harness/answer';
import { serviceIdKey } from '../../nodes/shared/record/serviceId';
import type { ServiceRecord } from '../../nodes/shared/record/serviceRecord';
import { pathTooDeep } from '../../nodes/shared/record/recordDepth';
import {
	isValidServiceRecordFast,
	MAX_RECORD_DEPTH,
	parseServiceRecord,
	parseSimplifiedServiceRecord,
	serviceRecordSchema,
	ServiceResponseError,
	simplifyServiceRecord,
	simplifyServiceRecordFast,
} from '../../nodes/shared/record/serviceRecord';
import type { Text } from '../../nodes/shared/text/text';
import { DESCRIPTION_MAX, MESSAGE_MAX, own, render } from '../../nodes/shared/text/text';
import { expectedSimplified } from '../harness/fixtures';
import { leakedWindows } from '../harness/leaks';
import { NEXT_FORMS, pageAnswer, pagePath } from '../harness/pagedApi';
import { runNode, servicesNode } from '../harness/workflow';

const BASE = 'https://api.example.com';
const PATH = '/v2026/services';
const KEY = 'sk-live-PROPERTY-3e8b1f0c9a27d456';

/** A text as a user reads it (nothing to redact here). */
const shown = (value: unknown) => render(value as Text, (part) => part, Infinity);

// ---- arbitraries ----------------------------------------------------------------------------------

const text = fc.oneof(
	fc.string({ maxLength: 12 }),
	fc.string({ unit: 'binary', maxLength: 12 }), // any code point, lone surrogates included
	fc.constantFrom('', ' ', 'active', 'Suspended', '__proto__', 'constructor', 'id_service', '\u0000', '𝓤𝓷𝓲'),
);
const integer = fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constantFrom(0, -1, 2 ** 53 - 1, 1e21));

/** A documented field: absent (the key is missing), null, or a value of its type. */
const documented = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 4 });

/** Undocumented fields ride along on every object (the spec allows them) and must survive untouched. */
const extraFields = fc.dictionary(
	fc.string({ maxLength: 6 }).map((key) => `x_${key}`),
	fc.jsonValue({ maxDepth: 2 }),
	{ maxKeys: 2 },
);
const withExtras = <T extends object>(arb: fc.Arbitrary<T>): fc.Arbitrary<T> =>
	fc.tuple(arb, extraFields).map(([value, extras]) => ({ ...extras, ...value }));
const optionalRecord = <T extends Record<string, fc.Arbitrary<unknown>>>(shape: T) => withExtras(fc.record(shape, { requiredKeys: [] }));

const osArb = documented(optionalRecord({ id: documented(text), name: documented(text) }));
const specificationsArb = documented(
	optionalRecord({
		vcores: documented(integer),
		GB: documented(optionalRecord({ ram: documented(integer), hd: documented(integer) })),
	}),
);
const valuesArb = documented(
	optionalRecord({
		values: documented(
			optionalRecord({
				name: documented(text),
				alias: documented(text),
				status: documented(text),
				service: documented(
					optionalRecord({
						customize: documented(optionalRecord({ OS: osArb, specifications: specificationsArb })),
					}),
				),
			}),
		),
	}),
);

const validRecord = (id: fc.Arbitrary<string>) =>
	withExtras(fc.record({ id_service: id, values: valuesArb }, { requiredKeys: ['id_service'] })) as fc.Arbitrary<
		ServiceRecord & Record<string, unknown>
	>;

// Valid ids name a service by the one id rule: not blank, and unique as compared (record/serviceId.ts).
const idArb = text.filter((id) => serviceIdKey(id) !== '');
const validRecords = (maxLength = 8) =>
	fc.uniqueArray(validRecord(idArb), { maxLength, selector: (record) => serviceIdKey(record.id_service) });

type Shape = 'array' | 'envelope' | 'single' | 'map';
/** Wraps records in one of the accepted listing shapes (team contract). */
function wrap(records: ServiceRecord[], shape: Shape, envelopeKey: string): unknown {
	switch (shape) {
		case 'envelope':
			return { [envelopeKey]: records };
		case 'single':
			return records[0];
		case 'map':
			// fromEntries defines own properties, so an id like "__proto__" stays a key.
			return Object.fromEntries(records.map((record) => [record.id_service, record]));
		default:
			return records;
	}
}
const listing = fc
	.tuple(
		validRecords(),
		fc.constantFrom<Shape>('array', 'envelope', 'single', 'map'),
		fc.string({ maxLength: 8 }).filter((key) => key !== 'id_service'),
	)
	.filter(([records, shape]) => {
		if (shape === 'single') return records.length === 1;
		// A map whose keys include "id_service" reads as one record: not a map the API could send.
		if (shape === 'map') return records.length > 0 && records.every((record) => record.id_service !== 'id_service');
		return true;
	});

/**
 * The order a client sees the records in. A map is a JSON object: keys that look like array indices
 * ("0", "10015") come first in ascending order in every JavaScript engine, whatever order the API
 * wrote them in; the other shapes keep the API's order.
 */
function listedOrder(records: ServiceRecord[], shape: Shape): ServiceRecord[] {
	return shape === 'map' ? Object.values(wrap(records, shape, '') as Record<string, ServiceRecord>) : records;
}

function expectOnlyServiceResponseError(run: () => unknown): void {
	try {
		const result = run();
		expect(Array.isArray(result)).toBe(true);
	} catch (error) {
		if (!(error instanceof ServiceResponseError)) throw error;
		expect(typeof error.message).toBe('string');
		expect(error.message.length).toBeGreaterThan(0);
		expect(typeof error.description).toBe('string');
		expect(error.description.length).toBeGreaterThan(0);
	}
}

// ---- the pure functions ---------------------------------------------------------------------------

describe('valid records', () => {
	test('every accepted shape gives back the very record objects, in order', () => {
		fc.assert(
			fc.property(listing, ([records, shape, key]) => {
				const result = extractServiceRecords(wrap(records, shape, key));
				const expected = listedOrder(records, shape);
				expect(result).toHaveLength(expected.length);
				result.forEach((record, index) => expect(record).toBe(expected[index]));
			}),
			{ numRuns: 300 },
		);
	});

	test('after a JSON round trip, raw output is identical to what was sent', () => {
		fc.assert(
			fc.property(listing, ([records, shape, key]) => {
				const sent = JSON.stringify(wrap(records, shape, key));
				const result = extractServiceRecords(JSON.parse(sent));
				expect(result).toEqual(JSON.parse(JSON.stringify(listedOrder(records, shape))));
			}),
			{ numRuns: 300 },
		);
	});

	test('Simplify keeps every documented value, null for what is absent, and does not touch the record', () => {
		fc.assert(
			fc.property(validRecord(idArb), (record) => {
				const before = JSON.stringify(record);
				const [validated] = extractServiceRecords([record]);
				expect(simplifyServiceRecord(validated)).toEqual(expectedSimplified(record));
				expect(JSON.stringify(record)).toBe(before);
			}),
			{ numRuns: 500 },
		);
	});
});

describe('any JSON at all', () => {
	test('fc.jsonValue(): a result or a ServiceResponseError, nothing else', () => {
		fc.assert(
			fc.property(fc.jsonValue(), (body) => expectOnlyServiceResponseError(() => extractServiceRecords(body))),
			{ numRuns: 1000 },
		);
	});

	test('fc.anything(): a result or a ServiceResponseError, nothing else', () => {
		fc.assert(
			fc.property(fc.anything(), (body) => expectOnlyServiceResponseError(() => extractServiceRecords(body))),
			{ numRuns: 1000 },
		);
	});

	test('JSON shaped like listings (arrays, envelopes, maps of near-records)', () => {
		const nearRecord = fc.oneof(
			fc.dictionary(fc.constantFrom('id_service', 'values', 'name', 'x'), fc.jsonValue({ maxDepth: 3 })),
			fc.record({ id_service: fc.jsonValue({ maxDepth: 1 }), values: fc.jsonValue({ maxDepth: 4 }) }),
		);
		const body = fc.oneof(
			fc.array(nearRecord, { maxLength: 5 }),
			fc.dictionary(fc.string({ maxLength: 5 }), fc.array(nearRecord, { maxLength: 3 }), { maxKeys: 2 }),
			fc.dictionary(fc.string({ maxLength: 5 }), nearRecord, { maxKeys: 4 }),
			nearRecord,
		);
		fc.assert(
			fc.property(body, (value) => expectOnlyServiceResponseError(() => extractServiceRecords(value))),
			{ numRuns: 1000 },
		);
	});

	test('one documented field of one valid record replaced by any JSON: the error names that record and field', () => {
		const paths = [
			['values'],
			['values', 'values'],
			['values', 'values', 'name'],
			['values', 'values', 'alias'],
			['values', 'values', 'status'],
			['values', 'values', 'service'],
			['values', 'values', 'service', 'customize'],
			['values', 'values', 'service', 'customize', 'OS'],
			['values', 'values', 'service', 'customize', 'OS', 'id'],
			['values', 'values', 'service', 'customize', 'OS', 'name'],
			['values', 'values', 'service', 'customize', 'specifications'],
			['values', 'values', 'service', 'customize', 'specifications', 'vcores'],
			['values', 'values', 'service', 'customize', 'specifications', 'GB'],
			['values', 'values', 'service', 'customize', 'specifications', 'GB', 'ram'],
			['values', 'values', 'service', 'customize', 'specifications', 'GB', 'hd'],
		];
		const full = fc.record({
			id_service: idArb,
			values: fc.record({
				values: fc.record({
					name: text,
					alias: text,
					status: text,
					service: fc.record({
						customize: fc.record({
							OS: fc.record({ id: text, name: text }),
							specifications: fc.record({ vcores: integer, GB: fc.record({ ram: integer, hd: integer }) }),
						}),
					}),
				}),
			}),
		});
		fc.assert(
			fc.property(
				fc.uniqueArray(full, { minLength: 1, maxLength: 4, selector: (record) => record.id_service }),
				fc.nat(),
				fc.constantFrom(...paths),
				fc.jsonValue({ maxDepth: 2 }),
				(records, at, path, value) => {
					const index = at % records.length;
					const copy = structuredClone(records) as Array<Record<string, any>>;
					let parent = copy[index];
					for (const key of path.slice(0, -1)) parent = parent[key];
					parent[path[path.length - 1]] = value;
					try {
						const result = extractServiceRecords(copy);
						expect(result).toHaveLength(copy.length);
					} catch (error) {
						if (!(error instanceof ServiceResponseError)) throw error;
						expect(shown(error.text.message)).toMatch(new RegExp(`^Service record #${index + 1} of ${copy.length}[ (]`));
						expect(shown(error.text.description).startsWith(`Field ${path.join('.')}`)).toBe(true);
					}
				},
			),
			{ numRuns: 500 },
		);
	});
});

// ---- the package's fast path agrees with the zod schema -------------------------------------------

describe('fast validation path (isValidServiceRecordFast) agrees with zod and the nesting bound', () => {
	// The slow path: zod's schema, then the nesting bound (recordDepth.ts).
	const slowAccepts = (value: unknown) => serviceRecordSchema.safeParse(value).success && pathTooDeep(value as object, 1) === undefined;
	const mutatedRecord = fc
		.tuple(
			validRecord(idArb),
			fc.array(
				fc.constantFrom(
					'values',
					'values',
					'service',
					'customize',
					'OS',
					'specifications',
					'GB',
					'id_service',
					'name',
					'vcores',
					'ram',
					'hd',
					'id',
				),
				{ maxLength: 7 },
			),
			fc.jsonValue({ maxDepth: 2 }),
		)
		.map(([record, path, value]) => {
			const copy = structuredClone(record) as Record<string, any>;
			let target: any = copy;
			for (const key of path.slice(0, -1)) {
				if (typeof target[key] !== 'object' || target[key] === null) break;
				target = target[key];
			}
			if (path.length > 0) target[path[path.length - 1]] = value;
			return copy;
		});
	/**
	 * A valid record with an unknown value nested around the bound (objects and arrays mixed) put
	 * into one of its objects (the record itself or a documented one) or an array under it.
	 */
	const nestedNearBound = fc
		.tuple(
			validRecord(idArb),
			fc.array(fc.boolean(), { minLength: MAX_RECORD_DEPTH - 9, maxLength: MAX_RECORD_DEPTH + 2 }),
			fc.array(fc.constantFrom('values', 'service', 'customize', 'OS', 'specifications', 'GB', 'x_list'), { maxLength: 7 }),
			fc.string({ maxLength: 4 }),
		)
		.map(([record, kinds, path, key]) => {
			let nested: unknown = kinds.length % 3 === 0 ? 'leaf' : {};
			for (const isArray of kinds) nested = isArray ? [1, nested] : { [key]: nested, n: 1 };
			const copy = structuredClone(record) as Record<string, any>;
			let target: any = copy;
			for (const step of path) {
				if (step === 'x_list') {
					target.x_list = [0, {}];
					target = target.x_list[1];
					continue;
				}
				const next =
					step === 'values' && typeof target.values?.values === 'object' && target.values.values !== null ? target.values : target[step];
				if (typeof next !== 'object' || next === null || Array.isArray(next)) break;
				target = next;
			}
			target[`x_${key}`] = nested;
			return copy;
		});

	test('on JSON (valid, mutated, nested near the bound, arbitrary): accepts exactly what the slow path accepts', () => {
		let deep = 0;
		fc.assert(
			fc.property(fc.oneof(validRecord(idArb), mutatedRecord, nestedNearBound, fc.jsonValue({ maxDepth: 4 })), (generated) => {
				// Through JSON.parse, as the node receives it (and in this realm: jest's structuredClone
				// makes objects of another realm, which the fast check leaves to zod).
				const value: unknown = JSON.parse(JSON.stringify(generated) ?? 'null');
				const accepted = slowAccepts(value);
				if (typeof value === 'object' && value !== null && pathTooDeep(value, 1) !== undefined) deep++;
				expect(isValidServiceRecordFast(value)).toBe(accepted);
				// Simplify in the same pass: the same verdict, and the same view as Simplify alone.
				const simplified = simplifyServiceRecordFast(value);
				expect(simplified === undefined).toBe(!accepted);
				if (accepted) expect(simplified).toEqual(simplifyServiceRecord(value as ServiceRecord));
			}),
			{ numRuns: 3000 },
		);
		// The generator does reach past the bound, often enough to mean something.
		expect(deep).toBeGreaterThan(100);
	});

	test('on anything at all: never accepts what the slow path rejects (it may defer to it)', () => {
		fc.assert(
			fc.property(
				fc.anything({
					withBoxedValues: true,
					withMap: true,
					withSet: true,
					withDate: true,
					withNullPrototype: true,
					withTypedArray: true,
					withSparseArray: true,
				}),
				(value) => {
					if (isValidServiceRecordFast(value)) expect(slowAccepts(value)).toBe(true);
					if (simplifyServiceRecordFast(value) !== undefined) expect(slowAccepts(value)).toBe(true);
				},
			),
			{ numRuns: 2000 },
		);
	});

	test('parseServiceRecord and parseSimplifiedServiceRecord: the record (or its view) exactly when the slow path accepts, else a ServiceResponseError', () => {
		fc.assert(
			fc.property(fc.oneof(validRecord(idArb), mutatedRecord, nestedNearBound), (generated) => {
				const value: unknown = JSON.parse(JSON.stringify(generated));
				const label = () => own('#1 of 1');
				if (slowAccepts(value)) {
					expect(parseServiceRecord(value, label)).toBe(value);
					expect(parseSimplifiedServiceRecord(value, label)).toEqual(simplifyServiceRecord(value as ServiceRecord));
				} else {
					expect(() => parseServiceRecord(value, label)).toThrow(ServiceResponseError);
					expect(() => parseSimplifiedServiceRecord(value, label)).toThrow(ServiceResponseError);
				}
			}),
			{ numRuns: 1000 },
		);
	});
});

// ---- through n8n's engine ---------------------------------------------------------------------------

describe('through the node (n8n engine, nock)', () => {
	beforeAll(() => nock.disableNetConnect());
	afterEach(() => nock.cleanAll());
	afterAll(() => {
		nock.enableNetConnect();
		nock.restore();
	});

	const api = (path = PATH) => nock(BASE).get(path).matchHeader('authorization', `Bearer ${KEY}`);

	test('random valid listings come out intact, raw and simplified', async () => {
		await fc.assert(
			fc.asyncProperty(listing, fc.boolean(), async ([records, shape, key], simplify) => {
				const body = JSON.stringify(wrap(records, shape, key));
				api().reply(200, body, { 'Content-Type': 'application/json' });
				const result = await runNode({
					node: servicesNode({ simplify, returnAll: true }),
					credentials: { apiKey: KEY, baseUrl: BASE },
				});
				expect(result.error).toBeUndefined();
				const sent = JSON.parse(JSON.stringify(listedOrder(records, shape))) as Array<Record<string, unknown>>;
				expect(result.items.map((item) => item.json)).toEqual(simplify ? sent.map(expectedSimplified) : sent);
				expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
			}),
			{ numRuns: 25 },
		);
	});

	test('random answers (status, headers, body) never crash the node, never show the key, and are bounded', async () => {
		const status = fc.constantFrom(200, 200, 200, 201, 204, 301, 302, 304, 400, 401, 403, 404, 418, 429, 500, 502, 503, 504, 599);
		// Foreign text up to some KB holding the key in one of its forms, anywhere in it.
		const forms = [KEY, Buffer.from(`Bearer ${KEY}`).toString('base64'), encodeURIComponent(` ${KEY}`), [...KEY].join(' ')];
		const hostile = fc
			.tuple(fc.nat(4000), fc.constantFrom(...forms), fc.nat(4000))
			.map(([before, form, after]) => `${'x'.repeat(before)}${form}${' y'.repeat(after / 2)}`);
		const body = fc.oneof(
			hostile.map((text) => JSON.stringify({ message: text })),
			hostile.map((text) => JSON.stringify([{ id_service: text }, { id_service: text }])),
			hostile.map((text) => JSON.stringify({ [text]: 1, other: [1] })),
			hostile.map((text) => JSON.stringify({ data: [], next: `https://elsewhere.example/${text}` })),
			fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
			fc.string({ maxLength: 60 }),
			fc.string({ unit: 'binary', maxLength: 60 }),
			fc.constantFrom(
				'',
				'<html><body>Sign in</body></html>',
				`{"message":"invalid key ${KEY}"}`,
				`{"error":"${KEY}"}`,
				`[{"id_service":"${KEY}","values":{"values":{"vcores":"x"}}}]`,
				`{"${KEY}":1,"b":2}`,
			),
		);
		const headers = fc.record(
			{
				'Content-Type': fc.constantFrom('application/json', 'text/html', 'text/plain', ''),
				'Retry-After': fc.oneof(
					fc.string({ maxLength: 12 }),
					fc.nat().map(String),
					fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
				),
				Location: fc.oneof(
					fc.constantFrom(
						'https://elsewhere.example/x',
						'http://api.example.com/v2026/services',
						`https://api.example.com.evil.example/?k=${KEY}`,
					),
					hostile.map((text) => `https://elsewhere.example/${encodeURIComponent(text)}`),
				),
			},
			{ requiredKeys: [] },
		);
		await fc.assert(
			fc.asyncProperty(status, body, headers, async (code, text, head) => {
				api().reply(code, text, head as Record<string, string>);
				const result = await runNode({
					// One answer per run: retries (429, 502-504) have their own tests.
					node: servicesNode({ simplify: false, returnAll: true, options: { retryOnRateLimit: false } }),
					credentials: { apiKey: KEY, baseUrl: BASE },
				});
				expect(nock.isDone()).toBe(true);
				if (result.error === undefined) {
					expect(code).toBeGreaterThanOrEqual(200);
					expect(code).toBeLessThan(300);
					return;
				}
				expect(['NodeApiError', 'NodeOperationError']).toContain(result.error.name);
				const { message, description } = result.error;
				expect(typeof message).toBe('string');
				expect(typeof description).toBe('string');
				expect(`${message} ${description}`).not.toMatch(/TypeError|Cannot read propert|is not a function|undefined is not/);
				expect(message).not.toContain(KEY);
				expect(description).not.toContain(KEY);
				expect(result.error.context?.itemIndex).toBe(0);
				// The bounds of every text a user sees, no slot marker left, no 8 characters of any form of the key.
				expect(String(message).length).toBeLessThanOrEqual(MESSAGE_MAX);
				expect(String(description).length).toBeLessThanOrEqual(DESCRIPTION_MAX);
				expect(result.serialized).not.toMatch(/[\uE000-\uE002]/);
				expect(leakedWindows(result.serialized, KEY)).toEqual([]);
			}),
			{ numRuns: 150 },
		);
	});

	test('any split of a listing into pages, linked in any next form, gives the same items as one page', async () => {
		const split = fc
			.tuple(validRecords(12), fc.array(fc.nat(), { maxLength: 5 }), fc.constantFrom(...NEXT_FORMS), fc.boolean())
			.map(([records, cuts, form, simplify]) => {
				const at = [...new Set(cuts.map((cut) => cut % (records.length + 1)))].sort((a, b) => a - b);
				const bounds = [0, ...at, records.length];
				const pages = bounds.slice(1).map((end, i) => records.slice(bounds[i], end));
				return { records, pages, form, simplify };
			});
		await fc.assert(
			fc.asyncProperty(split, async ({ records, pages, form, simplify }) => {
				for (let n = 1; n <= pages.length; n++) {
					const { body, headers } = pageAnswer(pages, n, form, BASE);
					api(pagePath(n)).reply(200, JSON.stringify(body), { 'Content-Type': 'application/json', ...headers });
				}
				const result = await runNode({
					node: servicesNode({ simplify, returnAll: true }),
					credentials: { apiKey: KEY, baseUrl: BASE },
				});
				expect(result.error).toBeUndefined();
				expect(nock.isDone()).toBe(true);
				const sent = JSON.parse(JSON.stringify(records)) as Array<Record<string, unknown>>;
				expect(result.items.map((item) => item.json)).toEqual(simplify ? sent.map(expectedSimplified) : sent);
			}),
			{ numRuns: 40 },
		);
	});

	// Reported (see faults.test.ts): n8n-workflow's NodeApiError swaps any message containing a Node
	// error code (EPERM, ENOENT, EACCES, ECONNRESET, ... case-insensitive) for a generic text, so an id
	// such as "deepermind-01" turns "id_service ... more than once" into "Operation not permitted".
	test('the node shows the same message extractServiceRecords gives, whatever the ids', async () => {
		const codes = ['eperm', 'enoent', 'eacces', 'eexist', 'econnreset', 'etimedout', 'eisdir'];
		await fc.assert(
			fc.asyncProperty(fc.string({ maxLength: 4 }), fc.constantFrom(...codes), async (prefix, code) => {
				const id = `${prefix}${code}-01`;
				const record = { id_service: id };
				const body = [record, { ...record }];
				let expected = '';
				try {
					extractServiceRecords(body);
				} catch (error) {
					expected = render((error as ServiceResponseError).text.message as Text, (part) => part, Infinity);
				}
				api().reply(200, JSON.stringify(body), { 'Content-Type': 'application/json' });
				const result = await runNode({ node: servicesNode({}), credentials: { apiKey: KEY, baseUrl: BASE } });
				expect(result.error?.message).toBe(expected);
			}),
			{ numRuns: 10 },
		);
	});
});
