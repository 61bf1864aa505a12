/**
 * Fault matrix, part 1: HTTP statuses and response bodies (nock), run through n8n-core's
 * WorkflowExecute with the real credential. Transport failures, TLS and redirects against real
 * local servers are in faults-network.test.ts.
 *
 * Every case runs twice:
 *  - stop on error: input items [ok, fault] -> the run fails with the exact message, a description
 *    saying how to fix it, `context.itemIndex` 1, and the API key nowhere in the run data;
 *  - "On Error: Continue": input items [ok, fault, ok] -> the services of items 0 and 2, and between
 *    them one error item paired to item 1.
 */
import type { INodeParameters } from 'n8n-workflow';
import nock from 'nock';

import { generateServices } from '../../tools/mock-platform/server.cjs';
import { extractServiceRecords } from '../harness/answer';
import { MAX_RECORD_DEPTH, ServiceResponseError } from '../../nodes/shared/record/serviceRecord';
import type { NodeRunResult } from '../harness/workflow';
import { expectedItems } from '../harness/fixtures';
import { ownListingPerItem, runNode, servicesNode } from '../harness/workflow';

const BASE = 'https://api.example.com';
const PATH = '/v2026/services';
const URL_REQUESTED = `${BASE}${PATH}`;
const KEY = 'sk-live-FAULTMATRIX-7f3a9c2e41b8d605';
const KEY_FORMS = [KEY, Buffer.from(KEY).toString('base64'), encodeURIComponent(KEY)];
const JSON_TYPE = { 'Content-Type': 'application/json' };
/** Retryable statuses (429, 502-504) as the run sees them when retries are off; retries: faults-retry.test.ts. */
const NO_RETRY: INodeParameters = { options: { retryOnRateLimit: false } };

/** What a healthy listing answers for the items that do not fail. */
const GOOD = generateServices(2, 7);

const CHECK_BASE_URL = `Check the Base URL in the Service Platform API credential: it must be the API's base address as the platform gives it (e.g. https://api.example.com); the node requested ${URL_REQUESTED}.`;
const RETRY_HINT = 'Try again later, or turn on "Retry On Fail" in the node settings (with a wait of a few seconds).';
const PROVIDER_HINT =
	'The platform answered with data the node cannot use. If the platform changed its API, report it to the provider; ' +
	'to look at the raw answer, call GET /v2026/services with the HTTP Request node and this credential.';
const SHAPE_HINT =
	'Expected an array of service records, a single record, a map of records keyed by id, or an object with one property holding the array. ';
const WRONG_BASE_URL_HINT =
	'This is usually a wrong Base URL (a website or login page instead of the API) or a proxy answering in place of the platform. Check the Base URL in the credential.';

type Reply = (interceptor: nock.Interceptor) => nock.Scope;

interface FaultCase {
	name: string;
	reply: Reply;
	message: string;
	/** The description must contain each of these (the fix, and whatever the platform said). */
	description: Array<string | RegExp>;
	httpCode?: string;
	params?: INodeParameters;
}

const expectedGood = (itemIndex: number) => expectedItems(GOOD, itemIndex);

function api(): nock.Interceptor {
	// Only a request that carries the credential's header matches; anything else fails the run loudly.
	return nock(BASE).get(PATH).matchHeader('authorization', `Bearer ${KEY}`);
}

const ok: Reply = (interceptor) => interceptor.reply(200, JSON.stringify(GOOD), JSON_TYPE);

function expectNoKey(result: NodeRunResult): void {
	for (const form of KEY_FORMS) expect(result.serialized).not.toContain(form);
}

function expectDescription(description: unknown, parts: FaultCase['description']): void {
	expect(typeof description).toBe('string');
	for (const part of parts) {
		if (typeof part === 'string') expect(description).toContain(part);
		else expect(description).toMatch(part);
	}
}

async function expectFaultStops(fault: FaultCase): Promise<NodeRunResult> {
	ok(api());
	fault.reply(api());
	const result = await runNode({
		node: servicesNode(ownListingPerItem(fault.params)),
		credentials: { apiKey: KEY, baseUrl: BASE },
		inputItems: [{ n: 0 }, { n: 1 }],
	});
	expect(nock.isDone()).toBe(true);
	expect(result.items).toEqual([]);
	expect(result.error).toBeDefined();
	expect(result.error?.message).toBe(fault.message);
	expectDescription(result.error?.description, fault.description);
	expect(result.error?.context?.itemIndex).toBe(1);
	if (fault.httpCode !== undefined) expect(result.error?.httpCode).toBe(fault.httpCode);
	expectNoKey(result);
	return result;
}

