/**
 * Fault matrix, part 2: transport failures, TLS and redirects against real local servers on
 * 127.0.0.1 (no nock), run through n8n-core's WorkflowExecute with the real credential.
 *
 * Each case asserts the exact message, a description that says how to fix it, `context.itemIndex`,
 * that the API key appears nowhere in the run data, and with "On Error: Continue" an error item
 * paired to its input while the other items still run. Redirect cases also assert, from what a
 * second server records, that the key never travels anywhere the credential does not point to.
 */
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INodeParameters } from 'n8n-workflow';

import { generateServices } from '../../tools/mock-platform/server.cjs';
import type { NodeRunResult } from '../harness/workflow';
import { expectedItems } from '../harness/fixtures';
import type { Handler, LocalServer } from '../harness/localServer';
import { closeLocalServers, startLocalServer } from '../harness/localServer';
import { loadCertificates, removeCertificates, selfSigned, trustedLocal, trustedWrongHost, trustTestCa } from '../harness/tls';
import { ownListingPerItem, runNode, servicesNode } from '../harness/workflow';

const KEY = 'sk-live-NETFAULTS-91c04be7d25a3f68';
const KEY_FORMS = [KEY, Buffer.from(KEY).toString('base64'), encodeURIComponent(KEY)];
const PATH = '/v2026/services';
const GOOD = generateServices(2, 11);
const GOOD_BODY = JSON.stringify(GOOD);
const RETRY_HINT = 'Try again later, or turn on "Retry On Fail" in the node settings (with a wait of a few seconds).';
const NOT_FOLLOWED_HINT =
	'The API key is only sent to the address in the credential. If the new address is the official one, put it as the Base URL in the Service Platform API credential (https only).';

// ---- local servers (test/harness/localServer.ts) ---------------------------------------------------

const startServer = (options: { tls?: { key: string; cert: string } } = {}) => startLocalServer({ ...options, handler: ok });

const ok: Handler = (_req, res) => {
	res.writeHead(200, { 'content-type': 'application/json' });
	res.end(GOOD_BODY);
};
const redirect =
	(status: number, location: string): Handler =>
	(_req, res) => {
		res.writeHead(status, { location, 'content-length': 0 });
		res.end();
	};
const resetMidBody: Handler = (_req, res) => {
	const body = Buffer.from(GOOD_BODY);
	res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
	res.write(body.subarray(0, body.length >> 1), () => setImmediate(() => res.socket?.destroy()));
};
const resetMidChunkedBody: Handler = (_req, res) => {
	res.writeHead(200, { 'content-type': 'application/json' });
	res.write(GOOD_BODY.slice(0, GOOD_BODY.length >> 1), () => setImmediate(() => res.socket?.destroy()));
};
const resetBeforeAnswer: Handler = (req) => {
	req.socket.destroy();
};
const neverAnswer: Handler = () => {};

async function closedPort(): Promise<number> {
	const server = http.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/** `.invalid` never resolves (RFC 6761); answered locally as getaddrinfo would, so no DNS query leaves the machine. */
function failInvalidLookups(): void {
	const lookup = dns.lookup;
	jest.spyOn(dns, 'lookup').mockImplementation(((hostname: string, ...rest: unknown[]) => {
		if (!hostname.endsWith('.invalid')) return (lookup as (...a: unknown[]) => void)(hostname, ...rest);
		const callback = rest[rest.length - 1] as (error: NodeJS.ErrnoException) => void;
		const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
			code: 'ENOTFOUND',
			errno: -3008,
			syscall: 'getaddrinfo',
			hostname,
		});
		process.nextTick(() => callback(error));
		return undefined;
	}) as unknown as typeof dns.lookup);
}

// ---- assertions -----------------------------------------------------------------------------------

const expectedGood = (itemIndex: number) => expectedItems(GOOD, itemIndex);

interface Expected {
	message: string;
	description: Array<string | RegExp>;
	httpCode?: string;
}

function expectNoKey(result: NodeRunResult): void {
	for (const form of KEY_FORMS) expect(result.serialized).not.toContain(form);
}

function expectText(actual: unknown, parts: Expected['description']): void {
	expect(typeof actual).toBe('string');
	for (const part of parts) {
		if (typeof part === 'string') expect(actual).toContain(part);
		else expect(actual).toMatch(part);
	}
}

