/**
 * One loopback rule (issue 34 item 4): on generated spellings of every kind of host, loopback or not
 * (test/harness/hostForms.ts, whose verdicts come from the generated addresses), the rule, the node's
 * Base URL check, and then n8n-core's engine on both paths (the Services node's List and the
 * credential's Test) send the key over plain http to exactly the loopback hosts, and refuse the rest
 * before anything is sent.
 */
import fc from 'fast-check';
import nock from 'nock';

import { isLoopbackHostname, resolveApiBaseUrl } from '../../nodes/shared/transport/baseUrl';
import { API_KEY } from '../harness/fixtures';
import type { HostForm } from '../harness/hostForms';
import { around, hostForm, httpScheme, unconnectable } from '../harness/hostForms';
import type { LocalServer } from '../harness/localServer';
import { closeLocalServers, startLocalServer } from '../harness/localServer';
import { runNode, servicesNode, testCredential } from '../harness/workflow';

/** How WHATWG URL reads a host: its `hostname`, or undefined when the URL does not parse. */
const hostnameOf = (host: string) => (URL.canParse(`http://${host}/`) ? new URL(`http://${host}/`).hostname : undefined);

const REFUSED = /^Refusing to send the API key over plain http to /;

describe('the generated hosts', () => {
	test('each spelling is a URL host WHATWG reads as its plain form: the verdicts are about the host a URL names', () => {
		fc.assert(
			fc.property(hostForm, (host) => {
				expect({ host, read: hostnameOf(host.form) }).toEqual({ host, read: hostnameOf(host.plain) });
				expect(hostnameOf(host.form)).toBeDefined();
			}),
			{ numRuns: 3000 },
		);
	});

	test('a label "xn--…" is IDNA and must hold punycode (a counterexample of a random seed): the generator draws none', () => {
		expect(URL.canParse('http://localhost.xn--0/')).toBe(false);
		expect(fc.sample(hostForm, { numRuns: 3000 }).filter((host) => /xn--/i.test(host.form))).toEqual([]);
	});

	test('every kind of host is drawn, loopback and not', () => {
		const sample = fc.sample(hostForm, { numRuns: 2000 });
		const kinds = (predicate: (host: HostForm) => boolean) =>
			[true, false].map((loopback) => sample.some((h) => predicate(h) && h.loopback === loopback));
		expect(kinds((h) => /^\d+\.\d+\.\d+\.\d+$/.test(h.plain))).toEqual([true, true]);
		expect(kinds((h) => h.plain.startsWith('['))).toEqual([true, true]);
		expect(kinds((h) => /[a-z]/.test(h.plain) && !h.plain.startsWith('['))).toEqual([true, true]);
		expect(sample.some((h) => /%/.test(h.form))).toBe(true);
		expect(sample.some((h) => /[\uff00-\uffef]/.test(h.form))).toBe(true);
	});
});

describe('one loopback rule: isLoopbackHostname on what WHATWG reads', () => {
	test('is the oracle, for every spelling', () => {
		fc.assert(
			fc.property(hostForm, (host) => {
				expect({ host, loopback: isLoopbackHostname(hostnameOf(host.form)!) }).toEqual({ host, loopback: host.loopback });
			}),
			{ numRuns: 10_000 },
		);
	});

	test('resolveApiBaseUrl takes plain http for exactly the loopback hosts, https for all, as the same base', () => {
		fc.assert(
			fc.property(hostForm, httpScheme, around, around, fc.integer({ min: 1, max: 65535 }), (host, scheme, before, after, port) => {
				const typed = `${before}${scheme}://${host.form}:${port}/v2026/${after}`;
				const canonical = new URL(`http://${host.form}:${port}`).host;
				let verdict: string;
				try {
					verdict = resolveApiBaseUrl(typed);
				} catch (error) {
					verdict = (error as Error).message;
				}
				expect({ typed, verdict }).toEqual({ typed, verdict: host.loopback ? `http://${canonical}` : expect.stringMatching(REFUSED) });
				expect(resolveApiBaseUrl(`${before}https://${host.form}:${port}${after}`)).toBe(
					`https://${new URL(`https://${host.form}:${port}`).host}`,
				);
			}),
			{ numRuns: 5000 },
		);
	});

	test.each([
		// The Test of 0.5.0 refused these, which the node accepted (issue 34).
		['127.1', true],
		['2130706433', true],
		['LOCALHOST', true],
		['127.0.0.1.', true],
		['[0:0:0:0:0:0:0:1]', true],
		// 0.5.0's node refused these two; both decided here.
		['[::ffff:127.0.0.1]', true],
		['localhost.', false],
		['0x7f.1', true],
		['[::127.0.0.1]', false],
		['0.0.0.0', false],
		['[::]', false],
		['127.0.0.1.nip.io', false],
		// Counterexamples of random seeds (127.255.255.255 and 127.0.0.0): loopback, though nothing can be
		// connected to there, so the engine properties below leave them out.
		['2147483647', true],
		['[::ffff:127.0.0.0]', true],
	])('%s: loopback %p', (host, loopback) => {
		expect(isLoopbackHostname(hostnameOf(host)!)).toBe(loopback);
	});
});