async function expectFaultContinues(fault: FaultCase): Promise<NodeRunResult> {
	ok(api());
	fault.reply(api());
	ok(api());
	const result = await runNode({
		node: servicesNode(ownListingPerItem(fault.params), { onError: 'continueRegularOutput' }),
		credentials: { apiKey: KEY, baseUrl: BASE },
		inputItems: [{ n: 0 }, { n: 1 }, { n: 2 }],
	});
	expect(nock.isDone()).toBe(true);
	expect(result.error).toBeUndefined();
	const [first, second, errorItem, third, fourth, ...rest] = result.items;
	expect([first, second]).toEqual(expectedGood(0));
	expect([third, fourth]).toEqual(expectedGood(2));
	expect(rest).toEqual([]);
	expect(errorItem.pairedItem).toEqual({ item: 1 });
	expectErrorItem(errorItem, fault, 1);
	expectNoKey(result);
	return result;
}

/**
 * An error item as "On Error: Continue" leaves it. n8n-core rewrites the JSON of an item that carries
 * `error` to `{ error: message }` (WorkflowExecute.normalizeNodeErrors), so the description travels
 * on the error; an item without `error` may carry it as `details` (the keys n8n's error output accepts).
 */
function expectErrorItem(item: NodeRunResult['items'][number], fault: Pick<FaultCase, 'message' | 'description'>, itemIndex: number): void {
	expect(item.json.error).toBe(fault.message);
	expect(Object.keys(item.json).every((key) => ['error', 'message', 'details'].includes(key))).toBe(true);
	expectDescription(item.error?.description ?? item.json.details, fault.description);
	if (item.error) {
		expect(item.error.message).toBe(fault.message);
		expect(item.error.context?.itemIndex).toBe(itemIndex);
	}
}

function faultMatrix(cases: FaultCase[]): void {
	describe.each(cases)('$name', (fault) => {
		test('stops the run with a clear error for the failing item', async () => {
			await expectFaultStops(fault);
		});
		test('with "On Error: Continue": one error item paired to its input, other items still run', async () => {
			await expectFaultContinues(fault);
		});
	});
}

/** A JSON error body as platforms send it; `echo` makes it repeat the key, as careless servers do. */
const errorBody = (message: string) => JSON.stringify({ error: 'some_error', message });

beforeAll(() => {
	nock.disableNetConnect();
});
afterEach(() => {
	nock.cleanAll();
});
afterAll(() => {
	nock.enableNetConnect();
	nock.restore();
});

