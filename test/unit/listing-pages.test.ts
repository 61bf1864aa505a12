/**
 * Paged listings through n8n's real engine against real HTTP servers on 127.0.0.1: every next-link
 * form, relative links, another origin, loops, the 1,000-page cap, early stop with Limit, duplicates
 * across pages, a listing that stops early, and the trigger reading all pages (a failed page keeps
 * the previous state).
 */
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { MAX_LISTING_PAGES } from '../../nodes/shared/listing/listing';
import { expectedItems, serviceRecord } from '../harness/fixtures';
import type { LocalApi } from '../harness/pagedApi';
import { LISTING_PATH, NEXT_FORMS, pageAnswer, paginate, pagePath, startLocalApi, startPagedApi } from '../harness/pagedApi';
import { closeLocalServers } from '../harness/localServer';
import { ActivePoller } from '../harness/poll';
import { runNode, servicesNode, servicesTriggerNode } from '../harness/workflow';

const KEY = 'sk-live-PAGES-5d2c81e07b9a4f36';
const records = Array.from({ length: 23 }, (_, i) => serviceRecord({ id: `srv-${i + 1}`, status: i % 5 === 0 ? 'suspended' : 'active' }));

afterEach(closeLocalServers);

const credentialsFor = (local: LocalApi) => ({ apiKey: KEY, baseUrl: local.origin });
const list = (local: LocalApi, parameters: INodeParameters = {}, overrides: Partial<INode> = {}) =>
	runNode({ node: servicesNode({ returnAll: true, ...parameters }, overrides), credentials: credentialsFor(local) });

describe.each(NEXT_FORMS)('pages linked by %s', (form) => {
	test('Return All returns every record of every page, in order, with the key on each request', async () => {
		const local = await startPagedApi(paginate(records, 5), form);
		const { items, error } = await list(local);
		expect(error).toBeUndefined();
		expect(items).toEqual(expectedItems(records, 0));
		expect(local.seen.map((request) => request.url)).toEqual([1, 2, 3, 4, 5].map(pagePath));
		expect(local.seen.every((request) => request.authorization === `Bearer ${KEY}`)).toBe(true);
	});
});

test('Limit stops reading pages once enough items are gathered (after filters)', async () => {
	const local = await startPagedApi(paginate(records, 5), 'next');
	const limited = await list(local, { returnAll: false, limit: 7 });
	expect(limited.items.map((item) => item.json.id_service)).toEqual(records.slice(0, 7).map((r) => r.id_service));
	expect(local.seen).toHaveLength(2);

	// suspended: srv-1, srv-6, srv-11, srv-16, srv-21 -> the third is on page 3 (records 11-15).
	local.seen.length = 0;
	const filtered = await list(local, { returnAll: false, limit: 3, filters: { status: 'suspended' } });
	expect(filtered.items.map((item) => item.json.id_service)).toEqual(['srv-1', 'srv-6', 'srv-11']);
	expect(local.seen).toHaveLength(3);
});

test('an empty first page with no next link is an empty listing', async () => {
	const local = await startPagedApi([[]], 'links.next');
	const { items, error } = await list(local);
	expect(error).toBeUndefined();
	expect(items).toEqual([]);
});

test('empty pages in between are read through', async () => {
	const pages = [records.slice(0, 2), [], [], records.slice(2, 3)];
	const local = await startPagedApi(pages, 'Link header');
	const { items } = await list(local);
	expect(items.map((item) => item.json.id_service)).toEqual(['srv-1', 'srv-2', 'srv-3']);
});

