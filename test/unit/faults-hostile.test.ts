/**
 * Fault matrix, part 3 (issue #8, #10.2): a hostile server and a careless user, against real local
 * servers on 127.0.0.1, through n8n-core's WorkflowExecute (and its PollTriggerExecutor for the
 * trigger) with the real credential.
 *
 * Bounded memory (size cap after decompression), a total deadline (a trickling server), retries of
 * 429/502/503/504, charsets, a lying content-encoding, https to a plain port, careless credential
 * and option values; after every run the key is searched in every form in the serialized run data.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { brotliCompressSync, constants as zlibConstants, createGzip, deflateSync, gzipSync } from 'node:zlib';

import { generateServices } from '../../tools/mock-platform/server.cjs';
import { expectedItems } from '../harness/fixtures';
import type { Handler } from '../harness/localServer';
import { closeLocalServers, startLocalServer } from '../harness/localServer';
import { ActivePoller } from '../harness/poll';
import { watchRetryWaits } from '../harness/retryWaits';
import type { NodeRunResult } from '../harness/workflow';
import { runNode, servicesNode, servicesTriggerNode } from '../harness/workflow';

const KEY = 'sk-live-HOSTILE-5e8d21c7a94b03f6';
const BEARER_B64 = Buffer.from(`Bearer ${KEY}`).toString('base64');
/** Every form the README promises never to show. */
const KEY_FORMS = [
	KEY,
	KEY.slice(0, 12),
	Buffer.from(KEY).toString('base64').replace(/=+$/, ''),
	BEARER_B64.replace(/=+$/, ''),
	encodeURIComponent(`Bearer ${KEY}`),
];
const GOOD = generateServices(3, 5);
const GOOD_BODY = JSON.stringify(GOOD);
const MB = 1024 * 1024;

const ok: Handler = (_req, res) => {
	res.writeHead(200, { 'content-type': 'application/json' });
	res.end(GOOD_BODY);
};
const startServer = () => startLocalServer({ handler: ok });

function expectNoKey(result: { serialized: string } | string): void {
	const text = typeof result === 'string' ? result : result.serialized;
	for (const form of KEY_FORMS) expect(text).not.toContain(form);
}

async function run(baseUrl: string, params: INodeParameters = {}, apiKey = KEY): Promise<NodeRunResult> {
	return await runNode({ node: servicesNode({ returnAll: true, ...params }), credentials: { apiKey, baseUrl } });
}

/** Peak RSS growth (MB) while `work` runs, sampled every 5 ms. */
async function peakRssGrowthMb(work: () => Promise<unknown>): Promise<number> {
	global.gc?.();
	const before = process.memoryUsage().rss;
	let peak = before;
	const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
	try {
		await work();
	} finally {
		clearInterval(timer);
	}
	peak = Math.max(peak, process.memoryUsage().rss);
	return (peak - before) / MB;
}

afterEach(async () => {
	jest.restoreAllMocks();
	await closeLocalServers();
});

