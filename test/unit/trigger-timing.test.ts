/**
 * The Services Trigger's events true whatever the timing (issue 34, build item 1): each finding of
 * the issue as a fixed case, through n8n-core's poll executor against a loopback platform that can
 * hold an answer (test/harness/heldPlatform.ts), n8n's side re-done by test/harness/n8nProcess.ts.
 * Each failed on 0.5.0. The generated model of all of them together: trigger-timing.model.test.ts.
 * The clock the node reads is faked by test/harness/clock.ts: `pass(ms)` is time passing, `step(ms)`
 * a step of the system clock.
 */
import { PollContext } from 'n8n-core';
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { fakeClock } from '../harness/clock';
import type { ServiceValues } from '../harness/heldPlatform';
import { HeldPlatform } from '../harness/heldPlatform';
import type { Setting } from '../harness/n8nProcess';
import { N8nDatabase, N8nProcess } from '../harness/n8nProcess';
import type { PollTickResult } from '../harness/poll';
import { ActivePoller, restoreTrigger } from '../harness/poll';
import { servicesTriggerNode } from '../harness/workflow';

const KEY = 'sk-timing-5d0e1c7a9b3f';
const HOUR = 60 * 60 * 1000;
const FIELDS = ['name', 'alias', 'status', 'os_id', 'os_name', 'vcores', 'ram_gb', 'hd_gb'];
const STATE_KEY = 'node:Services Trigger';

afterEach(async () => {
	jest.restoreAllMocks();
	await restoreTrigger();
});

let nodeCount = 0;
const triggerNode = (parameters: INodeParameters = {}): INode => servicesTriggerNode(parameters, { id: `trigger-timing-${++nodeCount}` });
const ids = (count: number, prefix = 'srv-') =>
	Array.from({ length: count }, (_, index) => `${prefix}${String(index + 1).padStart(5, '0')}`);
const services = (list: string[], values: ServiceValues = { status: 'active', vcores: 2 }) => new Map(list.map((id) => [id, values]));
const brief = (items: IDataObject[]) => items.map((item) => [item.event, item.id_service, item.redelivered]);

/** n8n in `setting` over `platform`; `delivered` is what the executions delivered, in order. */
function n8n(setting: Setting, platform: HeldPlatform, node: INode = triggerNode()) {
	const db = new N8nDatabase();
	const delivered: IDataObject[] = [];
	const credentials = { apiKey: KEY, baseUrl: platform.origin };
	const spawn = (as: INode = node, same?: N8nProcess) =>
		new N8nProcess(db, setting, as, credentials, (items) => delivered.push(...items), same?.nodeType);
	return { db, delivered, spawn };
}

describe.each<Setting>(['default', 'durable'])('overlapping polls invent nothing (%s settings)', (setting) => {
	test('a poll whose slow listing ends after a later poll ran reports nothing from its older listing: no false removed, no created again', async () => {
		const platform = new HeldPlatform(services(['srv-1', 'srv-2', 'srv-3', 'srv-4']), (id) => id < 'srv-4');
		await platform.start();
		const { delivered, spawn } = n8n(setting, platform);
		const process = spawn();
		await process.start('activate');
		await process.poll();
		platform.set('srv-1', { status: 'suspended', vcores: 2 });
		// The slow poll: page 1 answered now (srv-1 suspended), page 2 held (no srv-5 yet).
		const slow = platform.plan({ hold: 2 });
		const slowPoll = process.poll();
		await platform.held(slow);
		platform.set('srv-5', { status: 'active', vcores: 1 });
		// The next poll at its time, while the slow one still runs.
		await process.poll();
		platform.release(slow);
		await slowPoll;
		await process.poll();
		await process.poll();
		// Before: the slow poll reported "removed srv-5" (default settings) and a later poll "created srv-5" again.
		expect(brief(delivered.filter((item) => item.redelivered !== true))).toEqual([
			['statusChanged', 'srv-1', false],
			['created', 'srv-5', false],
		]);
	});
});

