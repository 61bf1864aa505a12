/**
 * The Services Trigger's delivery promise (issue 27), model-based: generated sequences of platform
 * changes, polls, time passing and SIGKILLs of n8n's process at every point of the poll, emit, save
 * and execution sequence, in both n8n settings (default, and durable poll cursors, where a poll may
 * also lose its lease: n8n then commits nothing of it and drops its events), each kill
 * followed by a restart on the same database (test/harness/n8nProcess.ts re-does n8n 2.41.1's side;
 * every poll runs the real node through n8n-core's poll executor against a real loopback server).
 *
 * The sink folds what the executions delivered. After a quiet period it must hold that:
 * - no change is lost: per service, the distinct events in `seq` order form an unbroken chain (each
 *   event's `previous` is what the one before left; created only when absent, removed only when
 *   present), and the end state is the platform's;
 * - every duplicate is marked `redelivered: true`, repeats an `eventId` seen before, and says the
 *   same (event, id_service, previous, seq, detectedAt, service);
 * - an item not marked redelivered is new: its `seq` is above every `seq` delivered before it.
 *
 * Runs: DELIVERY_MODEL_RUNS (default 20 per setting), seed DELIVERY_MODEL_SEED (default fixed, printed
 * with any counterexample) so `npm test` never fails at random; explore with other seeds.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { FakeClock } from '../harness/clock';
import { fakeClock } from '../harness/clock';
import { serviceRecord } from '../harness/fixtures';
import type { PlatformChange } from '../harness/heldPlatform';
import { changedValues, platformChangeArbs } from '../harness/heldPlatform';
import type { LocalServer } from '../harness/localServer';
import { startJsonServer } from '../harness/localServer';
import type { CrashPoint, Setting } from '../harness/n8nProcess';
import { CRASH_POINTS, N8nDatabase, N8nProcess } from '../harness/n8nProcess';
import { restoreTrigger } from '../harness/poll';
import { servicesTriggerNode } from '../harness/workflow';

const RUNS = Number(process.env.DELIVERY_MODEL_RUNS ?? 20);
const SEED = Number(process.env.DELIVERY_MODEL_SEED ?? 270_2026);
const KEY = 'sk-model-4f1e9a0b7c2d';
const IDS = ['srv-1', 'srv-2', 'srv-3', 'srv-4', 'srv-5', 'srv-6'];
const STATUSES = ['active', 'suspended', 'pending'];
const POLL_INTERVAL_MS = 15_000;
const RESTART_MS = 12_000;

interface Platform {
	services: Map<string, { status: string; vcores: number }>;
}

type Step = PlatformChange | { kind: 'poll'; crash: CrashPoint; leaseLost: boolean } | { kind: 'wait'; ms: number } | { kind: 'kill' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
	...platformChangeArbs(IDS, STATUSES),
	{
		weight: 8,
		arbitrary: fc.record({
			kind: fc.constant('poll' as const),
			crash: fc.oneof(
				{ weight: 4, arbitrary: fc.constant<CrashPoint>('none') },
				{ weight: 3, arbitrary: fc.constantFrom(...CRASH_POINTS) },
			),
			// Durable cursors: the poll lost its lease meanwhile, so n8n commits nothing of it and drops its events.
			leaseLost: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
		}),
	},
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 1_000, max: 40 * 60_000 }) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('kill' as const) }) },
);

/** What the sink saw: every item in delivery order, and what broke the promise. */
class Sink {
	readonly firsts = new Map<string, IDataObject>();
	readonly problems: string[] = [];
	maxSeq = -Infinity;
	items = 0;
	duplicates = 0;

	receive(items: IDataObject[]): void {
		for (const item of items) {
			this.items++;
			const id = String(item.eventId);
			const first = this.firsts.get(id);
			if (first !== undefined) {
				this.duplicates++;
				if (item.redelivered !== true) this.problems.push(`duplicate ${id} not marked redelivered`);
				if (JSON.stringify(same(first)) !== JSON.stringify(same(item))) this.problems.push(`${id} delivered again saying something else`);
				continue;
			}
			if (item.redelivered === false && !((item.seq as number) > this.maxSeq))
				this.problems.push(`new item ${id} has seq ${item.seq}, not above ${this.maxSeq}`);
			this.firsts.set(id, item);
			this.maxSeq = Math.max(this.maxSeq, item.seq as number);
		}
	}