describe('HTTP error statuses', () => {
	const said = (text: string) => `The platform said: "${text}".`;
	faultMatrix([
		{
			name: '400',
			reply: (i) => i.reply(400, errorBody('Malformed request'), JSON_TYPE),
			message: 'The platform rejected the request as invalid (HTTP 400)',
			description: [CHECK_BASE_URL, said('Malformed request')],
			httpCode: '400',
		},
		{
			name: '401 (the server echoes the key back)',
			reply: (i) => i.reply(401, errorBody(`API key ${KEY} is invalid`), { ...JSON_TYPE, 'WWW-Authenticate': 'Bearer' }),
			message: 'The platform rejected the API key (HTTP 401)',
			description: [
				'The key is wrong, expired or revoked. Generate a new API key in the account panel of the platform',
				said('API key [redacted] is invalid'),
			],
			httpCode: '401',
		},
		{
			name: '403',
			reply: (i) => i.reply(403, errorBody('Forbidden'), JSON_TYPE),
			message: 'The API key is not allowed to list services (HTTP 403)',
			description: ["Check the key's permissions in the account panel", said('Forbidden')],
			httpCode: '403',
		},
		{
			name: '404',
			reply: (i) => i.reply(404, errorBody('No route'), JSON_TYPE),
			message: 'The platform found nothing at the address used to list services (HTTP 404)',
			description: [CHECK_BASE_URL],
			httpCode: '404',
		},
		{
			name: '405',
			reply: (i) => i.reply(405, errorBody('Method not allowed'), { ...JSON_TYPE, Allow: 'POST' }),
			message: 'The address does not allow the request to list services (HTTP 405)',
			description: [CHECK_BASE_URL],
			httpCode: '405',
		},
		{
			name: '408',
			reply: (i) => i.reply(408, errorBody('Request timeout'), JSON_TYPE),
			message: 'The platform gave up waiting for the request (HTTP 408)',
			description: [RETRY_HINT],
			httpCode: '408',
		},
		{
			name: '409',
			reply: (i) => i.reply(409, errorBody('Conflict'), JSON_TYPE),
			message: 'The platform refused the request (HTTP 409)',
			description: ['The API documentation does not describe this answer.', CHECK_BASE_URL, said('Conflict')],
			httpCode: '409',
		},
		{
			name: '410',
			reply: (i) => i.reply(410, errorBody('Gone'), JSON_TYPE),
			message: 'The platform says the address used to list services is gone (HTTP 410)',
			description: ["Check the provider's announcements and update this community node."],
			httpCode: '410',
		},
		{
			name: '422',
			reply: (i) => i.reply(422, errorBody('Unprocessable'), JSON_TYPE),
			message: 'The platform refused the request (HTTP 422)',
			description: ['The API documentation does not describe this answer.', CHECK_BASE_URL],
			httpCode: '422',
		},
		{
			name: '429 with Retry-After in seconds',
			params: NO_RETRY,
			reply: (i) => i.reply(429, errorBody('Slow down'), { ...JSON_TYPE, 'Retry-After': '30' }),
			message: 'The platform is rate limiting requests (HTTP 429); it asks to wait 30 s',
			description: ['Wait 30 s before running again.', '"Retry On Fail"', said('Slow down')],
			httpCode: '429',
		},
		{
			name: '429 with Retry-After as an HTTP date (in the past)',
			params: NO_RETRY,
			reply: (i) => i.reply(429, '', { 'Retry-After': 'Wed, 21 Oct 2015 07:28:00 GMT' }),
			// A date already past asks for no wait: no 'wait 0 s' in the text.
			message: 'The platform is rate limiting requests (HTTP 429)',
			description: ['Wait a little before running again.'],
			httpCode: '429',
		},
		{
			name: '429 without Retry-After',
			params: NO_RETRY,
			reply: (i) => i.reply(429, errorBody('Too many requests'), JSON_TYPE),
			message: 'The platform is rate limiting requests (HTTP 429)',
			description: ['Wait a little before running again.', '"Retry On Fail"'],
			httpCode: '429',
		},
		{
			name: '429 with an unreadable Retry-After',
			params: NO_RETRY,
			reply: (i) => i.reply(429, '', { 'Retry-After': 'soon' }),
			message: 'The platform is rate limiting requests (HTTP 429)',
			description: ['Wait a little before running again.'],
			httpCode: '429',
		},
		{
			name: '500',
			reply: (i) => i.reply(500, errorBody('Internal error'), JSON_TYPE),
			message: 'The platform had an internal error (HTTP 500)',
			description: [RETRY_HINT, said('Internal error')],
			httpCode: '500',
		},
		{
			name: '500 with an HTML error page',
			reply: (i) => i.reply(500, '<html><body><h1>500</h1></body></html>', { 'Content-Type': 'text/html' }),
			message: 'The platform had an internal error (HTTP 500)',
			description: [RETRY_HINT],
			httpCode: '500',
		},
		{
			name: '502',
			params: NO_RETRY,
			reply: (i) => i.reply(502, '<html>Bad gateway</html>', { 'Content-Type': 'text/html' }),
			message: "The platform's gateway got a bad answer (HTTP 502)",
			description: [RETRY_HINT],
			httpCode: '502',
		},
		{
			name: '503 with Retry-After',
			params: NO_RETRY,
			reply: (i) => i.reply(503, errorBody('Maintenance'), { ...JSON_TYPE, 'Retry-After': '120' }),
			message: 'The platform is unavailable (HTTP 503); it asks to wait 120 s',
			description: [RETRY_HINT, said('Maintenance')],
			httpCode: '503',
		},
		{
			name: '503 without Retry-After',
			params: NO_RETRY,
			reply: (i) => i.reply(503, ''),
			message: 'The platform is unavailable (HTTP 503)',
			description: [RETRY_HINT],
			httpCode: '503',
		},
		{
			name: '504',
			params: NO_RETRY,
			reply: (i) => i.reply(504, ''),
			message: "The platform's gateway timed out (HTTP 504)",
			description: [RETRY_HINT],
			httpCode: '504',
		},
		{
			name: '501 (undocumented 5xx)',
			reply: (i) => i.reply(501, errorBody('Not implemented'), JSON_TYPE),
			message: 'The platform failed with HTTP 501',
			description: [RETRY_HINT],
			httpCode: '501',
		},
		{
			name: '418 (undocumented 4xx)',
			reply: (i) => i.reply(418, ''),
			message: 'The platform refused the request (HTTP 418)',
			description: ['The API documentation does not describe this answer.', CHECK_BASE_URL],
			httpCode: '418',
		},
	]);
});

