/**
 * Issue 28, findings 1, 2 and 5, through n8n's engine against real HTTP servers on 127.0.0.1: every
 * part of an answer besides its records is understood, harmless, or an error naming it (never part of
 * the listing returned as all of it); signals that agree a listing is complete never fail it, in
 * either page base; and the JSON a platform may send (a key named twice in a map of records, integers
 * beyond 2^53, ids with a space at their end) is never silently changed. Each test failed on 0.4.0.
 */
import { LoadOptionsContext } from 'n8n-core';
import type { INodeParameters, INodeType } from 'n8n-workflow';

import { Services } from '../../nodes/Services/Services.node';
import { serviceRecord } from '../harness/fixtures';
import { closeLocalServers } from '../harness/localServer';
import type { Answer, LocalApi } from '../harness/pagedApi';
import { startLocalApi } from '../harness/pagedApi';
import { ActivePoller } from '../harness/poll';
import { createAdditionalData, createHooks, createWorkflow, runNode, servicesNode, servicesTriggerNode } from '../harness/workflow';

const KEY = 'sk-live-FINDINGS-5b2e8d1c7a4f9036';
const records = Array.from({ length: 40 }, (_, i) => serviceRecord({ id: `srv-${i + 1}` }));
const [first20, last20] = [records.slice(0, 20), records.slice(20)];

afterEach(closeLocalServers);

const credentialsFor = (local: { origin: string }) => ({ apiKey: KEY, baseUrl: local.origin });
const list = (local: LocalApi, parameters: INodeParameters = {}) =>
	runNode({ node: servicesNode({ returnAll: true, simplify: false, ...parameters }), credentials: credentialsFor(local) });
const get = (local: LocalApi, id: string, mode = 'id') => list(local, { operation: 'get', serviceId: { __rl: true, mode, value: id } });
/** Page 1 is `/v2026/services`, page n `?page=n`: `answer(n)` answers it. */
const pages = (answer: (n: number, url: URL) => ReturnType<Answer>) =>
	startLocalApi(() => (url) => answer(Number(url.searchParams.get('page') ?? 1), url));
/** A server answering every request with the raw text `body`. */
const rawText = (body: string, headers: Record<string, string> = {}) => startLocalApi(() => () => ({ body, headers }));

/** The run failed with an error whose message names `field`; no items; the key nowhere. */
async function expectErrorNaming(run: Promise<Awaited<ReturnType<typeof list>>>, field: string, message?: RegExp) {
	const result = await run;
	expect(result.items).toEqual([]);
	expect(result.error?.message).toContain(field);
	if (message) expect(result.error?.message).toMatch(message);
	expect(result.error?.context?.itemIndex).toBe(0);
	expect(result.serialized).not.toContain(KEY);
	return result;
}

describe('finding 1: paging metadata outside the places 0.4.0 read is understood or an error naming it', () => {
	test('an unknown cursor under meta', async () => {
		const local = await pages(() => ({ body: { data: first20, meta: { scroll_cursor: 'c2', request_id: 'r-1' } } }));
		await expectErrorNaming(list(local), '"meta.scroll_cursor"');
	});

	test('an unknown total under pagination', async () => {
		const local = await pages(() => ({ body: { data: first20, pagination: { grand_total: 40 } } }));
		await expectErrorNaming(list(local), '"pagination.grand_total"');
	});

	test('a cursor two levels down an unknown object under meta', async () => {
		const local = await pages(() => ({ body: { data: first20, meta: { search: { state: { nextToken: 'x' } } } } }));
		await expectErrorNaming(list(local), '"meta.search.state.nextToken"');
	});

	test('links as a list of {rel, href}: its next link is followed, every record read', async () => {
		const local = await pages((n) => ({
			body: {
				data: n === 1 ? first20 : last20,
				links: [{ rel: 'self', href: `?page=${n}` }, ...(n === 1 ? [{ rel: 'next', href: '?page=2' }] : [])],
			},
		}));
		const result = await list(local);
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual(records.map((json) => ({ json, pairedItem: { item: 0 } })));
	});

	test('a 206 with Content-Range: part of the listing is an error naming it', async () => {
		const local = await pages(() => ({ status: 206, body: first20, headers: { 'Content-Range': 'items 0-19/40' } }));
		await expectErrorNaming(list(local), 'Content-Range', /^The listing is incomplete/);
	});

	test('a Link header with only rel="last", leading to another page', async () => {
		const local = await pages((n, url) => ({
			body: n === 1 ? first20 : last20,
			headers: { Link: `<${url.origin}/v2026/services?page=2>; rel="last"` },
		}));
		await expectErrorNaming(list(local), 'rel="last"', /^The listing is incomplete/);
	});

	test('Get of a service past the part read: the listing error, not "no service"', async () => {
		const local = await pages(() => ({ body: first20, headers: { Link: '</v2026/services?page=2>; rel="last"' } }));
		await expectErrorNaming(get(local, 'srv-30'), 'rel="last"', /^The listing is incomplete/);
	});

	test('the trigger: a poll answered with part of the listing fails and reports no removal', async () => {
		let partial = false;
		const local = await pages(() => (partial ? { body: { data: first20, meta: { next_marker: 'm2' } } } : { body: records }));
		const poller = new ActivePoller(servicesTriggerNode(), credentialsFor(local));
		expect((await poller.tick()).error).toBeUndefined();
		partial = true;
		const tick = await poller.tick();
		expect(tick.emitted).toBeNull();
		expect(tick.error?.message).toContain('"meta.next_marker"');
		partial = false;
		const after = await poller.tick();
		expect(after.error).toBeUndefined();
		expect(after.emitted).toBeNull();
	});
});

