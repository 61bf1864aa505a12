/**
 * The Services Trigger's delivery logic alone (nodes/ServicesTrigger/state/outbox.ts, resync.ts): event
 * ids, sequence numbers, the outbox and its bounds, redelivery by another process, tombstones. The
 * same logic through n8n-core's poll executor: trigger-delivery.test.ts; under SIGKILLs:
 * delivery-model.test.ts.
 */
import type { DetectedEvent } from '../../nodes/ServicesTrigger/diff';
import type { DeliveryRecord, OutboxEntry, Tombstone } from '../../nodes/ServicesTrigger/state/delivery';
import { emptyDelivery } from '../../nodes/ServicesTrigger/state/delivery';
import type { DeliveryInput } from '../../nodes/ServicesTrigger/state/outbox';
import {
	DELIVERED_PROCESSES_MAX,
	eventIdOf,
	OUTBOX_MAX,
	OUTBOX_WINDOW_MS,
	planDelivery,
	pruneOutbox,
	TOMBSTONE_MAX,
	TOMBSTONE_WINDOW_MS,
} from '../../nodes/ServicesTrigger/state/outbox';
import { readResync, resyncDue, tombstoneWindow } from '../../nodes/ServicesTrigger/resync';
import type { ServiceSnapshot } from '../../nodes/ServicesTrigger/state/snapshot';
import { simplifiedFromStored } from '../../nodes/ServicesTrigger/state/snapshot';

const T0 = Date.UTC(2026, 10, 27, 8, 0, 0);
const MINUTE = 60_000;
const values = (status: string, vcores = 2) => [`${status}.example`, 'alias', status, 'ubuntu-24.04', 'Ubuntu 24.04 LTS', vcores, 4, 80];
const change = (id: string, from: string, to: string): DetectedEvent => ({
	event: 'statusChanged',
	id_service: id,
	service: simplifiedFromStored(id, values(to)),
	previous: { status: from },
});
const removal = (id: string): DetectedEvent => ({
	event: 'removed',
	id_service: id,
	service: simplifiedFromStored(id, values('active')),
	previous: null,
});
const listed = (...ids: string[]): ServiceSnapshot => new Map(ids.map((id) => [id, values('active')]));
const plan = (input: Partial<DeliveryInput> & { from: DeliveryRecord }) =>
	planDelivery({ trigger: '["wf-1","Services Trigger"]', me: 'process-a', now: T0, detected: [], listed: listed(), ...input });
const summary = (result: ReturnType<typeof planDelivery>) =>
	result.items.map(({ event, delivery }) => [event.event, event.id_service, delivery.seq, delivery.redelivered]);

describe('eventId', () => {
	const id = (overrides: Partial<{ trigger: string; base: number; id: string; to: string; from: string }> = {}) => {
		const { trigger = 't', base = 10, id: service = 'srv-1', to = 'suspended', from = 'active' } = overrides;
		return eventIdOf(trigger, base, 'statusChanged', service, { status: from }, values(to));
	};

	it('is 24 hex characters, the same for the same change from the same state', () => {
		expect(id()).toMatch(/^[0-9a-f]{24}$/);
		expect(id()).toBe(id());
	});

	it('differs with the trigger, the state it was detected from, the service and what changed', () => {
		const ids = [id(), id({ trigger: 'u' }), id({ base: 11 }), id({ id: 'srv-2' }), id({ to: 'pending' }), id({ from: 'pending' })];
		expect(new Set(ids).size).toBe(ids.length);
		// The same change twice (active → suspended, back, and again) differs by the state it starts from.
		expect(id({ base: 10 })).not.toBe(id({ base: 12 }));
	});
});

