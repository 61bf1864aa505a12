/**
 * Adversarial pass 2 (issue #17): the Services Trigger with corrupted static data (wrong types, huge,
 * from a future format) and with a listing that flaps (A, then empty, then A, then empty), against a
 * real server on 127.0.0.1, polled through n8n-core's PollTriggerExecutor with the static data kept
 * between polls (test/harness/poll.ts).
 *
 * What holds: a damaged entry among valid ones is dropped, named in a warning in n8n's log, and the
 * real changes of the other services are still reported (issue 24); a state damaged as a whole is
 * reset (a new baseline: nothing emitted, a warning saying what was wrong, events again from the
 * next poll); a state from a newer version, or static data that is not an object, fails the poll
 * with an error saying what is wrong and how to start over, leaving the state as it is; never a
 * TypeError, never every service reported as new.
 */
import { PollContext } from 'n8n-core';
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { checkWatchable } from '../../nodes/ServicesTrigger/diff';
import { MAX_STORED_SERVICES, STATE_VERSION } from '../../nodes/ServicesTrigger/state/snapshot';
import { ServicesTrigger } from '../../nodes/ServicesTrigger/ServicesTrigger.node';
import { serviceRecord } from '../harness/fixtures';
import type { LocalServer } from '../harness/localServer';
import { closeLocalServers, startJsonServer } from '../harness/localServer';
import type { PollTickResult } from '../harness/poll';
import { ActivePoller } from '../harness/poll';
import { PACKAGE_NAME, registerNodeType, servicesTriggerNode } from '../harness/workflow';

const KEY = 'sk-live-TRIGSTATE-5d2a9e71c0b84f36';
const STATE_KEY = 'node:Services Trigger';
const FIELDS = ['name', 'alias', 'status', 'os_id', 'os_name', 'vcores', 'ram_gb', 'hd_gb'];
const A = [serviceRecord({ id: 'srv-1' }), serviceRecord({ id: 'srv-2' }), serviceRecord({ id: 'srv-3' })];
const stored = (id: string, status = 'active') => [`server-${id}`, `alias-${id}`, status, 'ubuntu-24.04', 'Ubuntu 24.04 LTS', 2, 4, 80];
const GOOD_STATE = {
	stateVersion: 2,
	credentialId: 'cred-1',
	fields: FIELDS,
	services: Object.fromEntries(A.map((r) => [r.id_service, stored(String(r.id_service))])),
};
/** GOOD_STATE as this version writes it after a poll (version 3: the same services, a delivery record beside them). */
const GOOD_STATE_WRITTEN = { ...GOOD_STATE, stateVersion: 3 };
/** The remembered list of a written state, without its delivery record (state/delivery.ts). */
const core = (state: unknown) => {
	const { stateVersion, credentialId, fields, services } = state as IDataObject;
	return { stateVersion, credentialId, fields, services };
};

/** The listing the server answers now; tests set it between polls. */
let listing: unknown[] = A;
let api: LocalServer;
beforeEach(async () => {
	listing = A;
	api = await startJsonServer(() => listing);
});
afterEach(async () => {
	jest.restoreAllMocks();
	await closeLocalServers();
});

let nodeCount = 0;
/** A node id of its own per test: the unconfirmed mass-removal mark lives in process memory by workflow and node. */
const triggerNode = (parameters: INodeParameters = {}): INode => servicesTriggerNode(parameters, { id: `trigger-state-${++nodeCount}` });
/** An active trigger over a copy of `state` (n8n's static data object is written in place). */
const poller = (state: unknown, parameters: INodeParameters = {}) =>
	new ActivePoller(triggerNode(parameters), { apiKey: KEY, baseUrl: api.origin }, { [STATE_KEY]: structuredClone(state) } as IDataObject);
const events = (tick: PollTickResult) => (tick.emitted?.[0] ?? []).map((item) => [item.json.event, item.json.id_service]);