function expectError(result: NodeRunResult, expected: Expected, itemIndex: number): void {
	expect(result.items).toEqual([]);
	expect(result.error?.message).toBe(expected.message);
	expectText(result.error?.description, expected.description);
	expect(result.error?.context?.itemIndex).toBe(itemIndex);
	if (expected.httpCode !== undefined) expect(result.error?.httpCode).toBe(expected.httpCode);
	expectNoKey(result);
}

function expectErrorItem(result: NodeRunResult, index: number, expected: Expected, itemIndex: number): void {
	const item = result.items[index];
	expect(item.pairedItem).toEqual({ item: itemIndex });
	// n8n-core turns the JSON of an item carrying `error` into `{ error: message }`; the description
	// is then on the error (an item without `error` may carry it as `details`).
	expect(item.json.error).toBe(expected.message);
	expect(Object.keys(item.json).every((key) => ['error', 'message', 'details'].includes(key))).toBe(true);
	expectText(item.error?.description ?? item.json.details, expected.description);
	if (item.error) {
		expect(item.error.message).toBe(expected.message);
		expect(item.error.context?.itemIndex).toBe(itemIndex);
	}
}

async function run(baseUrl: string, inputItems: object[], extra: { params?: INodeParameters; continueOnError?: boolean } = {}) {
	return await runNode({
		node: servicesNode(ownListingPerItem(extra.params), extra.continueOnError ? { onError: 'continueRegularOutput' } : {}),
		credentials: { apiKey: KEY, baseUrl },
		inputItems: inputItems as never,
	});
}

/**
 * A fault the server produces for one request: [ok, fault] stops at item 1; [ok, fault, ok] with
 * "On Error: Continue" gives the services of items 0 and 2 around an error item paired to item 1.
 */
async function expectPerRequestFault(
	server: LocalServer,
	fault: Handler,
	expected: (server: LocalServer) => Expected,
	params?: INodeParameters,
): Promise<void> {
	server.script(ok, fault);
	const stopped = await run(server.origin, [{}, {}], { params });
	expectError(stopped, expected(server), 1);

	server.script(ok, fault, ok);
	server.seen.length = 0;
	const continued = await run(server.origin, [{}, {}, {}], { params, continueOnError: true });
	expect(continued.error).toBeUndefined();
	expect(continued.items).toHaveLength(5);
	expect(continued.items.slice(0, 2)).toEqual(expectedGood(0));
	expectErrorItem(continued, 2, expected(server), 1);
	expect(continued.items.slice(3)).toEqual(expectedGood(2));
	expectNoKey(continued);
}

/** A fault of the address itself fails every item: each error item is paired to its own input. */
async function expectEveryItemFails(baseUrl: string, expected: Expected, params?: INodeParameters): Promise<void> {
	const stopped = await run(baseUrl, [{}], { params });
	expectError(stopped, expected, 0);

	const continued = await run(baseUrl, [{}, {}, {}], { params, continueOnError: true });
	expect(continued.error).toBeUndefined();
	expect(continued.items).toHaveLength(3);
	for (const index of [0, 1, 2]) expectErrorItem(continued, index, expected, index);
	expectNoKey(continued);
}

beforeAll(() => {
	loadCertificates();
});
afterEach(async () => {
	jest.restoreAllMocks();
	await closeLocalServers();
});
afterAll(() => {
	removeCertificates();
});

// ---- transport ------------------------------------------------------------------------------------

