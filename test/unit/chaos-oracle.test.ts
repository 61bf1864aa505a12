/**
 * The chaos test's oracle (test/chaos/oracle.cjs), proven on its own: hand-made sink records
 * with a known number of lost, duplicated and diverged changes, and generated ones. The generated
 * streams come from a model written here (a platform history, polls that report the difference since
 * the last poll, as the item contract says), not from the node's code; faults are then injected
 * (events dropped, delivered twice, reordered) and the oracle must count exactly what was injected.
 */
import fc from 'fast-check';

import { compareServices, judge, summarize, type SinkEvent } from '../chaos/oracle.cjs';

type Svc = { id_service: string; status: string; os_id: string; vcores: number; ram_gb: number; hd_gb: number; name: string };

const svc = (id: string, over: Partial<Svc> = {}): Svc => ({
	id_service: id,
	name: `host-${id}`,
	status: 'active',
	os_id: 'debian-12',
	vcores: 2,
	ram_gb: 4,
	hd_gb: 80,
	...over,
});

let t = 0;
const at = () => new Date(Date.UTC(2026, 10, 1, 0, 0, t++)).toISOString();

function ev(event: string, service: Svc, previous: Record<string, unknown> | null, extra: Partial<SinkEvent> = {}): SinkEvent {
	return { event, id_service: service.id_service, service: { ...service }, previous, detectedAt: extra.detectedAt ?? at(), ...extra };
}