	/**
	 * Folds the distinct events per service in seq order over `initial` (the services at activation:
	 * the baseline, reported by no event); a break in a chain is a lost change.
	 */
	fold(initial: ReadonlyMap<string, { status: string; vcores: number }>): Map<string, { status: string; vcores: number }> {
		const byService = new Map<string, IDataObject[]>();
		for (const item of this.firsts.values())
			byService.set(String(item.id_service), [...(byService.get(String(item.id_service)) ?? []), item]);
		const state = new Map(initial);
		for (const [id, events] of byService) {
			for (const item of events.sort((a, b) => (a.seq as number) - (b.seq as number))) {
				const now = state.get(id);
				const previous = item.previous as IDataObject | null;
				const service = item.service as IDataObject;
				const lost = (what: string) => this.problems.push(`lost before ${item.event} ${id} (seq ${item.seq}): ${what}`);
				if (item.event === 'created' && now !== undefined) lost('created while present');
				if (item.event !== 'created' && item.event !== 'resync' && now === undefined) lost('not present');
				if (item.event === 'statusChanged' && now !== undefined && previous?.status !== now.status)
					lost(`previous status ${previous?.status}, sink ${now.status}`);
				if (item.event === 'specsChanged' && now !== undefined && previous?.vcores !== now.vcores)
					lost(`previous vcores ${previous?.vcores}, sink ${now.vcores}`);
				// A change event says what its own fields became (a service whose status and specs both changed gives two).
				if (item.event === 'removed') state.delete(id);
				else if (item.event === 'statusChanged' && now !== undefined) state.set(id, { ...now, status: String(service.status) });
				else if (item.event === 'specsChanged' && now !== undefined) state.set(id, { ...now, vcores: Number(service.vcores) });
				else state.set(id, { status: String(service.status), vcores: Number(service.vcores) });
			}
		}
		return state;
	}
}

/** What an item says, besides how it was delivered. */
const same = (item: IDataObject) => ({
	event: item.event,
	id: item.id_service,
	previous: item.previous,
	seq: item.seq,
	detectedAt: item.detectedAt,
	service: item.service,
});

let api: LocalServer;
let platform: Platform;
let clock: FakeClock;
beforeAll(async () => {
	api = await startJsonServer(() => [...platform.services].map(([id, values]) => serviceRecord({ id, ...values })));
	clock = fakeClock();
});
afterAll(restoreTrigger);

/** Runs one generated sequence in `setting`; resolves the sink after a quiet period. */
async function run(setting: Setting, steps: readonly Step[]): Promise<{ sink: Sink; kills: number; initial: Platform['services'] }> {
	jest.setSystemTime(Date.UTC(2026, 10, 27, 8, 0, 0));
	const advance = clock.pass;
	platform = { services: new Map(IDS.slice(0, 4).map((id, index) => [id, { status: 'active', vcores: index + 1 }])) };
	const initial = new Map(platform.services);
	const db = new N8nDatabase();
	const sink = new Sink();
	const node = servicesTriggerNode({}, { id: `model-${setting}` });
	const spawn = () => new N8nProcess(db, setting, node, { apiKey: KEY, baseUrl: api.origin }, (items) => sink.receive(items));
	let process = spawn();
	await process.start('activate');
	let kills = 0;
	const ensureAlive = async () => {
		if (process.alive) return;
		kills++;
		advance(RESTART_MS);
		process = spawn();
		await process.start('init');
	};
	for (const step of steps) {
		switch (step.kind) {
			case 'create':
			case 'remove':
			case 'status':
			case 'vcores': {
				const values = changedValues(platform.services, step);
				if (values === undefined) platform.services.delete(step.id);
				else platform.services.set(step.id, values);
				break;
			}
			case 'poll':
				await ensureAlive();
				advance(POLL_INTERVAL_MS);
				await process.poll(step.crash, { leaseLost: setting === 'durable' && step.leaseLost });
				break;
			case 'wait':
				advance(step.ms);
				break;
			case 'kill':
				process.alive = false;
				break;
		}
	}
	// A quiet period: the process lives, polls see no new change (a held mass removal is confirmed).
	await ensureAlive();
	for (let quiet = 0; quiet < 3; quiet++) {
		advance(POLL_INTERVAL_MS);
		await process.poll('none');
	}
	return { sink, kills, initial };
}

function check(sink: Sink, initial: Platform['services']): string[] {
	const mirror = sink.fold(initial);
	const expected = Object.fromEntries([...platform.services].sort());
	const got = Object.fromEntries([...mirror].sort());
	const problems = [...sink.problems];
	if (JSON.stringify(got) !== JSON.stringify(expected))
		problems.push(`sink ${JSON.stringify(got)} is not the platform ${JSON.stringify(expected)}`);
	return problems;
}

describe.each<Setting>(['default', 'durable'])('n8n with %s settings: SIGKILLs at every point of a poll', (setting) => {
	test(`no change lost, every duplicate marked and recognisable (${RUNS} generated runs, seed ${SEED})`, async () => {
		const totals = { runs: 0, kills: 0, items: 0, duplicates: 0 };
		await fc.assert(
			fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 40 }), async (steps) => {
				const { sink, kills, initial } = await run(setting, steps);
				totals.runs++;
				totals.kills += kills;
				totals.items += sink.items;
				totals.duplicates += sink.duplicates;
				expect(check(sink, initial)).toEqual([]);
			}),
			{ numRuns: RUNS, seed: SEED, endOnFailure: true },
		);
		console.info(
			`delivery model, ${setting} settings: ${totals.runs} runs, ${totals.kills} kills, ${totals.items} items delivered, ${totals.duplicates} duplicates (all marked)`,
		);
		expect(totals.kills).toBeGreaterThan(RUNS);
	}, 300_000);
});
