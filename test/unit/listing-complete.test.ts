/**
 * Issue 24, "Why" items 1 and 3, against real HTTP servers on 127.0.0.1 through n8n's engine: a
 * listing whose paging metadata promises more than was read is an error naming the field (List, Get
 * and the trigger, which keeps its remembered list); a status saying "no error" next to the records
 * is a normal answer; a Retry-After that only Date.parse can read is ignored (the usual back-off).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { expectedItems, serviceRecord } from '../harness/fixtures';
import { closeLocalServers, startLocalServer } from '../harness/localServer';
import type { Answer, LocalApi } from '../harness/pagedApi';
import { startLocalApi } from '../harness/pagedApi';
import { ActivePoller } from '../harness/poll';
import { runNode, servicesNode, servicesTriggerNode } from '../harness/workflow';

const KEY = 'sk-live-COMPLETE-8c1d4e7f2a9b0536';
const records = Array.from({ length: 50 }, (_, i) => serviceRecord({ id: `srv-${i + 1}` }));
const first20 = records.slice(0, 20);

afterEach(closeLocalServers);

const credentialsFor = (local: { origin: string }) => ({ apiKey: KEY, baseUrl: local.origin });
const list = (local: LocalApi, parameters: INodeParameters = {}) =>
	runNode({ node: servicesNode({ returnAll: true, ...parameters }), credentials: credentialsFor(local) });
/** A server answering every request with `body` (and `headers`). */
const answering = (body: unknown, headers: Record<string, string> = {}) => startLocalApi(() => () => ({ body, headers }));

const HINT =
	/^The node follows only the next-page links the platform gives .*it does not return part of a listing as if it were all of it\./;

/** The run stops with the listing error (HTTP 200, item 0, no items, the key nowhere). */
async function expectIncomplete(local: LocalApi, message: string, parameters: INodeParameters = {}) {
	const result = await list(local, parameters);
	expect(result.items).toEqual([]);
	expect(result.error?.message).toBe(`The listing is incomplete: ${message}`);
	expect(result.error?.description).toMatch(HINT);
	expect(result.error?.httpCode).toBe('200');
	expect(result.error?.context?.itemIndex).toBe(0);
	expect(result.serialized).not.toContain(KEY);
}

describe('paging metadata that says more exists than was read is an error naming the field', () => {
	test('total: 50 on the first page, 20 records read when the pages end', async () => {
		const local = await startLocalApi(
			() => (url) =>
				url.searchParams.get('page') === null
					? { body: { data: first20.slice(0, 10), total: 50, next: '?page=2' } }
					: { body: { data: first20.slice(10) } },
		);
		await expectIncomplete(local, '"total" on page 1 states 50 services, but the 2 pages held 20');
	});

	test('total: 50 on the only page, 20 records', async () => {
		await expectIncomplete(await answering({ data: first20, total: 50 }), '"total" states 50 services, but the answer held 20');
	});

	test.each([
		['has_more: "true"', 'true', '"has_more" is "true"'],
		['has_more: true', true, '"has_more" is true'],
	])('%s without a next link', async (_name, hasMore, said) => {
		await expectIncomplete(
			await answering({ data: first20, has_more: hasMore }),
			`${said}, but no link to the next page came (services read: 20)`,
		);
	});

	test('page 1 of total_pages 5 without a next link', async () => {
		await expectIncomplete(
			await answering({ data: first20, page: 1, total_pages: 5 }),
			'"page" is 1 of "total_pages" 5 (pages read: 1), but no link to the next page came (services read: 20)',
		);
	});

	test('Laravel: current_page 1 of last_page 3, next_page_url null', async () => {
		const laravel = {
			current_page: 1,
			data: first20,
			first_page_url: '/v2026/services?page=1',
			last_page: 3,
			next_page_url: null,
			per_page: 20,
			prev_page_url: null,
		};
		await expectIncomplete(
			await answering(laravel),
			'"current_page" is 1 of "last_page" 3 (pages read: 1), but no link to the next page came (services read: 20)',
		);
	});

	test('meta.pagination.total: 50, nested (Fractal)', async () => {
		const fractal = { data: first20, meta: { pagination: { total: 50, count: 20, per_page: 20, current_page: 1, links: {} } } };
		await expectIncomplete(await answering(fractal), '"meta.pagination.total" states 50 services, but the answer held 20');
	});

	test('X-Total-Count: 50 on a plain array', async () => {
		await expectIncomplete(
			await answering(first20, { 'X-Total-Count': '50' }),
			'the X-Total-Count header states 50 services, but the answer held 20',
		);
	});

	test('several pages whose sum falls short of the total the first page stated', async () => {
		// Page 1 states 50 and links on; pages 2 and 3 state nothing; 40 records in all.
		const local = await startLocalApi(() => (url) => {
			const n = Number(url.searchParams.get('page') ?? 1);
			const page = records.slice((n - 1) * 20, Math.min(n * 20, 40));
			if (n === 1) return { body: { data: page, total: 50, next: '?page=2' } };
			return { body: { data: page, next: n < 2 ? `?page=${n + 1}` : null } };
		});
		await expectIncomplete(local, '"total" on page 1 states 50 services, but the 2 pages held 40');
		expect(local.seen).toHaveLength(2);
	});

	test('pages that add up, a total that changes on the way, or one that is smaller: the listing', async () => {
		const local = await startLocalApi(() => (url) => {
			const n = Number(url.searchParams.get('page') ?? 1);
			const page = records.slice((n - 1) * 20, n * 20);
			const meta = { total: n === 1 ? 60 : 50, current_page: n, last_page: 3 };
			return { body: { data: page, links: { next: n < 3 ? `?page=${n + 1}` : null }, meta } };
		});
		const result = await list(local);
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual(expectedItems(records, 0));
	});

	test('Get: an id not in a listing that says more exists is that error, not "not found"', async () => {
		const local = await answering({ data: first20, has_more: 'true' });
		const result = await list(local, { operation: 'get', serviceId: { __rl: true, mode: 'id', value: 'srv-45' } });
		expect(result.error?.message).toBe(
			'The listing is incomplete: "has_more" is "true", but no link to the next page came (services read: 20)',
		);
	});

	test('List with Return All off stops before the last page on purpose: no check where it did not read', async () => {
		const local = await startLocalApi(
			() => (url) =>
				url.searchParams.get('page') === null
					? { body: { data: first20, next: '?page=2', total: 50 } }
					: { body: { data: [], has_more: true } },
		);
		const result = await list(local, { returnAll: false, limit: 5 });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(5);
		expect(local.seen).toHaveLength(1);
	});
});

