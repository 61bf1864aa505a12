import nock from 'nock';

import { GET_TOOL_DESCRIPTION, LIST_TOOL_DESCRIPTION, TOOL_ANSWER_MAX_BYTES } from '../../nodes/Services/actions/toolUse';
import { Services } from '../../nodes/Services/Services.node';
import { generateServices } from '../../tools/mock-platform/server.cjs';
import { API_KEY, BASE_URL, credentials, expectedSimplified, sampleRecords } from '../harness/fixtures';
import { exampleToolNode, runAgent, servicesToolNode, toolVariant } from '../harness/tool';
import { runNode, servicesNode } from '../harness/workflow';

function listing(body: unknown, times = 1) {
	return nock(BASE_URL)
		.get('/v2026/services')
		.times(times)
		.matchHeader('authorization', `Bearer ${API_KEY}`)
		.reply(200, body as nock.Body);
}

/** List and Get as the README's example wires them: every filter, the Limit and the id from $fromAI. */
const listTool = exampleToolNode('List services');
const getTool = exampleToolNode('Get service');

const parse = (outcome: { answer: string } | { error: string }) => {
	if (!('answer' in outcome)) throw new Error(`expected an answer, got the error ${outcome.error}`);
	return JSON.parse(outcome.answer) as Array<Record<string, unknown>>;
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.restore());