describe('unexpected 2xx and 3xx without a body', () => {
	const emptyAnswer = (status: number): FaultCase => ({
		name: String(status),
		reply: (i) => i.reply(status),
		message: `The platform answered HTTP ${status} with an empty body instead of JSON`,
		description: ['Received content type not given, 0 byte(s).', WRONG_BASE_URL_HINT],
		httpCode: String(status),
	});
	const redirectWithoutTarget = (status: number): FaultCase => ({
		name: `${status} without Location`,
		reply: (i) => i.reply(status),
		message: `The platform answered with a redirect (HTTP ${status}) without a target`,
		description: [`Check the Base URL in the credential; the node requested ${URL_REQUESTED}.`],
		httpCode: String(status),
	});
	faultMatrix([
		emptyAnswer(201),
		emptyAnswer(202),
		emptyAnswer(204),
		emptyAnswer(206),
		redirectWithoutTarget(300),
		redirectWithoutTarget(301),
		redirectWithoutTarget(302),
		redirectWithoutTarget(303),
		redirectWithoutTarget(307),
		redirectWithoutTarget(308),
		{
			name: '304 Not Modified',
			reply: (i) => i.reply(304),
			message: 'The platform answered with an unexpected HTTP 304',
			description: ['To list services, the platform should answer HTTP 200 with JSON.', CHECK_BASE_URL],
			httpCode: '304',
		},
	]);
});

describe('bodies the node cannot use (HTTP 200)', () => {
	const half = JSON.stringify(generateServices(3, 2));
	const notAList = (body: string, shape: string, extra: Array<string | RegExp> = []): FaultCase => ({
		name: `JSON ${body.length > 40 ? `${body.slice(0, 37)}...` : body}`,
		reply: (i) => i.reply(200, body, JSON_TYPE),
		message: `The API answered with ${shape}, not a list of services`,
		description: [SHAPE_HINT, PROVIDER_HINT, ...extra],
		httpCode: '200',
	});
	faultMatrix([
		{
			name: 'invalid JSON',
			reply: (i) => i.reply(200, "[{'id_service': 'srv-1', values: {}},]", JSON_TYPE),
			message: 'The platform answered with text that is not valid JSON',
			description: ['Received content type "application/json", 38 byte(s); it may be cut off.', WRONG_BASE_URL_HINT],
			httpCode: '200',
		},
		{
			name: 'truncated JSON',
			reply: (i) => i.reply(200, half.slice(0, Math.floor(half.length / 2)), JSON_TYPE),
			message: 'The platform answered with text that is not valid JSON',
			description: [/^Received content type "application\/json", \d+ byte\(s\); it may be cut off\./, WRONG_BASE_URL_HINT],
			httpCode: '200',
		},
		{
			name: 'empty body',
			reply: (i) => i.reply(200, '', JSON_TYPE),
			message: 'The platform answered HTTP 200 with an empty body instead of JSON',
			description: ['Received content type "application/json", 0 byte(s).', WRONG_BASE_URL_HINT],
			httpCode: '200',
		},
		{
			name: 'whitespace only',
			reply: (i) => i.reply(200, ' \r\n\t ', JSON_TYPE),
			message: 'The platform answered HTTP 200 with an empty body instead of JSON',
			description: ['5 byte(s)', WRONG_BASE_URL_HINT],
			httpCode: '200',
		},
		{
			name: 'HTML page with 200',
			reply: (i) =>
				i.reply(200, '<!DOCTYPE html><html><head><title>Sign in</title></head><body>Sign in</body></html>', {
					'Content-Type': 'text/html; charset=utf-8',
				}),
			message: 'The platform answered with an HTML page instead of JSON',
			description: ['Received content type "text/html; charset=utf-8", 83 byte(s).', WRONG_BASE_URL_HINT],
			httpCode: '200',
		},
		{
			name: 'HTML page labelled as JSON',
			reply: (i) => i.reply(200, '\n  <html><body>maintenance</body></html>', JSON_TYPE),
			message: 'The platform answered with an HTML page instead of JSON',
			description: [WRONG_BASE_URL_HINT],
			httpCode: '200',
		},
		notAList('null', 'null'),
		notAList('42', 'a number'),
		notAList('-0.5', 'a decimal number'),
		notAList('true', 'a boolean'),
		notAList('"services"', 'a string'),
		notAList('{"rows":[],"continuation":"c2"}', 'an object with key(s) rows (array of 0), continuation (string)', [
			'The answer looks paginated in a way the node does not know ("continuation")',
		]),
		{
			name: 'JSON {"data":[],"continuation":"c2"}',
			reply: (i) => i.reply(200, '{"data":[],"continuation":"c2"}', JSON_TYPE),
			message: 'The answer holds paging metadata the node does not know: "continuation"',
			description: ['The node reads a listing only when it understands every part of the answer besides the records', PROVIDER_HINT],
			httpCode: '200',
		},
		notAList('{"count":3,"total":3}', 'an object with key(s) count (number), total (number)'),
		notAList(
			'{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12}',
			'an object with key(s) a (number), b (number), c (number), d (number), e (number), f (number), g (number), h (number), i (number), j (number), and 2 more',
		),
	]);
});

