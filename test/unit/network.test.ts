/**
 * The time limits on a real network (issue 28, finding 8): a real TLS server on 127.0.0.1 behind the
 * latency proxy (tools/lib/latency-proxy.cjs: round trips, a handshake per connection, slow start),
 * the nodes run through n8n-core's engine. n8n's request helper opens a new connection for every page,
 * so every page pays the handshakes; a listing that HTTP Request's pagination completes must not be
 * refused by the defaults. Each request has the Timeout, the whole listing the Listing Time Limit,
 * a poll n8n's budget; each error names the limit that fired. Durations are asserted only as generous
 * bounds or as floors (load only makes a run slower), never as exact figures.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { LatencyProxy } from '../../tools/lib/latency-proxy.cjs';
import { startLatencyProxy } from '../../tools/lib/latency-proxy.cjs';
import { generateServices } from '../../tools/mock-platform/server.cjs';
import type { Handler, LocalServer } from '../harness/localServer';
import { closeLocalServers, startLocalServer } from '../harness/localServer';
import { ActivePoller } from '../harness/poll';
import { watchRetryWaits } from '../harness/retryWaits';
import { loadCertificates, removeCertificates, trustedLocal, trustTestCa } from '../harness/tls';
import { runNode, servicesNode, servicesTriggerNode } from '../harness/workflow';

const KEY = 'sk-live-NETWORK-5e1f0c9a7b3d2468';
const PATH = '/v2026/services';
/** 0.4.0's Timeout: 30 s for the whole listing, every page included. */
const OLD_DEFAULT_TOTAL_MS = 30_000;

const proxies: LatencyProxy[] = [];

beforeAll(() => loadCertificates());
beforeEach(() => trustTestCa());
afterEach(async () => {
	jest.restoreAllMocks();
	await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
	await closeLocalServers();
});
afterAll(() => removeCertificates());

/** Page n of `pages` as `{ data, next }`, `next` relative (the proxy's origin is not the server's); `endless`: always a next page. */
function pagedHandler(
	pages: number,
	perPage: number,
	{ endless = false, slowPage }: { endless?: boolean; slowPage?: { page: number; handler: Handler } } = {},
): Handler {
	const services = generateServices(endless ? perPage : pages * perPage, 28);
	return (req, res) => {
		const page = Number(new URL(req.url ?? '/', 'https://127.0.0.1').searchParams.get('page') ?? '1');
		if (slowPage?.page === page) return slowPage.handler(req, res);
		const records = endless
			? services.map((s) => ({ ...s, id_service: `${s.id_service}-p${page}` }))
			: services.slice((page - 1) * perPage, page * perPage);
		const next = endless || page < pages ? `${PATH}?page=${page + 1}` : null;
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ data: records, next }));
	};
}

/** A TLS server answering `handler`, behind a link of `rttMs` where each new connection also waits `connectDelayMs`. */
async function overNetwork(
	handler: Handler,
	link: { rttMs: number; connectDelayMs?: number },
): Promise<{ server: LocalServer; proxy: LatencyProxy; baseUrl: string }> {
	const server = await startLocalServer({ tls: trustedLocal, handler });
	const proxy = await startLatencyProxy({ target: server.port, ...link });
	proxies.push(proxy);
	return { server, proxy, baseUrl: `https://127.0.0.1:${proxy.port}` };
}

const list = (baseUrl: string, parameters: INodeParameters = {}) =>
	runNode({ node: servicesNode({ returnAll: true, ...parameters }), credentials: { apiKey: KEY, baseUrl } });
const get = (baseUrl: string, serviceId: string, parameters: INodeParameters = {}) =>
	runNode({ node: servicesNode({ operation: 'get', serviceId, ...parameters }), credentials: { apiKey: KEY, baseUrl } });
const description = (error: unknown) => (error as { description?: string } | undefined)?.description ?? '';

test('the defaults hold on a slow link: List, Get of a service on the last page and the trigger complete a listing longer than 30 s', async () => {
	// 60 pages, each on a new connection that costs 500 ms before its first byte and 3 round trips of
	// 10 ms: at least 31.8 s, longer than 0.4.0's 30 s for the whole listing (which failed here with
	// "The platform did not answer within 30 s"); HTTP Request's pagination completes it.
	const pages = 60;
	const { baseUrl, proxy } = await overNetwork(pagedHandler(pages, 5), { rttMs: 10, connectDelayMs: 500 });
	const lastId = generateServices(pages * 5, 28)[pages * 5 - 1].id_service;
	const started = Date.now();
	const [listed, got, polled] = await Promise.all([
		list(baseUrl),
		get(baseUrl, lastId),
		new ActivePoller(servicesTriggerNode(), { apiKey: KEY, baseUrl }).tick({ activation: true }),
	]);
	const elapsed = Date.now() - started;
	console.info(`${pages} pages over a 10 ms link, 500 ms per connection: ${elapsed} ms, ${proxy.stats.connections} connections`);
	// The premise: each page a connection of its own, and longer than 0.4.0's total.
	expect(proxy.stats.connections).toBeGreaterThanOrEqual(3 * pages);
	expect(elapsed).toBeGreaterThan(OLD_DEFAULT_TOTAL_MS);

	expect(listed.error).toBeUndefined();
	expect(listed.items).toHaveLength(pages * 5);
	expect(got.error).toBeUndefined();
	expect(got.items.map((item) => item.json.id_service)).toEqual([lastId]);
	expect(polled.error).toBeUndefined();
	// The activation poll recorded every service, the last page's too.
	expect(JSON.stringify(polled.staticData)).toContain(lastId);
}, 120_000);