describe('Max Response Size: bounded memory, counted after decompression', () => {
	/** Writes 64 KB chunks of JSON-looking text as fast as the client reads, until the client leaves. */
	const neverEnding: Handler = (req, res) => {
		res.writeHead(200, { 'content-type': 'application/json' });
		const chunk = Buffer.alloc(64 * 1024, '[1,2,3,4,5,6,7,8,9,0],');
		res.write('[');
		const pump = () => {
			while (!res.destroyed && res.write(chunk));
		};
		res.on('drain', pump);
		req.socket.on('close', () => res.destroy());
		pump();
	};

	test('a never-ending body stops at the cap with an error naming it; memory stays near the cap', async () => {
		const server = await startServer();
		server.script(neverEnding);
		let result: NodeRunResult | undefined;
		const growth = await peakRssGrowthMb(async () => {
			result = await run(server.origin, { options: { maxResponseSize: 8 } });
		});
		expect(result?.error).toMatchObject({
			name: 'NodeApiError',
			message: 'The answer is larger than the Max Response Size of 8 MB',
			context: { itemIndex: 0 },
		});
		expect(result?.error?.description).toMatch(/raise "Max Response Size" under Options/);
		expectNoKey(result!);
		// Measured: see the README; the bound here leaves room for the engine and GC timing.
		console.info(`never-ending body, cap 8 MB: peak RSS growth ${growth.toFixed(1)} MB`);
		expect(growth).toBeLessThan(8 * 3 + 64);
	});

	test('a gzip bomb (256 MB of spaces in about 1 MB) stops at the cap, counted after decompression', async () => {
		const bomb = await new Promise<Buffer>((resolve) => {
			const gzip = createGzip({ level: 1 });
			const parts: Buffer[] = [];
			gzip.on('data', (part: Buffer) => parts.push(part));
			gzip.on('end', () => resolve(Buffer.concat(parts)));
			const zeros = Buffer.alloc(MB, ' ');
			gzip.write('[');
			for (let i = 0; i < 256; i++) gzip.write(zeros);
			gzip.end(']');
		});
		expect(bomb.length).toBeLessThan(2 * MB);
		const server = await startServer();
		server.script((_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length });
			res.end(bomb);
		});
		let result: NodeRunResult | undefined;
		const growth = await peakRssGrowthMb(async () => {
			result = await run(server.origin, { options: { maxResponseSize: 8 } });
		});
		expect(result?.error?.message).toBe('The answer is larger than the Max Response Size of 8 MB');
		console.info(`gzip bomb (${(bomb.length / 1024).toFixed(0)} KB -> 256 MB), cap 8 MB: peak RSS growth ${growth.toFixed(1)} MB`);
		expect(growth).toBeLessThan(8 * 3 + 64);
	});

	test.each([
		['gzip', (body: Buffer) => gzipSync(body)],
		['deflate', (body: Buffer) => deflateSync(body)],
		['br', (body: Buffer) => brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } })],
	])('%s bodies keep working', async (encoding, compress) => {
		const server = await startServer();
		server.script((_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
			res.end(compress(Buffer.from(GOOD_BODY)));
		});
		const result = await run(server.origin);
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual(expectedItems(GOOD, 0));
	});

	test('a body exactly at the cap is read; one byte more is refused', async () => {
		const body = Buffer.from(GOOD_BODY);
		const server = await startServer();
		server.script((_req, res) => res.end(body));
		const capMb = body.length / MB;
		expect((await run(server.origin, { options: { maxResponseSize: capMb } })).error).toBeUndefined();
		const refused = await run(server.origin, { options: { maxResponseSize: (body.length - 1) / MB } });
		expect(refused.error?.message).toMatch(/^The answer is larger than the Max Response Size of \d+ KB$/);
	});
});

