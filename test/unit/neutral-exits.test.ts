/**
 * Issue 28, finding 3: control characters from the platform pass the boundary. Generated hostile
 * texts (any code point of any plane, lone surrogates, ANSI sequences, NUL, BEL, BS, CR/LF, NEL,
 * U+2028, bidi overrides) sent by real servers on 127.0.0.1, in messages, ids, names, keys of an
 * answer and headers; the nodes run through n8n-core's engine (the trigger through its poll
 * executor). At every exit (error message and description, the On Error → Continue item, the
 * editor's list of services, the trigger's log line) none of those characters is shown raw: each is
 * escaped (`\u202E`), after redaction, and a CR/LF never starts a log line of its own. On 0.4.0 every
 * one of these tests failed.
 */
import { LoadOptionsContext, PollContext } from 'n8n-core';
import type { IDataObject, INodeListSearchResult, INodeType } from 'n8n-workflow';
import fc from 'fast-check';

import { Services } from '../../nodes/Services/Services.node';
import { serviceRecord } from '../harness/fixtures';
import { leakedWindows } from '../harness/leaks';
import type { Handler, LocalServer } from '../harness/localServer';
import { closeLocalServers, startLocalServer } from '../harness/localServer';
import { ActivePoller } from '../harness/poll';
import { RAW_CONTROL } from '../harness/text';
import { createAdditionalData, createHooks, createWorkflow, runNode, servicesNode, servicesTriggerNode } from '../harness/workflow';

const KEY = 'sk-live-NEUTRAL-4c8e1a7f20d93b65';

/** Any code point of any plane, lone surrogates, and the characters the boundary escapes, often; sometimes the key. */
const piece = fc.oneof(
	fc
		.integer({ min: 0, max: 0x10ffff })
		.filter((code) => code < 0xd800 || code > 0xdfff)
		.map((code) => String.fromCodePoint(code)),
	fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
	fc.constantFrom(
		'\u0000',
		'\u0007',
		'\b',
		'\u001b[2J\u001b[31m',
		'\r\n',
		'\r',
		'\n',
		'\u0085',
		'\u009b',
		'\u007f',
		'\u2028',
		'\u2029',
		'\u202e',
		'\u2066',
		'\u200f',
	),
	fc.constantFrom('srv', ' ', '-', KEY, `\u001b${KEY.slice(0, 12)}\r\n${KEY.slice(12)}`),
);
const hostile = fc.array(piece, { minLength: 1, maxLength: 24 }).map((parts) => parts.join(''));
const RUNS = { numRuns: 12 };

afterEach(async () => {
	jest.restoreAllMocks();
	await closeLocalServers();
});

const json =
	(body: unknown, status = 200, headers: Record<string, string> = {}): Handler =>
	(_req, res) => {
		res.writeHead(status, { 'content-type': 'application/json', ...headers });
		// JSON.stringify writes a lone surrogate as \uD800: the node reads it back as one.
		res.end(typeof body === 'string' ? body : JSON.stringify(body));
	};

let server: LocalServer;
beforeEach(async () => {
	server = await startLocalServer({ handler: json([]) });
});

/** Each exit's texts: none holds a raw control; no window of the key. */
function expectNeutral(texts: string[]): void {
	for (const shown of texts) {
		expect(shown).not.toMatch(RAW_CONTROL);
		expect(leakedWindows(shown, KEY)).toEqual([]);
	}
}