describe('finding 2: a complete listing whose pages count from 0 is read', () => {
	/** Spring-style pages counted from 0: page 0 links to page 1; page 1 says it is the last. */
	const zeroBased = () =>
		pages((n) => {
			const page = n - 1;
			const next = n === 1 ? { next: '?page=2' } : {};
			return { body: { content: n === 1 ? first20 : last20, page, totalPages: 2, last: n === 2, ...next } };
		});

	test('List: every record of "page": 1 of "totalPages": 2 with "last": true', async () => {
		const result = await list(await zeroBased());
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(40);
	});

	test('the trigger can be activated on such a platform', async () => {
		const poller = new ActivePoller(servicesTriggerNode(), credentialsFor(await zeroBased()));
		const tick = await poller.tick({ activation: true });
		expect(tick.error).toBeUndefined();
		const stored = Object.values(tick.staticData).find((state) => typeof state === 'object' && state !== null && 'services' in state) as {
			services: object;
		};
		expect(Object.keys(stored.services)).toHaveLength(40);
	});
});

describe('finding 5: JSON a platform may send', () => {
	test('a map of records that names one id twice is an error naming it', async () => {
		const [a, b, c] = records.slice(0, 3).map((record) => JSON.stringify(record));
		const local = await rawText(`{"srv-1": ${a}, "srv-2": ${b}, "srv-1": ${c}}`);
		await expectErrorNaming(list(local), '"srv-1"');
	});

	test('an integer beyond 2^53 in raw output keeps its exact digits', async () => {
		const body = JSON.stringify([records[0]]).replace(/}]$/, ', "bytes_used": 12345678901234567890, "small": -42}]');
		const result = await list(await rawText(body));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.bytes_used).toBe('12345678901234567890');
		expect(result.items[0].json.small).toBe(-42);
	});

	test('an id_service with a space at its end: From List offers it, Get finds it', async () => {
		const spaced = [serviceRecord({ id: 'srv-1 ', name: 'web' }), serviceRecord({ id: 'srv-2', name: 'db' })];
		const local = await pages(() => ({ body: spaced }));
		const node = servicesNode({ operation: 'get' });
		const context = new LoadOptionsContext(
			createWorkflow([node]),
			node,
			createAdditionalData(credentialsFor(local), createHooks('internal', node)),
			'serviceId',
		);
		const { results } = await (new Services() as INodeType).methods!.listSearch!.searchServices.call(context);
		const offered = results.find((entry) => entry.name.startsWith('web'))!.value as string;
		expect(offered).toBe('srv-1 ');
		for (const mode of ['list', 'id']) {
			const result = await get(local, offered, mode);
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json)).toEqual([spaced[0]]);
		}
	});

	test('two records whose ids differ only by a space at the end are one id listed twice', async () => {
		const local = await pages(() => ({ body: [serviceRecord({ id: 'srv-1' }), serviceRecord({ id: 'srv-1 ' })] }));
		await expectErrorNaming(list(local), 'more than once');
	});
});
