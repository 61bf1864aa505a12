import nock from 'nock';
import type { INodeType } from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers } from 'n8n-workflow';

import { ServicePlatformApi } from '../../credentials/ServicePlatformApi.credentials';
import { isLoopbackHostname, resolveApiBaseUrl } from '../../nodes/shared/transport/baseUrl';
import { API_KEY, BASE_URL } from '../harness/fixtures';
import { createWorkflow, registerNodeType, runNode, servicesNode } from '../harness/workflow';

const credentialType = new ServicePlatformApi();

/**
 * n8n's credential tester runs the credential's `test.request` as the request defaults of a
 * declarative node through RoutingNode; this node type does the same inside WorkflowExecute.
 */
const CREDENTIAL_TEST_TYPE = 'test.credentialTest';
const credentialTestNode: INodeType = {
	description: {
		displayName: 'Credential test',
		name: 'credentialTest',
		group: ['transform'],
		version: 1,
		description: 'Runs the credential test request',
		defaults: { name: 'Credential test' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'servicePlatformApi', required: true }],
		requestDefaults: credentialType.test.request,
		properties: [],
	},
};
registerNodeType(CREDENTIAL_TEST_TYPE, credentialTestNode);

async function runCredentialTest(baseUrl: string, apiKey = API_KEY) {
	return await runNode({
		node: servicesNode({}, { name: 'Credential test', type: CREDENTIAL_TEST_TYPE, parameters: {} }),
		credentials: { apiKey, baseUrl },
	});
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.restore());

describe('Service Platform API credential', () => {
	test('names and fields are the contract saved credentials depend on', () => {
		expect(credentialType.name).toBe('servicePlatformApi');
		expect(credentialType.displayName).toBe('Service Platform API');
		expect(credentialType.properties.map((p) => [p.name, p.type, p.required, p.typeOptions?.password ?? false])).toEqual([
			['apiKey', 'string', true, true],
			['baseUrl', 'string', true, false],
			['plainHttpNotice', 'notice', undefined, false],
		]);
		expect(credentialType.authenticate).toEqual({
			type: 'generic',
			properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey.trim()}}' } },
		});
	});

	test('the Test button requests the listing with the bearer key and succeeds for a good key', async () => {
		const scope = nock(BASE_URL).get('/v2026/services').matchHeader('authorization', `Bearer ${API_KEY}`).reply(200, []);
		const { error } = await runCredentialTest(`${BASE_URL}/v2026/`);
		expect(error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});

	test('the Test button fails for a rejected key', async () => {
		nock(BASE_URL).get('/v2026/services').times(2).reply(401, { message: 'Invalid API key' });
		const { error, serialized } = await runCredentialTest(BASE_URL, 'wrong-key-000');
		expect(error).toMatchObject({ name: 'NodeApiError', httpCode: '401' });
		expect(serialized).not.toContain('wrong-key-000');
	});

	test('the Test button refuses plain http to a remote host before sending anything', async () => {
		// No interceptor and no network: any request that left would fail with a nock error instead.
		const { error, serialized } = await runCredentialTest('http://api.example.com');
		expect(error?.message).toMatch(/Unsupported protocol refused-plain-http-use-https:/);
		expect(serialized).not.toContain(API_KEY);
	});

	test('the Test button allows plain http to loopback', async () => {
		const scope = nock('http://localhost:4010').get('/v2026/services').reply(200, []);
		const { error } = await runCredentialTest('http://localhost:4010/');
		expect(error).toBeUndefined();
		expect(scope.isDone()).toBe(true);
	});

	// The credential test cannot call node code, so its expression repeats resolveApiBaseUrl's rules.
	test.each([
		'https://api.example.com',
		'https://api.example.com/',
		'https://api.example.com/v2026',
		'https://api.example.com/V2026/services/',
		' https://api.example.com/gw/ ',
		'http://localhost:4010',
		'http://127.0.0.1:4010/v2026',
		'http://127.5.6.7',
		'http://[::1]:99/',
		'http://api.example.com',
		'http://10.1.2.3:8080',
		'http://localhost.example.com/',
		'http://127.0.0.1.example.com',
	])('credential test URL agrees with the node for %p', (baseUrl) => {
		const workflow = createWorkflow([servicesNode({})]);
		const resolved = workflow.expression.getSimpleParameterValue(
			servicesNode({}),
			credentialType.test.request.baseURL as string,
			'internal',
			{ $credentials: { baseUrl, apiKey: API_KEY } } as never,
		) as string;
		let nodeAnswer: string | undefined;
		try {
			nodeAnswer = resolveApiBaseUrl(baseUrl);
		} catch {
			nodeAnswer = undefined;
		}
		if (nodeAnswer === undefined) {
			expect(resolved.startsWith('refused-plain-http-use-https://')).toBe(true);
		} else {
			expect(new URL(resolved).href).toBe(new URL(nodeAnswer).href);
		}
	});
});