describe('hand-made sink records', () => {
	const a = svc('srv-1');
	const b = svc('srv-2', { status: 'suspended' });

	test('every change delivered once: nothing lost, duplicated or diverged', () => {
		const s1 = { ...a, status: 'suspended' };
		const s2 = { ...s1, ram_gb: 8 };
		const c = svc('srv-3');
		const events = [
			ev('statusChanged', s1, { status: 'active' }),
			ev('specsChanged', s2, { ram_gb: 4 }),
			ev('created', c, null),
			ev('removed', b, null),
		];
		const v = judge({ baseline: [a, b], final: [s2, c], events });
		expect(v.lost).toEqual({ total: 0, mismatched: 0, neverReached: 0, byEvent: {} });
		expect(v.duplicates.total).toBe(0);
		expect(v.diverged).toEqual([]);
		expect(v.problems).toEqual([]);
		expect(summarize(v)).toBe(
			'4 events, lost 0 (0 seen at a later event, 0 final states never reached), 0 duplicated (0 marked redelivered), 0 diverged',
		);
	});

	test('a change lost in the middle is seen at the next event of that field: its previous disagrees', () => {
		const s1 = { ...a, status: 'suspended' };
		const s2 = { ...a, status: 'cancelled' };
		// active -> suspended never arrived; suspended -> cancelled did.
		const v = judge({ baseline: [a], final: [s2], events: [ev('statusChanged', s2, { status: 'suspended' })] });
		expect(v.lost).toMatchObject({ total: 1, mismatched: 1, neverReached: 0, byEvent: { statusChanged: 1 } });
		expect(v.diverged).toEqual([]);
		expect(v.problems[0]).toMatchObject({ kind: 'lost before this event', id_service: 'srv-1' });
		void s1;
	});

	test('a last change lost is a final state never reached, and the service diverges', () => {
		const v = judge({ baseline: [a, b], final: [a, { ...b, status: 'active' }], events: [] });
		expect(v.lost).toMatchObject({ total: 1, mismatched: 0, neverReached: 1 });
		expect(v.diverged).toEqual(['srv-2']);
	});

	test('a lost creation, a lost removal: created over a held service, removed of an unknown one, and the stale row diverges', () => {
		const c = svc('srv-3');
		const events = [ev('statusChanged', { ...c, status: 'suspended' }, { status: 'active' }), ev('created', a, null)];
		const v = judge({ baseline: [a], final: [{ ...c, status: 'suspended' }, a], events });
		expect(v.lost.mismatched).toBe(2);
		expect(v.diverged).toEqual([]);
		const gone = judge({ baseline: [a, b], final: [a], events: [] });
		expect(gone.diverged).toEqual(['srv-2']);
		expect(gone.problems[0].detail).toBe('the sink has it, the platform removed it');
	});

	test('removed "as last seen" with values the sink never got: a specs change was lost before the removal', () => {
		const v = judge({ baseline: [a], final: [], events: [ev('removed', { ...a, ram_gb: 16 }, null)] });
		expect(v.lost).toMatchObject({ total: 1, mismatched: 1, byEvent: { removed: 1 } });
	});

	test('one loss is counted once: a lost change of vCores and RAM, then RAM alone, then the removal (a counterexample of the property below)', () => {
		const lost = { ...a, vcores: 3, ram_gb: 100 };
		const ram = { ...lost, ram_gb: 102 };
		const events = [ev('specsChanged', ram, { ram_gb: 100 }), ev('removed', ram, null)];
		const v = judge({ baseline: [a], final: [], events });
		expect(v.lost).toMatchObject({ total: 1, mismatched: 1, neverReached: 0, byEvent: { specsChanged: 1 } });
		expect(v.diverged).toEqual([]);
	});

	test('a status and a specs change of one poll are two events, applied in either order', () => {
		const both = { ...a, status: 'suspended', vcores: 4 };
		const detectedAt = at();
		const status = ev('statusChanged', both, { status: 'active' }, { detectedAt });
		const specs = ev('specsChanged', both, { vcores: 2 }, { detectedAt });
		for (const events of [
			[status, specs],
			[specs, status],
		]) {
			const v = judge({ baseline: [a], final: [both], events });
			expect(v.lost.total).toBe(0);
			expect(v.diverged).toEqual([]);
		}
	});

	test('duplicates: by eventId, marked or not; the same poll again without ids; a repeat by a later poll', () => {
		const s1 = { ...a, status: 'suspended' };
		const first = ev('statusChanged', s1, { status: 'active' }, { eventId: 'e1', seq: 1 });
		const marked = { ...first, redelivered: true };
		const unmarked = { ...first };
		const v = judge({ baseline: [a], final: [s1], events: [first, marked, unmarked] });
		expect(v.duplicates).toMatchObject({ total: 2, marked: 1, unmarked: 1, byEventId: 2 });
		expect(v.lost.total).toBe(0);

		const plain = ev('statusChanged', s1, { status: 'active' });
		const again = judge({ baseline: [a], final: [s1], events: [plain, { ...plain }] });
		expect(again.duplicates).toMatchObject({ total: 1, unmarked: 1, byContent: 1 });

		// A later poll reporting the applied change again (another detectedAt, no ids): a duplicate, not a loss.
		const repeat = judge({ baseline: [a], final: [s1], events: [plain, { ...plain, detectedAt: at() }] });
		expect(repeat.duplicates).toMatchObject({ total: 1, byRepeat: 1 });
		expect(repeat.lost.total).toBe(0);
	});

	test('a real A -> B -> A -> B is no repeat; with eventIds a lost B -> A is a loss, not a duplicate', () => {
		const toB = { ...a, status: 'suspended' };
		const e1 = ev('statusChanged', toB, { status: 'active' }, { eventId: 'e1', seq: 1 });
		const e2 = ev('statusChanged', a, { status: 'suspended' }, { eventId: 'e2', seq: 2 });
		const e3 = ev('statusChanged', toB, { status: 'active' }, { eventId: 'e3', seq: 3 });
		expect(judge({ baseline: [a], final: [toB], events: [e1, e2, e3] })).toMatchObject({ lost: { total: 0 }, duplicates: { total: 0 } });
		expect(judge({ baseline: [a], final: [toB], events: [e1, e3] })).toMatchObject({
			lost: { total: 1, mismatched: 1 },
			duplicates: { total: 0 },
		});
	});

	test('an eventId that names two different changes is reported', () => {
		const e1 = ev('statusChanged', { ...a, status: 'suspended' }, { status: 'active' }, { eventId: 'same' });
		const e2 = ev('specsChanged', { ...a, status: 'suspended', vcores: 8 }, { vcores: 2 }, { eventId: 'same', redelivered: true });
		const v = judge({ baseline: [a], final: [{ ...a, status: 'suspended', vcores: 8 }], events: [e1, e2] });
		expect(v.eventIdConflicts).toBe(1);
		expect(v.diverged).toEqual(['srv-1']);
	});

	test('with seq on every event the fold follows seq: a redelivered old `created` after the `removed` resurrects nothing', () => {
		const c = svc('srv-3');
		const created = ev('created', c, null, { eventId: 'c', seq: 1 });
		const removed = ev('removed', c, null, { eventId: 'r', seq: 2 });
		const v = judge({ baseline: [], final: [], events: [removed, { ...created, redelivered: true }] });
		expect(v).toMatchObject({ order: 'seq', lost: { total: 0 }, diverged: [], redeliveredFirstSeen: 1 });
		// Arrival order only (no seq): the late creation leaves a row the platform removed.
		const noSeq = judge({
			baseline: [],
			final: [],
			events: [
				{ ...removed, seq: undefined, detectedAt: '2026-11-02T00:00:00.000Z' },
				{ ...created, seq: undefined, detectedAt: '2026-11-01T00:00:00.000Z' },
			],
		});
		expect(noSeq).toMatchObject({ order: 'detectedAt', lost: { total: 0 }, diverged: [] });
	});

	test('resync events set the whole state: they repair a divergence and say so', () => {
		const lostStatus = { ...b, status: 'active' };
		const c = svc('srv-3');
		const events = [ev('resync', a, null), ev('resync', lostStatus, null), ev('resync', c, null)];
		const v = judge({ baseline: [a, b], final: [a, lostStatus, c], events });
		expect(v.resync).toEqual({ events: 3, repaired: 2 });
		expect(v.diverged).toEqual([]);
		expect(v.lost.total).toBe(0);
	});

	test('raw platform records and simplified services compare alike; names and aliases are no change', () => {
		const raw = {
			id_service: 'srv-1',
			values: {
				values: {
					name: 'other name',
					alias: 'x',
					status: 'active',
					service: { customize: { OS: { id: 'debian-12', name: 'Debian 12' }, specifications: { vcores: 2, GB: { ram: 4, hd: 80 } } } },
				},
			},
		};
		expect(compareServices([raw], [a]).equal).toBe(true);
		expect(compareServices([raw], [{ ...a, ram_gb: 5 }, svc('srv-9')])).toEqual({
			missing: [],
			extra: ['srv-9'],
			different: ['srv-1'],
			equal: false,
		});
		expect(compareServices([raw, svc('srv-2')], [])).toMatchObject({ missing: ['srv-1', 'srv-2'] });
	});

	test('an item that is not an event is reported, never folded', () => {
		const v = judge({ baseline: [], final: [], events: [null, 'text', { event: 'created' }] });
		expect(v.applied).toBe(0);
		expect(v.problems.map((p) => p.kind)).toEqual(['unreadable', 'unreadable', 'unreadable']);
	});
});