/** Record #2 of 3 gets one field changed; the message names the record, the field, what was expected and what came. */
describe('a record with the wrong types', () => {
	const listingWith = (mutate: (record: Record<string, any>) => void) => {
		const records: Array<Record<string, any>> = generateServices(3, 3).map((r) => structuredClone(r));
		mutate(records[1]);
		return JSON.stringify(records);
	};
	const id = generateServices(3, 3)[1].id_service;
	const wrongType = (name: string, mutate: (record: Record<string, any>) => void, field: string, withId = true): FaultCase => ({
		name,
		reply: (i) => i.reply(200, listingWith(mutate), JSON_TYPE),
		message: `Service record #2 of 3${withId ? ` (id_service "${id}")` : ''} does not match the documented schema`,
		description: [`Field ${field}. ${PROVIDER_HINT}`],
		httpCode: '200',
	});
	const specs = (r: Record<string, any>) => r.values.values.service.customize.specifications;
	faultMatrix([
		wrongType(
			'vcores as a string',
			(r) => (specs(r).vcores = '4'),
			'values.values.service.customize.specifications.vcores: expected number, received string "4"',
		),
		wrongType(
			'vcores as a decimal',
			(r) => (specs(r).vcores = 2.5),
			'values.values.service.customize.specifications.vcores: expected integer, received decimal number 2.5',
		),
		wrongType(
			'GB.ram as a boolean',
			(r) => (specs(r).GB.ram = true),
			'values.values.service.customize.specifications.GB.ram: expected number, received boolean true',
		),
		wrongType('name as a number', (r) => (r.values.values.name = 12), 'values.values.name: expected string, received number 12'),
		wrongType(
			'status as an object',
			(r) => (r.values.values.status = { code: 1 }),
			'values.values.status: expected string, received object',
		),
		wrongType(
			'OS as an array',
			(r) => (r.values.values.service.customize.OS = []),
			'values.values.service.customize.OS: expected object, received array of 0',
		),
		wrongType('inner values as a string', (r) => (r.values.values = 'x'), 'values.values: expected object, received string "x"'),
		wrongType('id_service as a number', (r) => (r.id_service = 10015), 'id_service: expected string, received number 10015', false),
		wrongType('id_service missing', (r) => delete r.id_service, 'id_service: expected string, received nothing (missing)', false),
	]);
	faultMatrix([
		{
			name: 'a record that is not an object',
			reply: (i) => i.reply(200, JSON.stringify([GOOD[0], 'srv-2', GOOD[1]]), JSON_TYPE),
			message: 'Service record #2 of 3 does not match the documented schema',
			description: [`Field (the record itself): expected object, received string "srv-2". ${PROVIDER_HINT}`],
			httpCode: '200',
		},
		{
			name: 'a bad record in an envelope',
			reply: (i) => i.reply(200, JSON.stringify({ services: [GOOD[0], null] }), JSON_TYPE),
			message: 'Service record #2 of 2 in "services" does not match the documented schema',
			description: ['Field (the record itself): expected object, received null.'],
			httpCode: '200',
		},
	]);
});

