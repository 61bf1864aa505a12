/**
 * The Services Trigger's delivery through n8n-core's poll executor against a real loopback server
 * (issue 27): the item fields, redelivery after a restart, state versions 1 to 3, a damaged delivery
 * record, the durable-cursor activation hole and its copy in the global static data, Resync, Fetch test event, and Confirm Mass Removals
 * confirming only the same set (issue 28 item 5). n8n's side of a restart is test/harness/n8nProcess.ts.
 */
import fc from 'fast-check';
import { PollContext } from 'n8n-core';
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { fakeClock } from '../harness/clock';
import { serviceRecord } from '../harness/fixtures';
import type { LocalServer } from '../harness/localServer';
import { startJsonServer } from '../harness/localServer';
import type { Setting } from '../harness/n8nProcess';
import { N8nDatabase, N8nProcess } from '../harness/n8nProcess';
import type { PollTickResult } from '../harness/poll';
import { ActivePoller, restoreTrigger } from '../harness/poll';
import { servicesTriggerNode } from '../harness/workflow';

const KEY = 'sk-delivery-0b6e2f9a4c1d';
const STATE_KEY = 'node:Services Trigger';
const FIELDS = ['name', 'alias', 'status', 'os_id', 'os_name', 'vcores', 'ram_gb', 'hd_gb'];
const stored = (id: string, status = 'active') => [`server-${id}`, `alias-${id}`, status, 'ubuntu-24.04', 'Ubuntu 24.04 LTS', 2, 4, 80];
const HOUR = 60 * 60 * 1000;

let listing: unknown[] = [];
let api: LocalServer;
beforeEach(async () => {
	listing = ['srv-1', 'srv-2', 'srv-3'].map((id) => serviceRecord({ id }));
	api = await startJsonServer(() => listing);
});
afterEach(async () => {
	jest.restoreAllMocks();
	await restoreTrigger();
});

let nodeCount = 0;
const triggerNode = (parameters: INodeParameters = {}): INode => servicesTriggerNode(parameters, { id: `trigger-delivery-${++nodeCount}` });
const credentials = () => ({ apiKey: KEY, baseUrl: api.origin });
const items = (tick: PollTickResult) => (tick.emitted?.[0] ?? []).map((item) => item.json);
const brief = (list: IDataObject[]) => list.map((item) => [item.event, item.id_service, item.redelivered]);
const set = (id: string, spec: Partial<{ status: string; vcores: number }>) => {
	listing = listing.map((record) => ((record as IDataObject).id_service === id ? serviceRecord({ id, ...spec }) : record));
};

/** n8n (in `setting`) with the trigger active; the sink collects what the executions delivered. */
function cluster(setting: Setting, parameters: INodeParameters = {}) {
	const db = new N8nDatabase();
	const delivered: IDataObject[][] = [];
	const node = triggerNode(parameters);
	const spawn = () => new N8nProcess(db, setting, node, credentials(), (list) => delivered.push(list));
	return { db, delivered, node, spawn };
}

function spyOnWarnings(): string[] {
	const warnings: string[] = [];
	const logger = { warn: (message: string) => warnings.push(message), debug() {}, info() {}, error() {} };
	jest.spyOn(Object.getPrototypeOf(PollContext.prototype) as { logger: unknown }, 'logger', 'get').mockReturnValue(logger);
	return warnings;
}

describe('the item: eventId, seq, redelivered', () => {
	test('each event has its own id, an increasing seq and redelivered false; the ids and seqs never repeat for new changes', async () => {
		const poller = new ActivePoller(triggerNode(), credentials());
		await poller.tick({ activation: true });
		set('srv-1', { status: 'suspended' });
		set('srv-2', { vcores: 8 });
		const first = items(await poller.tick());
		expect(first.map((item) => Object.keys(item))).toEqual(
			first.map(() => ['event', 'id_service', 'service', 'previous', 'detectedAt', 'eventId', 'seq', 'redelivered']),
		);
		expect(first.every((item) => /^[0-9a-f]{24}$/.test(String(item.eventId)) && item.redelivered === false)).toBe(true);
		// The same change made again later (suspended, back, suspended) is another event.
		set('srv-1', { status: 'active' });
		const back = items(await poller.tick());
		set('srv-1', { status: 'suspended' });
		const again = items(await poller.tick());
		expect(again[0].previous).toEqual(first[0].previous);
		const all = [...first, ...back, ...again];
		expect(new Set(all.map((item) => item.eventId)).size).toBe(all.length);
		const seqs = all.map((item) => item.seq as number);
		expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
		expect(new Set(seqs).size).toBe(seqs.length);
		expect(seqs[0]).toBeGreaterThan(Date.UTC(2026, 0, 1));
	});

	test('Fetch test event shows the new fields and never writes the state; its pending change is what the next poll emits', async () => {
		const poller = new ActivePoller(triggerNode(), credentials());
		await poller.tick({ activation: true });
		const state = poller.staticData();
		set('srv-2', { status: 'pending' });
		const test = await poller.fetchTestEvent();
		expect(test.items[0].json).toMatchObject({
			event: 'statusChanged',
			id_service: 'srv-2',
			eventId: expect.stringMatching(/^[0-9a-f]{24}$/),
			seq: expect.any(Number),
			redelivered: false,
		});
		expect(poller.staticData()).toEqual(state);
		const tick = items(await poller.tick());
		expect(tick).toHaveLength(1);
		expect(tick[0].eventId).toBe(test.items[0].json.eventId);
		expect(tick[0].seq).toBe(test.items[0].json.seq);
	});
});

