/**
 * The redaction where users meet it: a platform on 127.0.0.1 echoes the key, in forms the first
 * redactor (a regular expression of the key and its prefixes) did not know, into the message of a
 * 401; the node runs through n8n-core's engine and nothing of the key may reach the run data.
 */
import { REDACTED } from '../../nodes/shared/redaction/redact';
import type { Handler } from '../harness/localServer';
import { closeLocalServers, startLocalServer } from '../harness/localServer';
import type { NodeRunResult } from '../harness/workflow';
import { runNode, servicesNode } from '../harness/workflow';

const KEY = 'sk-live-REDACT-5d2f8a1c9e3b7046';

afterEach(closeLocalServers);

async function rejectedWith(message: string, apiKey = KEY): Promise<NodeRunResult> {
	const handler: Handler = (_req, res) => {
		res.writeHead(401, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ message }));
	};
	const api = await startLocalServer({ handler });
	return await runNode({ node: servicesNode({ returnAll: true }), credentials: { apiKey, baseUrl: api.origin } });
}

/** No 8 characters in a row of `secret` (compared without case) are in what n8n keeps of the run. */
function expectNoWindowOf(result: NodeRunResult, secret: string): void {
	const kept = result.serialized.toLowerCase();
	const left = Array.from({ length: secret.length - 7 }, (_, index) => secret.slice(index, index + 8)).filter((window) =>
		kept.includes(window.toLowerCase()),
	);
	expect(left).toEqual([]);
}

describe('a platform echoing the key in forms the first redactor missed', () => {
	test('the Authorization header echoed in base64 and cut short by the platform', async () => {
		const header = Buffer.from(`Bearer ${KEY}`).toString('base64');
		const result = await rejectedWith(`bad credentials ${header.slice(0, 30)}...`);
		expect(result.error?.description).toContain(`The platform said: "bad credentials ${header.slice(0, 10)}${REDACTED}..."`);
		// The characters that depend on the key alone: from the 11th on.
		expectNoWindowOf(result, header.slice(10, 30));
	});

	test('the key masked at its start (only a window of it is left)', async () => {
		const result = await rejectedWith(`key ****${KEY.slice(6)} is revoked`);
		expect(result.error?.description).toContain(`The platform said: "key ****${REDACTED} is revoked"`);
		expectNoWindowOf(result, KEY);
	});

	test('the key \\u-escaped by a JSON encoder that escapes everything', async () => {
		const escaped = [...KEY].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
		const result = await rejectedWith(`key ${escaped} unknown`);
		expect(result.error?.description).toContain(`The platform said: "key ${REDACTED} unknown"`);
		expectNoWindowOf(result, escaped);
	});

	test('a key pasted with "Bearer " and echoed with a line break inside', async () => {
		const key = `Bearer ${KEY}`;
		const result = await rejectedWith(`token Bearer\n  ${KEY.slice(0, 12)}\n${KEY.slice(12)} refused`, key);
		expect(result.error?.description).toContain(`The platform said: "token ${REDACTED} refused"`);
		expectNoWindowOf(result, KEY);
	});
});

describe('issue 28, finding 4: the key one decoding step (or two) from the promised forms', () => {
	const bytes = [...Buffer.from(KEY, 'utf8')];
	const hex = (byte: number) => byte.toString(16).padStart(2, '0');
	const percent = (text: string) => [...Buffer.from(text, 'utf8')].map((byte) => `%${hex(byte).toUpperCase()}`).join('');
	const entities = (text: string, form: (code: number) => string) => [...text].map((char) => form(char.codePointAt(0)!)).join('');
	test.each([
		['percent-encoded twice', percent(percent(KEY))],
		['percent-encoded twice, lower case', percent(percent(KEY)).toLowerCase()],
		['hex of its bytes', bytes.map(hex).join('')],
		['hex of its bytes, upper case, spaced', bytes.map(hex).join(' ').toUpperCase()],
		['hex of its bytes, colons between', bytes.map(hex).join(':')],
		['HTML decimal entities', entities(KEY, (code) => `&#${code};`)],
		['HTML hex entities', entities(KEY, (code) => `&#x${code.toString(16)};`)],
		['\\x escapes', bytes.map((byte) => `\\x${hex(byte)}`).join('')],
		['HTML entities, then percent-encoded', percent(entities(KEY, (code) => `&#${code};`))],
		['percent-encoded, then HTML-escaped (&amp; and &#37;)', percent(KEY).replace(/%/g, () => '&#37;')],
		['\\u escapes of percent escapes', [...percent(KEY)].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
	])('%s', async (_name, form) => {
		const result = await rejectedWith(`key ${form} unknown`);
		expect(result.error?.description).toContain(`The platform said: "key ${REDACTED} unknown"`);
		expectNoWindowOf(result, form);
	});
});
