import { ApiKeyError, BaseUrlError, isLoopbackHostname, resolveApiBaseUrl, resolveApiKey } from '../../nodes/shared/transport/baseUrl';
import type { Text } from '../../nodes/shared/text/text';
import { render } from '../../nodes/shared/text/text';

/** The error's message and description as a user reads them (foreign parts filled in). */
function rendered(error: unknown) {
	const { message, description } = (error as BaseUrlError).text;
	return { message: render(message as Text, (t) => t, Infinity), description: render(description as Text, (t) => t, Infinity) };
}

describe('resolveApiBaseUrl', () => {
	test.each([
		['https://api.example.com', 'https://api.example.com'],
		['https://api.example.com/', 'https://api.example.com'],
		['https://api.example.com//', 'https://api.example.com'],
		['https://api.example.com/v2026', 'https://api.example.com'],
		['https://api.example.com/v2026/', 'https://api.example.com'],
		['https://api.example.com/V2026/services', 'https://api.example.com'],
		['  https://API.example.com:8443/gw/  ', 'https://api.example.com:8443/gw'],
		['https://api.example.com/gw/v2026', 'https://api.example.com/gw'],
		['http://localhost:4010', 'http://localhost:4010'],
		['http://127.0.0.1:4010/v2026', 'http://127.0.0.1:4010'],
		['http://127.12.0.9', 'http://127.12.0.9'],
		['http://[::1]:8080/', 'http://[::1]:8080'],
	])('%s -> %s', (raw, expected) => {
		expect(resolveApiBaseUrl(raw)).toBe(expected);
	});

	test.each([
		['', /has no Base URL/, /enter the base address/],
		[undefined, /has no Base URL/, /enter the base address/],
		[null, /has no Base URL/, /enter the base address/],
		[443, /^The credential's Base URL must be text, not a number$/, /make it give the address as text/],
		[{ url: 'https://api.example.com' }, /must be text, not an object$/, /make it give the address as text/],
		[['https://api.example.com'], /must be text, not a list$/, /make it give the address as text/],
		['api.example.com', /is not an absolute URL/, /including https:\/\//],
		['ftp://api.example.com', /uses "ftp:", not https/, /https:\/\//],
		['http://api.example.com', /Refusing to send the API key over plain http to api\.example\.com/, /https:\/\/api\.example\.com/],
		['http://10.0.0.5:8080/v2026', /plain http to 10\.0\.0\.5:8080/, /https:\/\/10\.0\.0\.5:8080 /],
		['http://localhost.example.com', /plain http/, /only allowed for this machine: localhost/],
		['https://user:pw@api.example.com', /user name or password/, /Remove the "user:password@" part/],
		['https://api.example.com/?key=1', /query string or fragment/, /https:\/\/api\.example\.com$/],
	])('refuses %p', (raw, message, description) => {
		let caught: unknown;
		try {
			resolveApiBaseUrl(raw);
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(BaseUrlError);
		expect(rendered(caught).message).toMatch(message);
		expect(rendered(caught).description).toMatch(description);
	});

	test('refusal messages never echo credentials embedded in the URL', () => {
		expect(() => resolveApiBaseUrl('https://user:secret-pw@api.example.com')).toThrow(
			expect.objectContaining({ message: expect.not.stringContaining('secret-pw') }),
		);
	});
});

describe('resolveApiKey: a key of another kind is named by its kind, never shown', () => {
	test.each([
		[12345678901234567890, 'a number'],
		[true, 'a boolean'],
		[{ key: 'sk-live-0123456789abcdef' }, 'an object'],
		[['sk-live-0123456789abcdef'], 'a list'],
	])('%p', (key, kind) => {
		let caught: unknown;
		try {
			resolveApiKey(key);
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(ApiKeyError);
		expect(rendered(caught).message).toBe(`The credential's API Key must be text, not ${kind}`);
		expect(JSON.stringify(rendered(caught))).not.toMatch(/1234567890|0123456789abcdef/);
	});

	test.each([null, undefined, '', '  '])('%p is no key', (key) => {
		expect(() => resolveApiKey(key)).toThrow('The credential has no API Key');
	});
});

// Every spelling, generated: test/unit/loopback.property.test.ts.
describe('isLoopbackHostname decides on the hostname as WHATWG URL writes it', () => {
	test.each(['localhost', '127.0.0.1', '127.255.255.254', '[::1]', '[::ffff:7f00:1]'])('%s is loopback', (host) => {
		expect(isLoopbackHostname(host)).toBe(true);
	});
	// `LOCALHOST` is no WHATWG hostname (it writes `localhost`): another spelling is never taken for loopback.
	test.each(['localhost.evil.com', '128.0.0.1', '10.0.0.1', '[::2]', 'example.com', '127.0.0.1.nip.io', 'LOCALHOST', 'localhost.'])(
		'%s is not loopback',
		(host) => {
			expect(isLoopbackHostname(host)).toBe(false);
		},
	);
});