describe('planDelivery: new events', () => {
	it('numbers new events after the stored seq, detected now, not redelivered; keeps them in the outbox', () => {
		const result = plan({ from: emptyDelivery(100, false), detected: [change('srv-1', 'active', 'suspended'), removal('srv-2')] });
		expect(summary(result)).toEqual([
			['statusChanged', 'srv-1', 101, false],
			['removed', 'srv-2', 102, false],
		]);
		expect(result.items.every((item) => item.delivery.detectedAt === T0)).toBe(true);
		expect(result.record).toMatchObject({ seq: 102, writer: 'process-a', writtenAt: T0, delivered: { 'process-a': 102 } });
		expect(result.record.outbox.map((entry) => [entry.seq, entry.emittedAt])).toEqual([
			[101, T0],
			[102, T0],
		]);
		// Ids derive from the seq the poll started from, not the one an event gets.
		expect(result.items[0].delivery.eventId).toBe(
			eventIdOf('["wf-1","Services Trigger"]', 100, 'statusChanged', 'srv-1', { status: 'active' }, values('suspended')),
		);
	});

	it('a state older than version 3 numbers from now (seq never goes back below an earlier baseline)', () => {
		const result = plan({ from: emptyDelivery(0, true), detected: [change('srv-1', 'active', 'suspended')] });
		expect(summary(result)).toEqual([['statusChanged', 'srv-1', T0 + 1, false]]);
		expect(result.items[0].delivery.eventId).toBe(
			eventIdOf('["wf-1","Services Trigger"]', 0, 'statusChanged', 'srv-1', { status: 'active' }, values('suspended')),
		);
	});

	it('a change emitted before from the same state (a lost save) keeps its id, seq and detectedAt, marked redelivered', () => {
		const first = plan({ from: emptyDelivery(100, false), detected: [change('srv-1', 'active', 'suspended')] });
		// The save was lost: the next poll starts from the same state, this process remembers what it emitted.
		const again = plan({
			from: emptyDelivery(100, false),
			now: T0 + MINUTE,
			recent: first.record.outbox,
			detected: [change('srv-1', 'active', 'suspended'), removal('srv-3')],
		});
		expect(summary(again)).toEqual([
			['statusChanged', 'srv-1', 101, true],
			['removed', 'srv-3', 102, false],
		]);
		expect(again.items[0].delivery).toEqual(
			first.items[0].delivery.redelivered === false ? { ...first.items[0].delivery, redelivered: true } : undefined,
		);
		expect(again.record.outbox.map((entry) => entry.eventId)).toEqual(again.items.map((item) => item.delivery.eventId));
	});
});

describe('planDelivery: redelivery by another process', () => {
	const emitted = plan({ from: emptyDelivery(100, false), detected: [change('srv-1', 'active', 'suspended'), removal('srv-2')] }).record;

	it('the same process never redelivers', () => {
		expect(plan({ from: emitted, now: T0 + MINUTE }).items).toEqual([]);
	});

	it('another process (a restart) emits every outbox event again first, as it was, with any new change', () => {
		const after = plan({ from: emitted, me: 'process-b', now: T0 + 2 * 60 * MINUTE, detected: [change('srv-4', 'pending', 'active')] });
		expect(summary(after)).toEqual([
			['statusChanged', 'srv-1', 101, true],
			['removed', 'srv-2', 102, true],
			['statusChanged', 'srv-4', 103, false],
		]);
		expect(after.items[0].delivery.detectedAt).toBe(T0);
		expect(after.items[1].event.service).toEqual(simplifiedFromStored('srv-2', values('active')));
		// Delivered again now: kept for another window, from the redelivery on.
		expect(after.record.outbox.map((entry) => [entry.seq, entry.emittedAt])).toEqual([
			[101, T0 + 2 * 60 * MINUTE],
			[102, T0 + 2 * 60 * MINUTE],
			[103, T0 + 2 * 60 * MINUTE],
		]);
		expect(after.record.delivered).toEqual({ 'process-a': 102, 'process-b': 103 });
		// Downtime does not age the outbox: hours later, the events of the last write are still there.
	});

	it("two mains taking turns: each delivers an event at most once (the other's new ones only)", () => {
		const b = plan({ from: emitted, me: 'process-b', now: T0 + MINUTE });
		expect(summary(b).map(([, id, seq, again]) => [id, seq, again])).toEqual([
			['srv-1', 101, true],
			['srv-2', 102, true],
		]);
		const a = plan({ from: b.record, me: 'process-a', now: T0 + 2 * MINUTE, detected: [change('srv-5', 'active', 'pending')] });
		expect(summary(a)).toEqual([['statusChanged', 'srv-5', 103, false]]);
		const b2 = plan({ from: a.record, me: 'process-b', now: T0 + 3 * MINUTE });
		expect(summary(b2)).toEqual([['statusChanged', 'srv-5', 103, true]]);
	});

	it(`records at most ${DELIVERED_PROCESSES_MAX} processes, this one always`, () => {
		let record = emitted;
		for (let index = 0; index < 12; index++) record = plan({ from: record, me: `p-${index}`, now: T0 + index * MINUTE }).record;
		expect(Object.keys(record.delivered)).toHaveLength(DELIVERED_PROCESSES_MAX);
		expect(record.delivered['p-11']).toBe(record.seq);
	});
});