describe('transport failures', () => {
	test('connection refused (a closed local port)', async () => {
		const port = await closedPort();
		await expectEveryItemFails(`http://127.0.0.1:${port}`, {
			message: `Could not connect to 127.0.0.1:${port}: the connection was refused`,
			description: ['Check the Base URL (host and port) in the credential, and that the platform is up. (ECONNREFUSED)'],
		});
	});

	const closedEarly = ({ port }: LocalServer): Expected => ({
		message: `The connection to 127.0.0.1:${port} was closed before the answer was complete`,
		description: ['The platform or something between (proxy, firewall) dropped the connection.', RETRY_HINT],
	});

	test('connection reset before any answer', async () => {
		const server = await startServer();
		await expectPerRequestFault(server, resetBeforeAnswer, (s) => ({
			...closedEarly(s),
			description: [...closedEarly(s).description, /\(ECONNRESET\)$/],
		}));
	});

	// axios reports a body cut off by a reset as ERR_BAD_RESPONSE "stream has been aborted": the node names it
	// as a dropped connection.
	test('connection reset in the middle of the body is named as a dropped connection', async () => {
		const server = await startServer();
		await expectPerRequestFault(server, resetMidBody, closedEarly);
	});
	test('chunked body cut off by a reset is named as a dropped connection', async () => {
		const server = await startServer();
		await expectPerRequestFault(server, resetMidChunkedBody, closedEarly);
	});

	test('unknown host', async () => {
		failInvalidLookups();
		await expectEveryItemFails('https://api.example.invalid', {
			message: 'Could not find the host api.example.invalid',
			description: ["Check the spelling of the Base URL in the credential, and the n8n server's DNS and network. (ENOTFOUND)"],
		});
	});

	// Reported: n8n-workflow rewrites any error message containing a Node error code (here "EPERM" in
	// "deepermind"), so the user reads "Operation not permitted, make sure you have the right permissions".
	test('unknown host whose name contains a Node error code keeps the real message', async () => {
		failInvalidLookups();
		const result = await run('https://api.deepermind.invalid', [{}]);
		expect(result.error?.message).toBe('Could not find the host api.deepermind.invalid');
	});

	test('a server that never answers: stopped after the "Timeout" option, which the message names', async () => {
		const server = await startServer();
		const started = Date.now();
		await expectPerRequestFault(
			server,
			neverAnswer,
			({ port }) => ({
				message: 'The platform did not answer within 300 ms',
				description: [
					`The node stopped waiting for 127.0.0.1:${port} to list services after 300 ms for one request (on the first page)`,
					'Raise "Timeout" under Options (the time for each request',
				],
			}),
			{ options: { timeout: 300 } },
		);
		// Two runs, one hanging request each: the node waited about 300 ms each time, not the 30 s default.
		expect(Date.now() - started).toBeLessThan(5000);
	});

	test('the timeout is also given in seconds when it is long', async () => {
		const server = await startServer();
		server.script(neverAnswer);
		const result = await run(server.origin, [{}], { params: { options: { timeout: 1500 } } });
		expectError(result, { message: 'The platform did not answer within 1.5 s', description: ['after 1.5 s for one request'] }, 0);
	});

	test('the Timeout option defaults to 30 seconds', () => {
		const { Services } = jest.requireActual('../../nodes/Services/Services.node');
		const options = new Services().description.properties.find((p: { name: string }) => p.name === 'options');
		expect(options.options.find((o: { name: string }) => o.name === 'timeout').default).toBe(30_000);
	});
});

// ---- TLS ------------------------------------------------------------------------------------------

