/**
 * Adversarial pass 2 (issue #17), part 2: hostile keys and data against real servers on 127.0.0.1,
 * through n8n-core's WorkflowExecute (and its LoadOptionsContext for the editor's search).
 *
 * Keys: 1 to 7 characters are refused before anything is sent (and so never redacted: matching them
 * would wreck numbers, ids and words); keys with regular-expression characters or non-ASCII; a key
 * echoed by a 200 answer. Ids for Get holding `/ ? # %`, unicode or 10,000 characters; search text
 * holding regular-expression characters; `__proto__` and `constructor` keys in records and envelopes.
 */
import { LoadOptionsContext } from 'n8n-core';
import type { INodeListSearchResult, INodeParameters, INodeType } from 'n8n-workflow';

import { makeRedactor, MIN_KEY_LENGTH, REDACTED } from '../../nodes/shared/redaction/redact';
import { Services } from '../../nodes/Services/Services.node';
import { serviceRecord } from '../harness/fixtures';
import type { Handler, LocalServer } from '../harness/localServer';
import { closeLocalServers, startLocalServer } from '../harness/localServer';
import { LISTING_PATH } from '../harness/pagedApi';
import type { NodeRunResult } from '../harness/workflow';
import { createAdditionalData, createHooks, createWorkflow, runNode, servicesNode } from '../harness/workflow';

const KEY = 'sk-live-ADVDATA-7c1e94b2d05a3f68';

afterEach(closeLocalServers);

const json =
	(body: unknown, status = 200): Handler =>
	(_req, res) => {
		res.writeHead(status, { 'content-type': 'application/json' });
		res.end(typeof body === 'string' ? body : JSON.stringify(body));
	};
const serve = (body: unknown, status = 200) => startLocalServer({ handler: json(body, status) });

async function run(api: LocalServer, parameters: INodeParameters = {}, apiKey = KEY): Promise<NodeRunResult> {
	return await runNode({ node: servicesNode({ returnAll: true, ...parameters }), credentials: { apiKey, baseUrl: api.origin } });
}

const ids = (result: NodeRunResult) => result.items.map((item) => item.json.id_service);

/** The key, and its 8-character pieces, appear nowhere in what n8n keeps of the run. */
function expectNoKey(result: NodeRunResult, key = KEY): void {
	expect(result.serialized).not.toContain(key);
	for (let i = 0; i + 8 <= key.length; i++) expect(result.serialized).not.toContain(key.slice(i, i + 8));
}

describe('very short API keys (1 to 7 characters)', () => {
	const SHORT_KEYS = ['4', '42', 'srv', 'test', '12345', 'active', 'srv-1.a'];
	const ORDINARY = 'HTTP 404 for srv-1 and srv-10: 42 services, 12345 bytes, test passed; status active (4 of 7).';

	test.each(SHORT_KEYS)('key %p: refused before anything is sent, with a text that is not wrecked', async (key) => {
		const api = await serve([serviceRecord({ id: 'srv-1' })]);
		const result = await run(api, {}, key);
		expect(api.seen).toEqual([]);
		expect(result.error).toMatchObject({
			name: 'NodeOperationError',
			message: `The credential's API Key is too short to be an API key (${key.length} character${key.length === 1 ? '' : 's'}; at least 8 needed)`,
			description:
				'Platform API keys are long random texts. Copy the whole key again from the account panel of the platform: part of it may be missing.',
			context: { itemIndex: 0 },
		});
		expect(result.serialized).not.toContain(REDACTED);
	});

	test.each(SHORT_KEYS)('key %p: the redactor leaves numbers, ids and words alone', (key) => {
		expect(makeRedactor(key)(ORDINARY)).toBe(ORDINARY);
		expect(makeRedactor(`  ${key}  `)(ORDINARY)).toBe(ORDINARY);
	});

	test('8 characters is the first length sent, and it is redacted in full as before', async () => {
		expect(MIN_KEY_LENGTH).toBe(8);
		const key = 'k3y-8chr';
		const api = await serve({ message: `key ${key} is not valid; 404 srv-1` }, 401);
		const result = await run(api, {}, key);
		expect(api.seen[0].authorization).toBe(`Bearer ${key}`);
		expect(result.error?.description).toContain('The platform said: "key [redacted] is not valid; 404 srv-1"');
		expectNoKey(result, key);
	});

	test('a short key with "On Error: Continue": one error item per input item, nothing sent', async () => {
		const api = await serve([serviceRecord({ id: 'srv-1' })]);
		const result = await runNode({
			node: servicesNode({ returnAll: true }, { onError: 'continueRegularOutput' }),
			credentials: { apiKey: 'abc', baseUrl: api.origin },
			inputItems: [{}, {}],
		});
		expect(result.items.map((item) => [item.json.error, item.pairedItem])).toEqual([
			["The credential's API Key is too short to be an API key (3 characters; at least 8 needed)", { item: 0 }],
			["The credential's API Key is too short to be an API key (3 characters; at least 8 needed)", { item: 1 }],
		]);
		expect(api.seen).toEqual([]);
	});
});