// ---- generated: a model platform, polled ---------------------------------------------------------------

const STATUSES = ['active', 'suspended', 'pending', 'cancelled'];
type Step = { kind: 'status' | 'specs' | 'create' | 'remove' | 'poll'; pick: number; value: number };

/**
 * Runs the steps on a model platform. A poll reports what differs from the last poll, the way the item
 * contract says (one event per change kind per service; `previous` the earlier values). A service's
 * status never takes the same step (A -> B) twice and RAM values are new each time, as the chaos
 * driver does: without eventIds a change reported again and the same change made again could not be
 * told apart.
 */
function model(steps: Step[], { ids }: { ids: boolean }) {
	let next = 10;
	let seq = 0;
	const platform = new Map<string, Svc>();
	for (let i = 0; i < 4; i++) platform.set(`srv-${i}`, svc(`srv-${i}`));
	const steps_ = new Set<string>();
	const baseline = [...platform.values()].map((s) => ({ ...s }));
	let polled = new Map([...platform].map(([id, s]) => [id, { ...s }]));
	const polls: SinkEvent[][] = [];
	steps.forEach((step, n) => {
		const list = [...platform.keys()];
		const id = list[step.pick % Math.max(1, list.length)];
		if (step.kind === 'status' && id) {
			const s = platform.get(id)!;
			const choices = STATUSES.filter((x) => x !== s.status && !steps_.has(`${id} ${s.status} ${x}`));
			if (choices.length) {
				const status = choices[step.value % choices.length];
				steps_.add(`${id} ${s.status} ${status}`);
				platform.set(id, { ...s, status });
			}
		} else if (step.kind === 'specs' && id) {
			const s = platform.get(id)!;
			platform.set(id, { ...s, ram_gb: 100 + n, ...(step.value % 2 ? { vcores: s.vcores + 1 } : {}) });
		} else if (step.kind === 'create') {
			const nid = `srv-${next++}`;
			platform.set(nid, svc(nid));
		} else if (step.kind === 'remove' && id && list.length > 1) {
			platform.delete(id);
		} else if (step.kind === 'poll') {
			const detectedAt = new Date(Date.UTC(2026, 10, 1) + n * 15_000).toISOString();
			const out: SinkEvent[] = [];
			const emit = (event: string, s: Svc, previous: Record<string, unknown> | null) => {
				seq++;
				out.push({
					event,
					id_service: s.id_service,
					service: { ...s },
					previous,
					detectedAt,
					...(ids ? { eventId: `ev-${seq}`, seq } : {}),
				});
			};
			for (const [pid, now] of platform) {
				const was = polled.get(pid);
				if (!was) emit('created', now, null);
				else {
					if (was.status !== now.status) emit('statusChanged', now, { status: was.status });
					const specs = (['os_id', 'vcores', 'ram_gb', 'hd_gb'] as const).filter((k) => was[k] !== now[k]);
					if (specs.length) emit('specsChanged', now, Object.fromEntries(specs.map((k) => [k, was[k]])));
				}
			}
			for (const [pid, was] of polled) if (!platform.has(pid)) emit('removed', was, null);
			polled = new Map([...platform].map(([pid, s]) => [pid, { ...s }]));
			polls.push(out);
		}
	});
	return { baseline, final: [...platform.values()], polls, ids };
}