describe('the clock', () => {
	test.each([
		['in the same process', false],
		['after a restart', true],
	])('seq never goes back: the system clock stepped back an hour and the node renamed (a new baseline), %s', async (_name, restart) => {
		const clock = fakeClock();
		const platform = new HeldPlatform(services(['srv-1', 'srv-2', 'srv-3']), (id) => id < 'srv-3');
		await platform.start();
		const node = triggerNode();
		const { delivered, spawn } = n8n('default', platform, node);
		const first = spawn();
		await first.start('activate');
		clock.pass(60_000);
		platform.set('srv-1', { status: 'suspended', vcores: 2 });
		await first.poll();
		const before = delivered.at(-1)!.seq as number;

		clock.step(-HOUR);
		if (restart) first.alive = false;
		const renamed = spawn({ ...node, name: 'Services Trigger (EU)' }, restart ? undefined : first);
		await renamed.start(restart ? 'init' : 'update');
		clock.pass(60_000);
		platform.set('srv-2', { status: 'suspended', vcores: 2 });
		await renamed.poll();
		// Before: the new baseline started its numbers at the clock, an hour below the last seq.
		expect(brief(delivered)).toEqual([
			['statusChanged', 'srv-1', false],
			['statusChanged', 'srv-2', false],
		]);
		expect(delivered.at(-1)!.seq as number).toBeGreaterThan(before);
	});

	test('the mark a renamed node numbers above is at or above every seq given, and moves only when passed (not a save of the global static data per poll)', async () => {
		const platform = new HeldPlatform(services(['srv-1', 'srv-2', 'srv-3']), (id) => id < 'srv-3');
		await platform.start();
		const { db, delivered, spawn } = n8n('default', platform);
		const process = spawn();
		await process.start('activate');
		const marks: unknown[] = [];
		for (const status of ['suspended', 'active', 'pending']) {
			platform.set('srv-1', { status, vcores: 2 });
			await process.poll();
			marks.push((db.workflowStaticData.global as IDataObject).servicesTriggerSeq);
		}
		expect(delivered).toHaveLength(3);
		expect(new Set(marks).size).toBe(1);
		expect(marks[0] as number).toBeGreaterThanOrEqual(Math.max(...delivered.map((item) => item.seq as number)));
	});

	test('the outbox keeps the last emission whole: 9,000 events, the clock stepped back an hour, then 2,000, all 2,000 redelivered after a restart', async () => {
		const clock = fakeClock();
		const all = ids(9000);
		const platform = new HeldPlatform(services(all), (id) => id < 'srv-04500');
		await platform.start();
		const { delivered, spawn } = n8n('default', platform);
		const first = spawn();
		await first.start('activate');
		clock.pass(60_000);
		for (const id of all) platform.set(id, { status: 'suspended', vcores: 2 });
		await first.poll();
		expect(delivered).toHaveLength(9000);

		clock.step(-HOUR);
		clock.pass(60_000);
		for (const id of all.slice(0, 2000)) platform.set(id, { status: 'pending', vcores: 2 });
		await first.poll();
		const last = new Set(delivered.slice(9000).map((item) => item.eventId));
		expect(last.size).toBe(2000);

		first.alive = false;
		clock.pass(60_000);
		await spawn().start('init');
		const redelivered = delivered.slice(11_000);
		expect(redelivered.every((item) => item.redelivered === true)).toBe(true);
		// Before: the outbox took the older emission (its time ahead) for the last, and kept 1,000 of the newest.
		expect(redelivered.filter((item) => last.has(item.eventId)).length).toBe(2000);
		expect(redelivered).toHaveLength(10_000);
	}, 120_000);

	test('Resync Every keeps its period whatever the clock does: a step back of 6 hours, then one forward', async () => {
		const clock = fakeClock();
		const platform = new HeldPlatform(services(['srv-1', 'srv-2', 'srv-3']), (id) => id < 'srv-3');
		await platform.start();
		const poller = new ActivePoller(triggerNode({ resync: { intervalHours: 1 } }), { apiKey: KEY, baseUrl: platform.origin });
		const resyncs = (tick: PollTickResult) => (tick.emitted?.[0] ?? []).filter((item) => item.json.event === 'resync').length;
		expect(resyncs(await poller.tick({ activation: true }))).toBe(0);
		const hourly: number[] = [];
		clock.pass(HOUR);
		hourly.push(resyncs(await poller.tick()));
		clock.step(-6 * HOUR);
		for (let hour = 0; hour < 3; hour++) {
			clock.pass(HOUR);
			hourly.push(resyncs(await poller.tick()));
		}
		// Before: nothing for three polls over three hours after the step back.
		expect(hourly).toEqual([3, 3, 3, 3]);
		// A step forward is not an hour passing either: the period goes on from the last resync.
		clock.step(6 * HOUR);
		clock.pass(HOUR / 2);
		expect(resyncs(await poller.tick())).toBe(0);
		clock.pass(HOUR / 2);
		expect(resyncs(await poller.tick())).toBe(3);
	});
});

