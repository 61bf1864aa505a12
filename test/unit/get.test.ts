/**
 * Operation Get and the "From List" search behind it, through n8n's real engine against real HTTP
 * servers on 127.0.0.1 serving a paged listing.
 */
import { LoadOptionsContext } from 'n8n-core';
import type { IDataObject, INode, INodeListSearchResult, INodeParameters, INodeType } from 'n8n-workflow';

import { Services } from '../../nodes/Services/Services.node';
import { NAME_MAX } from '../../nodes/shared/text/text';
import { expectedSimplified, serviceRecord } from '../harness/fixtures';
import { leakedWindows } from '../harness/leaks';
import type { LocalApi } from '../harness/pagedApi';
import { paginate, pagePath, startLocalApi, startPagedApi } from '../harness/pagedApi';
import { createAdditionalData, createHooks, createWorkflow, runNode, servicesNode } from '../harness/workflow';

const KEY = 'sk-live-GET-0a7e53c9d1b24f68';
const records = Array.from({ length: 12 }, (_, i) =>
	serviceRecord({ id: `srv-${i + 1}`, name: i === 7 ? 'db-02.shop' : `web-${i + 1}.acme`, alias: i === 9 ? 'Shop mail' : `Box ${i + 1}` }),
);

let local: LocalApi;
beforeEach(async () => {
	local = await startPagedApi(paginate(records, 4), 'next');
});
afterEach(async () => {
	await local.close();
});

const get = (serviceId: unknown, parameters: INodeParameters = {}, overrides: Partial<INode> = {}, inputItems?: IDataObject[]) =>
	runNode({
		node: servicesNode({ operation: 'get', serviceId: serviceId as INodeParameters[string], ...parameters }, overrides),
		credentials: { apiKey: KEY, baseUrl: local.origin },
		inputItems,
	});