const stepArb = fc.record({
	kind: fc.constantFrom<Step['kind']>('status', 'status', 'specs', 'create', 'remove', 'poll', 'poll'),
	pick: fc.nat(50),
	value: fc.nat(50),
});
const scenarioArb = fc.record({ steps: fc.array(stepArb, { minLength: 1, maxLength: 40 }), ids: fc.boolean() }).map(({ steps, ids }) => {
	// A last poll, so the sink can have reached the final state (the chaos test's quiet period).
	return model([...steps, { kind: 'poll', pick: 0, value: 0 }], { ids });
});

/** Arrival order: polls in order, each poll's items in any order (HTTP Request sends them at once). */
function arrival(polls: SinkEvent[][], shuffle: (n: number) => number[]): SinkEvent[] {
	return polls.flatMap((p) => shuffle(p.length).map((i) => p[i]));
}

const permutation = (seed: number) => (n: number) => {
	const order = Array.from({ length: n }, (_, i) => i);
	let s = seed || 1;
	for (let i = n - 1; i > 0; i--) {
		s = (s * 1103515245 + 12345) & 0x7fffffff;
		const j = s % (i + 1);
		[order[i], order[j]] = [order[j], order[i]];
	}
	return order;
};

describe('generated sink records (fast-check)', () => {
	test('every change delivered once, in any order within a poll: 0 lost, 0 duplicated, 0 diverged', () => {
		fc.assert(
			fc.property(scenarioArb, fc.nat(), ({ baseline, final, polls }, seed) => {
				const v = judge({ baseline, final, events: arrival(polls, permutation(seed)) });
				expect(v.lost.total).toBe(0);
				expect(v.duplicates.total).toBe(0);
				expect(v.diverged).toEqual([]);
			}),
			{ numRuns: 300 },
		);
	});

	test('with seq and eventId, any arrival order at all: 0 lost', () => {
		fc.assert(
			fc.property(scenarioArb, fc.nat(), ({ baseline, final, polls, ids }, seed) => {
				fc.pre(ids);
				const all = polls.flat();
				const v = judge({ baseline, final, events: permutation(seed)(all.length).map((i) => all[i]) });
				expect(v.lost.total).toBe(0);
				expect(v.order === 'seq' || all.length === 0).toBe(true);
			}),
			{ numRuns: 200 },
		);
	});

	test('k events delivered again (marked or not): exactly k duplicates, the marked ones (by eventId) counted, nothing lost', () => {
		fc.assert(
			fc.property(scenarioArb, fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 6 }), ({ baseline, final, polls, ids }, again) => {
				const events = polls.flat();
				fc.pre(events.length > 0);
				const copies = again.map(([i, mark]) => ({ ...events[i % events.length], ...(mark ? { redelivered: true } : {}) }));
				const v = judge({ baseline, final, events: [...events, ...copies] });
				expect(v.duplicates.total).toBe(copies.length);
				// Marked: redelivered: true on an eventId the sink saw before (without ids nothing can be).
				expect(v.duplicates.marked).toBe(ids ? copies.filter((c) => c.redelivered === true).length : 0);
				expect(v.duplicates.byEventId).toBe(ids ? copies.length : 0);
				expect(v.lost.total).toBe(0);
				expect(v.diverged).toEqual([]);
			}),
			{ numRuns: 300 },
		);
	});

	test('one event dropped: seen once at the next event of its service, or as a final state never reached, or both; d dropped: at most 2d', () => {
		// Both: a lost specs change of vCores and RAM, and only RAM changes again later. d > 1 may show
		// as fewer, even 0: A -> B and B -> A both lost leave no trace a sink could see.
		fc.assert(
			fc.property(scenarioArb, fc.uniqueArray(fc.nat(), { minLength: 1, maxLength: 5 }), ({ baseline, final, polls }, drops) => {
				const events = polls.flat();
				fc.pre(events.length > 0);
				const dropped = new Set(drops.map((d) => d % events.length));
				const one = judge({ baseline, final, events: events.filter((_, i) => i !== drops[0] % events.length) });
				expect(one.lost.total).toBeGreaterThanOrEqual(1);
				expect(one.lost.mismatched).toBeLessThanOrEqual(1);
				expect(one.lost.neverReached).toBeLessThanOrEqual(1);
				const v = judge({ baseline, final, events: events.filter((_, i) => !dropped.has(i)) });
				expect(v.lost.total).toBeLessThanOrEqual(2 * dropped.size);
				expect(v.duplicates.total).toBe(0);
			}),
			{ numRuns: 400 },
		);
	});
});