describe('TLS failures: the key is never sent over an unverified connection', () => {
	const tlsFailure = (port: number, code: string): Expected => ({
		message: `The TLS certificate of 127.0.0.1:${port} was not accepted`,
		description: [
			`The https connection could not be verified (${code}): the certificate is self-signed, expired, or issued for another host.`,
			"Check the Base URL uses the platform's official address; the API key is never sent over an unverified connection.",
		],
	});

	test('self-signed certificate', async () => {
		const server = await startServer({ tls: selfSigned });
		await expectEveryItemFails(server.origin, tlsFailure(server.port, 'DEPTH_ZERO_SELF_SIGNED_CERT'));
		expect(server.seen).toEqual([]);
	});

	test('certificate from an unknown authority', async () => {
		const server = await startServer({ tls: trustedLocal }); // the test CA is not trusted here
		await expectEveryItemFails(server.origin, tlsFailure(server.port, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'));
		expect(server.seen).toEqual([]);
	});

	test('trusted certificate issued for another host', async () => {
		trustTestCa();
		const server = await startServer({ tls: trustedWrongHost });
		await expectEveryItemFails(server.origin, tlsFailure(server.port, 'ERR_TLS_CERT_ALTNAME_INVALID'));
		expect(server.seen).toEqual([]);
	});

	test('control: a trusted certificate for the right host works', async () => {
		trustTestCa();
		const server = await startServer({ tls: trustedLocal });
		const result = await run(server.origin, [{}]);
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual(expectedGood(0));
		expect(server.seen).toEqual([{ method: 'GET', url: PATH, host: `127.0.0.1:${server.port}`, authorization: `Bearer ${KEY}` }]);
	});
});

// ---- redirects ------------------------------------------------------------------------------------

describe('redirects', () => {
	const notFollowed = (status: number, location: string): Expected => ({
		message: `The platform redirected to another address (${location}); the node does not follow it`,
		description: [NOT_FOLLOWED_HINT],
		httpCode: String(status),
	});

	test.each([301, 302, 303, 307, 308])('%i to another port: not followed, the other server never sees the key', async (status) => {
		const api = await startServer();
		const elsewhere = await startServer();
		const target = `${elsewhere.origin}${PATH}`;
		await expectPerRequestFault(api, redirect(status, target), () => notFollowed(status, target));
		expect(elsewhere.seen).toEqual([]);
		expect(api.seen.every((request) => request.authorization === `Bearer ${KEY}`)).toBe(true);
	});

	test('to another host name on the same port: not followed', async () => {
		const api = await startServer();
		const target = `http://localhost:${api.port}${PATH}`;
		await expectPerRequestFault(api, redirect(302, target), () => notFollowed(302, target));
		// Every request that arrived was the node's own, to the address of the credential.
		expect(api.seen.map((request) => request.host)).toEqual(Array(3).fill(`127.0.0.1:${api.port}`));
	});

	test('protocol-relative Location to another host: not followed', async () => {
		const api = await startServer();
		const elsewhere = await startServer();
		const target = `//localhost:${elsewhere.port}/collect`;
		await expectPerRequestFault(api, redirect(302, target), () => notFollowed(302, `http://localhost:${elsewhere.port}/collect`));
		expect(elsewhere.seen).toEqual([]);
	});

	test('https to http (same host and port): refused', async () => {
		trustTestCa();
		const api = await startServer({ tls: trustedLocal });
		const target = `http://127.0.0.1:${api.port}${PATH}`;
		await expectPerRequestFault(api, redirect(301, target), () => notFollowed(301, target));
	});

	test('https to http on another port: refused, the http server never sees the key', async () => {
		trustTestCa();
		const api = await startServer({ tls: trustedLocal });
		const plain = await startServer();
		const target = `${plain.origin}${PATH}`;
		await expectPerRequestFault(api, redirect(308, target), () => notFollowed(308, target));
		expect(plain.seen).toEqual([]);
	});

	test('same-origin redirect (relative and absolute) is followed with the key', async () => {
		const api = await startServer();
		api.script(redirect(301, '/v2026/services/'), redirect(307, `${api.origin}/v2026/services?page=1`), ok);
		const result = await run(api.origin, [{}]);
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual(expectedGood(0));
		expect(api.seen.map(({ url, authorization }) => [url, authorization])).toEqual([
			[PATH, `Bearer ${KEY}`],
			[`${PATH}/`, `Bearer ${KEY}`],
			[`${PATH}?page=1`, `Bearer ${KEY}`],
		]);
		expectNoKey(result);
	});

	test('same-origin redirect then a redirect to another port: the second one is refused', async () => {
		const api = await startServer();
		const elsewhere = await startServer();
		const target = `${elsewhere.origin}${PATH}`;
		api.script(redirect(302, '/v2026/services/'), redirect(302, target));
		const result = await run(api.origin, [{}]);
		expectError(result, notFollowed(302, target), 0);
		expect(elsewhere.seen).toEqual([]);
	});

	test('a same-origin redirect loop stops after 5 redirects', async () => {
		const api = await startServer();
		api.script(redirect(302, PATH));
		const result = await run(api.origin, [{}]);
		expect(api.seen).toHaveLength(6);
		expect(result.error?.context?.itemIndex).toBe(0);
		expect(result.error?.httpCode).toBe('302');
		expectNoKey(result);
	});

	// Reported: after 5 same-origin redirects the message says "redirected to another address",
	// although the address is the same one; the user needs to hear it is a redirect loop.
	test('a same-origin redirect loop is named as such', async () => {
		const api = await startServer();
		api.script(redirect(302, PATH));
		const result = await run(api.origin, [{}]);
		expect(result.error?.message).toBe('The platform redirected more than 5 times');
	});
});
