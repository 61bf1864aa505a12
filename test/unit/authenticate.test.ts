/**
 * The credential's `authenticate` (nodes/shared/credential/authenticate.ts), the one place every
 * request made with the credential passes: the three shapes of request options n8n's callers hand it,
 * and, on generated options of any shape, the guarantee: either the key goes to the Base URL's origin
 * in one absolute URL that is what is sent, or nothing is sent and the refusal says why without the key.
 */
import fc from 'fast-check';
import type { IHttpRequestOptions } from 'n8n-workflow';

import { ServicePlatformApi } from '../../credentials/ServicePlatformApi.credentials';
import { authenticateRequest, KeyNotSentError } from '../../nodes/shared/credential/authenticate';
import { API_KEY } from '../harness/fixtures';

const BASE = 'https://api.example.com/gw';
const credentials = { apiKey: ` ${API_KEY} `, baseUrl: `${BASE}/v2026/` };

type Options = IHttpRequestOptions & { uri?: unknown };

async function authenticate(options: Record<string, unknown>, creds: Record<string, unknown> = credentials): Promise<Options> {
	return (await authenticateRequest(creds as never, options as never)) as Options;
}

async function refusal(options: Record<string, unknown>, creds?: Record<string, unknown>): Promise<string> {
	try {
		await authenticate(options, creds);
	} catch (error) {
		expect(error).toBeInstanceOf(KeyNotSentError);
		return (error as Error).message;
	}
	throw new Error('expected a refusal');
}

test("it is the credential's authenticate", () => {
	expect(new ServicePlatformApi().authenticate).toBe(authenticateRequest);
});

describe('the three shapes of request options', () => {
	test("the credential Test's: the path under the Base URL as the node reads it", async () => {
		const sent = await authenticate({
			url: '/v2026/services',
			baseURL: credentials.baseUrl,
			method: 'GET',
			headers: { Accept: 'application/json' },
			disableFollowRedirect: true,
		});
		expect(sent).toEqual({
			url: `${BASE}/v2026/services`,
			method: 'GET',
			headers: { Accept: 'application/json', Authorization: `Bearer ${API_KEY}` },
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		});
	});

	test("HTTP Request's request-style options (uri), any Authorization of its own replaced", async () => {
		const sent = await authenticate({
			uri: 'https://api.example.com/gw/v2026/services?status=active',
			method: 'GET',
			headers: { authorization: 'Bearer typed-by-hand', 'x-trace': '1' },
			followRedirect: true,
			sendCredentialsOnCrossOriginRedirect: true,
		});
		expect(sent).toEqual({
			uri: 'https://api.example.com/gw/v2026/services?status=active',
			url: 'https://api.example.com/gw/v2026/services?status=active',
			method: 'GET',
			headers: { 'x-trace': '1', Authorization: `Bearer ${API_KEY}` },
			followRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		});
	});

	test("the Services node's absolute url; a pagination page's url and uri together (url wins, as in n8n)", async () => {
		expect((await authenticate({ url: 'https://API.example.com:443/v2026/services?page=2' })).url).toBe(
			'https://api.example.com/v2026/services?page=2',
		);
		const page = await authenticate({ url: 'https://api.example.com/next', uri: 'https://evil.example/' });
		expect([page.url, page.uri]).toEqual(['https://api.example.com/next', 'https://api.example.com/next']);
	});
});