/** The error the node stops with: message, description, item index, and the key nowhere. */
async function expectListingError(local: LocalApi, message: string | RegExp, description: RegExp) {
	const result = await list(local);
	expect(result.items).toEqual([]);
	expect(result.error?.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
	expect(result.error?.description).toMatch(description);
	expect(result.error?.context?.itemIndex).toBe(0);
	expect(result.serialized).not.toContain(KEY);
	return result;
}

test('a next link to another origin is refused, names the link, and the key is not sent there', async () => {
	const elsewhere = await startPagedApi([records], 'next');
	const local = await startLocalApi(
		() => (url) =>
			url.searchParams.get('page') === null
				? { body: { data: records.slice(0, 2), next: `${elsewhere.origin}/v2026/services?page=2` } }
				: { body: [] },
	);
	await expectListingError(
		local,
		`The listing's next page is on another address (${elsewhere.origin}/v2026/services?page=2); the node does not follow it`,
		/The link came in "next"\. The API key is only sent to the address in the credential/,
	);
	expect(elsewhere.seen).toEqual([]);
	expect(local.seen).toHaveLength(1);
});

test('a next link back to an earlier page is a loop error', async () => {
	const local = await startLocalApi((origin) => (url) => ({
		body: {
			data: [serviceRecord({ id: `p${url.searchParams.get('page') ?? 1}` })],
			next: url.searchParams.get('page') === '2' ? `${origin}${LISTING_PATH}` : '?page=2',
		},
	}));
	const result = await expectListingError(
		local,
		/^The listing's pages loop: the next-page link leads back to a page already read \(/,
		/After 2 page\(s\)/,
	);
	expect(result.error?.message).toContain(`${local.origin}${LISTING_PATH})`);
	expect(local.seen).toHaveLength(2);
});

test(`a listing that never ends stops after ${MAX_LISTING_PAGES} pages with a clear error`, async () => {
	const local = await startLocalApi(() => (url) => {
		const n = Number(url.searchParams.get('page') ?? '1');
		return { body: [serviceRecord({ id: `srv-${n}` })], headers: { Link: `<?page=${n + 1}>; rel="next"` } };
	});
	await expectListingError(local, `The listing has more than ${MAX_LISTING_PAGES} pages; the node stopped reading`, /never ends/);
	expect(local.seen).toHaveLength(MAX_LISTING_PAGES);
}, 60_000);

test('an id on two pages is an error naming both pages', async () => {
	const pages = [records.slice(0, 3), [records[3], records[1]]];
	const local = await startPagedApi(pages, 'next_page_url');
	await expectListingError(
		local,
		'The listing contains id_service "srv-2" more than once',
		/^Record #2 of 2 in "data" on page 2 repeats an id already listed on page 1\./,
	);
});

test('a last page that states more records than were given is an error, not part of the listing', async () => {
	const local = await startLocalApi(() => () => ({ body: { data: records.slice(0, 5), total: 23, page: 1 } }));
	await expectListingError(
		local,
		'The listing is incomplete: "total" states 23 services, but the answer held 5',
		/does not invent page addresses/,
	);

	const more = await startLocalApi(() => () => ({ body: { items: records.slice(0, 5), has_more: true } }));
	await expectListingError(
		more,
		'The listing is incomplete: "has_more" is true, but no link to the next page came (services read: 5)',
		/does not return part of a listing/,
	);
});

test('a failing page fails the item; with "On Error: Continue" it becomes an error item', async () => {
	const pages = paginate(records, 10);
	const local = await startLocalApi(
		(origin) => (url) =>
			url.searchParams.get('page') === '3'
				? { status: 500, body: { message: 'database down' } }
				: pageAnswer(pages, Number(url.searchParams.get('page') ?? 1), 'next', origin),
	);
	const stopped = await list(local);
	expect(stopped.items).toEqual([]);
	expect(stopped.error?.message).toMatch(/HTTP 500/);

	const continued = await list(local, {}, { onError: 'continueRegularOutput' });
	expect(continued.items).toHaveLength(1);
	expect(continued.items[0].json).toMatchObject({ error: expect.stringMatching(/HTTP 500/) });
});

describe('the trigger reads every page', () => {
	const triggerNode = (): INode => servicesTriggerNode();

	test('a service on page 3 is seen; a failure on page 3 fails the poll and keeps the previous state', async () => {
		let current = records.slice(0, 12);
		let failPage3 = false;
		const local = await startLocalApi((origin) => (url) => {
			const n = Number(url.searchParams.get('page') ?? 1);
			if (n === 3 && failPage3) return { status: 500, body: { message: 'database down' } };
			return pageAnswer(paginate(current, 5), n, 'links.next', origin);
		});
		const poller = new ActivePoller(triggerNode(), credentialsFor(local));
		const baseline = await poller.tick({ activation: true });
		expect(baseline.error).toBeUndefined();
		expect(local.seen).toHaveLength(3);

		// srv-13 appears on page 3; srv-2 changes status on page 1.
		current = [...records.slice(0, 13)];
		current[1] = serviceRecord({ id: 'srv-2', status: 'suspended' });
		failPage3 = true;
		const failed = await poller.tick();
		expect(failed.emitted).toBeNull();
		expect(failed.error?.message).toMatch(/HTTP 500/);
		expect(failed.staticData).toEqual(baseline.staticData);

		failPage3 = false;
		const next = await poller.tick();
		expect(next.error).toBeUndefined();
		const events = (next.emitted?.[0] ?? []).map((item) => [
			(item.json as IDataObject).event,
			((item.json as IDataObject).service as IDataObject).id_service,
		]);
		expect(events).toEqual(
			expect.arrayContaining([
				['statusChanged', 'srv-2'],
				['created', 'srv-13'],
			]),
		);
		expect(events).toHaveLength(2);
	});
});

test.each([
	['={{ 0 }}', '"Limit" must be a whole number of 1 or more, not the number 0'],
	['={{ "ten" }}', '"Limit" must be a whole number of 1 or more, not the text "ten"'],
	['={{ 2.5 }}', '"Limit" must be a whole number of 1 or more, not the number 2.5'],
])('Limit %s from an expression is a parameter error before anything is sent', async (limit, message) => {
	const local = await startPagedApi([records], 'next');
	const result = await list(local, { returnAll: false, limit });
	expect(result.error?.message).toBe(message);
	expect(result.error?.context?.itemIndex).toBe(0);
	expect(local.seen).toEqual([]);
});