describe('the outbox bounds', () => {
	const entry = (seq: number, emittedAt: number): OutboxEntry => ({
		eventId: `e${seq}`,
		seq,
		event: 'statusChanged',
		id_service: `srv-${seq}`,
		previous: { status: 'active' },
		values: values('suspended'),
		detectedAt: emittedAt,
		emittedAt,
	});

	it(`keeps events emitted up to ${OUTBOX_WINDOW_MS / MINUTE} minutes before the reference; the last emission always`, () => {
		const outbox = [entry(1, T0), entry(2, T0 + 10 * MINUTE), entry(3, T0 + 40 * MINUTE)];
		expect(pruneOutbox(outbox, T0 + 24 * MINUTE).map((e) => e.seq)).toEqual([2, 3]);
		expect(pruneOutbox(outbox, T0 + 26 * MINUTE).map((e) => e.seq)).toEqual([3]);
		// The last emission whole, however old.
		expect(pruneOutbox(outbox, T0 + 48 * 60 * MINUTE).map((e) => e.seq)).toEqual([3]);
		// No reference (the write time unreadable): nothing aged.
		expect(pruneOutbox(outbox, undefined)).toBe(outbox);
	});

	it(`keeps at most ${OUTBOX_MAX.toLocaleString('en-US')} events, the newest; the last emission whole even when larger`, () => {
		const older = Array.from({ length: OUTBOX_MAX }, (_, index) => entry(index + 1, T0 + index));
		const last = Array.from({ length: 3 }, (_, index) => entry(OUTBOX_MAX + index + 1, T0 + MINUTE));
		const kept = pruneOutbox([...older, ...last], T0 + MINUTE);
		expect(kept).toHaveLength(OUTBOX_MAX);
		expect(kept[0].seq).toBe(4);
		expect(kept.slice(-3).map((e) => e.seq)).toEqual(last.map((e) => e.seq));
		const huge = Array.from({ length: OUTBOX_MAX + 5 }, (_, index) => entry(index + 1, T0));
		expect(pruneOutbox([entry(0, T0 - 1), ...huge], T0)).toHaveLength(OUTBOX_MAX + 5);
	});

	it('after a restart the window counts to the last write before it, not to now (downtime does not age)', () => {
		const record: DeliveryRecord = {
			...emptyDelivery(2, false),
			writer: 'process-a',
			writtenAt: T0 + 10 * MINUTE,
			delivered: { 'process-a': 2 },
			outbox: [entry(1, T0), entry(2, T0 + 10 * MINUTE)],
		};
		const restarted = plan({ from: record, me: 'process-b', now: T0 + 3 * 24 * 60 * MINUTE });
		expect(summary(restarted).map(([, , seq, again]) => [seq, again])).toEqual([
			[1, true],
			[2, true],
		]);
		// The same process, the same time: the first event is beyond the window.
		const same = plan({ from: { ...record, writer: 'process-b', delivered: { 'process-b': 0 } }, me: 'process-b', now: T0 + 26 * MINUTE });
		expect(summary(same).map(([, , seq]) => seq)).toEqual([2]);
	});
});