describe('Get', () => {
	test.each([
		['mode "id"', { __rl: true, mode: 'id', value: 'srv-6' }],
		['mode "list"', { __rl: true, mode: 'list', value: 'srv-6', cachedResultName: 'web-6.acme (Box 6)' }],
		['a plain string', 'srv-6'],
		['an expression', '={{ "srv-" + (3 * 2) }}'],
		['an id with surrounding spaces', { __rl: true, mode: 'id', value: '  srv-6 ' }],
	])('by %s: the one record, simplified, and reads only up to the page that holds it', async (_how, serviceId) => {
		const { items, error } = await get(serviceId);
		expect(error).toBeUndefined();
		expect(items).toEqual([{ json: expectedSimplified(records[5]), pairedItem: { item: 0 } }]);
		expect(local.seen.map((request) => request.url)).toEqual([pagePath(1), pagePath(2)]);
	});

	test('Simplify off gives the record exactly as the API sent it', async () => {
		const { items } = await get({ __rl: true, mode: 'id', value: 'srv-12' }, { simplify: false });
		expect(items.map((item) => item.json)).toEqual([records[11]]);
		expect(local.seen).toHaveLength(3);
	});

	test('runs per input item, the id from each item, each result paired to its item', async () => {
		const { items } = await get('={{ $json.id }}', {}, {}, [{ id: 'srv-1' }, { id: 'srv-9' }]);
		expect(items.map((item) => [item.json.id_service, item.pairedItem])).toEqual([
			['srv-1', { item: 0 }],
			['srv-9', { item: 1 }],
		]);
	});

	test('an unknown id is a clear error with a fix and the item index, after reading every page', async () => {
		const { items, error } = await get('={{ $json.id }}', {}, {}, [{ id: 'srv-1' }, { id: 'srv-404' }]);
		expect(items).toEqual([]);
		expect(error?.message).toBe('No service with id_service "srv-404"');
		expect(error?.description).toMatch(/^The platform lists 12 service\(s\) and none has this id\. Check the ID/);
		expect(error?.context?.itemIndex).toBe(1);
		expect(local.seen).toHaveLength(1 + 3);
	});

	test('an id that differs only in case is named in the error (case matters in ids)', async () => {
		const { error } = await get('SRV-7');
		expect(error?.message).toBe('No service with id_service "SRV-7"');
		expect(error?.description).toMatch(
			/^The platform lists 12 service\(s\) and none has this id; "srv-7" differs only in upper\/lower case\. Check the ID/,
		);
	});

	test('with "On Error: Continue" an unknown id is an error item paired to its input; the others still run', async () => {
		const { items, error } = await get('={{ $json.id }}', {}, { onError: 'continueRegularOutput' }, [{ id: 'nope' }, { id: 'srv-2' }]);
		expect(error).toBeUndefined();
		expect(items).toEqual([
			{
				json: { error: 'No service with id_service "nope"', details: expect.stringMatching(/Check the ID/) },
				pairedItem: { item: 0 },
			},
			{ json: expectedSimplified(records[1]), pairedItem: { item: 1 } },
		]);
	});

	test('an empty Service is refused by n8n itself (required) before anything is sent', async () => {
		await expect(get({ __rl: true, mode: 'list', value: '' })).rejects.toThrow('Parameter "Service" is required');
		expect(local.seen).toEqual([]);
	});

	test.each([
		['spaces', '   ', 'No service chosen'],
		['an expression giving nothing', '={{ $json.missing }}', '"Service" got no value: its expression gave undefined'],
		['a list from an expression', '={{ ["srv-1"] }}', '"Service" must be an ID (text), not the list ["srv-1"]'],
	])('%s is a parameter error before anything is sent', async (_what, serviceId, message) => {
		const { error } = await get(serviceId);
		expect(error?.message).toBe(message);
		expect(error?.description).toMatch(/Pick a service from the list/);
		expect(error?.context?.itemIndex).toBe(0);
		expect(local.seen).toEqual([]);
	});

	test('the canvas subtitle reads "Get service"', () => {
		const node = servicesNode({ operation: 'get' });
		const subtitle = createWorkflow([node]).expression.getSimpleParameterValue(
			node,
			new Services().description.subtitle as string,
			'internal',
			{},
		);
		expect(subtitle).toBe('Get service');
	});

	test('for an AI agent: the operation says when to use it, and the Service field what to fill in', () => {
		const properties = new Services().description.properties;
		const operation = properties.find((p) => p.name === 'operation');
		const getOption = operation?.options?.find((o) => 'value' in o && o.value === 'get') as { description?: string; action?: string };
		expect(getOption.description).toMatch(/by its ID \(id_service\)/);
		expect(getOption.action).toBe('Get service');
		const serviceId = properties.find((p) => p.name === 'serviceId');
		expect(serviceId?.description).toMatch(/id_service/);
		expect(serviceId?.displayOptions).toEqual({ show: { resource: ['service'], operation: ['get'] } });
	});
});

