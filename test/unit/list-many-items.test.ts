/**
 * Adversarial pass 2 (issue #17): List run for 1,000 input items, against a real server on 127.0.0.1
 * through n8n-core's WorkflowExecute. The listing is read once per execution for the items whose
 * resolved parameters and credential are the same; items with other parameters get a listing of
 * their own. The figures (requests, time, memory) come from a child process of its own and are
 * printed, not asserted as times (a shared machine). Before this bound, 1,000 items with the same
 * parameters read the listing 1,000 times.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { readOncePerRun } from '../../nodes/Services/actions/service/listingCache';
import { expectedSimplified, serviceRecord } from '../harness/fixtures';
import type { Handler } from '../harness/localServer';
import { closeLocalServers, startLocalServer } from '../harness/localServer';
import { measuredRun } from '../harness/measuredRun';
import { LISTING_PATH, paginate, startPagedApi } from '../harness/pagedApi';
import { runAgent, servicesToolNode } from '../harness/tool';
import type { NodeRunResult } from '../harness/workflow';
import { runNode, servicesNode } from '../harness/workflow';

const KEY = 'sk-live-MANYITEMS-3b8e1d40c7a92f56';
/** 100 services in 2 pages of 50: one listing is 2 requests. Names web-000 to web-099. */
const SERVICES = Array.from({ length: 100 }, (_, i) =>
	serviceRecord({ id: `srv-${i}`, name: `web-${String(i).padStart(3, '0')}`, status: i % 10 === 0 ? 'suspended' : 'active' }),
);
const PAGES = paginate(SERVICES, 50);

afterEach(closeLocalServers);

const inputs = (count: number, item: (index: number) => IDataObject = () => ({})): IDataObject[] =>
	Array.from({ length: count }, (_, i) => item(i));
const credentials = (origin: string) => ({ apiKey: KEY, baseUrl: origin });

async function list(parameters: INodeParameters, inputItems: IDataObject[], { continueOnFail = false } = {}) {
	const api = await startPagedApi(PAGES, 'next');
	const node = servicesNode({ returnAll: true, ...parameters }, continueOnFail ? { onError: 'continueRegularOutput' } : {});
	const result = await runNode({ node, credentials: credentials(api.origin), inputItems });
	return { api, result };
}

/** The output items of input item `index`, by their pairing. */
const itemsOf = (result: NodeRunResult, index: number) =>
	result.items.filter((item) => (item.pairedItem as { item: number }).item === index);