describe('errors and their descriptions, through the engine', () => {
	const cases: Array<[string, (value: string) => Handler]> = [
		['the message of an error body', (value) => json({ message: value }, 404)],
		['a duplicate id_service', (value) => json([serviceRecord({ id: value }), serviceRecord({ id: value })])],
		[
			'a string where an integer belongs',
			(value) => json([{ id_service: 'a', values: { values: { service: { customize: { specifications: { vcores: value } } } } } }]),
		],
		['a key of an unknown answer shape', (value) => json({ [value]: 1, other: [1] })],
		['a next link to another address', (value) => json({ data: [serviceRecord({ id: 'a' })], next: `https://elsewhere.example/${value}` })],
		// Node.js lets a header hold only tab and Latin-1: its C1 controls (NEL, CSI) reach the node.
		['a Content-Type header on an HTML page', (value) => json('<html></html>', 200, { 'content-type': `text/html; x=${latin1(value)}` })],
	];
	test.each(cases)('%s', async (_name, answer) => {
		await fc.assert(
			fc.asyncProperty(hostile, async (value) => {
				server.script(answer(value));
				const result = await runNode({
					node: servicesNode({ returnAll: true, simplify: false }),
					credentials: { apiKey: KEY, baseUrl: server.origin },
				});
				expect(result.error).toBeDefined();
				expectNeutral([String(result.error!.message), String(result.error!.description ?? '')]);
			}),
			RUNS,
		);
	});

	test('the On Error → Continue item', async () => {
		await fc.assert(
			fc.asyncProperty(hostile, async (value) => {
				server.script(json({ message: value }, 500));
				const node = servicesNode({ returnAll: true }, { onError: 'continueRegularOutput' });
				const result = await runNode({ node, credentials: { apiKey: KEY, baseUrl: server.origin } });
				const item = result.items[0].json as IDataObject;
				expectNeutral([String(item.error), String(item.details)]);
			}),
			RUNS,
		);
	});
});

/** Header values as Node.js sends them: tab and Latin-1 only, without DEL (C1 controls included). */
function latin1(value: string): string {
	return [...value].map((char) => (char === '\t' || (char >= ' ' && char <= '\u00ff' && char !== '\u007f') ? char : '\u0085')).join('');
}

describe("the editor's list of services (Get's From List)", () => {
	async function search(): Promise<INodeListSearchResult> {
		const node = servicesNode({ operation: 'get' });
		const additionalData = createAdditionalData({ apiKey: KEY, baseUrl: server.origin }, createHooks('internal', node));
		const context = new LoadOptionsContext(createWorkflow([node]), node, additionalData, 'serviceId');
		return await (new Services() as INodeType).methods!.listSearch!.searchServices.call(context);
	}

	test('names, aliases and ids with control characters are shown escaped', async () => {
		await fc.assert(
			fc.asyncProperty(hostile, hostile, hostile, async (name, alias, id) => {
				server.script(json([serviceRecord({ id: `x${id}`, name, alias })]));
				const { results } = await search();
				expect(results).toHaveLength(1);
				expectNeutral([results[0].name, String(results[0].value)]);
			}),
			RUNS,
		);
	});

	test('a name with a newline reads as one line: the newline escaped', async () => {
		server.script(json([serviceRecord({ id: 'srv-1', name: 'web-1\nFAKE ENTRY', alias: 'a\u202Eb' })]));
		const { results } = await search();
		expect(results[0].name).toBe('web-1\\u000AFAKE ENTRY (a\\u202Eb)');
	});
});

describe("the trigger's log line", () => {
	const FIELDS = ['name', 'alias', 'status', 'os_id', 'os_name', 'vcores', 'ram_gb', 'hd_gb'];
	const stored = (id: string) => [`server-${id}`, `alias-${id}`, 'active', 'ubuntu-24.04', 'Ubuntu 24.04 LTS', 2, 4, 80];

	test('a damaged remembered entry whose id holds CR/LF (and any control) never forges a log line', async () => {
		const warnings: string[] = [];
		const logger = { warn: (message: string) => warnings.push(message), debug() {}, info() {}, error() {} };
		jest.spyOn(Object.getPrototypeOf(PollContext.prototype) as { logger: unknown }, 'logger', 'get').mockReturnValue(logger);
		let count = 0;
		await fc.assert(
			fc.asyncProperty(hostile, async (id) => {
				warnings.length = 0;
				server.script(json([serviceRecord({ id: 'srv-1' })]));
				const state = {
					stateVersion: 2,
					credentialId: 'cred-1',
					fields: FIELDS,
					services: { 'srv-1': stored('srv-1'), [`${id}\r\n2026-01-01 ERROR forged`]: 'damaged' },
				};
				const node = servicesTriggerNode({}, { id: `neutral-trigger-${++count}` });
				const trigger = new ActivePoller(node, { apiKey: KEY, baseUrl: server.origin }, { 'node:Services Trigger': state } as IDataObject);
				const tick = await trigger.tick();
				expect(tick.error).toBeUndefined();
				expect(warnings).toHaveLength(1);
				expectNeutral(warnings);
				expect(warnings[0].split(/\r\n|\r|\n|\u2028|\u2029|\u0085/)).toHaveLength(1);
			}),
			RUNS,
		);
	});
});
