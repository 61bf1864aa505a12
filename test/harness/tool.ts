import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { deepCopy, NodeConnectionTypes } from 'n8n-workflow';
import fs from 'node:fs';
import path from 'node:path';

import { Services } from '../../nodes/Services/Services.node';
import type { TestCredentials } from './workflow';
import { createWorkflow, execute, PACKAGE_NAME, registerNodeType } from './workflow';

export const SERVICES_TOOL_TYPE = `${PACKAGE_NAME}.servicesTool`;

/**
 * The "Services Tool" node type as n8n's CLI makes it from a node with `usableAsTool`
 * (packages/cli tool-generation/ai-tools.ts, convertNodeToAiTool; the same on 1.123 and 2.41): the
 * name gets "Tool", no main input, one ai_tool output, and n8n's own "Tool Description" parameters
 * only when the node declares no `toolDescription`.
 */
export function toolVariant(nodeType: INodeType): INodeType {
	const description = deepCopy(nodeType.description) as INodeTypeDescription;
	description.name += 'Tool';
	description.displayName += ' Tool';
	description.inputs = [];
	description.outputs = [NodeConnectionTypes.AiTool];
	delete description.usableAsTool;
	if (!description.properties.some((property) => property.name === 'toolDescription')) {
		description.properties.push(
			{
				displayName: 'Tool Description',
				name: 'descriptionType',
				type: 'options',
				options: [
					{ name: 'Set Automatically', value: 'auto' },
					{ name: 'Set Manually', value: 'manual' },
				],
				default: 'auto',
			},
			{
				displayName: 'Description',
				name: 'toolDescription',
				type: 'string',
				default: description.description,
				displayOptions: { show: { descriptionType: ['manual'] } },
			},
		);
	}
	return { description, execute: nodeType.execute, methods: nodeType.methods };
}

/** What a test agent saw of one tool. */
export interface SeenTool {
	name: string;
	description: string;
	/** Each input: its zod type (ZodString, ZodNumber, ...), whether it may be left out, its default and description. */
	inputs: Record<string, { type: string; optional: boolean; default?: unknown; description?: string }>;
}

/** One call a test agent makes, and its outcome: the tool's answer text or the error's message. */
export interface ToolCall {
	tool: string;
	args: IDataObject;
}
export type ToolOutcome = { answer: string } | { error: string };

interface LangchainTool {
	name: string;
	description: string;
	schema: { shape: Record<string, ZodLike> };
	invoke(args: IDataObject): Promise<unknown>;
}
interface ZodLike {
	_def: { typeName: string; innerType?: ZodLike; defaultValue?: () => unknown };
	description?: string;
	isOptional(): boolean;
}

function describeInputs(tool: LangchainTool): SeenTool['inputs'] {
	const inputs: SeenTool['inputs'] = {};
	for (const [key, schema] of Object.entries(tool.schema.shape)) {
		const inner = schema._def.typeName === 'ZodDefault' ? schema._def.innerType! : schema;
		inputs[key] = {
			type: inner._def.typeName,
			optional: schema.isOptional(),
			...(schema._def.defaultValue ? { default: schema._def.defaultValue() } : {}),
			description: schema.description ?? inner.description,
		};
	}
	return inputs;
}

/**
 * A stand-in for n8n's AI Agent: it takes its tools from its ai_tool input with n8n-core's
 * getInputConnectionData (so n8n builds each tool with createNodeAsTool: name, description,
 * $fromAI schema) and invokes them with the given arguments, as a model would.
 */
function testAgent(calls: ToolCall[]): INodeType {
	return {
		description: {
			displayName: 'Test Agent',
			name: 'testAgent',
			group: ['transform'],
			version: 1,
			description: 'Calls its tools',
			defaults: { name: 'Agent' },
			inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, displayName: 'Tools' }],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const tools = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as LangchainTool[];
			const seen: SeenTool[] = tools.map((tool) => ({
				name: tool.name,
				description: tool.description,
				inputs: describeInputs(tool),
			}));
			const outcomes: ToolOutcome[] = [];
			for (const call of calls) {
				const tool = tools.find((candidate) => candidate.name === call.tool);
				if (!tool) throw new Error(`No tool ${call.tool}; the agent has ${tools.map((t) => t.name).join(', ')}`);
				try {
					outcomes.push({ answer: String(await tool.invoke(call.args)) });
				} catch (error) {
					outcomes.push({ error: (error as Error).message });
				}
			}
			return [[{ json: { tools: seen, outcomes } as unknown as IDataObject }]];
		},
	};
}

registerNodeType(SERVICES_TOOL_TYPE, toolVariant(new Services()));

/** A Services Tool node (List by default) named `name`: the model sees the tool as `name` with `_` for spaces. */
export function servicesToolNode(name: string, parameters: INodeParameters): INode {
	return {
		id: `tool-${name}`,
		name,
		type: SERVICES_TOOL_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { resource: 'service', operation: 'list', ...parameters },
		credentials: { servicePlatformApi: { id: 'cred-1', name: 'Service Platform account' } },
	};
}

/**
 * Runs an agent with `tools` attached over ai_tool, making `calls`; returns what it saw and got,
 * and everything n8n kept of the run (to look for leaked secrets).
 */
export async function runAgent(options: { tools: INode[]; calls: ToolCall[]; credentials: TestCredentials }) {
	const agentType = `test.agent${Math.random().toString(36).slice(2)}`;
	registerNodeType(agentType, testAgent(options.calls));
	const agent: INode = {
		id: 'agent',
		name: 'Agent',
		type: agentType,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const connections = Object.fromEntries(
		options.tools.map((tool) => [tool.name, { ai_tool: [[{ node: agent.name, type: NodeConnectionTypes.AiTool, index: 0 }]] }]),
	);
	const workflow = createWorkflow([agent, ...options.tools], undefined, connections);
	const result = await execute({
		workflow,
		node: agent,
		credentials: options.credentials,
		main: [[{ json: {}, pairedItem: { item: 0 } }]],
	});
	if (result.error) throw new Error(`The agent failed: ${result.error.message}`);
	const json = result.items[0].json as unknown as { tools: SeenTool[]; outcomes: ToolOutcome[] };
	return { ...json, serialized: result.serialized };
}

/**
 * The Services tool nodes of examples/mcp-server-services.json (the README's recipe: List with
 * status, search and limit from $fromAI, Get with serviceId from $fromAI), by node name.
 */
export function exampleToolNode(name: 'List services' | 'Get service'): INode {
	const file = path.join(__dirname, '..', '..', 'examples', 'mcp-server-services.json');
	const workflow = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: INode[] };
	const node = workflow.nodes.find((candidate) => candidate.name === name);
	if (!node) throw new Error(`${file} has no node "${name}"`);
	return { ...node, type: SERVICES_TOOL_TYPE };
}
