/**
 * The nesting bound on records (issue 24): a record nested deeper than MAX_RECORD_DEPTH levels,
 * unknown fields included, is the node's own error naming the record and the field path, in List
 * (Simplify on or off), Get and the Services Trigger; at the bound it passes untouched. Before the
 * bound, a record 20,000 levels deep passed the node and broke what n8n does with run data (the
 * harness's JSON of the run, as n8n stores and sends it: "Maximum call stack size exceeded").
 * Unit tests of the check itself, then real servers on 127.0.0.1 through n8n-core's engine.
 */
import type { INodeParameters } from 'n8n-workflow';

import { extractServiceRecords } from '../harness/answer';
import { pathTooDeep } from '../../nodes/shared/record/recordDepth';
import {
	isValidServiceRecordFast,
	MAX_RECORD_DEPTH,
	parseServiceRecord,
	parseSimplifiedServiceRecord,
	ServiceResponseError,
	simplifyServiceRecord,
	simplifyServiceRecordFast,
} from '../../nodes/shared/record/serviceRecord';
import type { Text } from '../../nodes/shared/text/text';
import { own, render } from '../../nodes/shared/text/text';
import { serviceRecord } from '../harness/fixtures';
import type { LocalServer } from '../harness/localServer';
import { closeLocalServers, startLocalServer } from '../harness/localServer';
import { ActivePoller } from '../harness/poll';
import { runNode, servicesNode, servicesTriggerNode } from '../harness/workflow';

const KEY = 'sk-live-RECDEPTH-4f0c2b9e7a1d5386';

/** `count` objects nested in one another, as JSON text: `{"x":{"x":{}}}` for 3. */
const chain = (count: number, key = 'x') => `{"${key}":`.repeat(count - 1) + '{}' + '}'.repeat(count - 1);
/** A valid record whose field `extra` makes it `levels` deep in all (the record is level 1), as JSON text. */
const recordText = (id: string, levels: number, key = 'x') =>
	JSON.stringify(serviceRecord({ id })).slice(0, -1) + `,"extra":${chain(levels - 1, key)}}`;
const deepRecord = (id: string, levels: number, key?: string) => JSON.parse(recordText(id, levels, key)) as Record<string, unknown>;
/** The path the error names for a record of recordText: from `extra` down to the first level past the bound. */
const TOO_DEEP_PATH = `extra${'.x'.repeat(MAX_RECORD_DEPTH - 1)}`;

const shown = (value: unknown) => render(value as Text, (part) => part, Infinity);
function thrown(action: () => unknown): ServiceResponseError {
	try {
		action();
	} catch (error) {
		if (error instanceof ServiceResponseError) return error;
		throw error;
	}
	throw new Error('expected a ServiceResponseError');
}

describe('the bound, counted the same on the fast path and the slow path', () => {
	test('pathTooDeep: nothing at the bound, the path to the first level past it, also through arrays', () => {
		expect(pathTooDeep(JSON.parse(chain(MAX_RECORD_DEPTH)) as object, 1)).toBeUndefined();
		expect(pathTooDeep(JSON.parse(chain(MAX_RECORD_DEPTH + 1)) as object, 1)).toEqual(Array(MAX_RECORD_DEPTH).fill('x'));
		const mixed = JSON.parse(`{"a":[1,{"b":${'['.repeat(MAX_RECORD_DEPTH)}${']'.repeat(MAX_RECORD_DEPTH)}}]}`) as object;
		expect(pathTooDeep(mixed, 1)).toEqual(['a', 1, 'b', ...Array(MAX_RECORD_DEPTH - 3).fill(0)]);
		// 100,000 levels: it stops at the bound, whatever lies below.
		expect(pathTooDeep(JSON.parse(chain(100_000)) as object, 1)).toHaveLength(MAX_RECORD_DEPTH);
	});

	test('a record at the bound passes the fast check, and Simplify in the same pass; one level more does not', () => {
		const atBound = deepRecord('srv-1', MAX_RECORD_DEPTH);
		expect(isValidServiceRecordFast(atBound)).toBe(true);
		expect(simplifyServiceRecordFast(atBound)).toEqual(simplifyServiceRecord(atBound as never));
		expect(parseServiceRecord(atBound, () => own('#1'))).toBe(atBound);
		const past = deepRecord('srv-1', MAX_RECORD_DEPTH + 1);
		expect(isValidServiceRecordFast(past)).toBe(false);
		expect(simplifyServiceRecordFast(past)).toBeUndefined();
	});

	// Each documented object of the record is at its own level: the bound counts from the record, not from the object.
	test.each([
		[[], 1],
		[['values'], 2],
		[['values', 'values'], 3],
		[['values', 'values', 'service'], 4],
		[['values', 'values', 'service', 'customize'], 5],
		[['values', 'values', 'service', 'customize', 'OS'], 6],
		[['values', 'values', 'service', 'customize', 'specifications'], 6],
		[['values', 'values', 'service', 'customize', 'specifications', 'GB'], 7],
	])('an unknown field inside %j (level %i)', (path, level) => {
		const withChain = (levels: number) => {
			const record = serviceRecord({ id: 'srv-7' }) as Record<string, any>;
			let holder = record;
			for (const key of path) holder = holder[key];
			holder.extra = JSON.parse(chain(levels - level));
			return record;
		};
		expect(isValidServiceRecordFast(withChain(MAX_RECORD_DEPTH))).toBe(true);
		expect(parseSimplifiedServiceRecord(withChain(MAX_RECORD_DEPTH), () => own('#1'))).toEqual(
			simplifyServiceRecord(withChain(MAX_RECORD_DEPTH) as never),
		);
		expect(isValidServiceRecordFast(withChain(MAX_RECORD_DEPTH + 1))).toBe(false);
		const error = thrown(() => parseSimplifiedServiceRecord(withChain(MAX_RECORD_DEPTH + 1), () => own('#4 of 9')));
		expect(shown(error.text.message)).toBe(
			`Service record #4 of 9 (id_service "srv-7") is nested more than ${MAX_RECORD_DEPTH} levels deep`,
		);
		const fieldPath = [...path, 'extra', ...Array(MAX_RECORD_DEPTH - level).fill('x')].join('.');
		expect(shown(error.text.description)).toMatch(
			new RegExp(`^The field at ${fieldPath.replace(/\./g, '\\.')} goes deeper; the documented record is 7 levels deep\\.`),
		);
	});
});