describe('the trigger: a listing that does not add up fails the poll and keeps the remembered list', () => {
	test('then the next good poll reports only what really changed', async () => {
		const page = (data: unknown[], total: number) => ({ body: { data, meta: { pagination: { total, count: data.length } } } });
		let answer: Answer = () => page(records.slice(0, 30), 30);
		const local = await startLocalApi(() => (url) => answer(url));
		const poller = new ActivePoller(servicesTriggerNode(), credentialsFor(local));
		const baseline = await poller.tick({ activation: true });
		expect(baseline.error).toBeUndefined();

		// A short read: 20 of the 30 with total 30. Reported as the listing, 10 services would be "removed".
		answer = () => page(records.slice(0, 20), 30);
		const failed = await poller.tick();
		expect(failed.emitted).toBeNull();
		expect(failed.error?.message).toBe('The listing is incomplete: "meta.pagination.total" states 30 services, but the answer held 20');
		expect(failed.staticData).toEqual(baseline.staticData);

		// Whole again: srv-30 really is gone and srv-31 is new. Nothing else is reported.
		answer = () => page([...records.slice(0, 29), records[30]], 30);
		const next = await poller.tick();
		expect(next.error).toBeUndefined();
		const events = (next.emitted?.[0] ?? []).map((item) => [
			(item.json as IDataObject).event,
			((item.json as IDataObject).service as IDataObject).id_service,
		]);
		expect(events).toEqual(
			expect.arrayContaining([
				['removed', 'srv-30'],
				['created', 'srv-31'],
			]),
		);
		expect(events).toHaveLength(2);
	});
});

describe('the platform answer read for what it says', () => {
	test.each([
		['errors: []', { errors: [] }],
		['errors: null', { errors: null }],
		['error: false', { error: false }],
		['success: true', { success: true, error: null }],
	])('%s next to the records is a normal answer', async (_name, status) => {
		const result = await list(await answering({ data: first20, ...status }));
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual(expectedItems(first20, 0));
	});

	test("errors with content next to the records is still the platform's error", async () => {
		const result = await list(await answering({ data: first20, errors: [{ detail: 'Shard 2 did not answer' }] }));
		expect(result.error?.message).toBe('The platform answered with an error instead of the services');
		expect(result.error?.description).toContain('The platform said: "Shard 2 did not answer".');
	});

	test('Retry-After: "later 3000" is no date: ignored, the usual back-off, then the listing', async () => {
		const api = await startLocalServer({ handler: () => undefined });
		const json =
			(status: number, body: unknown, headers: Record<string, string> = {}) =>
			(_req: unknown, res: import('node:http').ServerResponse) => {
				res.writeHead(status, { 'content-type': 'application/json', ...headers });
				res.end(JSON.stringify(body));
			};
		api.script(json(503, { message: 'busy' }, { 'retry-after': 'later 3000' }), json(200, first20));
		const result = await runNode({
			node: servicesNode({ returnAll: true, options: { timeout: 10_000 } }),
			credentials: credentialsFor(api),
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual(expectedItems(first20, 0));
		expect(api.seen).toHaveLength(2);
	});
});
