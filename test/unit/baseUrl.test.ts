import { BaseUrlError, isLoopbackHostname, resolveApiBaseUrl } from '../../nodes/shared/baseUrl';

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
		['api.example.com', /is not an absolute URL/, /including https:\/\//],
		['ftp://api.example.com', /uses "ftp:", not https/, /https:\/\//],
		['http://api.example.com', /Refusing to send the API key over plain http to api\.example\.com/, /https:\/\/api\.example\.com/],
		['http://10.0.0.5:8080/v2026', /plain http to 10\.0\.0\.5:8080/, /https:\/\/10\.0\.0\.5:8080 /],
		['http://localhost.example.com', /plain http/, /only allowed for localhost/],
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
		expect((caught as BaseUrlError).message).toMatch(message);
		expect((caught as BaseUrlError).description).toMatch(description);
	});

	test('refusal messages never echo credentials embedded in the URL', () => {
		expect(() => resolveApiBaseUrl('https://user:secret-pw@api.example.com')).toThrow(
			expect.objectContaining({ message: expect.not.stringContaining('secret-pw') }),
		);
	});
});

describe('isLoopbackHostname', () => {
	test.each(['localhost', 'LOCALHOST', '127.0.0.1', '127.255.255.254', '[::1]'])('%s is loopback', (host) => {
		expect(isLoopbackHostname(host)).toBe(true);
	});
	test.each(['localhost.evil.com', '128.0.0.1', '10.0.0.1', '[::2]', 'example.com', '127.0.0.1.nip.io'])(
		'%s is not loopback',
		(host) => {
			expect(isLoopbackHostname(host)).toBe(false);
		},
	);
});