describe.each<Setting>(['default', 'durable'])('restarts with %s settings', (setting) => {
	test('after a restart the first poll delivers the last emission again, marked, in the same execution as the new changes', async () => {
		const { delivered, spawn } = cluster(setting);
		const first = spawn();
		await first.start('activate');
		set('srv-1', { status: 'suspended' });
		await first.poll();
		expect(brief(delivered.at(-1)!)).toEqual([['statusChanged', 'srv-1', false]]);
		const original = delivered.at(-1)![0];

		// SIGKILL, the platform changes, n8n starts again on the same database.
		first.alive = false;
		set('srv-3', { vcores: 16 });
		const second = spawn();
		await second.start('init');
		if (setting === 'durable') await second.poll();
		expect(brief(delivered.at(-1)!)).toEqual([
			['statusChanged', 'srv-1', true],
			['specsChanged', 'srv-3', false],
		]);
		const again = delivered.at(-1)![0];
		expect({ ...again, redelivered: false }).toEqual(original);
		// The same process polls on: nothing again.
		await second.poll();
		expect(delivered).toHaveLength(2);
	});

	test('activating and restarting never drop a change made meanwhile (durable: the poll at activation is not committed)', async () => {
		const { db, delivered, spawn } = cluster(setting);
		const first = spawn();
		await first.start('activate');
		if (setting === 'durable') expect(db.cursor).toEqual({});
		set('srv-1', { status: 'suspended' });
		await first.poll();
		expect(brief(delivered.flat())).toEqual([['statusChanged', 'srv-1', false]]);

		// Killed right after activating, before any scheduled poll: the change made meanwhile still comes.
		const other = cluster(setting);
		const activated = other.spawn();
		await activated.start('activate');
		activated.alive = false;
		set('srv-2', { status: 'pending' });
		const restarted = other.spawn();
		await restarted.start('init');
		await restarted.poll();
		expect(brief(other.delivered.flat())).toEqual([['statusChanged', 'srv-2', false]]);
		await restarted.poll();
		expect(other.delivered).toHaveLength(1);
	});
});

describe.each<Setting>(['default', 'durable'])('the activation copy in the global static data, %s settings', (setting) => {
	// Durable: the poll at activation is not committed, so the first scheduled poll still starts from the copy.
	const polls = setting === 'default' ? 1 : 2;
	test(`is dropped by the first poll that finds a state of its own and emits (poll ${polls}): saved with it`, async () => {
		const { db, spawn } = cluster(setting);
		const copies = () =>
			Object.keys((db.workflowStaticData.global as IDataObject | undefined) ?? {}).filter((key) => key.startsWith('servicesTrigger:'));
		const process = spawn();
		await process.start('activate');
		expect(copies()).toEqual(['servicesTrigger:Services Trigger']);
		for (let poll = 1; poll <= polls; poll++) {
			expect(copies()).toHaveLength(1);
			set('srv-1', { status: poll % 2 === 1 ? 'suspended' : 'active' });
			await process.poll();
		}
		expect(copies()).toEqual([]);
	});
});

describe('durable cursors: a poll that lost its lease', () => {
	test('its events were dropped with its state: the next poll delivers them again from the state this process wrote, same ids, marked', async () => {
		const { db, delivered, spawn } = cluster('durable');
		const process = spawn();
		await process.start('activate');
		await process.poll();
		const committed = JSON.stringify(db.cursor);
		set('srv-1', { status: 'suspended' });
		await process.poll('none', { leaseLost: true });
		expect(delivered).toEqual([]);
		expect(JSON.stringify(db.cursor)).toBe(committed);
		await process.poll();
		expect(brief(delivered.flat())).toEqual([['statusChanged', 'srv-1', true]]);
	});
});