describe('duplicate ids', () => {
	const twin = { ...structuredClone(GOOD[1]), id_service: GOOD[0].id_service };
	faultMatrix([
		{
			name: 'the same id_service twice in an array',
			reply: (i) => i.reply(200, JSON.stringify([GOOD[0], twin]), JSON_TYPE),
			message: `The listing contains id_service "${GOOD[0].id_service}" more than once`,
			description: ['Record #2 of 2 repeats an id already listed. Each service must appear once;', PROVIDER_HINT],
			httpCode: '200',
		},
		{
			name: 'the same id_service twice in an envelope',
			reply: (i) => i.reply(200, JSON.stringify({ data: [GOOD[0], GOOD[1], twin] }), JSON_TYPE),
			message: `The listing contains id_service "${GOOD[0].id_service}" more than once`,
			description: ['Record #3 of 3 in "data" repeats an id already listed.'],
			httpCode: '200',
		},
	]);

	// n8n-workflow's NodeError rewrites any message that contains a Node error code such as EPERM,
	// ENOENT or EACCES, case-insensitively, even inside data ("deepermind" contains "eperm"); the
	// transport restores its own text after constructing the error.
	test('an id that happens to contain a Node error code keeps the real message', async () => {
		const clash = (id: string) => [
			{ ...structuredClone(GOOD[0]), id_service: id },
			{ ...structuredClone(GOOD[1]), id_service: id },
		];
		await expectFaultStops({
			name: 'deepermind',
			reply: (i) => i.reply(200, JSON.stringify(clash('deepermind-01')), JSON_TYPE),
			message: 'The listing contains id_service "deepermind-01" more than once',
			description: ['Record #2 of 2 repeats an id already listed.'],
		});
	});
});