describe('the error', () => {
	test('names the record by its place and id, and the field path; long paths and ids are bounded, the key redacted', () => {
		const error = thrown(() => extractServiceRecords([serviceRecord({ id: 'srv-1' }), deepRecord('srv-2', 20_000)]));
		expect(error).toBeInstanceOf(ServiceResponseError);
		expect(shown(error.text.message)).toBe(
			`Service record #2 of 2 (id_service "srv-2") is nested more than ${MAX_RECORD_DEPTH} levels deep`,
		);
		expect(shown(error.text.description)).toMatch(
			new RegExp(`^The field at ${TOO_DEEP_PATH.replace(/\./g, '\\.')} goes deeper;.*"Maximum call stack size exceeded"`),
		);

		const long = thrown(() => extractServiceRecords([{ ...deepRecord('i'.repeat(5000), 20_000, 'k'.repeat(1000)) }]));
		const message = shown(long.text.message);
		expect(message).toMatch(/^Service record #1 of 1 \(id_service "i{79}…"\) is nested/);
		expect(shown(long.text.description)).toMatch(/^The field at extra\.k{193}… goes deeper;/);
		const withKey = thrown(() => extractServiceRecords([deepRecord(KEY, 70)]));
		expect(render(withKey.text.message as Text, (part) => part.split(KEY).join('[redacted]'), Infinity)).toContain(
			'(id_service "[redacted]")',
		);
	});

	test('the schema is checked first: a record off the schema and too deep names the wrong field', () => {
		const record = deepRecord('srv-3', 100);
		(record.values as any).values.name = 5;
		expect(shown(thrown(() => extractServiceRecords([record])).text.message)).toBe(
			'Service record #1 of 1 (id_service "srv-3") does not match the documented schema',
		);
	});
});

// ---- real servers, through the engine -------------------------------------------------------------

let listing: string;
let api: LocalServer;
beforeEach(async () => {
	api = await startLocalServer({
		handler: (_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(listing);
		},
	});
});
afterEach(closeLocalServers);

/** srv-1, srv-2 (nested `levels` deep in all) and srv-3, as the platform sends them. */
const serveWith = (levels: number) => {
	listing = `[${JSON.stringify(serviceRecord({ id: 'srv-1' }))},${recordText('srv-2', levels)},${JSON.stringify(serviceRecord({ id: 'srv-3' }))}]`;
};
const run = async (parameters: INodeParameters) =>
	await runNode({ node: servicesNode({ returnAll: true, ...parameters }), credentials: { apiKey: KEY, baseUrl: api.origin } });
const DEEP_ERROR = {
	name: 'NodeApiError',
	message: `Service record #2 of 3 (id_service "srv-2") is nested more than ${MAX_RECORD_DEPTH} levels deep`,
	context: { itemIndex: 0 },
};

describe('List, Get and the trigger against a real server', () => {
	test.each([
		['20,000 levels', 20_000],
		[`${MAX_RECORD_DEPTH + 1} levels (one past the bound)`, MAX_RECORD_DEPTH + 1],
	])("List raw, %s: the node's own error naming the record and the field; the run is one n8n can store", async (_what, levels) => {
		serveWith(levels);
		const result = await run({ simplify: false });
		expect(result.error).toMatchObject(DEEP_ERROR);
		expect(result.error?.description).toMatch(new RegExp(`^The field at ${TOO_DEEP_PATH.replace(/\./g, '\\.')} goes deeper;`));
		expect(result.items).toEqual([]);
		expect(() => result.serialized).not.toThrow();
	});

	test('List at the bound: every record passes, raw output is what the platform sent', async () => {
		serveWith(MAX_RECORD_DEPTH);
		const result = await run({ simplify: false });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual(JSON.parse(listing));
		expect(result.serialized.length).toBeGreaterThan(0);
	});

	test('List with Simplify on, with filters, and Get of another service: the same error (the bound holds whatever the output)', async () => {
		serveWith(20_000);
		expect((await run({ simplify: true })).error).toMatchObject(DEEP_ERROR);
		expect((await run({ simplify: false, filters: { status: ['active'] } })).error).toMatchObject(DEEP_ERROR);
		expect((await run({ operation: 'get', serviceId: { mode: 'id', value: 'srv-3' } })).error).toMatchObject(DEEP_ERROR);
	});

	test("Services Trigger: the poll fails with the node's error and keeps its remembered list", async () => {
		serveWith(3);
		const trigger = new ActivePoller(servicesTriggerNode(), { apiKey: KEY, baseUrl: api.origin });
		const baseline = await trigger.tick();
		expect(baseline.error).toBeUndefined();
		serveWith(20_000);
		const tick = await trigger.tick();
		expect(tick.emitted).toBeNull();
		expect(tick.error?.message).toBe(DEEP_ERROR.message);
		expect(tick.staticData).toEqual(baseline.staticData);
	});
});