describe('the Services node as an AI tool (through n8n-core createNodeAsTool)', () => {
	test('the model sees two tools named after the nodes, with our descriptions and the $fromAI inputs', async () => {
		const { tools: unordered } = await runAgent({ tools: [listTool, getTool], calls: [], credentials });
		const tools = [...unordered].sort((a, b) => b.name.localeCompare(a.name));
		expect(tools.map((tool) => tool.name)).toEqual(['List_services', 'Get_service']);
		expect(tools[0].description).toBe(LIST_TOOL_DESCRIPTION);
		expect(tools[1].description).toBe(GET_TOOL_DESCRIPTION);
		expect(tools[0].inputs).toEqual({
			limit: expect.objectContaining({ type: 'ZodNumber', optional: true, default: 50 }),
			status: expect.objectContaining({ type: 'ZodString', optional: true, default: '' }),
			search: expect.objectContaining({ type: 'ZodString', optional: true, default: '' }),
		});
		expect(tools[1].inputs).toEqual({ serviceId: expect.objectContaining({ type: 'ZodString', optional: false }) });
	});

	test('the descriptions say what comes back, how to narrow a List, and that Get needs an id_service', () => {
		for (const field of ['id_service', 'name', 'alias', 'status', 'os_id', 'os_name', 'vcores', 'ram_gb', 'hd_gb']) {
			expect(LIST_TOOL_DESCRIPTION).toContain(field);
			expect(GET_TOOL_DESCRIPTION).toContain(field);
		}
		expect(LIST_TOOL_DESCRIPTION).toMatch(/status \(.*search \(.*limit \(/);
		expect(LIST_TOOL_DESCRIPTION).toMatch(/note/);
		expect(GET_TOOL_DESCRIPTION).toMatch(/by its id_service.*required/);
	});

	test('a description the user writes is the one the model reads', async () => {
		const custom = servicesToolNode('List services', { operation: 'list', toolDescription: 'Our servers.' });
		const { tools } = await runAgent({ tools: [custom], calls: [], credentials });
		expect(tools[0].description).toBe('Our servers.');
	});

	test('only the tool variant has the Tool Description parameter (the Services node itself is unchanged)', () => {
		const declared = (type: { description: { properties: Array<{ name: string; displayOptions?: unknown }> } }) =>
			type.description.properties.filter((property) => property.name === 'toolDescription');
		expect(declared(new Services())).toHaveLength(2);
		expect(declared(new Services()).every((property) => JSON.stringify(property.displayOptions).includes('"@tool":[true]'))).toBe(true);
		// Declaring it keeps n8n from adding its own "Set Automatically" switch to the tool variant.
		expect(toolVariant(new Services()).description.properties.some((property) => property.name === 'descriptionType')).toBe(false);
	});

	test('List with no arguments returns every service, simplified, as a JSON array and nothing else', async () => {
		listing(sampleRecords);
		const { outcomes } = await runAgent({ tools: [listTool], calls: [{ tool: 'List_services', args: {} }], credentials });
		expect(parse(outcomes[0])).toEqual(sampleRecords.map(expectedSimplified));
	});

	test('the model narrows List by status (any case) and by text in the name or alias', async () => {
		listing(sampleRecords, 2);
		const { outcomes } = await runAgent({
			tools: [listTool],
			calls: [
				{ tool: 'List_services', args: { status: 'suspended' } },
				{ tool: 'List_services', args: { search: 'SHOP' } },
			],
			credentials,
		});
		expect(parse(outcomes[0]).map((service) => service.id_service)).toEqual(['srv-2']);
		expect(parse(outcomes[1]).map((service) => service.id_service)).toEqual(['srv-1', 'srv-2']);
	});

	test('a List cut short by the limit ends with a note saying how many match and how to narrow', async () => {
		listing(sampleRecords);
		const { outcomes } = await runAgent({ tools: [listTool], calls: [{ tool: 'List_services', args: { limit: 2 } }], credentials });
		const answer = parse(outcomes[0]);
		expect(answer.slice(0, 2).map((service) => service.id_service)).toEqual(['srv-1', 'srv-2']);
		expect(answer).toHaveLength(3);
		expect(answer[2]).toEqual({
			note: expect.stringMatching(/^Only 2 of the 4 matching services are listed \(the limit\)\. .*status.*search.*higher limit/),
		});
	});

	test('1,000 services with the defaults: 50 services and a note, under 32 KB', async () => {
		const services = generateServices(1000);
		listing(services);
		const { outcomes } = await runAgent({ tools: [listTool], calls: [{ tool: 'List_services', args: {} }], credentials });
		const text = (outcomes[0] as { answer: string }).answer;
		const answer = parse(outcomes[0]);
		expect(answer).toHaveLength(51);
		expect(answer.slice(0, 50)).toEqual(services.slice(0, 50).map(expectedSimplified));
		expect(answer[50].note).toMatch(/^Only 50 of the 1000 matching services are listed/);
		expect(Buffer.byteLength(text)).toBeLessThan(32 * 1024);
	});

	test('a limit the answer cannot hold stops at the size cap, says so, and stays under 32 KB', async () => {
		listing(generateServices(1000));
		const { outcomes } = await runAgent({ tools: [listTool], calls: [{ tool: 'List_services', args: { limit: 1000 } }], credentials });
		const text = (outcomes[0] as { answer: string }).answer;
		const answer = parse(outcomes[0]);
		const note = answer[answer.length - 1].note as string;
		expect(note).toMatch(
			new RegExp(`^Only ${answer.length - 1} of the 1000 matching services are listed \\(the answer is kept under 30 KB`),
		);
		expect(Buffer.byteLength(text)).toBeLessThanOrEqual(TOOL_ANSWER_MAX_BYTES + 400);
		expect(Buffer.byteLength(text)).toBeLessThan(32 * 1024);
		expect(answer.length).toBeGreaterThan(100);
	});

	test('the same List as a plain node (not a tool) adds no note and stops reading at the limit', async () => {
		listing(sampleRecords);
		const { items } = await runNode({ node: servicesNode({ limit: 2 }), credentials });
		expect(items.map((item) => item.json.id_service)).toEqual(['srv-1', 'srv-2']);
	});

	test('Get with the id the model gives returns exactly that one service', async () => {
		listing(sampleRecords);
		const { outcomes } = await runAgent({ tools: [getTool], calls: [{ tool: 'Get_service', args: { serviceId: 'srv-3' } }], credentials });
		expect(parse(outcomes[0])).toEqual([expectedSimplified(sampleRecords[2])]);
	});

	test('Get with an unknown id is an error naming the id and how to find one', async () => {
		listing(sampleRecords);
		const { outcomes } = await runAgent({
			tools: [getTool],
			calls: [{ tool: 'Get_service', args: { serviceId: 'srv-404' } }],
			credentials,
		});
		expect(outcomes[0]).toEqual({
			error: expect.stringMatching(
				/No service with id_service "srv-404"[\s\S]*lists 4 service[\s\S]*call List \(search by name or alias\)/,
			),
		});
		// The editor's "From List" means nothing to a model.
		expect((outcomes[0] as { error: string }).error).not.toContain('From List');
	});

	test('Get without an id is refused by the schema before anything is sent', async () => {
		const { outcomes } = await runAgent({ tools: [getTool], calls: [{ tool: 'Get_service', args: {} }], credentials });
		expect(outcomes[0]).toEqual({ error: expect.stringMatching(/serviceId|schema/i) });
	});

	test('a rejected key is an error with the 401 text, and the key appears nowhere', async () => {
		const wrongKey = 'sk-wrong-7e1d0c9b8a';
		nock(BASE_URL).get('/v2026/services').times(2).reply(401, { message: 'Invalid API key' });
		const { outcomes, serialized } = await runAgent({
			tools: [listTool],
			calls: [{ tool: 'List_services', args: {} }],
			credentials: { ...credentials, apiKey: wrongKey },
		});
		expect(outcomes[0]).toEqual({ error: expect.stringContaining('The platform rejected the API key (HTTP 401)') });
		expect(JSON.stringify(outcomes)).not.toContain(wrongKey);
		expect(serialized).not.toContain(wrongKey);
	});
});