/** n8n's logger as the poll sees it (n8n-core's node contexts read it from the DI container). */
function spyOnWarnings(): string[] {
	const warnings: string[] = [];
	const logger = { warn: (message: string) => warnings.push(message), debug() {}, info() {}, error() {} };
	jest.spyOn(Object.getPrototypeOf(PollContext.prototype) as { logger: unknown }, 'logger', 'get').mockReturnValue(logger);
	return warnings;
}

/** A damaged state: the poll resets it (new baseline, a warning, nothing emitted); the next poll reports real changes only. */
async function expectReset(state: unknown, what: RegExp): Promise<void> {
	const warnings = spyOnWarnings();
	const trigger = poller(state);
	const first = await trigger.tick();
	expect(first.error).toBeUndefined();
	expect(first.emitted).toBeNull();
	expect(core(first.staticData[STATE_KEY])).toEqual(GOOD_STATE_WRITTEN);
	expect(warnings).toHaveLength(1);
	expect(warnings[0]).toMatch(/^Services Trigger "Services Trigger": The trigger's saved state is damaged: /);
	expect(warnings[0]).toMatch(what);
	expect(warnings[0]).toMatch(/The trigger took a new baseline: this poll recorded the current services and reported no events/);

	listing = [A[0], serviceRecord({ id: 'srv-2', status: 'suspended' }), A[2], serviceRecord({ id: 'srv-4' })];
	const second = await trigger.tick();
	expect(events(second)).toEqual([
		['statusChanged', 'srv-2'],
		['created', 'srv-4'],
	]);
	expect(warnings).toHaveLength(1);
}

describe('a state damaged as a whole (wrong types): reset to a new baseline, said in the log, never a TypeError', () => {
	test.each([
		[
			'services as text',
			{ ...GOOD_STATE, services: 'srv-1,srv-2' },
			/its services are the text "srv-1,srv-2", not an object by id_service/,
		],
		['services as a number', { ...GOOD_STATE, services: 42 }, /its services are number 42/],
		['services as a list', { ...GOOD_STATE, services: [['srv-1', ...stored('srv-1')]] }, /its services are a list/],
		['services null', { ...GOOD_STATE, services: null }, /its services are null/],
		['stateVersion as text', { ...GOOD_STATE, stateVersion: '2' }, /its stateVersion is the text "2"/],
		['stateVersion null', { ...GOOD_STATE, stateVersion: null }, /its stateVersion is null/],
		['stateVersion missing', { services: GOOD_STATE.services }, /its stateVersion is missing/],
		['stateVersion 2.5', { ...GOOD_STATE, stateVersion: 2.5 }, /its stateVersion is number 2.5/],
		['credentialId as a number', { ...GOOD_STATE, credentialId: 1 }, /its credentialId is number 1/],
		['fields as text', { ...GOOD_STATE, fields: 'name,alias' }, /its list of field names is missing or not a list of distinct texts/],
		['fields null', { ...GOOD_STATE, fields: null }, /its list of field names/],
	])('%s', async (_name, state, what) => {
		await expectReset(state, what);
	});

	test('a damaged "waiting for confirmation" mark is ignored: the state is read, a real removal is still confirmed', async () => {
		const trigger = poller({ ...GOOD_STATE, massRemovalUnconfirmed: 'yes' });
		listing = [];
		const held = await trigger.tick();
		expect(held.error).toBeUndefined();
		expect(held.emitted).toBeNull();
		const confirmed = await trigger.tick();
		expect(events(confirmed)).toEqual(A.map((record) => ['removed', record.id_service]));
	});
});

const DROPPED_OUTCOME =
	/\. The changes of the other services are reported as usual\. A dropped entry's service that is still listed is remembered again from this poll with its current values, without an event/;

describe('a damaged entry among valid ones: dropped with a warning naming it, the real changes of the others reported (issue 24)', () => {
	test('the other services\' real changes are reported, the damaged one is not "created", the next poll is clean', async () => {
		const warnings = spyOnWarnings();
		const services = { 'srv-1': stored('srv-1'), 'srv-2': stored('srv-2'), 'srv-3': 'active', 'srv-4': stored('srv-4') };
		const trigger = poller({ ...GOOD_STATE, services });
		listing = [
			serviceRecord({ id: 'srv-1', status: 'suspended' }),
			serviceRecord({ id: 'srv-2', ram: 8 }),
			serviceRecord({ id: 'srv-3', status: 'pending' }),
			serviceRecord({ id: 'srv-5' }),
		];
		const first = await trigger.tick();
		expect(first.error).toBeUndefined();
		expect(events(first)).toEqual([
			['statusChanged', 'srv-1'],
			['specsChanged', 'srv-2'],
			['created', 'srv-5'],
			['removed', 'srv-4'],
		]);
		expect(first.emitted?.[0].map((item) => item.json.previous)).toEqual([{ status: 'active' }, { ram_gb: 4 }, null, null]);
		expect(warnings).toEqual([
			expect.stringMatching(
				/^Services Trigger "Services Trigger": The trigger's saved state is damaged: 1 of its 4 entries cannot be read \(the entry of "srv-3" is the text "active", not a list of 8 values\); the trigger dropped it and kept the rest\. /,
			),
		]);
		expect(warnings[0]).toMatch(DROPPED_OUTCOME);
		// The damaged entry's service is remembered again with its current values.
		expect((first.staticData[STATE_KEY] as IDataObject).services).toMatchObject({ 'srv-3': stored('srv-3', 'pending') });

		const second = await trigger.tick();
		expect(second.error).toBeUndefined();
		expect(second.emitted).toBeNull();
		expect(warnings).toHaveLength(1);
		listing = [listing[0], listing[1], serviceRecord({ id: 'srv-3', status: 'active' }), listing[3]];
		const third = await trigger.tick();
		expect(events(third)).toEqual([['statusChanged', 'srv-3']]);
		expect(third.emitted?.[0][0].json.previous).toEqual({ status: 'pending' });
		expect(warnings).toHaveLength(1);
	});

	test.each([
		['as text', 'active', /the entry of "srv-2" is the text "active", not a list of 8 values/],
		['as an object', { status: 'active' }, /the entry of "srv-2" is an object, not a list of 8 values/],
		['null', null, /the entry of "srv-2" is null, not a list of 8 values/],
		['too short', ['active'], /the entry of "srv-2" is a list, not a list of 8 values/],
		['vCores as text', ['a', 'b', 'active', null, null, '2', 4, 80], /the vcores of "srv-2" is the text "2", not a number/],
		['status as a number', ['a', 'b', 5, null, null, 2, 4, 80], /the status of "srv-2" is number 5, not text/],
		['RAM as a boolean', ['a', 'b', 'active', null, null, 2, true, 80], /the ram_gb of "srv-2" is boolean true, not a number/],
		['a value that is an object', ['a', { __proto__: 'x' }, 'active', null, null, 2, 4, 80], /the alias of "srv-2" is an object, not text/],
	])('an entry %s: dropped, no event for its service, its next change reported', async (_name, entry, what) => {
		const warnings = spyOnWarnings();
		const trigger = poller({ ...GOOD_STATE, services: { ...GOOD_STATE.services, 'srv-2': entry } });
		const first = await trigger.tick();
		expect({ error: first.error, emitted: first.emitted }).toEqual({ error: undefined, emitted: null });
		expect(core(first.staticData[STATE_KEY])).toEqual(GOOD_STATE_WRITTEN);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/The trigger's saved state is damaged: 1 of its 3 entries cannot be read \(/);
		expect(warnings[0]).toMatch(what);
		listing = [A[0], serviceRecord({ id: 'srv-2', status: 'suspended' }), A[2]];
		expect(events(await trigger.tick())).toEqual([['statusChanged', 'srv-2']]);
		expect(warnings).toHaveLength(1);
	});

	test('many damaged: the first three named and the count; dropped entries count for no mass removal', async () => {
		const warnings = spyOnWarnings();
		const damaged = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`x-${i + 1}`, null]));
		const services = { 'srv-1': stored('srv-1'), 'srv-2': stored('srv-2'), ...damaged };
		// One of the two readable services removed: not a mass removal, whatever the five dropped ones.
		listing = [A[0]];
		const first = await trigger(services).tick();
		expect(events(first)).toEqual([['removed', 'srv-2']]);
		expect(warnings[0]).toMatch(
			/damaged: 5 of its 7 entries cannot be read \(the entry of "x-1" is null, not a list of 8 values; the entry of "x-2" is null, not a list of 8 values; the entry of "x-3" is null, not a list of 8 values; and 2 more\); the trigger dropped them and kept the rest\. /,
		);
		expect(Object.keys((first.staticData[STATE_KEY] as IDataObject).services as object)).toEqual(['srv-1']);
		// Both readable services gone: a mass removal, held for confirmation, however many were dropped.
		listing = [];
		const gone = trigger(services);
		expect((await gone.tick()).emitted).toBeNull();
		expect(events(await gone.tick())).toEqual([
			['removed', 'srv-1'],
			['removed', 'srv-2'],
		]);

		function trigger(entries: IDataObject) {
			return poller({ ...GOOD_STATE, services: entries });
		}
	});

	test('every entry damaged: each listed service is remembered again without an event, events from the next poll', async () => {
		const warnings = spyOnWarnings();
		const trigger = poller({ ...GOOD_STATE, services: { 'srv-1': 1, 'srv-2': 2, 'srv-3': 3 } });
		const first = await trigger.tick();
		expect({ error: first.error, emitted: first.emitted }).toEqual({ error: undefined, emitted: null });
		expect(warnings[0]).toMatch(
			/damaged: 3 of its 3 entries cannot be read \(the entry of "srv-1" is number 1, .*\); the trigger dropped them\. /,
		);
		expect(core(first.staticData[STATE_KEY])).toEqual(GOOD_STATE_WRITTEN);
		listing = [A[0], A[1], serviceRecord({ id: 'srv-4' })];
		expect(events(await trigger.tick())).toEqual([
			['created', 'srv-4'],
			['removed', 'srv-3'],
		]);
	});

	test('the warning goes through the text boundary: the API key redacted from the node name and the id, a long id bounded', async () => {
		const warnings = spyOnWarnings();
		const name = `Watch ${KEY}`;
		const longId = `srv-${'9'.repeat(5000)}`;
		const services = {
			...GOOD_STATE.services,
			[`srv-${KEY}`]: 'x',
			[longId]: ['a', 'b', 'active', null, null, 2, 4, { big: 'x'.repeat(5000) }],
		};
		const node = servicesTriggerNode({}, { id: `trigger-state-${++nodeCount}`, name });
		const trigger = new ActivePoller(node, { apiKey: KEY, baseUrl: api.origin }, {
			[`node:${name}`]: { ...GOOD_STATE, services },
		} as IDataObject);
		const tick = await trigger.tick();
		expect({ error: tick.error, emitted: tick.emitted }).toEqual({ error: undefined, emitted: null });
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).not.toContain(KEY.slice(0, 8));
		expect(warnings[0]).toMatch(
			/^Services Trigger "Watch \[redacted\]": .* 2 of its 5 entries cannot be read \(the entry of "srv-\[redacted\]" is the text "x", not a list of 8 values; the hd_gb of "srv-9{50,56}…" is an object, not a number\); /,
		);
		expect(warnings[0].length).toBeLessThan(1000);
	});
});