describe('state versions', () => {
	test.each([
		[
			'1 (package 0.1.0, 8-slot tuples)',
			{
				stateVersion: 1,
				credentialId: 'cred-1',
				services: {
					'srv-1': ['active', 'ubuntu-24.04', 'Ubuntu 24.04 LTS', 2, 4, 80, 'server-srv-1', 'alias-srv-1'],
					'srv-2': ['active', 'ubuntu-24.04', 'Ubuntu 24.04 LTS', 2, 4, 80, 'server-srv-2', 'alias-srv-2'],
					'srv-3': ['active', 'ubuntu-24.04', 'Ubuntu 24.04 LTS', 2, 4, 80, 'server-srv-3', 'alias-srv-3'],
				},
			},
		],
		[
			'2 (0.2.0 to 0.4.0)',
			{
				stateVersion: 2,
				credentialId: 'cred-1',
				fields: FIELDS,
				services: { 'srv-1': stored('srv-1'), 'srv-2': stored('srv-2'), 'srv-3': stored('srv-3') },
			},
		],
	])(
		'version %s is read as it is: no new baseline, the changes since come with the new fields, version 3 written',
		async (_name, state) => {
			const poller = new ActivePoller(triggerNode(), credentials(), { [STATE_KEY]: structuredClone(state) } as IDataObject);
			set('srv-2', { status: 'suspended' });
			const tick = await poller.tick({ activation: true });
			expect(brief(items(tick))).toEqual([['statusChanged', 'srv-2', false]]);
			expect(items(tick)[0].seq).toBeGreaterThan(Date.UTC(2026, 0, 1));
			expect(tick.staticData[STATE_KEY]).toMatchObject({
				stateVersion: 3,
				fields: FIELDS,
				seq: items(tick)[0].seq,
				outbox: [
					[
						items(tick)[0].eventId,
						items(tick)[0].seq,
						'statusChanged',
						'srv-2',
						{ status: 'active' },
						stored('srv-2', 'suspended'),
						expect.any(Number),
						expect.any(Number),
					],
				],
			});
		},
	);

	test('a damaged outbox entry is dropped with a warning and never becomes an event; the others are delivered again', async () => {
		const warnings = spyOnWarnings();
		const now = Date.now();
		const good = ['a'.repeat(24), 41, 'statusChanged', 'srv-1', { status: 'pending' }, stored('srv-1'), now, now];
		const state = {
			stateVersion: 3,
			credentialId: 'cred-1',
			fields: FIELDS,
			services: { 'srv-1': stored('srv-1'), 'srv-2': stored('srv-2'), 'srv-3': stored('srv-3') },
			seq: 42,
			writer: 'another-process',
			writtenAt: now,
			delivered: { 'another-process': 42 },
			outbox: [
				['b'.repeat(24), 'forty-two', 'statusChanged', 'srv-2', null, stored('srv-2'), now, now],
				good,
				['c'.repeat(24), 40, 'created', 'srv-9', { status: 1 }, stored('srv-9'), now, now],
			],
			tombstones: 'none',
		};
		const poller = new ActivePoller(triggerNode(), credentials(), { [STATE_KEY]: state } as IDataObject);
		const tick = await poller.tick();
		expect(items(tick).map((item) => [item.eventId, item.seq, item.redelivered])).toEqual([['a'.repeat(24), 41, true]]);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatch(
			/The trigger's saved state is damaged: 2 of its 3 undelivered events cannot be read \(#1: its seq is the text "forty-two"; #3: its previous is an object\); its recent removals are the text "none", not a list; the trigger dropped what it could not read and kept the rest\. An undelivered event it dropped is not delivered again/,
		);
	});

	test('an unreadable seq resets the state (every event id derives from it): a new baseline, numbered above the old one where readable', async () => {
		const warnings = spyOnWarnings();
		const state = { stateVersion: 3, credentialId: 'cred-1', fields: FIELDS, services: { 'srv-1': stored('srv-1') }, seq: -1, outbox: [] };
		const poller = new ActivePoller(triggerNode(), credentials(), { [STATE_KEY]: state } as IDataObject);
		const tick = await poller.tick();
		expect(tick.emitted).toBeNull();
		expect(warnings[0]).toMatch(/damaged: its seq is number -1.*The trigger took a new baseline/);
		expect((tick.staticData[STATE_KEY] as IDataObject).seq).toBeGreaterThan(Date.UTC(2026, 0, 1));
	});
});

