// The Services tools behind n8n's MCP Server Trigger, as the `agent` e2e group and `npm run demo:mcp`
// use them: n8n with the package installed the Community Nodes way, the workflow of
// examples/mcp-server-services.json published behind a generated bearer token, and the official MCP
// client (@modelcontextprotocol/sdk) over Streamable HTTP or SSE.
//
// Facts from n8n's source (@n8n/n8n-nodes-langchain McpTrigger, 1.123.81 and 2.41.1): the production
// endpoint is <base>/mcp/<path>; trigger version 2 takes Streamable HTTP (POST) and SSE (GET, then
// POST ?sessionId=) on that one path (versions 1 and 1.1 use <path>/sse and <path>/messages).

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { CREDENTIAL_TYPE, N8nInstance, PACKAGE_NAME, REPO_DIR } from './n8n-instance.mjs';
import { ensureN8n } from './n8n-runtime.mjs';

export const MCP_EXAMPLE_FILE = path.join(REPO_DIR, 'examples', 'mcp-server-services.json');
export const MCP_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';
export const TOOL_TYPE = `${PACKAGE_NAME}.servicesTool`;

/**
 * n8n before 1.8x turned a community node into a tool only with this set; 1.123.81 and 2.41.1 do it
 * for every `usableAsTool` node (their source reads no such setting). Set anyway, as the docs say.
 */
export const MCP_N8N_ENV = { N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true' };

export const randomToken = () => `mcp-${crypto.randomBytes(18).toString('base64url')}`;

/** n8n (line 2 or 1) with the package installed by the Community Nodes installer steps, started, owner signed in. */
export async function startMcpN8n({ line, tarball, label, log = console.log }) {
	const runtime = await ensureN8n(line);
	const inst = await N8nInstance.create({
		runtime,
		tarball,
		install: 'editor',
		label: label ?? `n8n ${runtime.version} (MCP)`,
		log,
		extraEnv: MCP_N8N_ENV,
	});
	await inst.start();
	await inst.setupOwner();
	await inst.login();
	return inst;
}

/**
 * The example workflow with its MCP path, bearer credential and Services credential filled in.
 * `tools` (optional) replaces the example's two tools: [{ name, parameters, credential }].
 */
export function mcpWorkflow({ name, mcpPath, bearer, credential, tools }) {
	const example = JSON.parse(fs.readFileSync(MCP_EXAMPLE_FILE, 'utf8'));
	const trigger = example.nodes.find((n) => n.type === MCP_TRIGGER_TYPE);
	trigger.parameters = { ...trigger.parameters, path: mcpPath };
	trigger.webhookId = crypto.randomUUID();
	trigger.credentials = { httpBearerAuth: { id: bearer.id, name: bearer.name } };
	const ref = (c) => ({ [CREDENTIAL_TYPE]: { id: c.id, name: c.name } });
	let toolNodes = example.nodes.filter((n) => n.type === TOOL_TYPE).map((n) => ({ ...n, credentials: ref(credential) }));
	if (tools) {
		toolNodes = tools.map((tool, i) => ({
			parameters: { resource: 'service', ...tool.parameters },
			id: crypto.randomUUID(),
			name: tool.name,
			type: TOOL_TYPE,
			typeVersion: 1,
			position: [-120 + 240 * i, 220],
			credentials: ref(tool.credential ?? credential),
		}));
	}
	const toTrigger = { ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]] };
	return {
		...example,
		name: name ?? example.name,
		nodes: [trigger, ...toolNodes],
		connections: Object.fromEntries(toolNodes.map((n) => [n.name, toTrigger])),
	};
}

/**
 * Creates the credentials over REST (as the editor saves them), then the workflow, and publishes it
 * (unless `activate` is false). `credential`: { apiKey, baseUrl } of the platform;
 * `tools[i].credential` the same for one tool. Returns { endpoint, token, workflow }.
 */
export async function publishMcpWorkflow(inst, { name, mcpPath, credential, tools, token = randomToken(), activate = true }) {
	const bearer = await inst.createCredential({ name: `MCP bearer ${mcpPath}`, type: 'httpBearerAuth', data: { token } });
	const made = new Map();
	const serviceCredential = async (data) => {
		const key = JSON.stringify(data);
		if (!made.has(key))
			made.set(key, await inst.createCredential({ name: `Service Platform ${made.size + 1} (${mcpPath})`, type: CREDENTIAL_TYPE, data }));
		return made.get(key);
	};
	const main = await serviceCredential(credential);
	const resolvedTools =
		tools &&
		(await Promise.all(tools.map(async (t) => ({ ...t, credential: t.credential ? await serviceCredential(t.credential) : main }))));
	const workflow = await inst.createWorkflow(mcpWorkflow({ name, mcpPath, bearer, credential: main, tools: resolvedTools }));
	if (activate) await inst.activateWorkflow(workflow.id);
	return { endpoint: `${inst.baseUrl}/mcp/${mcpPath}`, token, workflow };
}

/**
 * The official MCP client connected to `endpoint` ('streamable' or 'sse'), with the bearer token
 * on every request. Returns { client, close }.
 */
export async function connectMcp(endpoint, { token, transport = 'streamable', name = 'n8n-nodes-service-platform' } = {}) {
	const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
	const headers = token ? { Authorization: `Bearer ${token}` } : {};
	let t;
	if (transport === 'sse') {
		const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
		t = new SSEClientTransport(new URL(endpoint), { requestInit: { headers } });
	} else {
		const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
		t = new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers } });
	}
	const client = new Client({ name, version: '1.0.0' });
	await client.connect(t);
	return {
		client,
		close: async () => {
			if (transport !== 'sse') await t.terminateSession?.().catch(() => {});
			await client.close().catch(() => {});
		},
	};
}

/** The text of a tools/call result (n8n puts the tool's answer in one text block). */
export function resultText(result) {
	return (result?.content ?? []).map((c) => (c.type === 'text' ? c.text : JSON.stringify(c))).join('\n');
}

/** A configuration MCP clients that speak Streamable HTTP take (the "mcpServers" form most use). */
export function clientConfig(endpoint, token) {
	return { mcpServers: { 'service-platform': { type: 'streamable-http', url: endpoint, headers: { Authorization: `Bearer ${token}` } } } };
}