describe('upgrading from 0.4.0', () => {
	test('a state remembering ids as sent ("srv-a ", an NFD "café") is read under the id rule: no false created or removed, a removal carries the id the rule makes', async () => {
		const stored = (id: string) => [`server-${id}`, `alias-${id}`, 'active', 'ubuntu-24.04', 'Ubuntu 24.04 LTS', 2, 4, 80];
		const remembered = ['srv-a ', 'cafe\u0301', 'srv-gone ', 'srv-b', 'srv-c', 'srv-d', 'srv-e'];
		const state = {
			stateVersion: 2,
			credentialId: 'cred-1',
			fields: FIELDS,
			services: Object.fromEntries(remembered.map((id) => [id, stored(id.trim())])),
		};
		const listed = ['srv-a', 'caf\u00e9', 'srv-b', 'srv-c', 'srv-d', 'srv-e'];
		const platform = new HeldPlatform(services(listed), (id) => id < 'srv-c');
		await platform.start();
		const poller = new ActivePoller(triggerNode(), { apiKey: KEY, baseUrl: platform.origin }, {
			[STATE_KEY]: structuredClone(state),
		} as IDataObject);
		const tick = await poller.tick();
		expect(tick.error).toBeUndefined();
		// Before: created "srv-a" and "café", removed "srv-a " and the NFD "café", and "srv-gone " with its space.
		expect(brief((tick.emitted?.[0] ?? []).map((item) => item.json))).toEqual([['removed', 'srv-gone', false]]);
		expect(Object.keys((tick.staticData[STATE_KEY] as { services: object }).services).sort()).toEqual([...listed].sort());
	});

	test('two remembered entries that are one service under the id rule are dropped, named in the warning, and give no event', async () => {
		const warnings: string[] = [];
		const stored = (status: string) => ['server-srv-a', 'alias-srv-a', status, 'ubuntu-24.04', 'Ubuntu 24.04 LTS', 2, 4, 80];
		const state = {
			stateVersion: 2,
			credentialId: 'cred-1',
			fields: FIELDS,
			services: { 'srv-a': stored('active'), 'srv-a ': stored('suspended'), 'srv-b': stored('active'), 'srv-c': stored('active') },
		};
		const platform = new HeldPlatform(services(['srv-a', 'srv-b', 'srv-c']), (id) => id < 'srv-c');
		await platform.start();
		const node = triggerNode();
		const poller = new ActivePoller(node, { apiKey: KEY, baseUrl: platform.origin }, { [STATE_KEY]: state } as IDataObject);
		jest.spyOn(Object.getPrototypeOf(PollContext.prototype) as { logger: unknown }, 'logger', 'get').mockReturnValue({
			warn: (message: string) => warnings.push(message),
			debug() {},
			info() {},
			error() {},
		});
		const tick = await poller.tick();
		expect(tick.emitted).toBeNull();
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(/2 of its 4 entries cannot be read \(the entries of "srv-a" and "srv-a " are one service/);
		platform.set('srv-a', { status: 'pending', vcores: 2 });
		const next = await poller.tick();
		expect(brief((next.emitted?.[0] ?? []).map((item) => item.json))).toEqual([['statusChanged', 'srv-a', false]]);
	});
});