describe('refused, saying what and how, never with the key', () => {
	test.each([
		['another host', { url: 'https://api.example.com.evil.example/v2026/services' }, 'https://api.example.com.evil.example'],
		['another port', { url: 'https://api.example.com:8443/v2026/services' }, 'https://api.example.com:8443'],
		['plain http to the same host', { url: 'http://api.example.com/v2026/services' }, 'http://api.example.com'],
		['a base address of its own', { url: '/v2026/services', baseURL: 'https://evil.example/' }, 'https://evil.example'],
		['a backslash form', { url: 'https:/\\evil.example/x' }, 'https://evil.example'],
	])('%s', async (_case, options, origin) => {
		expect(await refusal(options)).toBe(
			`Not sending the Service Platform API key to ${origin}. The credential sends its key only to its Base URL's address, https://api.example.com. To call the platform, use a URL starting with https://api.example.com/gw; for another service, use a credential of that service.`,
		);
	});

	test.each([
		['no address', {}, 'it has no address as text'],
		['an address that is not text', { url: { href: 'https://api.example.com/' } }, 'it has no address as text'],
		['a path without a base', { url: '/v2026/services' }, '/v2026/services is not an absolute URL'],
		['a base that is not text', { url: '/v2026/services', baseURL: 42 }, 'its base address is not text'],
		['a protocol-relative address', { url: '//evil.example/x' }, '//evil.example/x is not an absolute URL'],
	])('an address it cannot read: %s', async (_case, options, why) => {
		expect(await refusal(options)).toBe(
			`Not sending the Service Platform API key: the request's address cannot be read (${why}). Enter a full URL starting with the credential's Base URL, e.g. https://api.example.com/gw/v2026/services`,
		);
	});

	test("the credential's own rules first: a plain http Base URL to another host", async () => {
		expect(await refusal({ url: 'http://api.example.com/v2026/services' }, { apiKey: API_KEY, baseUrl: 'http://api.example.com' })).toMatch(
			/^Refusing to send the API key over plain http to api\.example\.com\. The API key would travel unencrypted\./,
		);
	});

	test('anything else that goes wrong while checking is not sent either', async () => {
		const headers = {
			get Accept(): string {
				throw new Error(`header getter failed for ${API_KEY}`);
			},
		};
		expect(await refusal({ url: 'https://api.example.com/v2026/services', headers })).toBe(
			"Not sending the Service Platform API key: the request could not be checked (header getter failed for [redacted]). Nothing was sent. Check that the request's URL starts with the credential's Base URL; if it does, report this to the node's maintainers.",
		);
	});

	test('the key in the address it refuses is redacted', async () => {
		const message = await refusal({ url: `https://${API_KEY}.evil.example/?k=${API_KEY}` });
		expect(message).toMatch(/^Not sending the Service Platform API key to https:\/\/\[redacted\]\.evil\.example\. /);
		expect(message).not.toContain(API_KEY);
	});
});

describe('on generated request options of any shape', () => {
	const origins = [
		'https://api.example.com',
		'https://API.example.com:443',
		'https://api.example.com:444',
		'http://api.example.com',
		'https://evil.example',
	];
	const path = fc.constantFrom(
		'',
		'/',
		'/v2026/services',
		'/gw/v2026/services?page=2',
		'/../x',
		`/k=${API_KEY}`,
		'\\evil.example',
		'//evil.example',
	);
	const address = fc.oneof(
		fc.tuple(fc.constantFrom(...origins), path).map(([origin, rest]) => `${origin}${rest}`),
		path,
		fc.constantFrom('https:/\\evil.example', 'https:evil.example', ' https://api.example.com/x', `https://${API_KEY}.evil.example`),
		fc.string(),
		fc.constantFrom(undefined, null, 42, {}, ['https://api.example.com/']),
	);
	const baseURL = fc.constantFrom(undefined, credentials.baseUrl, 'https://api.example.com', 'https://evil.example/', 42);
	const headers = fc.constantFrom(undefined, {}, { Authorization: 'Basic x' }, { AUTHORIZATION: 'x', accept: 'application/json' });

	test('the key goes to the Base URL origin in the one absolute URL sent, or nothing goes and the refusal holds no key', async () => {
		await fc.assert(
			fc.asyncProperty(address, fc.option(address), baseURL, headers, async (url, uri, base, head) => {
				const options: Record<string, unknown> = { url, baseURL: base, headers: head, ...(uri === null ? {} : { uri }) };
				let sent: Options | undefined;
				try {
					sent = await authenticate(options);
				} catch (error) {
					expect(error).toBeInstanceOf(KeyNotSentError);
					expect((error as Error).message).not.toContain(API_KEY);
					return;
				}
				const target = new URL(sent.url);
				expect({ options, origin: target.origin, href: target.href }).toEqual({
					options,
					origin: 'https://api.example.com',
					href: sent.url,
				});
				expect(sent.baseURL).toBeUndefined();
				if (sent.uri !== undefined) expect(sent.uri).toBe(sent.url);
				expect(sent.sendCredentialsOnCrossOriginRedirect).toBe(false);
				const authorization = Object.entries(sent.headers ?? {}).filter(([name]) => name.toLowerCase() === 'authorization');
				expect(authorization).toEqual([['Authorization', `Bearer ${API_KEY}`]]);
			}),
			{ numRuns: 1000 },
		);
		// About 3 s on a quiet machine; jest's 20 s would be too close on a busy one.
	}, 120_000);
});