describe('static data that is not an object: the poll fails with a clear error, the state is left as it is', () => {
	test.each([
		['text', 'corrupted', /it is the text "corrupted", not an object/],
		['a number', 7, /it is number 7, not an object/],
		['a list', [1, 2, 3], /it is a list, not an object/],
		['null', null, /it is null, not an object/],
	])('%s', async (_name, state, what) => {
		const trigger = poller(state);
		const tick = await trigger.tick();
		expect(tick.emitted).toBeNull();
		expect(tick.error?.name).toBe('NodeOperationError');
		expect(tick.error?.message).toMatch(/^The trigger's saved state is damaged: /);
		expect(tick.error?.message).toMatch(what);
		expect((tick.error as { description?: string }).description).toMatch(
			/replace the node: add a new Services Trigger under another name, .* delete this one and save\. The new node's first poll records the current services as a new baseline/,
		);
		expect(tick.error?.message).not.toMatch(/TypeError|Cannot (read|create|use)/);
		expect(tick.staticData[STATE_KEY]).toEqual(state);
		// "Fetch test event" never writes the state: it still gives an event from the live listing.
		const test = await trigger.fetchTestEvent();
		expect(test.error).toBeUndefined();
		expect(test.items).toHaveLength(1);
	});
});

describe('a state from a newer version of the node: the poll fails, the state is left for that version', () => {
	test.each([4, 99])('stateVersion %p', async (version) => {
		const future = { ...GOOD_STATE, stateVersion: version, services: { 'srv-1': { name: 'a', extra: [1] } }, cursor: 'abc' };
		const trigger = poller(future);
		for (let i = 0; i < 2; i++) {
			const tick = await trigger.tick();
			expect(tick.emitted).toBeNull();
			expect(tick.error).toMatchObject({
				name: 'NodeOperationError',
				message: `The trigger's saved state is from a newer version of this node (state version ${version}; this version reads 1 to 3)`,
			});
			expect((tick.error as { description?: string }).description).toMatch(
				/^A newer version of n8n-nodes-service-platform ran this trigger .* Update the package to that version again, or: To start over, replace the node/,
			);
			expect(tick.staticData[STATE_KEY]).toEqual(future);
		}
		expect(STATE_VERSION).toBe(3);
	});
});

describe('a huge state', () => {
	test(`more than ${MAX_STORED_SERVICES.toLocaleString('en-US')} entries is damaged: reset, bounded in time (figure printed)`, async () => {
		const services: IDataObject = {};
		for (let i = 0; i <= MAX_STORED_SERVICES; i++) services[`x${i}`] = [null, null, null, null, null, null, null, null];
		const warnings = spyOnWarnings();
		const trigger = poller({ ...GOOD_STATE, services });
		const started = Date.now();
		const tick = await trigger.tick();
		console.info(
			`Services Trigger, a state of ${(MAX_STORED_SERVICES + 1).toLocaleString('en-US')} entries: reset after ${Date.now() - started} ms`,
		);
		expect(tick.error).toBeUndefined();
		expect(tick.emitted).toBeNull();
		expect(warnings[0]).toMatch(/it holds 1,000,001 services, more than the 1,000,000 the trigger ever stores/);
		expect(core(tick.staticData[STATE_KEY])).toEqual(GOOD_STATE_WRITTEN);
	}, 120_000);

	test('50 MB of state in a valid format (huge names) is read; renames are no events, the state shrinks back (figure printed)', async () => {
		const huge = (id: string) => ['n'.repeat(5 * 1024 * 1024), `alias-${id}`, 'active', 'ubuntu-24.04', 'Ubuntu 24.04 LTS', 2, 4, 80];
		const services = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`srv-${i + 1}`, huge(`srv-${i + 1}`)]));
		listing = Array.from({ length: 10 }, (_, i) => serviceRecord({ id: `srv-${i + 1}`, status: i === 0 ? 'suspended' : 'active' }));
		const trigger = poller({ ...GOOD_STATE, services });
		const started = Date.now();
		const tick = await trigger.tick();
		console.info(`Services Trigger, 50 MB of state (10 services with 5 MB names): poll took ${Date.now() - started} ms`);
		expect(tick.error).toBeUndefined();
		expect(events(tick)).toEqual([['statusChanged', 'srv-1']]);
		expect(JSON.stringify(tick.staticData).length).toBeLessThan(2000);
	}, 60_000);

	test('a listing longer than the trigger can remember fails the poll with a clear error (the bound set to 5 here)', async () => {
		// A fresh copy of the trigger whose bound is 5, so that the test does not build a million services.
		const smallType = `${PACKAGE_NAME}.servicesTriggerBound5`;
		jest.isolateModules(() => {
			jest.doMock('../../nodes/ServicesTrigger/state/snapshot', () => ({
				...jest.requireActual<object>('../../nodes/ServicesTrigger/state/snapshot'),
				MAX_STORED_SERVICES: 5,
			}));
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const fresh = require('../../nodes/ServicesTrigger/ServicesTrigger.node') as { ServicesTrigger: new () => ServicesTrigger };
			registerNodeType(smallType, new fresh.ServicesTrigger());
		});
		listing = Array.from({ length: 6 }, (_, i) => serviceRecord({ id: `srv-${i + 1}` }));
		const node = { ...triggerNode(), type: smallType };
		const trigger = new ActivePoller(node, { apiKey: KEY, baseUrl: api.origin }, {
			[STATE_KEY]: structuredClone(GOOD_STATE),
		} as IDataObject);
		const tick = await trigger.tick();
		expect(tick.error?.message).toBe('The account lists 6 services, more than the 5 the trigger can watch');
		expect((tick.error as { description?: string }).description).toMatch(
			/Use a schedule with the Services node's List operation and filters instead/,
		);
		expect(tick.staticData[STATE_KEY]).toEqual(GOOD_STATE);
		expect(() => checkWatchable(1_000_001)).toThrow('The account lists 1,000,001 services, more than the 1,000,000 the trigger can watch');
		expect(() => checkWatchable(1_000_000)).not.toThrow();
		listing = listing.slice(0, 5);
		expect(events(await trigger.tick())).toEqual([
			['created', 'srv-4'],
			['created', 'srv-5'],
		]);
	});
});