describe('Timeout is per request, Listing Time Limit the whole listing', () => {
	/**
	 * Headers at once, then one byte every 500 ms, for ever. `lived` resolves with how long the request
	 * lived at the server (its arrival to its connection's close): the ceilings below are on that, not
	 * on the whole run, whose start in n8n's engine is no part of the Timeout and on a loaded machine
	 * can take longer than the margin; the floors are on the whole run (load only makes it longer).
	 */
	function trickling(): { trickle: Handler; lived: Promise<number> } {
		let done: (ms: number) => void = () => {};
		const lived = new Promise<number>((resolve) => (done = resolve));
		const trickle: Handler = (req, res) => {
			const arrived = Date.now();
			res.writeHead(200, { 'content-type': 'application/json' });
			res.write('[');
			const timer = setInterval(() => res.write(' '), 500);
			req.socket.on('close', () => {
				clearInterval(timer);
				done(Date.now() - arrived);
			});
		};
		return { trickle, lived };
	}

	test('a server trickling one byte every 500 ms is cut at the Timeout plus a small margin', async () => {
		const server = await startServer();
		const { trickle, lived } = trickling();
		server.script(trickle);
		const started = Date.now();
		const result = await run(server.origin, { options: { timeout: 1500 } });
		const elapsed = Date.now() - started;
		const life = await lived;
		console.info(`trickling server, Timeout 1500 ms: stopped after ${elapsed} ms (the request lived ${life} ms at the server)`);
		expect(result.error).toMatchObject({ message: 'The platform did not answer within 1.5 s', context: { itemIndex: 0 } });
		expect(result.error?.description).toMatch(
			/after 1\.5 s for one request \(on the first page\)\. Raise "Timeout" under Options \(the time for each request/,
		);
		expect(elapsed).toBeGreaterThanOrEqual(1400);
		expect(life).toBeLessThan(1500 + 750);
		expectNoKey(result);
	});

	test("the trigger is cut within n8n's poll budget even when Timeout is longer", async () => {
		const server = await startServer();
		const { trickle, lived } = trickling();
		server.script(trickle);
		const node = servicesTriggerNode({ events: ['created'], options: { timeout: 60_000 } });
		const poller = new ActivePoller(node, { apiKey: KEY, baseUrl: server.origin });
		const started = Date.now();
		const tick = await poller.tick({ pollBudgetMs: 1000 });
		const elapsed = Date.now() - started;
		const life = await lived;
		console.info(`trickling server, poll budget 1000 ms: stopped after ${elapsed} ms (the request lived ${life} ms at the server)`);
		expect(tick.error?.message).toBe("The platform did not answer within n8n's poll budget (900 ms of 1 s used)");
		expect((tick.error as { description?: string })?.description).toMatch(
			/n8n gives each trigger poll 1 s.*Raising "Timeout" or "Listing Time Limit" does not help/,
		);
		expect(life).toBeLessThan(1000 + 500);
		expectNoKey(JSON.stringify({ message: tick.error?.message, description: (tick.error as { description?: string })?.description }));
	});

	test.each([
		[0, '"Timeout" must be a number greater than 0, not the number 0'],
		[-5, '"Timeout" must be a number greater than 0, not the number -5'],
		['soon', '"Timeout" must be a number greater than 0, not the text "soon"'],
	])('Timeout %p is a parameter error saying what to enter', async (timeout, message) => {
		const server = await startServer();
		const result = await run(server.origin, { options: { timeout } });
		expect(result.error).toMatchObject({ name: 'NodeOperationError', message, context: { itemIndex: 0 } });
		expect(result.error?.description).toMatch(/^Enter a number greater than 0 in "Timeout", e\.g\. 30000/);
		expect(server.seen).toEqual([]);
	});

	test('Max Response Size 0 is a parameter error', async () => {
		const server = await startServer();
		const result = await run(server.origin, { options: { maxResponseSize: 0 } });
		expect(result.error?.message).toBe('"Max Response Size" must be a number greater than 0, not the number 0');
		expect(server.seen).toEqual([]);
	});
});

describe('retries of 429, 502, 503 and 504', () => {
	const status =
		(code: number, headers: Record<string, string> = {}): Handler =>
		(_req, res) => {
			res.writeHead(code, { 'content-type': 'application/json', ...headers });
			res.end(JSON.stringify({ message: `busy ${KEY}` }));
		};

	test('429 with Retry-After: 0, then success: the run succeeds after one retry', async () => {
		const server = await startServer();
		server.script(status(429, { 'retry-after': '0' }), ok);
		const result = await run(server.origin);
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual(expectedItems(GOOD, 0));
		expect(server.seen).toHaveLength(2);
		expect(server.seen.every((seen) => seen.authorization === `Bearer ${KEY}`)).toBe(true);
	});

	test('502 without Retry-After: exponential backoff with jitter (0.5-1 s), then success', async () => {
		const server = await startServer();
		server.script(status(502), ok);
		const waits = watchRetryWaits();
		const started = Date.now();
		const result = await run(server.origin);
		expect(result.error).toBeUndefined();
		expect(Date.now() - started).toBeGreaterThanOrEqual(500);
		expect(waits).toEqual([expect.any(Number)]);
		expect(waits[0]).toBeGreaterThanOrEqual(500);
		expect(waits[0]).toBeLessThanOrEqual(1000);
		expect(server.seen).toHaveLength(2);
	});

	test.each([503, 504])('%i four times: at most 3 retries, and the error says how often and how long', async (code) => {
		const server = await startServer();
		server.script(status(code, { 'retry-after': '0' }));
		const result = await run(server.origin);
		expect(server.seen).toHaveLength(4);
		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: String(code) });
		expect(result.error?.description).toMatch(/The node retried 3 times over \d+ ms\.$/);
		expectNoKey(result);
	});

	test('a Retry-After longer than the Timeout fails at once, naming the wait and the Timeout', async () => {
		const server = await startServer();
		server.script(status(429, { 'retry-after': '3600' }));
		const waits = watchRetryWaits();
		const result = await run(server.origin, { options: { timeout: 5000 } });
		expect(waits).toEqual([]);
		expect(server.seen).toHaveLength(1);
		expect(result.error).toMatchObject({
			httpCode: '429',
			message: 'The platform asks to wait 60 min (HTTP 429), longer than a retry may wait (the Timeout, 5 s)',
		});
		expect(result.error?.description).toMatch(/raise "Timeout" under Options/);
	});

	test('a retry that then meets a Retry-After too long still says it retried', async () => {
		const server = await startServer();
		server.script(status(503, { 'retry-after': '0' }), status(429, { 'retry-after': '3600' }));
		const result = await run(server.origin, { options: { timeout: 5000 } });
		expect(server.seen).toHaveLength(2);
		expect(result.error?.message).toBe('The platform asks to wait 60 min (HTTP 429), longer than a retry may wait (the Timeout, 5 s)');
		expect(result.error?.description).toMatch(/The node retried 1 time over \d+ ms\.$/);
	});

	test('Retry on Rate Limit off: one request, the 429 as it came', async () => {
		const server = await startServer();
		server.script(status(429, { 'retry-after': '0' }), ok);
		const result = await run(server.origin, { options: { retryOnRateLimit: false } });
		expect(server.seen).toHaveLength(1);
		expect(result.error?.message).toBe('The platform is rate limiting requests (HTTP 429)');
	});

	test('a 500 is not retried (it is not transient by contract)', async () => {
		const server = await startServer();
		server.script(status(500), ok);
		const result = await run(server.origin);
		expect(server.seen).toHaveLength(1);
		expect(result.error?.httpCode).toBe('500');
	});
});