test('a Timeout set before 0.5.0 now bounds each request: a listing each of whose requests fits completes', async () => {
	// 12 pages of about 250 ms each: 3 s in all (at least 2.4 s: the connection delays are floors), each
	// within a Timeout of 2 s (0.4.0: cut at 2 s in total); 1.75 s to spare per page on a loaded machine.
	const { baseUrl, proxy } = await overNetwork(pagedHandler(12, 5), { rttMs: 10, connectDelayMs: 200 });
	const started = Date.now();
	const result = await list(baseUrl, { options: { timeout: 2000 } });
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(60);
	expect(Date.now() - started).toBeGreaterThan(2000);
	expect(proxy.stats.connections).toBe(12);
});

test('a listing that never ends by time is cut at the Listing Time Limit, and the error says which limit and how to raise it', async () => {
	const { baseUrl, server } = await overNetwork(pagedHandler(1, 5, { endless: true }), { rttMs: 10, connectDelayMs: 50 });
	const started = Date.now();
	const result = await list(baseUrl, { options: { listingTimeLimit: 0.03 } });
	const elapsed = Date.now() - started;
	console.info(`endless pages, Listing Time Limit 1.8 s: stopped after ${elapsed} ms and ${server.seen.length} requests`);
	expect(result.error).toMatchObject({
		message: 'The listing did not finish within the Listing Time Limit (1.8 s)',
		context: { itemIndex: 0 },
	});
	expect(description(result.error)).toMatch(
		/^The node stopped waiting for 127\.0\.0\.1:\d+ to list services after 1\.8 s \(on page \d+, after \d+ page\(s\)\)\. Raise "Listing Time Limit" under Options \(the time for the whole listing: every page, retry and wait\)/,
	);
	expect(server.seen.length).toBeGreaterThan(2);
	expect(elapsed).toBeGreaterThanOrEqual(1700);
	expect(elapsed).toBeLessThan(1800 + 5000);
	expect(result.serialized).not.toContain(KEY);
});

test('Get that never finds its service on endless pages is cut at the Listing Time Limit too', async () => {
	const { baseUrl } = await overNetwork(pagedHandler(1, 5, { endless: true }), { rttMs: 10 });
	const result = await get(baseUrl, 'srv-nowhere', { options: { listingTimeLimit: 0.02 } });
	expect(result.error?.message).toBe('The listing did not finish within the Listing Time Limit (1.2 s)');
});

test('a page trickling its bytes is cut at the Timeout of that one request, named as such', async () => {
	const trickle: Handler = (req, res) => {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.write('{"data": [');
		const timer = setInterval(() => res.write(' '), 200);
		req.socket.on('close', () => clearInterval(timer));
	};
	const { baseUrl } = await overNetwork(pagedHandler(5, 5, { slowPage: { page: 3, handler: trickle } }), { rttMs: 10 });
	const started = Date.now();
	const result = await list(baseUrl, { options: { timeout: 1500 } });
	const elapsed = Date.now() - started;
	expect(result.error).toMatchObject({ message: 'The platform did not answer within 1.5 s', context: { itemIndex: 0 } });
	expect(description(result.error)).toMatch(
		/after 1\.5 s for one request \(on page 3, after 2 page\(s\)\)\. Raise "Timeout" under Options \(the time for each request/,
	);
	expect(elapsed).toBeGreaterThanOrEqual(1500);
	expect(elapsed).toBeLessThan(1500 + 5000);
});

test("the trigger's listing ends within n8n's poll budget whatever the Listing Time Limit, and says so", async () => {
	const { baseUrl } = await overNetwork(pagedHandler(1, 5, { endless: true }), { rttMs: 10 });
	const poller = new ActivePoller(servicesTriggerNode({ options: { listingTimeLimit: 60 } }), { apiKey: KEY, baseUrl });
	const started = Date.now();
	const tick = await poller.tick({ pollBudgetMs: 2000 });
	expect(tick.error?.message).toBe("The platform did not answer within n8n's poll budget (1.8 s of 2 s used)");
	expect(description(tick.error)).toMatch(/Raising "Timeout" or "Listing Time Limit" does not help/);
	expect(Date.now() - started).toBeLessThan(2000 + 3000);
	expect(tick.staticData).toEqual({});
});

test('a retry never waits past the Listing Time Limit: a Retry-After longer than what is left fails at once, naming it', async () => {
	// 20 s: within the Timeout (30 s), longer than the whole Listing Time Limit (15 s), which leaves two
	// quick pages room on any loaded machine (with 2.4 s the limit itself could fire first).
	const busy: Handler = (_req, res) => {
		res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '20' });
		res.end('{"message": "slow down"}');
	};
	const { baseUrl, server } = await overNetwork(pagedHandler(5, 5, { slowPage: { page: 2, handler: busy } }), { rttMs: 10 });
	const waits = watchRetryWaits();
	const result = await list(baseUrl, { options: { listingTimeLimit: 0.25 } });
	expect(waits).toEqual([]);
	expect(server.seen).toHaveLength(2);
	expect(result.error).toMatchObject({ message: 'The platform asks to wait 20 s (HTTP 429), longer than the time left' });
	expect(description(result.error)).toMatch(
		/^Only [\d.]+ (ms|s) of the Listing Time Limit \(15 s\) were left, so the node did not wait\..*raise "Listing Time Limit" under Options\./,
	);
});