describe('keys with regular-expression characters or non-ASCII', () => {
	test.each([
		['every metacharacter', 'a.b*c+d?e^f$g{1}(h)|[i]\\j/k-l'],
		['a key that is a regex', '.*.*.*.*.*'],
		['backslash runs', '\\\\\\\\\\\\\\\\\\d+'],
		['dollar patterns', "$&$1$`$'$$-key"],
		['percent and plus', '%41%2B+key+%%'],
	])('%s: echoed by the platform, redacted; nothing else is touched', async (_name, key) => {
		const api = await serve({ message: `bad key "${key}" (${encodeURIComponent(key)}); see srv-1 at 12:00.` }, 401);
		const result = await run(api, {}, key);
		expect(api.seen[0].authorization).toBe(`Bearer ${key}`);
		expect(result.error?.message).toBe('The platform rejected the API key (HTTP 401)');
		// A `+` the key ends with is a gap, no secret: left as the text writes it (issue 28).
		const edge = key.endsWith('+') ? ['+', '%2B'] : ['', ''];
		expect(result.error?.description).toContain(
			`The platform said: "bad key "${REDACTED}${edge[0]}" (${REDACTED}${edge[1]}); see srv-1 at 12:00."`,
		);
		expectNoKey(result, key);
	});

	test.each([
		['accented letters', 'sk-live-clé-0123456789'],
		['an emoji', 'sk-live-🔑-0123456789'],
		['a right-to-left mark', 'sk-live-\u200f0123456789'],
		['a zero-width space', 'sk-live-\u200b0123456789'],
	])('%s: refused before anything is sent, the error never quotes the key', async (_name, key) => {
		const api = await serve([]);
		const result = await run(api, {}, key);
		expect(api.seen).toEqual([]);
		expect(result.error?.message).toMatch(
			/^The credential's API Key contains a character a request header cannot carry \(U\+[0-9A-F]{4,5} at position \d+\)$/,
		);
		expectNoKey(result, key);
	});

	test('a non-ASCII key is still redacted in every form (raw, percent-encoded, base64) should a text hold it', () => {
		const key = 'clé-secrète-ü-0123';
		const redact = makeRedactor(key);
		for (const form of [key, encodeURIComponent(key), Buffer.from(key).toString('base64'), key.toUpperCase()]) {
			expect(redact(`before ${form} after`)).toBe(`before ${REDACTED} after`);
		}
	});
});