describe('List run for 1,000 input items: one listing per execution for the same parameters', () => {
	test('same parameters for every item: 2 requests instead of 2,000 (figures printed)', async () => {
		const api = await startPagedApi(PAGES, 'next');
		const run = await measuredRun({ returnAll: true }, credentials(api.origin), { inputItems: inputs(1000) });
		console.info(
			`List, 1,000 input items, same parameters, 100 services in 2 pages: ${api.seen.length} requests, ${run.elapsedMs} ms, ` +
				`${run.items} items out; peak RSS growth ${run.rssPeakGrowthMb} MB, peak heap growth ${run.heapPeakGrowthMb} MB`,
		);
		expect(run.error).toBeUndefined();
		expect(run.items).toBe(100_000);
		expect(api.seen.map((request) => request.url)).toEqual([LISTING_PATH, `${LISTING_PATH}?page=2`]);
	}, 120_000);

	test('every input item gets every service, paired to it, in listing order', async () => {
		const { api, result } = await list({}, inputs(1000));
		expect(api.seen).toHaveLength(2);
		expect(result.items).toHaveLength(100_000);
		for (const index of [0, 1, 500, 999]) {
			const own = itemsOf(result, index);
			expect(own.map((item) => item.json)).toEqual(SERVICES.map(expectedSimplified));
		}
	});

	test("each item has its own deep copy: changing one item's JSON changes no other", async () => {
		const { result } = await list({ simplify: false }, inputs(3));
		const [first, second, third] = [0, 1, 2].map((index) => itemsOf(result, index));
		expect(first[0].json).not.toBe(second[0].json);
		const values = (json: IDataObject) => (json.values as { values: IDataObject }).values;
		values(first[0].json).name = 'changed by a later node';
		(values(second[0].json).service as IDataObject).customize = null;
		expect(values(third[0].json)).toEqual((SERVICES[0].values as { values: IDataObject }).values);
		expect(values(second[0].json).name).toBe('web-000');
	});

	test('10 distinct search values over 1,000 items: 10 listings, each item its own matches', async () => {
		const { api, result } = await list(
			{ filters: { search: '={{ $json.search }}' } },
			inputs(1000, (i) => ({ search: `web-0${i % 10}` })),
		);
		expect(api.seen).toHaveLength(10 * 2);
		expect(result.items).toHaveLength(1000 * 10);
		for (const index of [0, 7, 993]) {
			expect(itemsOf(result, index).map((item) => item.json.name)).toEqual(Array.from({ length: 10 }, (_, n) => `web-0${index % 10}${n}`));
		}
	});

	test('every item with different parameters (Limit 1 to 1,000): one listing each', async () => {
		const { api, result } = await list(
			{ returnAll: false, limit: '={{ $json.limit }}' },
			inputs(1000, (i) => ({ limit: i + 1 })),
		);
		// Limit 1 to 50 reads page 1 only; 51 and more read both pages.
		expect(api.seen).toHaveLength(50 + 950 * 2);
		expect(itemsOf(result, 0)).toHaveLength(1);
		expect(itemsOf(result, 41).map((item) => item.json.id_service)).toEqual(SERVICES.slice(0, 42).map((record) => record.id_service));
		expect(itemsOf(result, 999)).toHaveLength(100);
	}, 60_000);

	test('Simplify, Return All and Options are part of what makes a listing the same', async () => {
		const { api, result } = await list(
			{ returnAll: '={{ $json.all }}', limit: 5, simplify: '={{ $json.simplify }}', options: { timeout: '={{ $json.timeout }}' } },
			[
				{ all: true, simplify: true, timeout: 30000 },
				{ all: true, simplify: true, timeout: 30000 },
				{ all: false, simplify: true, timeout: 30000 },
				{ all: true, simplify: false, timeout: 30000 },
				{ all: true, simplify: true, timeout: 20000 },
			],
		);
		expect(api.seen.filter((request) => request.url === LISTING_PATH)).toHaveLength(4);
		expect([0, 1, 2, 3, 4].map((index) => itemsOf(result, index).length)).toEqual([100, 100, 5, 100, 100]);
		expect(itemsOf(result, 3)[0].json).toEqual(SERVICES[0]);
	});
});

