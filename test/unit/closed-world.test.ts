/**
 * Issue 34, "The closed world still guesses by name", through n8n's engine against real HTTP servers on
 * 127.0.0.1: inside the paging metadata a number or true/false under a name the node does not know
 * (Solr's `numFound`, Algolia's `nbHits`, `done: false`, `remaining: 3553`) is an error naming it,
 * never a short listing returned as whole; a key named twice anywhere outside the records is an error
 * naming its path; and the trigger reports no `removed` over a listing that says it is short. Each
 * test failed on 0.5.0 (327bc22). The names are generated in answer.property.test.ts; these are the
 * issue's own examples.
 */
import type { INodeParameters } from 'n8n-workflow';

import { serviceRecord } from '../harness/fixtures';
import { closeLocalServers } from '../harness/localServer';
import type { Answer, LocalApi } from '../harness/pagedApi';
import { startLocalApi } from '../harness/pagedApi';
import { ActivePoller } from '../harness/poll';
import { runNode, servicesNode, servicesTriggerNode } from '../harness/workflow';

const KEY = 'sk-live-CLOSEDWORLD-3e7a1c9d5b2f8046';
const records = Array.from({ length: 40 }, (_, i) => serviceRecord({ id: `srv-${i + 1}` }));

afterEach(closeLocalServers);

const credentialsFor = (local: { origin: string }) => ({ apiKey: KEY, baseUrl: local.origin });
const list = (local: LocalApi, parameters: INodeParameters = {}) =>
	runNode({ node: servicesNode({ returnAll: true, simplify: false, ...parameters }), credentials: credentialsFor(local) });
const serve = (answer: Answer) => startLocalApi(() => answer);

/** The run failed with an error whose message names `field`, says what to do, carries the item index and not the key. */
async function expectErrorNaming(run: ReturnType<typeof list>, field: string, message: RegExp) {
	const result = await run;
	expect(result.items).toEqual([]);
	expect(result.error?.message).toContain(field);
	expect(result.error?.message).toMatch(message);
	expect(result.error?.description).toMatch(/report the field to the package maintainers/);
	expect(result.error?.context?.itemIndex).toBe(0);
	expect(result.serialized).not.toContain(KEY);
	return result;
}

describe('a number or true/false under a name the node does not know, in the paging metadata', () => {
	test.each<[string, number | boolean, string]>([
		['numFound', 40, 'Solr'],
		['nbHits', 3573, 'Algolia'],
		['found', 40, 'a total'],
		['numResults', 40, 'a total'],
		['done', false, 'not finished'],
		['complete', false, 'not finished'],
		['remaining', 3553, 'not finished'],
	])('meta.%s = %j (%s) over 20 services: an error naming it, not 20 services as the whole listing', async (name, value) => {
		const local = await serve(() => ({ body: { data: records.slice(0, 20), meta: { [name]: value, request_id: 'r-1' } } }));
		await expectErrorNaming(list(local), `"meta.${name}"`, /in its paging metadata, which the node does not know/);
	});

	test('deeper: in an unknown object or list inside a holder, and in a nested holder', async () => {
		for (const meta of [{ search: { state: { found: 40 } } }, { stats: [{ hits: 40 }] }, { pagination: { numFound: 40 } }]) {
			const local = await serve(() => ({ body: { data: records.slice(0, 20), meta } }));
			const result = await list(local);
			expect(result.items).toEqual([]);
			expect(result.error?.message).toMatch(/^The answer holds "meta\.(search\.state\.found|stats\[0\]\.hits|pagination\.numFound)"/);
		}
	});

	test('texts under names it does not know stay harmless: a request id, a copyright, warnings', async () => {
		const meta = { request_id: 'r-1', copyright: '(c) 2026 Platform', warnings: ['slow'], generated_at: '2026-11-30T10:00:00Z' };
		const local = await serve(() => ({ body: { data: records, meta } }));
		const result = await list(local);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(40);
	});
});

describe('a key named twice anywhere outside the records', () => {
	test('two next links in "links", the second null: an error naming "links.next", not page 1 as the whole listing', async () => {
		const body = `{"data": ${JSON.stringify(records.slice(0, 20))}, "links": {"next": "/v2026/services?page=2", "next": null}}`;
		const result = await list(await serve(() => ({ body })));
		expect(result.items).toEqual([]);
		expect(result.error?.message).toBe('The answer names the key "next" twice in one object, at "links.next"');
		expect(result.error?.context?.itemIndex).toBe(0);
	});

	test('has_more true then false in "meta": an error naming "meta.has_more"', async () => {
		const body = `{"data": ${JSON.stringify(records.slice(0, 20))}, "meta": {"has_more": true, "has_more": false}}`;
		const result = await list(await serve(() => ({ body })));
		expect(result.items).toEqual([]);
		expect(result.error?.message).toBe('The answer names the key "has_more" twice in one object, at "meta.has_more"');
		expect(result.serialized).not.toContain(KEY);
	});

	test("a key named twice inside a record is the record's own (JSON.parse keeps the last): no error", async () => {
		const [first, ...rest] = records.slice(0, 3).map((record) => JSON.stringify(record));
		const body = `{"data": [${first.replace(/}$/, ', "note": "a", "note": "b"}')}, ${rest.join(', ')}], "meta": {"total": 3}}`;
		const result = await list(await serve(() => ({ body })));
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.note)).toEqual(['b', undefined, undefined]);
	});
});

test('the trigger: a poll answered with 30 services and "numFound": 40 fails and keeps its list; no false removed', async () => {
	let short = false;
	const local = await serve(() =>
		short ? { body: { data: records.slice(0, 30), meta: { numFound: 40 } } } : { body: { data: records, meta: { request_id: 'r' } } },
	);
	const poller = new ActivePoller(servicesTriggerNode(), credentialsFor(local));
	expect((await poller.tick()).error).toBeUndefined();
	const kept = poller.staticData();
	short = true;
	const failed = await poller.tick();
	expect(failed.emitted).toBeNull();
	expect(failed.error?.message).toContain('"meta.numFound"');
	expect(poller.staticData()).toEqual(kept);
	short = false;
	const after = await poller.tick();
	expect(after.error).toBeUndefined();
	expect(after.emitted).toBeNull();
});