describe('"From List": searchServices', () => {
	async function search(filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
		const node = servicesNode({ operation: 'get' });
		const workflow = createWorkflow([node]);
		const additionalData = createAdditionalData({ apiKey: KEY, baseUrl: local.origin }, createHooks('internal', node));
		const context = new LoadOptionsContext(workflow, node, additionalData, 'serviceId');
		const nodeType = new Services() as INodeType;
		return await nodeType.methods!.listSearch!.searchServices.call(context, filter, paginationToken);
	}

	test('without a filter: every service, named by name and alias, valued by id', async () => {
		const { results, paginationToken } = await search();
		expect(results).toHaveLength(12);
		expect(results[0]).toEqual({ name: 'web-1.acme (Box 1)', value: 'srv-1' });
		expect(paginationToken).toBeUndefined();
	});

	test('the filter matches name or alias, case-insensitive', async () => {
		const { results } = await search('SHOP');
		expect(results.map((result) => result.value)).toEqual(['srv-8', 'srv-10']);
	});

	test('a record without name or alias is listed by its id', async () => {
		await local.close();
		local = await startPagedApi([[{ id_service: 'bare' }]], 'next');
		expect((await search()).results).toEqual([{ name: 'bare', value: 'bare' }]);
	});

	test('what the editor receives is rendered: a name or id holding the key (base64 too) is redacted, a long one bounded', async () => {
		await local.close();
		const base64 = Buffer.from(`Bearer ${KEY}`).toString('base64');
		local = await startPagedApi(
			[
				[
					serviceRecord({ id: `id-${KEY}`, name: `web ${base64}`, alias: `alias ${KEY.slice(0, 12)}` }),
					serviceRecord({ id: 'long', name: 'n'.repeat(5000) }),
				],
			],
			'next',
		);
		const { results } = await search();
		// The base64 characters that depend on the key are redacted; those of "Bearer " stay.
		expect(results[0]).toEqual({ name: expect.stringMatching(/^web \S*\[redacted\]\S* \(alias \[redacted\]\)$/), value: 'id-[redacted]' });
		expect(leakedWindows(JSON.stringify(results), KEY)).toEqual([]);
		expect(results[1].name.length).toBeLessThanOrEqual(2 * NAME_MAX + 3);
		expect(results[1].name).toMatch(/^n+… \(alias-long\)$/);
		expect(JSON.stringify(results)).not.toContain(KEY.slice(0, 8));
	});

	test('a pagination token the node did not give (e.g. an address) is refused without sending anything', async () => {
		const elsewhere = await startPagedApi([records], 'next');
		try {
			await expect(search(undefined, `${elsewhere.origin}${pagePath(2)}`)).rejects.toThrow('its position is not one this node gave');
			expect(elsewhere.seen).toEqual([]);
			expect(local.seen).toEqual([]);
		} finally {
			await elsewhere.close();
		}
	});

	test('in pages: a token resumes at the platform page after the last one read', async () => {
		await local.close();
		const many = Array.from({ length: 250 }, (_, i) => serviceRecord({ id: `s-${i}` }));
		local = await startPagedApi(paginate(many, 60), 'links.next');
		const first = await search();
		expect(first.results).toHaveLength(120);
		// Opaque: pages read and an id of the node's own, never the platform's link.
		expect(first.paginationToken).toMatch(/^2\.[a-z0-9]+$/);
		const second = await search(undefined, first.paginationToken);
		expect(second.results.map((result) => result.value)).toEqual(many.slice(120, 240).map((r) => r.id_service));
		const third = await search(undefined, second.paginationToken);
		expect(third.results.map((result) => result.value)).toEqual(many.slice(240).map((r) => r.id_service));
		expect(third.paginationToken).toBeUndefined();
	});

	test('the token the editor gets carries nothing of the link, so no key in it: a link with ?api_key= pages on', async () => {
		await local.close();
		const many = Array.from({ length: 250 }, (_, i) => serviceRecord({ id: `srv-${i + 1}` }));
		const pages = paginate(many, 60);
		// The platform's next links carry the key in their query, as some platforms do.
		local = await startLocalApi((origin) => (url) => {
			const page = Number(url.searchParams.get('page') ?? '1');
			const next = page < pages.length ? `${origin}/v2026/services?page=${page + 1}&api_key=${KEY}` : null;
			return { body: { data: pages[page - 1], links: { next } } };
		});
		const first = await search();
		expect(first.results).toHaveLength(120);
		expect(JSON.stringify(first)).not.toContain(KEY);
		expect(first.paginationToken).not.toContain('api_key');
		const second = await search(undefined, first.paginationToken);
		expect(second.results.map((result) => result.value)).toEqual(many.slice(120, 240).map((r) => r.id_service));
		expect(JSON.stringify(second)).not.toContain(KEY);
		// A token whose resume point this process does not have (another n8n process, or evicted): the
		// pages already shown are read again and skipped, so the list still pages on.
		const unknown = await search(undefined, first.paginationToken!.replace(/\.[a-z0-9]+$/, '.unknown'));
		expect(unknown.results.map((result) => result.value)).toEqual(many.slice(120, 240).map((r) => r.id_service));
		const last = await search(undefined, second.paginationToken);
		expect(last.results.map((result) => result.value)).toEqual(many.slice(240).map((r) => r.id_service));
		expect(last.paginationToken).toBeUndefined();
	});
});
