/**
 * "Custom API Call": n8n adds it to the Services node's Resource and Operation (its credential has
 * `authenticate`) and runs nothing for it. Chosen, it is one clear error pointing to n8n's way of
 * making such a call (HTTP Request with the credential), in both forms n8n saves, with On Error →
 * Continue as for any failure, and in the node's AI tool variant.
 */
import nock from 'nock';

import { API_KEY, BASE_URL } from '../harness/fixtures';
import { runAgent, servicesToolNode } from '../harness/tool';
import { runNode, servicesNode } from '../harness/workflow';

const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';
const credentials = { apiKey: API_KEY, baseUrl: BASE_URL };
const MESSAGE = 'Custom API Call runs in an HTTP Request node, not in this node';
const DESCRIPTION =
	"This node lists and gets services. For the platform's other actions (creating, changing or deleting services, server actions), add an HTTP Request node, set Authentication to 'Predefined Credential Type' and Credential Type to 'Service Platform API', choose this credential, and enter a URL starting with the credential's Base URL, e.g. https://api.example.com/v2026/services. The API key is sent only to the Base URL's address.";

beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.restore());

// Resource "Custom API Call" hides Operation, so n8n saves no operation; Operation "Custom API Call" keeps the resource.
const FORMS = [
	['Resource', { resource: CUSTOM_API_CALL, operation: undefined }],
	['Operation', { resource: 'service', operation: CUSTOM_API_CALL }],
] as const;

describe.each(FORMS)('Custom API Call chosen as the %s', (_form, parameters) => {
	test('one error saying where custom calls run, with the item index; nothing sent', async () => {
		const { error, items } = await runNode({ node: servicesNode(parameters), credentials });
		expect(items).toEqual([]);
		expect(error).toMatchObject({ name: 'NodeOperationError', message: MESSAGE, description: DESCRIPTION, context: { itemIndex: 0 } });
	});

	test('On Error → Continue: one error item per input item, paired to it', async () => {
		const { error, items } = await runNode({
			node: servicesNode(parameters, { onError: 'continueRegularOutput' }),
			credentials,
			inputItems: [{}, {}],
		});
		expect(error).toBeUndefined();
		expect(items.map((item) => [item.json, item.pairedItem])).toEqual([
			[{ error: MESSAGE, details: DESCRIPTION }, { item: 0 }],
			[{ error: MESSAGE, details: DESCRIPTION }, { item: 1 }],
		]);
	});

	test('as an AI tool: the model reads the same message', async () => {
		const tool = servicesToolNode('Custom call', parameters);
		const { outcomes } = await runAgent({ tools: [tool], calls: [{ tool: 'Custom_call', args: {} }], credentials });
		expect(outcomes).toHaveLength(1);
		expect(JSON.stringify(outcomes[0])).toContain(MESSAGE);
	});
});