/**
 * The engine's paths. A server on every loopback address gets what is sent; nock lets a connection
 * out only while the case is a loopback host, so a refused host that were sent anyway fails at once.
 */
describe("through n8n-core: the node's List and the credential's Test send the key to exactly the loopback hosts", () => {
	let server: LocalServer;
	let allowNet = false;
	beforeAll(async () => {
		server = await startLocalServer({
			everyLoopbackAddress: true,
			handler: (_req, res) => {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end('[]');
			},
		});
		nock.disableNetConnect();
		nock.enableNetConnect(() => allowNet);
	});
	afterAll(async () => {
		nock.enableNetConnect();
		nock.restore();
		await closeLocalServers();
	});

	/** Runs `send` for the host with the net open only for a loopback host; what reached the server. */
	async function sent(host: HostForm, send: () => Promise<void>) {
		const before = server.seen.length;
		allowNet = host.loopback;
		try {
			await send();
		} finally {
			allowNet = false;
		}
		return server.seen.slice(before);
	}

	const baseUrl = (host: HostForm, scheme: string) => `${scheme}://${host.form}:${server.port}`;
	const RUNS = 200;
	/** 2 to 4 s on a quiet machine; jest's 20 s would be too close on a busy one. */
	const ENGINE_TIMEOUT_MS = 300_000;
	// 127.0.0.0 and 127.255.255.255 are loopback (the rule's tests above) but cannot be connected to.
	const engineHostForm = hostForm.filter((host) => !unconnectable(host));

	test(
		'the Services node (List)',
		async () => {
			await fc.assert(
				fc.asyncProperty(engineHostForm, httpScheme, async (host, scheme) => {
					let message: string | undefined;
					const seen = await sent(host, async () => {
						const { error } = await runNode({ node: servicesNode({}), credentials: { apiKey: API_KEY, baseUrl: baseUrl(host, scheme) } });
						message = error?.message;
					});
					if (host.loopback) {
						expect({ host, message, seen: seen.map((r) => [r.url, r.authorization]) }).toEqual({
							host,
							message: undefined,
							seen: [['/v2026/services', `Bearer ${API_KEY}`]],
						});
					} else {
						expect({ host, message, seen }).toEqual({ host, message: expect.stringMatching(REFUSED), seen: [] });
					}
				}),
				{ numRuns: RUNS },
			);
		},
		ENGINE_TIMEOUT_MS,
	);

	test(
		"the credential's Test",
		async () => {
			await fc.assert(
				fc.asyncProperty(engineHostForm, httpScheme, async (host, scheme) => {
					let shown: { status: string; message: string } | undefined;
					const seen = await sent(host, async () => {
						const { status, message } = await testCredential('servicePlatformApi', { apiKey: API_KEY, baseUrl: baseUrl(host, scheme) });
						shown = { status, message };
					});
					if (host.loopback) {
						expect({ host, shown, seen: seen.map((r) => [r.url, r.authorization]) }).toEqual({
							host,
							shown: { status: 'OK', message: 'Connection successful!' },
							seen: [['/v2026/services', `Bearer ${API_KEY}`]],
						});
					} else {
						expect({ host, shown, seen }).toEqual({ host, shown: { status: 'Error', message: expect.stringMatching(REFUSED) }, seen: [] });
						expect(shown?.message).not.toContain(API_KEY);
					}
				}),
				{ numRuns: RUNS },
			);
		},
		ENGINE_TIMEOUT_MS,
	);
});
