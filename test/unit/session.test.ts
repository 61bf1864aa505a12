/**
 * The session contract the listing codes against (openApiSession / ApiSession.get), through n8n's
 * engine with a small probe node, against real local servers: same-origin absolute targets, the key
 * never sent to another origin, a Timeout per request and one time limit for everything fetched
 * through one session.
 */
import type { Text } from '../../nodes/shared/text/text';
import { own } from '../../nodes/shared/text/text';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { readRequestLimits } from '../../nodes/shared/parameters/limits';
import { openApiSession } from '../../nodes/shared/transport/transport';
import type { Handler } from '../harness/localServer';
import { closeLocalServers, startLocalServer } from '../harness/localServer';
import { registerNodeType, runNode, servicesNode } from '../harness/workflow';

const KEY = 'sk-live-SESSION-0d4c7a2b91e8f356';
const PROBE_TYPE = 'test.sessionProbe';

/** GETs each of `targets` (one parameter, comma-separated) through ONE session, in order. */
const probe: INodeType = {
	description: {
		displayName: 'Session probe',
		name: 'sessionProbe',
		group: ['input'],
		version: 1,
		description: 'Fetches targets through one API session',
		defaults: { name: 'Session probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'servicePlatformApi', required: true }],
		properties: [
			{ displayName: 'Targets', name: 'targets', type: 'string', default: '' },
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				default: {},
				options: [
					{ displayName: 'Timeout', name: 'timeout', type: 'number', default: 30000 },
					{ displayName: 'Listing Time Limit', name: 'listingTimeLimit', type: 'number', default: 30 },
				],
			},
		],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const session = await openApiSession.call(this, { itemIndex: 0, limits: readRequestLimits.call(this, 0) });
		const out: INodeExecutionData[] = [];
		for (const target of (this.getNodeParameter('targets', 0) as string).split(',')) {
			// A path is the node's own (as SERVICES_PATH); anything else a URL from elsewhere.
			const response = await session.get(target.startsWith('/') ? { path: target as Text } : target, { action: own('read the test data') });
			out.push({ json: { url: response.url, body: response.body as IDataObject, type: response.headers['content-type'] ?? null } });
		}
		return [out];
	},
};
registerNodeType(PROBE_TYPE, probe);

const answer =
	(body: unknown, delayMs = 0): Handler =>
	(req, res) => {
		setTimeout(() => {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ path: req.url, body }));
		}, delayMs);
	};

async function runProbe(baseUrl: string, targets: string, options: IDataObject = {}) {
	return await runNode({
		node: servicesNode({}, { name: 'Session probe', type: PROBE_TYPE, parameters: { targets, options } as never }),
		credentials: { apiKey: KEY, baseUrl },
	});
}

afterEach(async () => {
	await closeLocalServers();
});

test('paths join the base URL; an absolute same-origin URL is fetched as given; headers come lower-case', async () => {
	const server = await startLocalServer({ handler: answer(1) });
	const result = await runProbe(`${server.origin}/api/`, `/v2026/things,${server.origin}/api/v2026/things?page=2`);
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.json)).toEqual([
		{ url: `${server.origin}/api/v2026/things`, body: { path: '/api/v2026/things', body: 1 }, type: 'application/json' },
		{ url: `${server.origin}/api/v2026/things?page=2`, body: { path: '/api/v2026/things?page=2', body: 1 }, type: 'application/json' },
	]);
	expect(server.seen.map((seen) => seen.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
});

test('an absolute URL of another origin is an error naming it, and the key goes nowhere', async () => {
	const server = await startLocalServer({ handler: answer(1) });
	const other = await startLocalServer({ handler: answer(2) });
	const target = `${other.origin}/v2026/things?page=2`;
	const result = await runProbe(server.origin, `/v2026/things,${target}`);
	expect(result.error).toMatchObject({
		name: 'NodeOperationError',
		message: `The platform pointed to another address (${target}); the node does not follow it`,
		context: { itemIndex: 0 },
	});
	expect(result.error?.description).toMatch(
		/^While trying to read the test data, the answer named an address outside http:\/\/127\.0\.0\.1:\d+\./,
	);
	expect(other.seen).toEqual([]);
	expect(result.serialized).not.toContain(KEY);
});

test('Timeout per request, one Listing Time Limit for the whole session: slow pages each within the Timeout pass, the session is cut at its limit', async () => {
	// Pages of 1 s: each well within a Timeout of 2.5 s (1.5 s to spare on a loaded machine; pages of
	// 400 ms in a Timeout of 600 ms failed when one came 200 ms late), three together beyond it (0.4.0:
	// one deadline for the session, cut). The server's delays are floors, so the premise always holds.
	const server = await startLocalServer({ handler: answer(1, 1000) });
	const started = Date.now();
	const passed = await runProbe(server.origin, '/a,/b,/c', { timeout: 2500 });
	expect(passed.error).toBeUndefined();
	expect(passed.items).toHaveLength(3);
	expect(Date.now() - started).toBeGreaterThan(2500);

	// A Listing Time Limit of 1.8 s: page 1 (1 s) fits with 0.8 s to spare, page 2 cannot end before 2 s.
	const cutStarted = Date.now();
	const cut = await runProbe(server.origin, '/a,/b,/c', { timeout: 2500, listingTimeLimit: 0.03 });
	expect(cut.error?.message).toBe('The listing did not finish within the Listing Time Limit (1.8 s)');
	expect(cut.error?.description).toMatch(
		/after 1\.8 s \(on page 2, after 1 page\(s\)\)\. Raise "Listing Time Limit" under Options \(the time for the whole listing/,
	);
	expect(server.seen).toHaveLength(3 + 2);
	// The message says which limit fired; this only bounds the run, with room for a loaded machine.
	expect(Date.now() - cutStarted).toBeLessThan(1800 + 5000);
});
