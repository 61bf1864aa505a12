// Recipe: the Services tools for AI agents behind n8n's MCP Server Trigger
// (examples/mcp-server-services.json). The `agent` group proves it in depth (both n8n lines, both
// transports, errors, bounds); here it is imported like the other recipes, with the two credentials
// a user picks (bearer token, Service Platform) and nothing else changed, published, and called once
// by the official MCP client: the tools are listed and List returns the mock's services.

import assert from 'node:assert/strict';

import { MCP_N8N_ENV, MCP_TRIGGER_TYPE, connectMcp, randomToken, resultText } from '../../../tools/lib/mcp.mjs';
import { simplify } from '../workflows.mjs';
import { readRecipe } from './workflow.mjs';

const FILE = 'mcp-server-services.json';

export const mcpServerRecipe = {
	name: 'mcp-server',
	title: 'MCP server with the Services tools',
	file: FILE,
	picture: null, // docs/images/mcp-canvas.png, taken by the browser walk's MCP step
	env: () => MCP_N8N_ENV,

	async run(t, ctx) {
		const mock = await ctx.startMock({ count: 5, seed: 7 });
		const credential = await ctx.serviceCredential(mock, 'mcp');
		const token = randomToken();
		const bearer = await ctx.inst.createCredential({ name: 'MCP bearer token (recipe)', type: 'httpBearerAuth', data: { token } });
		return t.test('MCP server: imported with its two credentials picked, published', async () => {
			const wf = await ctx.importRecipe(FILE, { credentials: { servicePlatformApi: credential, httpBearerAuth: bearer } });
			await ctx.inst.activateWorkflow(wf.id);
			const mcpPath = readRecipe(FILE).nodes.find((n) => n.type === MCP_TRIGGER_TYPE).parameters.path;
			return { wf, token, endpoint: `${ctx.inst.baseUrl}/mcp/${mcpPath}`, expected: mock.getServices().map(simplify) };
		});
	},

	async check(t, ctx, state) {
		await t.test('MCP server: the MCP client lists List_services and Get_service; List_services returns the mock services', async () => {
			const session = await connectMcp(state.endpoint, { token: state.token });
			try {
				const { tools } = await session.client.listTools();
				assert.deepEqual(tools.map((x) => x.name).sort(), ['Get_service', 'List_services']);
				const result = await session.client.callTool({ name: 'List_services', arguments: {} });
				assert.ok(!result.isError, resultText(result).slice(0, 300));
				assert.deepEqual(JSON.parse(resultText(result)), state.expected);
			} finally {
				await session.close();
			}
		});
		await ctx.inst.deactivateWorkflow(state.wf.id).catch(() => {});
	},
};