describe('Resync', () => {
	test('At Start: the first activation seeds a mirror with every watched service; every start resyncs again, with the recent removals', async () => {
		const { delivered, spawn } = cluster('default', { resync: { onStart: true }, filters: { status: 'active' } });
		set('srv-3', { status: 'suspended' });
		const first = spawn();
		await first.start('activate');
		expect(brief(delivered.flat())).toEqual([
			['resync', 'srv-1', false],
			['resync', 'srv-2', false],
		]);
		listing = listing.filter((record) => (record as IDataObject).id_service !== 'srv-2');
		await first.poll();
		const removed = delivered.at(-1)![0];
		expect(brief([removed])).toEqual([['removed', 'srv-2', false]]);
		await first.poll();
		expect(delivered).toHaveLength(2);

		first.alive = false;
		const second = spawn();
		await second.start('init');
		const restart = delivered.at(-1)!;
		expect(brief(restart)).toEqual([
			['removed', 'srv-2', true],
			['resync', 'srv-1', false],
		]);
		expect(restart[0].eventId).toBe(removed.eventId);
		expect(restart[1].eventId).not.toBe(delivered[0][0].eventId);
		expect(restart[1].seq as number).toBeGreaterThan(removed.seq as number);
	});

	test('At Start resyncs once per activation: not again at the scheduled polls, which n8n runs in the activation mode "activate" too', async () => {
		const { delivered, spawn } = cluster('default', { resync: { onStart: true } });
		const first = spawn();
		await first.start('activate');
		expect(brief(delivered.flat())).toEqual(['srv-1', 'srv-2', 'srv-3'].map((id) => ['resync', id, false]));
		await first.poll();
		await first.poll();
		expect(delivered).toHaveLength(1);
	});

	test('At Start after an activation poll held by Confirm Mass Removals: the next poll resyncs', async () => {
		const { delivered, spawn } = cluster('default', { resync: { onStart: true } });
		const process = spawn();
		await process.start('activate');
		const kept = listing;
		listing = [];
		// Deactivated and activated again in the same process: its first poll holds the empty listing.
		await process.start('activate');
		expect(delivered).toHaveLength(1);
		listing = kept;
		await process.poll();
		expect(brief(delivered.flat().slice(3))).toEqual(['srv-1', 'srv-2', 'srv-3'].map((id) => ['resync', id, false]));
	});

	test('Every (Hours): a resync when the interval has passed since the last one, counted in time, not polls', async () => {
		const advance = fakeClock(Date.UTC(2026, 10, 27, 8)).pass;
		const poller = new ActivePoller(triggerNode({ resync: { intervalHours: 0.5 } }), credentials());
		expect((await poller.tick({ activation: true })).emitted).toBeNull();
		advance(29 * 60 * 1000);
		expect((await poller.tick()).emitted).toBeNull();
		advance(60 * 1000);
		expect(brief(items(await poller.tick()))).toEqual(['srv-1', 'srv-2', 'srv-3'].map((id) => ['resync', id, false]));
		advance(60 * 1000);
		expect((await poller.tick()).emitted).toBeNull();
		advance(HOUR);
		expect(items(await poller.tick())).toHaveLength(3);
	});
});

describe('Confirm Mass Removals confirms only the same services (issue 28 item 5)', () => {
	const ids = ['a', 'b', 'c', 'd'];
	const only = (...present: string[]) => present.map((id) => serviceRecord({ id }));

	test('a second, different glitch holds again; nothing present at a poll in between is reported removed', async () => {
		listing = only(...ids);
		const poller = new ActivePoller(triggerNode(), credentials());
		await poller.tick({ activation: true });
		listing = only('a');
		expect((await poller.tick()).emitted).toBeNull();
		// Before: this poll "confirmed" the first glitch and reported a removed, then created.
		listing = only('b');
		expect((await poller.tick()).emitted).toBeNull();
		listing = only('b');
		expect(brief(items(await poller.tick()))).toEqual([
			['removed', 'a', false],
			['removed', 'c', false],
			['removed', 'd', false],
		]);
	});

	test('property: a confirmed mass removal is of services the held poll lacked too (absent at both polls)', async () => {
		const universe = ['s1', 's2', 's3', 's4', 's5', 's6'];
		await fc.assert(
			fc.asyncProperty(fc.array(fc.subarray(universe), { minLength: 2, maxLength: 12 }), async (listings) => {
				listing = only(...universe.slice(0, 4));
				const poller = new ActivePoller(triggerNode(), credentials());
				await poller.tick({ activation: true });
				let held: string[] | undefined;
				for (const present of listings) {
					listing = only(...present);
					const remembered = Object.keys((poller.staticData()[STATE_KEY] as { services: object }).services).length;
					const tick = await poller.tick();
					const removed = items(tick)
						.filter((item) => item.event === 'removed')
						.map((item) => String(item.id_service));
					// A confirmation: a mass removal right after a held poll (a smaller one is reported as usual).
					if (held !== undefined && removed.length * 2 > remembered) {
						expect({ removed, listedAtTheHeldPoll: removed.filter((id) => held!.includes(id)) }).toEqual({
							removed,
							listedAtTheHeldPoll: [],
						});
					}
					held = 'massRemovalUnconfirmed' in (tick.staticData[STATE_KEY] as IDataObject) ? present : undefined;
				}
			}),
			{ numRuns: 60, seed: 28_5 },
		);
	});
});