describe('a key echoed inside a 200 answer', () => {
	test('in a record value: returned as the platform sent it (records are data, not texts the node writes)', async () => {
		const api = await serve([serviceRecord({ id: 'srv-1', name: `echo ${KEY}` })]);
		const result = await run(api);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.name).toBe(`echo ${KEY}`);
	});

	test('as an id_service that fails the schema: the error quoting it is redacted', async () => {
		const api = await serve([{ id_service: KEY, values: { values: { name: 42 } } }]);
		const result = await run(api);
		expect(result.error?.message).toBe(`Service record #1 of 1 (id_service "${REDACTED}") does not match the documented schema`);
		expectNoKey(result);
	});

	test('as an id_service listed twice: the error quoting it is redacted', async () => {
		const api = await serve([serviceRecord({ id: KEY }), serviceRecord({ id: KEY })]);
		const result = await run(api);
		expect(result.error?.message).toBe(`The listing contains id_service "${REDACTED}" more than once`);
		expectNoKey(result);
	});

	test("as a 200 error object: the platform's words are quoted redacted", async () => {
		const api = await serve({ error: `key ${KEY} expired` });
		const result = await run(api);
		expect(result.error?.message).toBe('The platform answered with an error instead of the services');
		expect(result.error?.description).toContain(`The platform said: "key ${REDACTED} expired"`);
		expectNoKey(result);
	});

	test('as an envelope key: the shape error names keys clipped and redacted', async () => {
		const api = await serve({ [KEY]: 1, other: 2 });
		const result = await run(api);
		expect(result.error?.message).toMatch(/^The API answered with an object with key\(s\) /);
		expectNoKey(result);
	});
});

describe('Get with ids holding / ? # %, unicode or 10,000 characters', () => {
	const LONG = `x${'0123456789'.repeat(1000)}`.slice(0, 10_000);
	const ODD_IDS = ['a/b/../c', 'a?b=c&d', 'a#frag', '100%', '%2F%2e%2e', 'ünï-☃-🔑', '\u202eevil', 'a\\b', LONG];
	const records = [...ODD_IDS.map((id) => serviceRecord({ id })), serviceRecord({ id: 'srv-9' })];

	test.each(ODD_IDS.map((id) => [id.length > 40 ? `${id.length} characters` : JSON.stringify(id), id]))(
		'%s: found exactly, and the id never goes into the request',
		async (_name, id) => {
			const api = await serve(records);
			const result = await run(api, { operation: 'get', serviceId: { __rl: true, mode: 'id', value: id } });
			expect(result.error).toBeUndefined();
			expect(ids(result)).toEqual([id]);
			expect(api.seen.map((request) => request.url)).toEqual([LISTING_PATH]);
		},
	);

	test('10,000 characters not listed: the error quotes at most 80 of them', async () => {
		const api = await serve(records);
		const result = await run(api, { operation: 'get', serviceId: { __rl: true, mode: 'id', value: `y${LONG}` } });
		expect(result.error?.message).toBe(`No service with id_service "${`y${LONG}`.slice(0, 79)}…"`);
		expect(result.serialized.length).toBeLessThan(60_000);
	});

	test('a regular-expression id matches only itself', async () => {
		const api = await serve([serviceRecord({ id: 'srv-1' }), serviceRecord({ id: 'srv-.*' })]);
		const result = await run(api, { operation: 'get', serviceId: { __rl: true, mode: 'id', value: 'srv-.*' } });
		expect(ids(result)).toEqual(['srv-.*']);
	});
});

describe('listSearch text with regular-expression characters', () => {
	const records = [
		serviceRecord({ id: 's1', name: 'web.acme', alias: 'Web (prod)' }),
		serviceRecord({ id: 's2', name: 'webXacme', alias: 'a+b' }),
		serviceRecord({ id: 's3', name: 'db[1]', alias: '^start$' }),
		serviceRecord({ id: 's4', name: 'back\\slash', alias: '50% off' }),
	];

	async function search(api: LocalServer, filter: string): Promise<INodeListSearchResult> {
		const node = servicesNode({ operation: 'get' });
		const additionalData = createAdditionalData({ apiKey: KEY, baseUrl: api.origin }, createHooks('internal', node));
		const context = new LoadOptionsContext(createWorkflow([node]), node, additionalData, 'serviceId');
		return await (new Services() as INodeType).methods!.listSearch!.searchServices.call(context, filter);
	}

	test.each([
		['.', ['s1']],
		['.*', []],
		['web.acme', ['s1']],
		['(prod)', ['s1']],
		['a+b', ['s2']],
		['[1]', ['s3']],
		['^start$', ['s3']],
		['\\', ['s4']],
		['%', ['s4']],
		['$', ['s3']],
		['(', ['s1']],
		['[', ['s3']],
	])('%p matches as plain text: %p', async (filter, expected) => {
		const api = await serve(records);
		const { results } = await search(api, filter);
		expect(results.map((result) => result.value)).toEqual(expected);
	});
});