describe('tombstones (recent removals) and Resync', () => {
	const day = 24 * 60 * MINUTE;
	const watched = (...ids: string[]) => ids.map((id) => ({ id_service: id, service: simplifiedFromStored(id, values('active')) }));

	it('a removal is kept when a resync can send it; a resync sends the services now and the removals again, as they were', () => {
		const removed = plan({ from: emptyDelivery(10, false), detected: [removal('srv-9')], listed: listed('srv-1'), tombstoneWindowMs: day });
		expect(removed.record.tombstones.map((t) => [t.id_service, t.seq])).toEqual([['srv-9', 11]]);
		const resync = plan({
			from: removed.record,
			now: T0 + MINUTE,
			resync: watched('srv-1'),
			listed: listed('srv-1'),
			tombstoneWindowMs: day,
		});
		expect(summary(resync)).toEqual([
			['resync', 'srv-1', 12, false],
			['removed', 'srv-9', 11, true],
		]);
		expect(resync.items[1].delivery.eventId).toBe(removed.items[0].delivery.eventId);
		expect(resync.record.resyncAt).toBe(T0 + MINUTE);
		// The next resync: fresh ids and numbers for the services.
		const next = plan({
			from: resync.record,
			now: T0 + 2 * MINUTE,
			resync: watched('srv-1'),
			listed: listed('srv-1'),
			tombstoneWindowMs: day,
		});
		expect(summary(next)[0]).toEqual(['resync', 'srv-1', 13, false]);
		expect(next.items[0].delivery.eventId).not.toBe(resync.items[0].delivery.eventId);
	});

	it('none kept without a resync; a service listed again drops its tombstone; the window and the cap bound them', () => {
		expect(plan({ from: emptyDelivery(10, false), detected: [removal('srv-9')] }).record.tombstones).toEqual([]);
		const kept = plan({ from: emptyDelivery(10, false), detected: [removal('srv-9')], tombstoneWindowMs: day }).record;
		expect(plan({ from: kept, now: T0 + MINUTE, listed: listed('srv-9'), tombstoneWindowMs: day }).record.tombstones).toEqual([]);
		expect(plan({ from: kept, now: T0 + day - 1, tombstoneWindowMs: day }).record.tombstones).toHaveLength(1);
		expect(plan({ from: kept, now: T0 + day + 1, tombstoneWindowMs: day }).record.tombstones).toHaveLength(0);
		const many: Tombstone[] = Array.from({ length: TOMBSTONE_MAX + 10 }, (_, index) => ({
			eventId: `t${index}`,
			seq: index + 1,
			id_service: `x-${index}`,
			values: values('active'),
			detectedAt: T0,
			removedAt: T0 + index,
		}));
		const capped = plan({ from: { ...kept, tombstones: many }, now: T0 + MINUTE, tombstoneWindowMs: day }).record.tombstones;
		expect(capped).toHaveLength(TOMBSTONE_MAX);
		expect(capped.some((t) => t.eventId === 't0')).toBe(false);
	});

	it('a removal both in the outbox and a tombstone is sent once in one emission', () => {
		const removed = plan({ from: emptyDelivery(10, false), detected: [removal('srv-9')], tombstoneWindowMs: day });
		const restart = plan({ from: removed.record, me: 'process-b', now: T0 + MINUTE, resync: [], tombstoneWindowMs: day });
		expect(summary(restart)).toEqual([['removed', 'srv-9', 11, true]]);
	});

	it('Resync options: due at start with At Start, after the interval, and when no resync is known; tombstones kept for a day or two intervals', () => {
		const read = (resync: unknown) => readResync((name, fallback) => (name === 'resync' ? resync : fallback));
		expect(read(undefined)).toEqual({ onStart: false, enabled: false });
		expect(read({ onStart: true })).toEqual({ onStart: true, enabled: true });
		expect(read({ intervalHours: 0.05 })).toEqual({ onStart: false, intervalMs: 3 * MINUTE, enabled: true });
		expect(read({ intervalHours: 0.0167 }).intervalMs).toBe(0.0167 * 60 * MINUTE);
		expect(read({ intervalHours: 0.01666 }).intervalMs).toBe(MINUTE);
		expect(() => read({ intervalHours: 0.01 })).toThrow('"Every (Hours)" must be at least 0.0167 (one minute), not');
		expect(() => read({ intervalHours: 0 })).toThrow('"Every (Hours)" must be a number greater than 0, not');
		expect(() => read({ onStart: 'maybe' })).toThrow('"At Start" must be true or false');
		const every = read({ intervalHours: 48 });
		expect(resyncDue(every, { start: true, now: T0, resyncAt: T0 - 47 * 60 * MINUTE })).toBe(false);
		expect(resyncDue(every, { start: false, now: T0, resyncAt: T0 - 48 * 60 * MINUTE })).toBe(true);
		expect(resyncDue(every, { start: false, now: T0, resyncAt: undefined })).toBe(true);
		expect(resyncDue(read({ onStart: true }), { start: true, now: T0, resyncAt: T0 })).toBe(true);
		expect(resyncDue(read({ onStart: true }), { start: false, now: T0, resyncAt: 0 })).toBe(false);
		expect(tombstoneWindow(every, true)).toBe(96 * 60 * MINUTE);
		expect(tombstoneWindow(read({ onStart: true }), true)).toBe(TOMBSTONE_WINDOW_MS);
		expect(tombstoneWindow(every, false)).toBeUndefined();
		expect(tombstoneWindow(read(undefined), true)).toBeUndefined();
	});
});