describe('clear words', () => {
	test('a lying content-encoding (gzip header, plain body) says the body could not be decompressed', async () => {
		const server = await startServer();
		server.script((_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
			res.end(GOOD_BODY);
		});
		const result = await run(server.origin);
		expect(result.error?.message).toBe(`The answer from 127.0.0.1:${server.port} could not be decompressed`);
		expect(result.error?.description).toMatch(/fault of the platform or a proxy/);
	});

	test('https to a plain-http port names the protocol mismatch', async () => {
		const server = await startServer();
		const result = await run(`https://127.0.0.1:${server.port}`);
		expect(result.error?.message).toBe(
			`Could not start a secure connection to 127.0.0.1:${server.port}: it does not speak https on that port`,
		);
		expect(result.error?.description).toMatch(/Check the scheme and port of the Base URL/);
	});

	test.each(['99999', '0', '123456789012'])('port %s is named as a port that does not exist', async (port) => {
		const result = await run(`https://api.example.com:${port}`);
		const shown = port.length > 6 ? `${port.slice(0, 6)}…` : port;
		expect(result.error).toMatchObject({
			name: 'NodeOperationError',
			message: `The credential's Base URL has port ${shown}, which does not exist`,
		});
		expect(result.error?.description).toMatch(/from 1 to 65535/);
	});

	test.each([
		['UTF-16LE with a BOM', 'application/json', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(GOOD_BODY, 'utf16le')])],
		['UTF-16LE declared by charset', 'application/json; charset=utf-16le', Buffer.from(GOOD_BODY, 'utf16le')],
		['UTF-8 with a BOM', 'application/json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(GOOD_BODY)])],
		['latin-1 declared (ASCII content)', 'application/json; charset=ISO-8859-1', Buffer.from(GOOD_BODY, 'latin1')],
	])('%s is decoded', async (_name, contentType, body) => {
		const server = await startServer();
		server.script((_req, res) => {
			res.writeHead(200, { 'content-type': contentType });
			res.end(body);
		});
		const result = await run(server.origin);
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual(expectedItems(GOOD, 0));
	});

	test('latin-1 text is read as latin-1, not as broken UTF-8', async () => {
		const records = structuredClone(GOOD) as Array<Record<string, any>>;
		records[0].values.values.name = 'Serveur café';
		const server = await startServer();
		server.script((_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json; charset=iso-8859-1' });
			res.end(Buffer.from(JSON.stringify(records), 'latin1'));
		});
		const result = await run(server.origin, { simplify: false });
		expect(result.error).toBeUndefined();
		expect((result.items[0].json as IDataObject).values).toMatchObject({ values: { name: 'Serveur café' } });
	});

	test.each([
		['invalid UTF-8', 'application/json', Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d]), 'The answer is not valid utf-8 text'],
		[
			'an unknown charset',
			'application/json; charset=klingon',
			Buffer.from('[]'),
			'The answer uses a character set the node cannot read ("klingon")',
		],
	])('%s is refused with clear words', async (_name, contentType, body, message) => {
		const server = await startServer();
		server.script((_req, res) => {
			res.writeHead(200, { 'content-type': contentType });
			res.end(body);
		});
		const result = await run(server.origin);
		expect(result.error?.message).toBe(message);
	});
});