describe('huge and deep bodies', () => {
	test('huge string fields pass through intact, raw and simplified', async () => {
		const huge = 'x'.repeat(4 * 1024 * 1024);
		const record = structuredClone(GOOD[0]) as Record<string, any>;
		record.values.values.name = huge;
		record.values.values.alias = `${huge}-alias`;
		record.notes = huge;
		for (const simplify of [false, true]) {
			ok(api());
			api().reply(200, JSON.stringify([record, GOOD[1]]), JSON_TYPE);
			const result = await runNode({
				node: servicesNode(ownListingPerItem({ simplify })),
				credentials: { apiKey: KEY, baseUrl: BASE },
				inputItems: [{}, {}],
			});
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(4);
			const item = result.items[2].json as Record<string, any>;
			if (simplify) {
				expect(item.name).toBe(huge);
				expect(item.alias).toBe(`${huge}-alias`);
			} else {
				expect(item).toEqual(record);
			}
			expect(result.items[2].pairedItem).toEqual({ item: 1 });
			expectNoKey(result);
		}
	});

	test('a huge string in a wrong-typed field is clipped in the message', async () => {
		const huge = 'y'.repeat(1024 * 1024);
		const record = structuredClone(GOOD[0]) as Record<string, any>;
		record.id_service = huge;
		record.values.values.service.customize.specifications.vcores = huge;
		api().reply(200, JSON.stringify([record]), JSON_TYPE);
		const result = await runNode({ node: servicesNode({}), credentials: { apiKey: KEY, baseUrl: BASE } });
		expect(result.error?.message).toBe(`Service record #1 of 1 (id_service "${'y'.repeat(79)}…") does not match the documented schema`);
		expect(result.error?.description).toBe(
			`Field values.values.service.customize.specifications.vcores: expected number, received string "${'y'.repeat(39)}…". ${PROVIDER_HINT}`,
		);
		expect(result.error?.context?.itemIndex).toBe(0);
	});

	test('a huge error message from the platform is left out of the description', async () => {
		api().reply(500, errorBody('z'.repeat(200_000)), JSON_TYPE);
		const result = await runNode({ node: servicesNode({}), credentials: { apiKey: KEY, baseUrl: BASE } });
		expect(result.error?.message).toBe('The platform had an internal error (HTTP 500)');
		expect(result.error?.description).toBe(RETRY_HINT);
	});

	test('a long error message from the platform is one line, cut at 1,000 characters and the cut marked', async () => {
		api().reply(503, errorBody(`first line\n\n${'w'.repeat(500)}`), JSON_TYPE);
		const result = await runNode({ node: servicesNode({ ...NO_RETRY }), credentials: { apiKey: KEY, baseUrl: BASE } });
		expect(result.error?.description).toBe(`${RETRY_HINT} The platform said: "first line ${'w'.repeat(500)}".`);
		api().reply(503, errorBody(`first line\n\n${'w'.repeat(5000)}`), JSON_TYPE);
		const long = await runNode({ node: servicesNode({ ...NO_RETRY }), credentials: { apiKey: KEY, baseUrl: BASE } });
		expect(long.error?.description).toBe(`${RETRY_HINT} The platform said: "first line ${'w'.repeat(1000 - 12)}…".`);
	});

	test('100,000 nested arrays: a schema error, not a stack overflow', async () => {
		const depth = 100_000;
		api().reply(200, '['.repeat(depth) + ']'.repeat(depth), JSON_TYPE);
		const result = await runNode({ node: servicesNode({}), credentials: { apiKey: KEY, baseUrl: BASE } });
		expect(result.error?.message).toBe('Service record #1 of 1 does not match the documented schema');
		expect(result.error?.description).toBe(`Field (the record itself): expected object, received array of 1. ${PROVIDER_HINT}`);
	});

	test('100,000 nested objects as the body: a shape error, not a stack overflow', async () => {
		const depth = 100_000;
		api().reply(200, '{"a":'.repeat(depth) + '{}' + '}'.repeat(depth), JSON_TYPE);
		const result = await runNode({ node: servicesNode({}), credentials: { apiKey: KEY, baseUrl: BASE } });
		expect(result.error?.message).toBe('The API answered with an object with key(s) a (object), not a list of services');
	});

	test('deeply nested data in documented fields is a schema error', async () => {
		const depth = 50_000;
		const deep = '{"x":'.repeat(depth) + '1' + '}'.repeat(depth);
		const body = `[{"id_service":"srv-1","values":{"values":{"name":${deep}}}}]`;
		api().reply(200, body, JSON_TYPE);
		const result = await runNode({ node: servicesNode({}), credentials: { apiKey: KEY, baseUrl: BASE } });
		expect(result.error?.message).toBe('Service record #1 of 1 (id_service "srv-1") does not match the documented schema');
		expect(result.error?.description).toBe(`Field values.values.name: expected string, received object. ${PROVIDER_HINT}`);
	});

	test('an undocumented field nested to the bound (64 levels in all) passes through raw output untouched', async () => {
		const depth = MAX_RECORD_DEPTH - 2; // the record is level 1, "extra" level 2
		const [record] = structuredClone(GOOD) as Array<Record<string, any>>;
		const text = JSON.stringify(record).slice(0, -1) + ',"extra":' + '{"x":'.repeat(depth) + '{}' + '}'.repeat(depth) + '}';
		api().reply(200, `[${text}]`, JSON_TYPE);
		const result = await runNode({ node: servicesNode({ simplify: false }), credentials: { apiKey: KEY, baseUrl: BASE } });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual(JSON.parse(text));
	});

	test('an undocumented field nested 100,000 deep is refused without a stack overflow', () => {
		// Passed on, this record would reach n8n's run-data serialisation (JSON.stringify, recursive),
		// which overflows the stack; the node refuses it past MAX_RECORD_DEPTH (record-depth.test.ts).
		const depth = 100_000;
		const [record] = structuredClone(GOOD) as Array<Record<string, any>>;
		const text = JSON.stringify(record).slice(0, -1) + ',"extra":' + '{"x":'.repeat(depth) + '{}' + '}'.repeat(depth) + '}';
		expect(() => extractServiceRecords(JSON.parse(`[${text}]`))).toThrow(ServiceResponseError);
	});
});

