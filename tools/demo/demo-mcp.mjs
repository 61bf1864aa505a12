#!/usr/bin/env node
// npm run demo:mcp: the Services node as the tools of an MCP server. Starts a real n8n (2.41.1 by
// default) with the packed package installed the Community Nodes way, the mock platform API (or a
// real one from SERVICE_PLATFORM_BASE_URL and SERVICE_PLATFORM_API_KEY), and publishes
// examples/mcp-server-services.json behind a generated bearer token. Prints the endpoint, the token,
// a configuration to paste into MCP clients that speak Streamable HTTP, and the result of one
// tools/list and one tools/call made with the official MCP client. Ctrl-C stops everything and
// removes the temporary n8n folder.
//
//   node tools/demo/demo-mcp.mjs [--n8n 2|1] [--skip-build]

import { runMain } from '../lib/cleanup.mjs';
import { clientConfig, connectMcp, publishMcpWorkflow, resultText, startMcpN8n } from '../lib/mcp.mjs';
import { platformOrMock } from '../mock-platform/mock.mjs';
import { N8N_LINES } from '../lib/n8n-runtime.mjs';
import { buildAndPack } from '../lib/n8n-instance.mjs';

const argv = process.argv.slice(2);
const line = Number(argv.includes('--n8n') ? argv[argv.indexOf('--n8n') + 1] : 2);
const indent = (text) => text.replace(/^/gm, '    ');

await runMain(async () => {
	if (!N8N_LINES[line]) throw new Error(`--n8n must be one of ${Object.keys(N8N_LINES).join(', ')}`);
	console.log(`MCP demo: the Services tools behind n8n ${N8N_LINES[line].version}'s MCP Server Trigger\n`);
	const { tarball } = await buildAndPack({ skipBuild: argv.includes('--skip-build') });
	const { baseUrl, apiKey, mock } = await platformOrMock({ count: 12, seed: 7 });
	console.log(mock ? `Mock platform API on ${mock.url}` : `Using the platform at ${baseUrl} (from SERVICE_PLATFORM_BASE_URL)`);
	console.log('Starting n8n (the first run installs it into the cache: several minutes) ...');
	const inst = await startMcpN8n({ line, tarball });
	const { endpoint, token } = await publishMcpWorkflow(inst, { mcpPath: 'service-platform', credential: { apiKey, baseUrl } });

	const { client, close } = await connectMcp(endpoint, { token });
	const { tools } = await client.listTools();
	const call = { name: 'List_services', arguments: { status: 'active', limit: 3 } };
	const result = await client.callTool(call);
	await close();

	console.log(`
n8n ${inst.runtime.version} is serving the published workflow "Service Platform: MCP server with the Services tools".

  MCP endpoint (Streamable HTTP; SSE on the same URL): ${endpoint}
  Bearer token:  ${token}
  Editor:        ${inst.baseUrl}/   login ${inst.owner.email} / ${inst.owner.password}

Configuration for MCP clients that speak Streamable HTTP:
${indent(JSON.stringify(clientConfig(endpoint, token), null, 2))}

tools/list (made by this demo with @modelcontextprotocol/sdk):
${indent(tools.map((tool) => `${tool.name}(${Object.keys(tool.inputSchema.properties ?? {}).join(', ')}): ${tool.description}`).join('\n\n'))}

tools/call ${call.name} ${JSON.stringify(call.arguments)}${result.isError ? ' (error result)' : ''}:
${indent(resultText(result))}

Press Ctrl-C to stop n8n${mock ? ' and the mock' : ''} (the temporary n8n folder is removed).`);

	const exit = await inst.serverExit;
	if (inst.stopRequested) return 0; // Ctrl-C: the clean-up is already under way
	console.error(`n8n exited unexpectedly (${exit.signal ?? `exit ${exit.code}`})`);
	return 1;
});