/**
 * The credential Test refuses what the node refuses: on a generated corpus of base URLs, with control
 * characters and whitespace before, inside and after the scheme, the Test's URL (n8n's expression
 * engine running the credential's expression) never lets the key go over plain http to a host the
 * node refuses, and equals the node's URL wherever the node accepts one.
 */
describe('the credential Test agrees with resolveApiBaseUrl on a generated corpus, control characters included', () => {
	const hosts = ['api.example.com', 'localhost:4010', '127.0.0.1', '10.0.0.5:8080', 'localhost.example.com'];
	const schemes = ['http', 'https', 'HTTP', 'ht\ntp', 'ht\ttps', 'h\rttp'];
	const around = ['', ' ', '\u0001', '\u0000', '\u001f ', '\t', '\n', '\u000b', '\u00a0'];
	const paths = ['', '/', '/v2026', '/gw/v2026/services/'];
	const corpus: string[] = [];
	for (const host of hosts)
		for (const scheme of schemes)
			for (const before of around)
				for (const path of paths) corpus.push(`${before}${scheme}://${host}${path}${around[(corpus.length * 7) % around.length]}`);
	// Control characters inside the host part too.
	corpus.push('http://api.exa\tmple.com', 'http://api.example.com\n/v2026', '\u0001\u0002http://api.example.com');

	const workflow = createWorkflow([servicesNode({})]);
	const testUrl = (baseUrl: string) =>
		workflow.expression.getSimpleParameterValue(servicesNode({}), credentialType.test.request.baseURL as string, 'internal', {
			$credentials: { baseUrl, apiKey: API_KEY },
		} as never) as string;

	test(`${corpus.length} base URLs`, () => {
		expect(corpus.length).toBeGreaterThan(1000);
		for (const baseUrl of corpus) {
			let nodeUrl: string | undefined;
			try {
				nodeUrl = resolveApiBaseUrl(baseUrl);
			} catch {
				nodeUrl = undefined;
			}
			const resolved = testUrl(baseUrl);
			// What axios would request: the Test's base URL joined to its path, parsed as WHATWG URL does.
			const requested = URL.canParse(`${resolved}/v2026/services`) ? new URL(`${resolved}/v2026/services`) : undefined;
			const context = JSON.stringify({ baseUrl, resolved, nodeUrl });
			if (nodeUrl !== undefined) {
				expect({ context, href: requested?.href }).toEqual({ context, href: new URL(`${nodeUrl}/v2026/services`).href });
			} else if (requested?.protocol === 'http:') {
				// Plain http leaves only for hosts the node accepts plain http for.
				expect({ context, loopback: isLoopbackHostname(requested.hostname) }).toEqual({ context, loopback: true });
			}
		}
	});
});

describe('the credential dialog warns while a refused plain-http address is typed', () => {
	const notice = credentialType.properties.find((property) => property.name === 'plainHttpNotice')!;
	test.each([
		['http://api.example.com', true],
		['HTTP://api.example.com/v2026', true],
		['  http://10.0.0.5:8080', true],
		['http://localhost.example.com', true],
		['https://api.example.com', false],
		['http://localhost:4010', false],
		['http://127.0.0.1:4010/v2026', false],
		['http://[::1]:99', false],
		['', false],
	])('%p -> notice shown: %p', (baseUrl, shown) => {
		// n8n's own display logic, as the editor applies it to credential fields.
		expect(NodeHelpers.displayParameter({ baseUrl, apiKey: 'k' }, notice, null, null)).toBe(shown);
		let refusedByNode = false;
		try {
			resolveApiBaseUrl(baseUrl);
		} catch (error) {
			refusedByNode = /plain http/.test((error as Error).message);
		}
		expect(refusedByNode).toBe(shown);
	});
});

describe('the node refuses unsafe base URLs before any request', () => {
	test.each([
		['http://api.example.com', 'Refusing to send the API key over plain http to api.example.com', /https:\/\/api\.example\.com/],
		['api.example.com', 'The credential\'s Base URL "api.example.com" is not an absolute URL', /including https:\/\//],
		['', 'The credential has no Base URL', /enter the base address/],
	])('%p', async (baseUrl, message, description) => {
		const { error, items, serialized } = await runNode({ node: servicesNode({}), credentials: { apiKey: API_KEY, baseUrl } });
		expect(items).toEqual([]);
		expect(error).toMatchObject({ name: 'NodeOperationError', message, context: { itemIndex: 0 } });
		expect(error?.description).toMatch(description);
		expect(serialized).not.toContain(API_KEY);
	});

	test('a key pasted into the Base URL field is not echoed back', async () => {
		const { error, serialized } = await runNode({ node: servicesNode({}), credentials: { apiKey: API_KEY, baseUrl: API_KEY } });
		expect(error?.message).toBe("The credential's Base URL is not a URL (" + API_KEY.length + ' characters without an address in them)');
		expect(error?.description).toMatch(/API Key and Base URL are not swapped/);
		expect(serialized).not.toContain(API_KEY);
	});
});