describe('error bodies are decoded like success bodies', () => {
	test('a 403 whose JSON body starts with a UTF-8 BOM still quotes the platform', async () => {
		const server = await startServer();
		server.script((_req, res) => {
			res.writeHead(403, { 'content-type': 'application/json; charset=utf-8' });
			res.end(
				Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ message: 'Plan does not include API access' }))]),
			);
		});
		const result = await run(server.origin);
		expect(result.error?.description).toContain('The platform said: "Plan does not include API access"');
	});
});

describe('the key: trimmed, checked, and in no text in any form', () => {
	test('a key pasted with spaces around it is sent trimmed, and the server echoing it is redacted', async () => {
		const server = await startServer();
		server.script((_req, res) => {
			res.writeHead(401, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ message: `Key ${KEY} unknown` }));
		});
		const result = await run(server.origin, {}, `  ${KEY}\n`);
		expect(server.seen[0].authorization).toBe(`Bearer ${KEY}`);
		expect(result.error?.description).toContain('The platform said: "Key [redacted] unknown"');
		expectNoKey(result);
	});

	test.each([
		['URL-encoded', encodeURIComponent(`key=${KEY}&x=1`).replace(/-/g, '%2D')],
		['base64', Buffer.from(KEY).toString('base64')],
		['base64 of "Bearer <key>"', BEARER_B64],
		['base64 of "user:<key>"', Buffer.from(`user:${KEY}`).toString('base64url')],
		['with whitespace inside', `${KEY.slice(0, 10)}\n  ${KEY.slice(10)}`],
		['cut at the end of a long message', `${'x'.repeat(180)} ${KEY.slice(0, 14)}`],
	])('echoed %s: redacted', async (_name, echo) => {
		const server = await startServer();
		server.script((_req, res) => {
			res.writeHead(403, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ message: echo }));
		});
		const result = await run(server.origin);
		expect(result.error?.httpCode).toBe('403');
		expect(result.error?.description).toContain('[redacted]');
		expectNoKey(result);
		for (const form of [KEY.slice(0, 8), Buffer.from(KEY).toString('base64').slice(4, 20)]) {
			expect(result.serialized).not.toContain(form);
		}
	});

	test('redaction runs before shortening: a key the 200-character cut would split leaves no piece behind', async () => {
		const server = await startServer();
		server.script((_req, res) => {
			res.writeHead(401, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ message: `${'x'.repeat(190)} ${KEY}` }));
		});
		const result = await run(server.origin);
		expect(result.error?.description).toContain(`The platform said: "${'x'.repeat(190)} [redacted]".`);
		expect(result.serialized).not.toContain(KEY.slice(0, 6));
	});

	test('a redirect elsewhere with the key in its query (URL-encoded and base64) is quoted redacted, and not followed', async () => {
		const other = await startServer();
		const server = await startServer();
		const target = `${other.origin}/steal?k=${encodeURIComponent(KEY)}&b=${encodeURIComponent(BEARER_B64)}`;
		server.script((_req, res) => {
			res.writeHead(302, { location: target, 'content-length': 0 });
			res.end();
		});
		const result = await run(server.origin);
		expect(other.seen).toEqual([]);
		expect(result.error?.message).toMatch(/^The platform redirected to another address \(.*\[redacted\].*\); the node does not follow it$/);
		expectNoKey(result);
	});

	test.each([
		['empty', '   ', 'The credential has no API Key'],
		['holding the Base URL (fields swapped)', 'https://api.example.com', "The credential's API Key holds a web address, not a key"],
		[
			'with a non-Latin-1 character',
			`${KEY}\u2013x`,
			"The credential's API Key contains a character a request header cannot carry (U+2013 at position 33)",
		],
		[
			'with a control character inside',
			`${KEY.slice(0, 5)}\u0007${KEY.slice(5)}`,
			"The credential's API Key contains a character a request header cannot carry (U+0007 at position 6)",
		],
	])('an API Key %s is a credential error before anything is sent', async (_name, apiKey, message) => {
		const server = await startServer();
		const result = await run(server.origin, {}, apiKey);
		expect(result.error).toMatchObject({ name: 'NodeOperationError', message, context: { itemIndex: 0 } });
		expect(server.seen).toEqual([]);
		expectNoKey(result);
	});

	test('API Key and Base URL swapped: neither field is echoed', async () => {
		const result = await runNode({ node: servicesNode({}), credentials: { apiKey: 'https://api.example.com', baseUrl: KEY } });
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.description).toMatch(/swapped/);
		expectNoKey(result);
	});
});