describe('__proto__ and constructor keys in records and envelopes', () => {
	const record = (id: string) => JSON.stringify(serviceRecord({ id }));

	test.each([
		['an envelope whose one key is __proto__', `{"__proto__": [${record('a')}]}`, ['a']],
		['an envelope whose one key is constructor', `{"constructor": [${record('a')}]}`, ['a']],
		[
			'a map keyed by __proto__ and constructor',
			`{"__proto__": ${record('__proto__')}, "constructor": ${record('constructor')}}`,
			['__proto__', 'constructor'],
		],
		[
			'ids named after Object.prototype',
			`[${['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'].map(record).join(',')}]`,
			['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'],
		],
		['a paged envelope whose links hold __proto__.next', `{"data": [${record('a')}], "links": {"__proto__": {"next": "?page=2"}}}`, ['a']],
	])('%s: read as data', async (_name, body, expected) => {
		const api = await serve(body);
		const result = await run(api);
		expect(result.error).toBeUndefined();
		expect(ids(result)).toEqual(expected);
		expect(api.seen).toHaveLength(1);
		expect(({} as Record<string, unknown>).id_service).toBeUndefined();
	});

	test('a record with __proto__ and constructor inside: Simplify reads only its own fields, raw output keeps them as data', async () => {
		const body = `[{"id_service": "p1", "__proto__": {"id_service": "forged", "values": {"values": {"name": "forged"}}}, "values": {"__proto__": {"values": {"status": "forged"}}, "constructor": {"values": {"status": "forged"}}}}]`;
		const api = await serve(body);
		const simplified = await run(api);
		expect(simplified.error).toBeUndefined();
		expect(simplified.items[0].json).toMatchObject({ id_service: 'p1', name: null, status: null });
		const raw = await run(api, { simplify: false });
		expect(raw.error).toBeUndefined();
		expect(Object.getPrototypeOf(raw.items[0].json)).toBe(Object.prototype);
		expect(raw.items[0].json.id_service).toBe('p1');
		expect(({} as Record<string, unknown>).values).toBeUndefined();
	});

	test('a record without its own id_service but one on "__proto__" is refused, not read through the prototype', async () => {
		const api = await serve(`[{"__proto__": {"id_service": "forged"}}]`);
		const result = await run(api);
		expect(result.error?.message).toBe('Service record #1 of 1 does not match the documented schema');
	});

	test('an unknown envelope key __proto__ next to data: an error naming it, not a guess', async () => {
		const api = await serve(`{"data": [${record('a')}], "__proto__": {"next": "http://evil/"}}`);
		const result = await run(api);
		expect(result.error?.message).toBe('The answer holds "__proto__" next to the records, which the node does not know');
	});

	test('a response header named __proto__ changes nothing', async () => {
		const api = await startLocalServer({
			handler: (_req, res) => {
				res.writeHead(200, {
					'content-type': 'application/json',
					__proto__: '{"link":"<http://evil/>; rel=next"}',
					constructor: 'x',
				} as never);
				res.end(`[${record('a')}]`);
			},
		});
		const result = await run(api);
		expect(result.error).toBeUndefined();
		expect(ids(result)).toEqual(['a']);
	});
});
