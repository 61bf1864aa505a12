import fc from 'fast-check';
import nock from 'nock';
import { NodeHelpers } from 'n8n-workflow';

import { ServicePlatformApi } from '../../credentials/ServicePlatformApi.credentials';
import { API_KEY } from '../harness/fixtures';
import { around, hostForm } from '../harness/hostForms';
import type { LocalServer } from '../harness/localServer';
import { closeLocalServers, startJsonServer, startLocalServer } from '../harness/localServer';
import { runNode, servicesNode, testCredential } from '../harness/workflow';

const credentialType = new ServicePlatformApi();

/** The credential's Test button, as n8n runs it (tools/lib/engine.cjs testCredential): what the dialog shows. */
async function pressTest(baseUrl: string, apiKey = API_KEY) {
	const { status, message } = await testCredential('servicePlatformApi', { apiKey, baseUrl });
	return { status, message };
}

/** The last request a server received: its path and Authorization header. */
const lastSeen = (server: LocalServer) => server.seen.map((request) => [request.url, request.authorization]).at(-1);

/** Connections may go to the local test servers only: a request that should not leave fails with nock's error. */
const localServersOnly = () => {
	nock.disableNetConnect();
	nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:|$)/);
};
beforeAll(localServersOnly);
afterEach(async () => {
	nock.cleanAll();
	await closeLocalServers();
});
afterAll(() => {
	nock.enableNetConnect();
	nock.restore();
});

describe('Service Platform API credential', () => {
	test('names and fields are the contract saved credentials depend on', () => {
		expect(credentialType.name).toBe('servicePlatformApi');
		expect(credentialType.displayName).toBe('Service Platform API');
		expect(credentialType.properties.map((p) => [p.name, p.type, p.required, p.typeOptions?.password ?? false])).toEqual([
			['apiKey', 'string', true, true],
			['baseUrl', 'string', true, false],
			['plainHttpNotice', 'notice', undefined, false],
		]);
	});

	test('it loads without n8n-workflow: tools read the packed credential outside n8n (the browser group)', () => {
		jest.isolateModules(() => {
			jest.doMock('n8n-workflow', () => {
				throw new Error('the credential required n8n-workflow');
			});
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			expect(() => require('../../credentials/ServicePlatformApi.credentials')).not.toThrow();
		});
	});

	test("authenticate is the credential's own property, so n8n serves it (Custom API Call, HTTP Request's list)", () => {
		// n8n's loader spreads the credential and serves it as JSON with a function authenticate as {}
		// (n8n-core nodes-loader/directory-loader.js toJSON); a method of the class would be left out.
		const served = JSON.parse(JSON.stringify({ ...credentialType }, (key, value: unknown) => (key === 'authenticate' ? {} : value)));
		expect(Object.hasOwn(credentialType, 'authenticate')).toBe(true);
		expect(typeof credentialType.authenticate).toBe('function');
		expect(served.authenticate).toEqual({});
		expect(served.test.request).toEqual(expect.objectContaining({ baseURL: '={{ $credentials.baseUrl }}', url: '/v2026/services' }));
	});
});

