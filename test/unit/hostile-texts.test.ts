/**
 * Issue 23: the key-safety promise under a hostile platform, on real servers on 127.0.0.1, the node
 * run through n8n-core's engine. One test per mechanism that broke 0.3.0:
 * 1. foreign text cut before it was redacted (a base64 fragment of the key survived the cut);
 * 2. the editor received the platform's next link (test/unit/get.test.ts, "From List");
 * 3. redaction time chosen by the attacker (a key with a space, a body of whitespace runs);
 * 4. redaction ate the node's own words (a key starting like one of them);
 * 5. texts were not bounded (a 200 KB link, a 7.8 KB header, 1 MB URLs, headers and bodies).
 * Every error text is also checked for the bounds (message, description), for leftover slot markers
 * and for every 8-character window of every form of the key (test/harness/leaks.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { REDACTED } from '../../nodes/shared/redaction/redact';
import { DESCRIPTION_MAX, MESSAGE_MAX } from '../../nodes/shared/text/text';
import { serviceRecord } from '../harness/fixtures';
import { leakedWindows } from '../harness/leaks';
import type { Handler } from '../harness/localServer';
import { closeLocalServers, startLocalServer } from '../harness/localServer';
import type { NodeRunResult } from '../harness/workflow';
import { runNode, servicesNode } from '../harness/workflow';

const KEY = 'sk-live-TEXTS-7c1e94b2d05fa836';
const BEARER_B64 = Buffer.from(`Bearer ${KEY}`).toString('base64');
const MB = 1024 * 1024;

afterEach(closeLocalServers);

const json =
	(body: unknown, status = 200, headers: Record<string, string> = {}): Handler =>
	(_req, res) => {
		res.writeHead(status, { 'content-type': 'application/json', ...headers });
		res.end(typeof body === 'string' ? body : JSON.stringify(body));
	};

async function runAgainst(handlers: Handler[], apiKey = KEY): Promise<NodeRunResult> {
	const local = await startLocalServer({ handler: handlers[0] });
	local.script(...handlers);
	return await runNode({ node: servicesNode({ returnAll: true, simplify: false }), credentials: { apiKey, baseUrl: local.origin } });
}

/** What the user sees of a failed run: its message and description, checked for bounds, markers and the key. */
function shownError(result: NodeRunResult, key = KEY, ours: string[] = []): { message: string; description: string } {
	expect(result.error).toBeDefined();
	const message = String(result.error!.message);
	const description = String(result.error!.description ?? '');
	expect(message.length).toBeLessThanOrEqual(MESSAGE_MAX);
	expect(description.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
	expect(result.serialized).not.toMatch(/[\uE000-\uE002]/);
	// `ours`: texts of the node and the test (its wording, the node's id and type) that may share 8
	// characters with a key chosen to look like them; they are not leaks.
	const seen = ours.reduce((all, part) => all.replaceAll(part, ''), result.serialized);
	expect(leakedWindows(seen, key)).toEqual([]);
	expect(result.error!.context).toMatchObject({ itemIndex: 0 });
	return { message, description };
}

describe('1. foreign text is redacted before it is cut: no fragment of the encoded key survives the cut', () => {
	// Each quotes a foreign value that ends in the base64 of "Bearer <key>"; the padding before it moves
	// the key across every place the old shortening (at 40, 60, 120, 200 or 300 characters) could cut.
	const tail = (length: number) => `${'x'.repeat(length)}${BEARER_B64}`;
	const cases: Array<[string, (pad: number) => Handler[]]> = [
		[
			'a next-page link to another address',
			(pad) => [json({ data: [serviceRecord({ id: 'a' })], next: `https://elsewhere.example/${tail(pad + 40)}` })],
		],
		['a duplicate id_service', (pad) => [json([serviceRecord({ id: tail(pad) }), serviceRecord({ id: tail(pad) })])]],
		[
			'a string where an integer belongs',
			(pad) => [json([{ id_service: 'a', values: { values: { service: { customize: { specifications: { vcores: tail(pad) } } } } } }])],
		],
		['a key of an unknown answer shape', (pad) => [json({ [tail(pad)]: 1, other: [1] })]],
		['the message of an error body', (pad) => [json({ message: tail(pad + 120) }, 404)]],
		['a redirect to another address', (pad) => [json('', 302, { location: `https://elsewhere.example/${tail(pad + 230)}` })]],
	];
	test.each(cases)('%s', async (_name, answer) => {
		const local = await startLocalServer({ handler: json([]) });
		for (let pad = 0; pad <= 90; pad += 3) {
			local.script(...answer(pad));
			local.seen.length = 0;
			const result = await runNode({ node: servicesNode({ returnAll: true }), credentials: { apiKey: KEY, baseUrl: local.origin } });
			shownError(result);
		}
	});
});

describe('3. redaction in linear time, whatever the key and the answer', () => {
	// A key with a space (the user pasted "Bearer <key>"): the old pattern let whitespace sit between
	// any two characters, so "Bearer" and a long run of spaces cost it quadratic time (60 KB: 8 s).
	const key = `Bearer ${KEY}`;
	const hostile = `Bearer${' '.repeat(60 * 1024)}x`;
	test.each([
		['an error body', json({ message: hostile }, 500)],
		['a duplicate id_service', json([{ id_service: hostile }, { id_service: hostile }])],
		['a key of an unknown answer shape', json({ [hostile]: 1, other: [1] })],
		['a Content-Type header on an HTML page', json('<html></html>', 200, { 'content-type': `text/html; x=${hostile.slice(0, 8000)}` })],
	])('%s of 60 KB of whitespace after "Bearer": answered at once', async (name, answer) => {
		const started = process.cpuUsage();
		const result = await runAgainst([answer], key);
		const cpu = process.cpuUsage(started);
		const cpuMs = (cpu.user + cpu.system) / 1000;
		console.info(`${name}, 60 KB of whitespace, key with a space: ${Math.round(cpuMs)} ms CPU for the whole run`);
		shownError(result, key);
		// 0.3.0 took 6.9 s of CPU for the error body; the run itself, with n8n's engine, takes well under one.
		expect(cpuMs).toBeLessThan(2000);
	});
});

describe("4. the node's own wording is never redacted", () => {
	test('a key that starts like a word of the message ("services-...") leaves the message whole', async () => {
		const key = 'services-list-key-0a9b8c7d6e';
		const result = await runAgainst([json({ message: 'not here' }, 404)], key);
		const { message, description } = shownError(result, key, ['list services', 'services-node', 'platform.services', '/v2026/services']);
		expect(message).toBe('The platform found nothing at the address used to list services (HTTP 404)');
		// The path the node adds to the Base URL is its own wording too (issue 28, finding 7): the quoted
		// URL keeps it whole (0.4.0 showed http://127.0.0.1:<port>/v2026/[redacted]).
		expect(description).toMatch(/the node requested http:\/\/127\.0\.0\.1:\d+\/v2026\/services\./);
		expect(description).not.toContain(REDACTED);
		expect(description).toMatch(/^Check the Base URL in the Service Platform API credential: it must be the API's base address/);
		expect(description).toMatch(/The platform said: "not here"\.$/);
	});
});

describe('5. every text a user sees is bounded, whatever the server sends', () => {
	const huge = (length: number) => 'h'.repeat(length);
	test.each([
		[
			'a 200 KB same-origin next link that then fails',
			(origin: string) => [
				json({ data: [serviceRecord({ id: 'a' })], next: `${origin}/v2026/services?cursor=${huge(200 * 1024)}` }),
				json({ message: huge(MB) }, 404),
			],
		],
		['a 7.8 KB Content-Type on an HTML page', () => [json('<html>login</html>', 200, { 'content-type': `text/html; ${huge(7800)}` })]],
		['a 1 MB next link to another address', () => [json({ data: [], next: `https://elsewhere.example/${huge(MB)}` })]],
		['a 60 KB error message in the body', () => [json({ message: `${huge(60 * 1024)} ${KEY}` }, 500)]],
		['a 1 MB error body (more than the node reads of one)', () => [json({ message: `${huge(MB)} ${KEY}` }, 500)]],
		['a 1 MB id_service, twice', () => [json([{ id_service: huge(MB) }, { id_service: huge(MB) }])]],
		[
			'a 1 MB value of the wrong type',
			() => [json([{ id_service: 'a', values: { values: { service: { customize: { specifications: { vcores: huge(MB) } } } } } }])],
		],
		['a 1 MB key of an unknown answer shape', () => [json({ [huge(MB)]: 1, other: [1] })]],
		['a 1 MB header (more than Node.js accepts)', () => [json([], 200, { 'x-padding': huge(MB) })]],
		['a 15 KB Location to another address', () => [json('', 302, { location: `https://elsewhere.example/${huge(15 * 1024)}` })]],
	])('%s', async (_name, answers) => {
		const local = await startLocalServer({ handler: json([]) });
		local.script(...answers(local.origin));
		const result = await runNode({ node: servicesNode({ returnAll: true }), credentials: { apiKey: KEY, baseUrl: local.origin } });
		const { message, description } = shownError(result);
		console.info(`${_name}: message ${message.length}, description ${description.length} characters`);
		expect(message).not.toBe('');
		expect(description).not.toBe('');
	});

	test('the error item of On Error: Continue is bounded the same way', async () => {
		const local = await startLocalServer({ handler: json({ message: huge(60 * 1024) }, 404) });
		const node = servicesNode({ returnAll: true }, { onError: 'continueRegularOutput' });
		const result = await runNode({ node, credentials: { apiKey: KEY, baseUrl: local.origin } });
		const item = result.items[0].json as IDataObject;
		expect(String(item.error).length).toBeLessThanOrEqual(MESSAGE_MAX);
		expect(String(item.details).length).toBeLessThanOrEqual(DESCRIPTION_MAX);
		expect(String(item.details)).toMatch(/…"\.$/);
	});
});