describe('messages that stay clear in corner cases', () => {
	// A 503 whose Retry-After is neither seconds nor a date: the message reads "it asks to wait undefined".
	test('503 with an unreadable Retry-After does not say "wait undefined"', async () => {
		await expectFaultStops({
			name: '503 Retry-After: soon',
			params: NO_RETRY,
			reply: (i) => i.reply(503, '', { 'Retry-After': 'soon' }),
			message: 'The platform is unavailable (HTTP 503)',
			description: [RETRY_HINT],
			httpCode: '503',
		});
	});

	// Same NodeError rewrite as for duplicate ids, on a NodeOperationError (base URL refused before any request).
	test('a refused plain-http Base URL whose host contains a Node error code keeps the real message', async () => {
		const result = await runNode({
			node: servicesNode({}),
			credentials: { apiKey: KEY, baseUrl: 'http://api.keeperm.example' },
		});
		expect(result.error?.message).toBe('Refusing to send the API key over plain http to api.keeperm.example');
	});

	// A JSON error object with status 200: the message lists the keys but hides what the platform said.
	test("a JSON error object with status 200 shows the platform's message", async () => {
		await expectFaultStops({
			name: 'error object with 200',
			reply: (i) => i.reply(200, errorBody('The service list could not be loaded.'), JSON_TYPE),
			message: 'The platform answered with an error instead of the services',
			description: ['The platform said: "The service list could not be loaded."'],
			httpCode: '200',
		});
	});

	// An empty id_service: zod's own message ends up after "expected": "expected String must contain at
	// least 1 character(s)".
	test('an empty id_service is described in plain words', async () => {
		const records = structuredClone(GOOD) as Array<Record<string, any>>;
		records[1].id_service = '';
		await expectFaultStops({
			name: 'empty id',
			reply: (i) => i.reply(200, JSON.stringify(records), JSON_TYPE),
			message: 'Service record #2 of 2 (id_service "") does not match the documented schema',
			description: ['Field id_service: expected a non-empty string, received string "".'],
			httpCode: '200',
		});
	});
});

test('legacy "continueOnFail: true" on the node behaves like "On Error: Continue"', async () => {
	ok(api());
	api().reply(503, '');
	const result = await runNode({
		node: servicesNode(ownListingPerItem(NO_RETRY), { continueOnFail: true }),
		credentials: { apiKey: KEY, baseUrl: BASE },
		inputItems: [{}, {}],
	});
	expect(result.error).toBeUndefined();
	expect(result.items.slice(0, 2)).toEqual(expectedGood(0));
	expect(result.items[2].pairedItem).toEqual({ item: 1 });
	expectErrorItem(result.items[2], { message: 'The platform is unavailable (HTTP 503)', description: [RETRY_HINT] }, 1);
	expectNoKey(result);
});

test('"On Error: Continue (using error output)" sends the error item to the error output, paired to its input', async () => {
	ok(api());
	api().reply(401, '');
	ok(api());
	const result = await runNode({
		node: servicesNode(ownListingPerItem(), { onError: 'continueErrorOutput' }),
		credentials: { apiKey: KEY, baseUrl: BASE },
		inputItems: [{}, {}, {}],
	});
	expect(result.error).toBeUndefined();
	const [success, failure] = result.run.data.resultData.runData.Services[0].data?.main ?? [];
	expect(success).toEqual([...expectedGood(0), ...expectedGood(2)]);
	expect(failure).toHaveLength(1);
	expect(failure?.[0]).toMatchObject({ json: { error: 'The platform rejected the API key (HTTP 401)' }, pairedItem: { item: 1 } });
	expectNoKey(result);
});

// n8n-core replaces the JSON of an item that carries `error` with `{ error: message }`; the router
// leaves `error` off the item so the fix (`details`) reaches the output data.
test('with "On Error: Continue" the description (how to fix it) reaches the output JSON', async () => {
	api().reply(401, '');
	const result = await runNode({
		node: servicesNode({}, { onError: 'continueRegularOutput' }),
		credentials: { apiKey: KEY, baseUrl: BASE },
	});
	expect(result.items[0].json.error).toBe('The platform rejected the API key (HTTP 401)');
	expect(String(result.items[0].json.details ?? result.items[0].json.description)).toContain('Generate a new API key');
});