describe("the Test button asks what the node would ask, with the node's rules", () => {
	test('a good key: the listing requested with the bearer key, "Connection successful!"', async () => {
		const server = await startJsonServer(() => []);
		expect(await pressTest(`${server.origin}/v2026/`)).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(lastSeen(server)).toEqual(['/v2026/services', `Bearer ${API_KEY}`]);
	});

	test('the Base URL read as the node reads it: spaces, a path before the API, a pasted /v2026/services', async () => {
		const server = await startJsonServer(() => []);
		expect(await pressTest(`  ${server.origin}/gw/V2026/services/ \n`)).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(lastSeen(server)).toEqual(['/gw/v2026/services', `Bearer ${API_KEY}`]);
		const { error } = await runNode({
			node: servicesNode({}),
			credentials: { apiKey: API_KEY, baseUrl: `  ${server.origin}/gw/V2026/services/ \n` },
		});
		expect(error).toBeUndefined();
		expect(lastSeen(server)).toEqual(['/gw/v2026/services', `Bearer ${API_KEY}`]);
	});

	test("a rejected key: the credential's own 401 text, without the key", async () => {
		const server = await startLocalServer({
			handler: (_req, res) => {
				res.writeHead(401, { 'content-type': 'application/json' });
				res.end('{"message":"Invalid API key"}');
			},
		});
		const shown = await pressTest(server.origin, 'wrong-key-000');
		expect(shown).toEqual({
			status: 'Error',
			message:
				'The platform rejected the API key (HTTP 401). Generate a new API key in the account panel of the platform and paste it here.',
		});
	});

	// Issue 34: the Test of 0.5.0 refused these (its own copy of the rule), while the node accepted them.
	test.each(['127.1', '2130706433', 'LOCALHOST', '127.0.0.1.', '[0:0:0:0:0:0:0:1]', '[::ffff:127.0.0.1]', '0x7f.1'])(
		'plain http to the loopback host %s: OK, and the key reached this machine',
		async (host) => {
			const server = await startLocalServer({
				everyLoopbackAddress: true,
				handler: (_req, res) => {
					res.writeHead(200, { 'content-type': 'application/json' });
					res.end('[]');
				},
			});
			nock.enableNetConnect();
			try {
				expect(await pressTest(`http://${host}:${server.port}`)).toEqual({ status: 'OK', message: 'Connection successful!' });
			} finally {
				localServersOnly();
			}
			expect(lastSeen(server)).toEqual(['/v2026/services', `Bearer ${API_KEY}`]);
		},
	);

	test('plain http to another host: refused before anything is sent, saying why and how to fix it', async () => {
		// No interceptor and no network: a request that left would fail with nock's error instead.
		expect(await pressTest('http://api.example.com/v2026')).toEqual({
			status: 'Error',
			message:
				"Refusing to send the API key over plain http to api.example.com. The API key would travel unencrypted. Change the credential's Base URL to https://api.example.com (plain http is only allowed for this machine: localhost, 127.x.x.x and [::1]).",
		});
	});

	test('"localhost." is not this machine to the resolver: refused, with the dot named', async () => {
		const { message } = await pressTest('http://localhost.:4010');
		expect(message).toBe(
			'Refusing to send the API key over plain http to localhost.:4010. With its final dot, "localhost." is looked up in DNS and may not be this machine. Remove the final dot (localhost is this machine), or use https://.',
		);
	});

	test.each([
		[
			'the key pasted as the Base URL',
			API_KEY,
			/^The credential's Base URL is not a URL \(\d+ characters without an address in them\)\. It looks like/,
		],
		[
			'the key inside the host',
			`http://${API_KEY}.example.com`,
			/^Refusing to send the API key over plain http to \[redacted\]\.example\.com\. /,
		],
		['no Base URL', '', /^The credential has no Base URL\. Open the Service Platform API credential/],
		['ftp', 'ftp://files.example.com', /^The credential's Base URL uses "ftp:", not https\. Enter an https:\/\/ address/],
	])('%s: the message says what and how, never the key', async (_case, baseUrl, message) => {
		const shown = await pressTest(baseUrl);
		expect(shown.status).toBe('Error');
		expect(shown.message).toMatch(message);
		expect(shown.message).not.toContain(API_KEY);
	});

	test('a key a header cannot carry, or too short: refused before sending, the key never quoted', async () => {
		expect((await pressTest('https://api.example.com', 'short')).message).toMatch(
			/^The credential's API Key is too short to be an API key/,
		);
		const withNewline = `${API_KEY.slice(0, 6)}\n${API_KEY.slice(6)}`;
		const { message } = await pressTest('https://api.example.com', withNewline);
		expect(message).toMatch(/^The credential's API Key contains a character a request header cannot carry \(U\+000A at position 7\)/);
		expect(message).not.toContain(API_KEY.slice(6));
	});
});

/**
 * The dialog's hint on plain http is a hint, not a second rule: it errs only toward showing. It shows
 * for every address the node refuses (so none is typed without it) and for plain http loopback
 * spellings too, except the three usual ones; never for https.
 */
describe("the dialog's plain-http hint never misses an address the node refuses", () => {
	const notice = credentialType.properties.find((property) => property.name === 'plainHttpNotice')!;
	const shown = (baseUrl: string) => NodeHelpers.displayParameter({ baseUrl, apiKey: 'k' }, notice, null, null);
	// The same condition read directly: n8n runs it in a vm with a 250 ms limit, which a busy machine can
	// reach once in a thousand cases (a random seed's "counterexample" that did not shrink).
	const hintPattern = new RegExp((notice.displayOptions!.show!.baseUrl as Array<{ _cnd: { regex: string } }>)[0]._cnd.regex);
	const caseOf = fc.array(fc.boolean(), { minLength: 5, maxLength: 5 });
	const spell = (scheme: string, cases: boolean[]) => [...scheme].map((char, index) => (cases[index] ? char.toUpperCase() : char)).join('');

	test('its condition, on generated addresses of every kind of host (the hint reads no tab inside the scheme)', () => {
		fc.assert(
			fc.property(hostForm, caseOf, fc.constantFrom('', ' ', '  ', '\t'), around, (host, cases, before, after) => {
				const typed = `${before}${spell('http', cases)}://${host.form}:4010/${after}`;
				if (!host.loopback) expect({ typed, shown: hintPattern.test(typed) }).toEqual({ typed, shown: true });
				expect(hintPattern.test(`${before}${spell('https', cases)}://${host.form}${after}`)).toBe(false);
			}),
			{ numRuns: 1000 },
		);
	});

	test.each([
		['http://api.example.com', true],
		[' HTTP://10.0.0.5:8080', true],
		['http://localhost.', true],
		['http://127.1:4010', true],
		['http://localhost:4010', false],
		['http://127.0.0.1:4010/v2026', false],
		['http://[::1]:8080/', false],
		['https://api.example.com', false],
		['', false],
	])("%p: shown %p (n8n's own display rule)", (typed, expected) => {
		expect(shown(typed)).toBe(expected);
	});

	test('it does not judge: the words say what the Test decides', () => {
		expect(notice.displayName).toMatch(/accepted only for this machine/);
		expect(notice.displayName).toMatch(/Test tells whether this address is accepted/);
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