describe('a failing listing shared by several items', () => {
	const failing =
		(status: number, message: string): Handler =>
		(_req, res) => {
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ message }));
		};

	test('with "On Error: Continue", 1,000 items: one request, and every item gets the error paired to it', async () => {
		const api = await startLocalServer({ handler: failing(401, 'invalid token') });
		const node = servicesNode({ returnAll: true }, { onError: 'continueRegularOutput' });
		const result = await runNode({ node, credentials: credentials(api.origin), inputItems: inputs(1000) });
		expect(api.seen).toHaveLength(1);
		expect(result.items).toHaveLength(1000);
		result.items.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json.error).toBe(result.items[0].json.error);
		});
		expect(result.items[999].json.error).toMatch(/401/);
		expect(result.serialized).not.toContain(KEY);
	});

	test('the error is not shared with items of other parameters: they read the listing again', async () => {
		const api = await startLocalServer({ handler: failing(500, 'busy') });
		api.script(failing(500, 'busy'), (_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(SERVICES.slice(0, 3)));
		});
		const node = servicesNode({ returnAll: true, filters: { search: '={{ $json.search }}' } }, { onError: 'continueRegularOutput' });
		const result = await runNode({
			node,
			credentials: credentials(api.origin),
			inputItems: [{ search: 'web' }, { search: 'web' }, { search: 'web-00' }, { search: 'web' }],
		});
		expect(api.seen).toHaveLength(2);
		expect(itemsOf(result, 0).map((item) => item.json.error)).toEqual([expect.stringMatching(/500/)]);
		expect(itemsOf(result, 1)).toEqual(itemsOf(result, 0).map((item) => ({ ...item, pairedItem: { item: 1 } })));
		expect(itemsOf(result, 2).map((item) => item.json.id_service)).toEqual(['srv-0', 'srv-1', 'srv-2']);
		expect(itemsOf(result, 3).map((item) => item.json.error)).toEqual([expect.stringMatching(/500/)]);
	});

	test('without "On Error: Continue" the error names the item whose listing failed', async () => {
		const api = await startLocalServer({ handler: failing(500, 'busy') });
		api.script(
			(_req, res) => {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify(SERVICES.slice(0, 3)));
			},
			failing(500, 'busy'),
		);
		const node = servicesNode({ returnAll: true, filters: { status: '={{ $json.status }}' } });
		const result = await runNode({
			node,
			credentials: credentials(api.origin),
			inputItems: [{ status: 'active' }, { status: 'suspended' }],
		});
		expect(api.seen).toHaveLength(2);
		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '500', context: { itemIndex: 1 } });
	});

	test('a shared failure is given to each item as its own error: same class and text, its own item index', async () => {
		const shared = new NodeApiError(
			{ id: 'n', name: 'Services', type: 't', typeVersion: 1, position: [0, 0], parameters: {} },
			{ message: 'x' },
			{
				message: 'The platform answered HTTP 500',
				description: 'Try again later.',
				httpCode: '500',
				itemIndex: 0,
			},
		);
		const run = {};
		let reads = 0;
		const read = async () => {
			reads++;
			throw shared;
		};
		const errors = await Promise.all(
			[0, 1, 2].map(async (index) => await readOncePerRun(run, 'same', index, read).catch((error: unknown) => error)),
		);
		expect(reads).toBe(1);
		errors.forEach((error, index) => {
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error).toMatchObject({
				message: shared.message,
				description: shared.description,
				httpCode: '500',
				context: { itemIndex: index },
			});
		});
		expect(shared.context.itemIndex).toBe(0);
	});
});

describe('List as an AI tool: each call is one item of its own', () => {
	test('calls with the same and with other arguments each get their own, right answer', async () => {
		const api = await startPagedApi(PAGES, 'next');
		const tool = servicesToolNode('List services', {
			operation: 'list',
			limit: '={{ $fromAI("limit", "", "number", 50) }}',
			filters: { search: '={{ $fromAI("search", "", "string", "") }}' },
		});
		const { outcomes, serialized } = await runAgent({
			tools: [tool],
			calls: [
				{ tool: 'List_services', args: { search: 'web-01', limit: 3 } },
				{ tool: 'List_services', args: { search: 'web-01', limit: 3 } },
				{ tool: 'List_services', args: { search: 'web-09', limit: 20 } },
			],
			credentials: credentials(api.origin),
		});
		const answers = outcomes.map((outcome) => ('answer' in outcome ? (JSON.parse(outcome.answer) as IDataObject[]) : outcome.error));
		expect(answers[0]).toEqual(answers[1]);
		expect((answers[0] as IDataObject[]).map((json) => json.name ?? json.note)).toEqual([
			'web-010',
			'web-011',
			'web-012',
			'Only 3 of the 10 matching services are listed (the limit). To see others, narrow the search: filter by status (e.g. "suspended") or by text in the name or alias (search), or ask for a higher limit.',
		]);
		expect((answers[2] as IDataObject[]).map((json) => json.name)).toEqual(Array.from({ length: 10 }, (_, n) => `web-09${n}`));
		// A tool call runs with a context of its own: no answer is taken from another call's.
		expect(api.seen.filter((request) => request.url === LISTING_PATH)).toHaveLength(3);
		expect(serialized).not.toContain(KEY);
	});
});
