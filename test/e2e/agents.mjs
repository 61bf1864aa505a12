// The `agent` group (issue 15): the Services node as an AI agent's tool, through n8n's own MCP Server
// Trigger and the official MCP client. n8n runs with the package installed by the Community Nodes
// installer steps; the workflow is examples/mcp-server-services.json (bearer auth; List with status,
// search and limit from $fromAI; Get with serviceId from $fromAI), published; the client is
// @modelcontextprotocol/sdk over Streamable HTTP and over SSE (trigger version 2 offers both on one
// path, on both n8n lines). A second published workflow holds two faulty List tools: a wrong key,
// and a platform whose body never ends (Timeout 5 s).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';

import { connectMcp, publishMcpWorkflow, resultText, startMcpN8n } from '../../tools/lib/mcp.mjs';
import { simplify } from './workflows.mjs';

const MOCK_COUNT = 7;
const WRONG_KEY = 'agent-WRONG-key-3c9e1a77';
const ENDLESS_TIMEOUT_MS = 5000;
/** "Within Timeout plus a few seconds": n8n's tool call, the client's round trip and a busy machine. */
const ENDLESS_SLACK_MS = 6000;
const TRANSPORTS = ['streamable', 'sse'];

/** A platform that answers 200 and then sends its JSON body one byte at a time, forever. */
async function startEndlessPlatform() {
	const sockets = new Set();
	const timers = new Set();
	const server = http.createServer((req, res) => {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.write('[');
		const timer = setInterval(() => res.write(' '), 100);
		timers.add(timer);
		res.on('close', () => (clearInterval(timer), timers.delete(timer)));
	});
	server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
	await new Promise((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		close: () =>
			new Promise((resolve) => {
				for (const t of timers) clearInterval(t);
				for (const s of sockets) s.destroy();
				server.close(() => resolve());
			}),
	};
}

const parseAnswer = (result) => {
	assert.ok(!result.isError, `expected an answer, got an error result: ${resultText(result).slice(0, 500)}`);
	return JSON.parse(resultText(result));
};

export async function runAgentGroup(t, { line, tarball, startMockApi, outDir }) {
	const started = Date.now();
	const mock = await t.setup(`start mock API (${MOCK_COUNT} services)`, () => startMockApi({ count: MOCK_COUNT, seed: 7 }));
	if (!mock) return null;
	const endless = await startEndlessPlatform();
	const seen = []; // every text and tool list the client received, for the secret scan
	const sessions = [];
	let inst;
	try {
		inst = await t.setup(
			`n8n line ${line}: package installed by the Community Nodes installer steps, N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE=true, started`,
			async () => {
				const i = await startMcpN8n({ line, tarball });
				console.log(`    n8n ${i.runtime.version} ready after ${(i.startMs / 1000).toFixed(1)} s at ${i.baseUrl}`);
				return i;
			},
		);
		if (!inst) return null;
		const services = mock.getServices();
		const main = await t.setup('publish the MCP workflow of examples/mcp-server-services.json (bearer auth, List and Get tools)', () =>
			publishMcpWorkflow(inst, { mcpPath: `services-agent-${line}`, credential: { apiKey: mock.apiKey, baseUrl: mock.url } }),
		);
		const faults = await t.setup(
			`publish a second MCP workflow: List with a wrong key, List against an endless body (Timeout ${ENDLESS_TIMEOUT_MS / 1000} s)`,
			() =>
				publishMcpWorkflow(inst, {
					mcpPath: `services-faults-${line}`,
					credential: { apiKey: WRONG_KEY, baseUrl: mock.url },
					tools: [
						{ name: 'List with wrong key', parameters: { operation: 'list' } },
						{
							name: 'List endless body',
							parameters: { operation: 'list', options: { timeout: ENDLESS_TIMEOUT_MS } },
							credential: { apiKey: mock.apiKey, baseUrl: endless.url },
						},
					],
				}),
		);
		if (!main || !faults) return null;
		const packed = createRequire(import.meta.url)(path.join(inst.packageDir, 'dist', 'nodes', 'Services', 'actions', 'toolUse.js'));

		await t.test('a request without the MCP bearer token is refused (no session), and a wrong token too', async () => {
			const init = {
				jsonrpc: '2.0',
				id: 1,
				method: 'initialize',
				params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
			};
			const post = (headers) =>
				fetch(main.endpoint, {
					method: 'POST',
					headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
					body: JSON.stringify(init),
					signal: AbortSignal.timeout(15_000),
				});
			for (const [what, headers] of [
				['no token', {}],
				['a wrong token', { authorization: 'Bearer not-the-token' }],
			]) {
				const res = await post(headers);
				const body = await res.text();
				assert.ok([401, 403].includes(res.status), `${what}: HTTP ${res.status} ${body.slice(0, 200)}`);
				assert.equal(res.headers.get('mcp-session-id'), null, `${what}: no MCP session`);
			}
			await assert.rejects(connectMcp(main.endpoint, { token: 'not-the-token' }), 'the MCP client cannot connect with a wrong token');
		});

		for (const transport of TRANSPORTS) {
			const label = transport === 'sse' ? 'SSE' : 'Streamable HTTP';
			const session = await t.test(`${label}: the MCP client connects with the bearer token`, async () => {
				const s = await connectMcp(main.endpoint, { token: main.token, transport });
				sessions.push(s);
				return s;
			});
			if (!session) continue;
			const { client } = session;

			await t.test(
				`${label}: tools/list shows List_services and Get_service with our descriptions; Get requires a string serviceId`,
				async () => {
					const { tools } = await client.listTools();
					seen.push(JSON.stringify(tools));
					fs.writeFileSync(path.join(outDir, `agent-tools-n8n${line}-${transport}.json`), JSON.stringify(tools, null, 2));
					if (transport === TRANSPORTS[0])
						console.log(
							`    tools/list as the client saw it (n8n ${inst.runtime.version}):\n${JSON.stringify(tools, null, 2).replace(/^/gm, '      ')}`,
						);
					const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
					assert.deepEqual(Object.keys(byName).sort(), ['Get_service', 'List_services']);
					assert.equal(byName.List_services.description, packed.LIST_TOOL_DESCRIPTION);
					assert.equal(byName.Get_service.description, packed.GET_TOOL_DESCRIPTION);
					const list = byName.List_services.inputSchema;
					assert.equal(list.type, 'object');
					assert.deepEqual(Object.keys(list.properties).sort(), ['limit', 'search', 'status']);
					assert.equal(list.properties.status.type, 'string');
					assert.equal(list.properties.search.type, 'string');
					assert.equal(list.properties.limit.type, 'number');
					assert.deepEqual(
						(list.required ?? []).filter((k) => k in list.properties),
						[],
						'every List input may be left out (defaults)',
					);
					const get = byName.Get_service.inputSchema;
					assert.deepEqual(Object.keys(get.properties), ['serviceId']);
					assert.equal(get.properties.serviceId.type, 'string');
					assert.deepEqual(get.required, ['serviceId']);
				},
			);

			await t.test(`${label}: tools/call List_services returns exactly the mock's ${MOCK_COUNT} services, simplified`, async () => {
				const result = await client.callTool({ name: 'List_services', arguments: {} });
				seen.push(JSON.stringify(result));
				const answer = parseAnswer(result);
				assert.deepEqual(answer, services.map(simplify));
				console.log(`      answer: ${Buffer.byteLength(resultText(result))} bytes for ${answer.length} services`);
			});

			await t.test(`${label}: tools/call List_services with a status the model fills returns only those services`, async () => {
				const status = services[1].values.values.status;
				const result = await client.callTool({ name: 'List_services', arguments: { status: status.toUpperCase() } });
				seen.push(JSON.stringify(result));
				const expected = services.filter((s) => s.values.values.status === status).map(simplify);
				assert.ok(expected.length > 0 && expected.length < services.length, `status "${status}" picks some services`);
				assert.deepEqual(parseAnswer(result), expected);
			});

			await t.test(`${label}: tools/call Get_service returns exactly the one service`, async () => {
				const wanted = services[3];
				const result = await client.callTool({ name: 'Get_service', arguments: { serviceId: wanted.id_service } });
				seen.push(JSON.stringify(result));
				assert.deepEqual(parseAnswer(result), [simplify(wanted)]);
			});

			await t.test(`${label}: tools/call Get_service with an unknown id is an error result naming it`, async () => {
				const result = await client.callTool({ name: 'Get_service', arguments: { serviceId: 'srv-00000-unknown' } });
				seen.push(JSON.stringify(result));
				assert.equal(result.isError, true, `an error result: ${resultText(result).slice(0, 300)}`);
				assert.match(resultText(result), /No service with id_service "srv-00000-unknown"/);
				if (transport === TRANSPORTS[0]) console.log(`      error result: ${JSON.stringify(resultText(result))}`);
			});
		}

		const faultSession = await t.test('Streamable HTTP: the MCP client connects to the faulty tools', async () => {
			const s = await connectMcp(faults.endpoint, { token: faults.token });
			sessions.push(s);
			return s;
		});
		if (faultSession) {
			const { client } = faultSession;
			await t.test('a wrong key gives an error result with the 401 text', async () => {
				const result = await client.callTool({ name: 'List_with_wrong_key', arguments: {} });
				seen.push(JSON.stringify(result));
				assert.equal(result.isError, true, `an error result: ${resultText(result).slice(0, 300)}`);
				assert.match(resultText(result), /The platform rejected the API key \(HTTP 401\)/);
				console.log(`      error result: ${JSON.stringify(resultText(result))}`);
			});
			await t.test(
				`an endless body gives a bounded error result within Timeout (${ENDLESS_TIMEOUT_MS / 1000} s) + ${ENDLESS_SLACK_MS / 1000} s, and the session still answers`,
				async () => {
					const t0 = Date.now();
					const result = await client.callTool({ name: 'List_endless_body', arguments: {} }, undefined, { timeout: 60_000 });
					const ms = Date.now() - t0;
					seen.push(JSON.stringify(result));
					console.log(`      error result after ${(ms / 1000).toFixed(1)} s: ${resultText(result).split('\n')[0].slice(0, 200)}`);
					assert.equal(result.isError, true, `an error result: ${resultText(result).slice(0, 300)}`);
					assert.match(resultText(result), /time|Timeout/i);
					assert.ok(ms >= ENDLESS_TIMEOUT_MS - 500, `not before the Timeout (${ms} ms)`);
					assert.ok(ms <= ENDLESS_TIMEOUT_MS + ENDLESS_SLACK_MS, `within Timeout + ${ENDLESS_SLACK_MS} ms (${ms} ms)`);
					const t1 = Date.now();
					const { tools } = await client.listTools(undefined, { timeout: 10_000 });
					assert.equal(tools.length, 2);
					const again = await client.callTool({ name: 'List_with_wrong_key', arguments: {} }, undefined, { timeout: 20_000 });
					seen.push(JSON.stringify(again));
					assert.equal(again.isError, true);
					console.log(`      the same session answered tools/list and a call ${((Date.now() - t1) / 1000).toFixed(1)} s later`);
				},
			);
		}

		for (const s of sessions.splice(0)) await s.close();
		await inst.stop();
		await t.test('no API key (right or wrong) appears in any client output, n8n log or file n8n wrote (database included)', async () => {
			const client = seen.join('\n');
			const hits = [
				...(client.includes(mock.apiKey) ? ['mock key in client output'] : []),
				...(client.includes(WRONG_KEY) ? ['wrong key in client output'] : []),
				...inst.findSecret(mock.apiKey).map((h) => `mock key in ${h}`),
				...inst.findSecret(WRONG_KEY).map((h) => `wrong key in ${h}`),
			];
			assert.deepEqual(hits, []);
		});
		const seconds = (Date.now() - started) / 1000;
		console.log(`    agent group total ${seconds.toFixed(1)} s (n8n ${inst.runtime.version})`);
		return { seconds };
	} finally {
		for (const s of sessions) await s.close();
		await inst?.stop();
		await endless.close();
		await mock.close();
	}
}