describe('a flapping listing: A, then empty, then A, then empty', () => {
	test('with Confirm Mass Removals (the default): nothing is emitted on any poll, the remembered list stays A', async () => {
		const trigger = poller(GOOD_STATE);
		for (const [poll, now] of [A, [], A, [], A, []].entries()) {
			listing = now;
			const tick = await trigger.tick();
			expect({ poll, error: tick.error, emitted: tick.emitted }).toEqual({ poll, error: undefined, emitted: null });
			expect((tick.staticData[STATE_KEY] as IDataObject).services).toEqual(GOOD_STATE.services);
		}
		expect(api.seen).toHaveLength(6);
	});

	test('a change made while it flaps is reported when A is back; two empty listings in a row confirm the removal', async () => {
		const trigger = poller(GOOD_STATE);
		const changed = [A[0], serviceRecord({ id: 'srv-2', status: 'suspended' }), A[2]];
		const seen: unknown[] = [];
		for (const now of [[], changed, [], [], changed]) {
			listing = now;
			seen.push(events(await trigger.tick()));
		}
		expect(seen).toEqual([
			[],
			[['statusChanged', 'srv-2']],
			[],
			A.map((record) => ['removed', record.id_service]),
			changed.map((record) => ['created', record.id_service]),
		]);
	});

	test('with Confirm Mass Removals off: every service removed, then created, on each flap', async () => {
		const trigger = poller(GOOD_STATE, { confirmMassRemoval: false });
		const seen: unknown[] = [];
		for (const now of [[], A, [], A]) {
			listing = now;
			seen.push(events(await trigger.tick()));
		}
		const removed = A.map((record) => ['removed', record.id_service]);
		const created = A.map((record) => ['created', record.id_service]);
		expect(seen).toEqual([removed, created, removed, created]);
	});
});
