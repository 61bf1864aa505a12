import nock from 'nock';

import { ALL_NULL, API_KEY, BASE_URL, credentials, sampleRecords, serviceRecord } from '../harness/fixtures';
import { Services } from '../../nodes/Services/Services.node';
import { createWorkflow, runNode, servicesNode } from '../harness/workflow';

function listing(body: unknown, status = 200) {
	return nock(BASE_URL)
		.get('/v2026/services')
		.matchHeader('authorization', `Bearer ${API_KEY}`)
		.matchHeader('accept', /application\/json/)
		.reply(status, body as nock.Body);
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.restore());

describe('List services through the n8n engine', () => {
	test('sends the bearer key from the credential and emits one simplified item per service by default', async () => {
		const scope = listing(sampleRecords);
		const { items, error } = await runNode({ node: servicesNode({}), credentials });
		expect(error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
		expect(items).toHaveLength(4);
		expect(items[0].json).toEqual({
			id_service: 'srv-1',
			name: 'web-01.shop',
			alias: 'Shop web',
			status: 'active',
			os_id: 'ubuntu-24.04',
			os_name: 'Ubuntu 24.04 LTS',
			vcores: 4,
			ram_gb: 8,
			hd_gb: 160,
		});
		expect(items.map((item) => item.pairedItem)).toEqual(Array(4).fill({ item: 0 }));
	});

	test('raw output is the record exactly as the API sent it, unknown fields included', async () => {
		const record = { ...serviceRecord({ id: 'srv-9' }), billing: { cycle: 'monthly' }, tags: ['a'] };
		listing([record]);
		const { items } = await runNode({ node: servicesNode({ simplify: false }), credentials });
		expect(items.map((item) => item.json)).toEqual([record]);
	});

	test('a field missing from the record is null in the simplified item, not a crash', async () => {
		listing([{ id_service: 'bare' }, { id_service: 'partial', values: { values: { name: 'x', service: null } } }]);
		const { items, error } = await runNode({ node: servicesNode({}), credentials });
		expect(error).toBeUndefined();
		expect(items[0].json).toEqual(ALL_NULL('bare'));
		expect(items[1].json).toMatchObject({ id_service: 'partial', name: 'x', os_id: null, vcores: null });
	});

	test.each([
		['an array of records', sampleRecords],
		['a single record', sampleRecords[0]],
		['a map keyed by id', Object.fromEntries(sampleRecords.map((r) => [r.id_service as string, r]))],
		['a "data" envelope', { data: sampleRecords }],
		['a "services" envelope', { services: sampleRecords }],
		['an "items" envelope', { items: sampleRecords }],
		['a "results" envelope', { results: sampleRecords }],
	])('accepts %s', async (_shape, body) => {
		listing(body);
		const { items, error } = await runNode({ node: servicesNode({ returnAll: true }), credentials });
		expect(error).toBeUndefined();
		const expected = Array.isArray(body) || !('id_service' in (body as object)) ? sampleRecords : [sampleRecords[0]];
		expect(items.map((item) => item.json.id_service)).toEqual(expected.map((r) => r.id_service));
	});

	test('an empty array gives no items and no error', async () => {
		listing([]);
		const { items, error } = await runNode({ node: servicesNode({}), credentials });
		expect(error).toBeUndefined();
		expect(items).toEqual([]);
	});

	test('limit caps the output; returnAll ignores it', async () => {
		const many = Array.from({ length: 120 }, (_, i) => serviceRecord({ id: `srv-${i}` }));
		listing(many);
		const limited = await runNode({ node: servicesNode({ limit: 7 }), credentials });
		expect(limited.items.map((item) => item.json.id_service)).toEqual(many.slice(0, 7).map((r) => r.id_service));

		listing(many);
		const byDefault = await runNode({ node: servicesNode({}), credentials });
		expect(byDefault.items).toHaveLength(50);

		listing(many);
		const all = await runNode({ node: servicesNode({ returnAll: true, limit: 7 }), credentials });
		expect(all.items).toHaveLength(120);
	});

	test('filters by status (case-insensitive, several values) before the limit', async () => {
		listing(sampleRecords);
		const { items } = await runNode({
			node: servicesNode({ filters: { status: 'ACTIVE, suspended' }, limit: 2 }),
			credentials,
		});
		expect(items.map((item) => item.json.id_service)).toEqual(['srv-1', 'srv-2']);

		listing(sampleRecords);
		const onlyActive = await runNode({ node: servicesNode({ filters: { status: 'active' }, limit: 1 }), credentials });
		expect(onlyActive.items.map((item) => item.json.id_service)).toEqual(['srv-1']);
	});

	test('status filter also takes an array from an expression', async () => {
		listing(sampleRecords);
		const { items } = await runNode({
			node: servicesNode({ filters: { status: '={{ ["pending", "Suspended"] }}' } }),
			credentials,
		});
		expect(items.map((item) => item.json.id_service)).toEqual(['srv-2', 'srv-3']);
	});

	test('search matches name or alias, case-insensitive, and combines with status', async () => {
		listing(sampleRecords);
		const byName = await runNode({ node: servicesNode({ filters: { search: 'SHOP' } }), credentials });
		expect(byName.items.map((item) => item.json.id_service)).toEqual(['srv-1', 'srv-2']);

		listing(sampleRecords);
		const byAlias = await runNode({ node: servicesNode({ filters: { search: 'build' } }), credentials });
		expect(byAlias.items.map((item) => item.json.id_service)).toEqual(['srv-4']);

		listing(sampleRecords);
		const both = await runNode({ node: servicesNode({ filters: { search: 'shop', status: 'active' } }), credentials });
		expect(both.items.map((item) => item.json.id_service)).toEqual(['srv-1']);
	});

	test('runs once per input item and pairs each output item with its input; items asking the same share one listing', async () => {
		const scope = listing([sampleRecords[0], sampleRecords[1]]);
		const { items } = await runNode({ node: servicesNode({}), credentials, inputItems: [{ a: 1 }, { a: 2 }, { a: 3 }] });
		expect(scope.isDone()).toBe(true);
		expect(items.map((item) => [item.json.id_service, item.pairedItem])).toEqual([
			['srv-1', { item: 0 }],
			['srv-2', { item: 0 }],
			['srv-1', { item: 1 }],
			['srv-2', { item: 1 }],
			['srv-1', { item: 2 }],
			['srv-2', { item: 2 }],
		]);
	});

	test('parameters can be expressions over the input item', async () => {
		listing(sampleRecords);
		listing(sampleRecords);
		const { items } = await runNode({
			node: servicesNode({ filters: { status: '={{ $json.wanted }}' } }),
			credentials,
			inputItems: [{ wanted: 'pending' }, { wanted: 'suspended' }],
		});
		expect(items.map((item) => [item.json.id_service, item.pairedItem])).toEqual([
			['srv-3', { item: 0 }],
			['srv-2', { item: 1 }],
		]);
	});

	test('base URL with a trailing slash or a pasted /v2026 suffix still reaches /v2026/services', async () => {
		for (const baseUrl of [`${BASE_URL}/`, `${BASE_URL}/v2026`, `${BASE_URL}/v2026/`, `  ${BASE_URL}/V2026/services  `]) {
			const scope = listing([sampleRecords[0]]);
			const { error } = await runNode({ node: servicesNode({}), credentials: { apiKey: API_KEY, baseUrl } });
			expect(error).toBeUndefined();
			expect(scope.isDone()).toBe(true);
		}
	});

	test('a base URL with a path prefix keeps it', async () => {
		const scope = nock('https://gw.example.com').get('/platform/api/v2026/services').reply(200, []);
		const { error } = await runNode({
			node: servicesNode({}),
			credentials: { apiKey: API_KEY, baseUrl: 'https://gw.example.com/platform/api/' },
		});
		expect(error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});

	test('plain http to a loopback host is allowed for local testing', async () => {
		const scope = nock('http://127.0.0.1:4010').get('/v2026/services').reply(200, []);
		const { error } = await runNode({ node: servicesNode({}), credentials: { apiKey: API_KEY, baseUrl: 'http://127.0.0.1:4010' } });
		expect(error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});

	test('Options offer Timeout (per request), Listing Time Limit (minutes), Max Response Size (MB), Parallel Requests and Retry on Rate Limit, with their defaults', () => {
		const options = new Services().description.properties.find((property) => property.name === 'options');
		expect(options?.options?.map((option) => [(option as { name: string }).name, (option as { default: unknown }).default])).toEqual([
			['listingTimeLimit', 30],
			['maxResponseSize', 64],
			['parallelRequests', 5],
			['retryOnRateLimit', true],
			['timeout', 30000],
		]);
	});

	test('an option from an expression that gives a bad value fails only that item, at its index', async () => {
		listing(sampleRecords);
		listing(sampleRecords);
		const result = await runNode({
			node: servicesNode({ returnAll: true, options: { timeout: '={{ $json.timeout }}' } }, { onError: 'continueRegularOutput' }),
			credentials,
			inputItems: [{ timeout: 5000 }, { timeout: 0 }, { timeout: '10000' }],
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(9);
		expect(result.items[4]).toMatchObject({
			json: { error: '"Timeout" must be a number greater than 0, not the number 0' },
			pairedItem: { item: 1 },
		});
	});

	test('the canvas subtitle reads "List services"', () => {
		const node = servicesNode({});
		const subtitle = createWorkflow([node]).expression.getSimpleParameterValue(
			node,
			new Services().description.subtitle as string,
			'internal',
			{},
		);
		expect(subtitle).toBe('List services');
	});
});
