/**
 * At-least-once delivery, free of n8n runtime calls: a poll never learns whether the execution it
 * started finished, so the events it emits stay in an outbox for a while, and a poll by another
 * process (n8n restarted, or another main) emits them again marked `redelivered`. Each event gets an
 * id derived from its content and the sequence number the poll started from, so a change detected
 * again after a lost state save keeps its id, and two different changes never share one.
 */
import { createHash } from 'crypto';

import type { DetectedEvent, PreviousValues } from '../diff';
import type { DeliveryRecord, OutboxEntry, Tombstone } from './delivery';
import type { ServiceSnapshot, StoredValues } from './snapshot';
import { simplifiedFromStored, storedValuesOf } from './snapshot';

/** How long an emitted event is kept for redelivery, counted from its emission to the state's last write. */
export const OUTBOX_WINDOW_MS = 15 * 60 * 1000;
/** The most events kept for redelivery; the last emission is always kept whole. */
export const OUTBOX_MAX = 10_000;
/** How long a removal is kept for Resync at least (and at least twice the resync interval). */
export const TOMBSTONE_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The most removals kept for Resync; the newest win. */
export const TOMBSTONE_MAX = 100_000;
/** The most processes whose deliveries the state records; the one with the lowest number goes first. */
export const DELIVERED_PROCESSES_MAX = 8;

/** The event of an item: a change, or a service's current state sent by Resync. */
type ItemEventName = DetectedEvent['event'] | 'resync';
export type ItemEvent = Omit<DetectedEvent, 'event'> & { event: ItemEventName };

/** How one item is delivered. */
export interface Delivery {
	eventId: string;
	seq: number;
	/** When the change was first detected (ms). */
	detectedAt: number;
	redelivered: boolean;
}

export interface PlannedItem {
	event: ItemEvent;
	delivery: Delivery;
}

/** 24 hex characters naming one event of one trigger: the same change from the same state always gets the same id. */
export function eventIdOf(
	trigger: string,
	base: number,
	event: ItemEventName,
	id: string,
	previous: PreviousValues | null,
	values: StoredValues,
): string {
	const content = JSON.stringify([trigger, base, event, id, previous, values]);
	return createHash('shake256', { outputLength: 12 }).update(content).digest('hex');
}

export interface DeliveryInput {
	/** The trigger's identity in event ids (workflow id and node name). */
	trigger: string;
	/** This process (memory.ts: PROCESS_ID). */
	me: string;
	/** The trigger's clock (memory.ts readClock): when the events are emitted, the state written. */
	now: number;
	/** The system clock: when new changes were detected, as items show it (default `now`). */
	wall?: number;
	/** New sequence numbers go above it (default: `now` for a state older than version 3, else none). */
	floor?: number;
	/** The delivery record the poll starts from. */
	from: DeliveryRecord;
	/** The changes this poll detected, in emission order. */
	detected: readonly DetectedEvent[];
	/** The watched services to send as `resync` items when a resync is due; undefined otherwise. */
	resync?: ReadonlyArray<Omit<ItemEvent, 'event' | 'previous'>>;
	/** The services listed now (a tombstone of a listed service is dropped: it is back). */
	listed: ServiceSnapshot;
	/** The outbox this process wrote last: an event detected again after a lost save is marked redelivered. */
	recent?: readonly OutboxEntry[];
	/** How long removals are kept for Resync; undefined keeps none (Resync off, or removals not selected). */
	tombstoneWindowMs?: number;
}

interface DeliveryPlan {
	items: PlannedItem[];
	/** The record to write with the new snapshot. */
	record: DeliveryRecord;
}

/**
 * What this poll emits and the delivery record it writes: the outbox events this process has not
 * delivered (all of them after a restart), this poll's changes (each with a new sequence number,
 * or its original one and `redelivered` when it was emitted before from the same state), the resync
 * items when due, and the recent removals again with a resync.
 */
export function planDelivery(input: DeliveryInput): DeliveryPlan {
	const { trigger, me, now, from, listed } = input;
	// Counted against the state's last write when another process wrote it: downtime does not age events.
	const reference = from.writer === me ? now : from.writtenAt;
	const outbox = pruneOutbox(from.outbox, reference);
	const deliveredUpTo = from.delivered[me] ?? -1;
	const items: PlannedItem[] = [];
	const emitted = new Set<string>();
	const redeliver = (event: ItemEvent, entry: { eventId: string; seq: number; detectedAt: number }) => {
		if (emitted.has(entry.eventId)) return;
		emitted.add(entry.eventId);
		items.push({ event, delivery: { eventId: entry.eventId, seq: entry.seq, detectedAt: entry.detectedAt, redelivered: true } });
	};
	for (const entry of outbox.filter((candidate) => candidate.seq > deliveredUpTo).sort(bySeq)) redeliver(eventOfEntry(entry), entry);

	// Built at the first event only: a poll that detects nothing does no work per outbox entry.
	let known: Map<string, OutboxEntry> | undefined;
	let seq = lastSeq(from, input.floor ?? (from.legacy ? now : 0), input.recent);
	const fresh = (event: ItemEvent, values: StoredValues): Delivery => {
		const eventId = eventIdOf(trigger, from.seq, event.event, event.id_service, event.previous, values);
		known ??= new Map([...(input.recent ?? []), ...outbox].map((entry) => [entry.eventId, entry]));
		const before = known.get(eventId);
		if (before !== undefined) return { eventId, seq: before.seq, detectedAt: before.detectedAt, redelivered: true };
		return { eventId, seq: ++seq, detectedAt: input.wall ?? now, redelivered: false };
	};
	const added: OutboxEntry[] = [];
	for (const event of input.detected) {
		const values = storedValuesOf(event.service);
		const delivery = fresh(event, values);
		if (emitted.has(delivery.eventId)) continue;
		emitted.add(delivery.eventId);
		items.push({ event, delivery });
		added.push({ ...delivery, event: event.event, id_service: event.id_service, previous: event.previous, values, emittedAt: now });
	}
	for (const service of input.resync ?? []) {
		const event: ItemEvent = { ...service, event: 'resync', previous: null };
		const delivery = fresh(event, storedValuesOf(service.service));
		if (emitted.has(delivery.eventId)) continue;
		emitted.add(delivery.eventId);
		items.push({ event, delivery });
	}
	const tombstones =
		input.tombstoneWindowMs === undefined ? [] : keptTombstones(from.tombstones, added, listed, reference, input.tombstoneWindowMs);
	if (input.resync !== undefined) {
		for (const tombstone of [...tombstones].sort(bySeq)) {
			redeliver(
				{
					event: 'removed',
					id_service: tombstone.id_service,
					service: simplifiedFromStored(tombstone.id_service, tombstone.values),
					previous: null,
				},
				tombstone,
			);
		}
	}

	const record: DeliveryRecord = {
		seq,
		legacy: false,
		writer: me,
		writtenAt: now,
		delivered: deliveredBy(from.delivered, me, seq),
		outbox: items.length > 0 ? pruneOutbox(outboxAfter(outbox, items, added, now), now) : outbox,
		tombstones,
		resyncAt: input.resync !== undefined ? now : from.resyncAt,
	};
	return { items, record };
}

/**
 * The last sequence number given before this poll: the stored one, or `floor` when higher (a state
 * older than version 3 gave none, a new baseline continues a sequence it does not hold); above
 * what this process emitted last too (`recent`: an event it emitted from this state, whose save
 * was lost, keeps its number).
 */
export function lastSeq(from: DeliveryRecord, floor: number, recent: readonly OutboxEntry[] = []): number {
	let seq = Math.max(from.seq, floor);
	for (const entry of recent) seq = Math.max(seq, entry.seq);
	return seq;
}

/** The outbox after an emission at `now`: the entries emitted again with their new emittedAt, then the new ones. */
function outboxAfter(
	outbox: readonly OutboxEntry[],
	items: readonly PlannedItem[],
	added: readonly OutboxEntry[],
	now: number,
): OutboxEntry[] {
	const redelivered = new Set(items.filter((item) => item.delivery.redelivered).map((item) => item.delivery.eventId));
	const inOutbox = new Set(outbox.map((entry) => entry.eventId));
	return [
		...outbox.map((entry) => (redelivered.has(entry.eventId) ? { ...entry, emittedAt: now } : entry)),
		...added.filter((entry) => !inOutbox.has(entry.eventId)),
	];
}

/** An outbox entry as the event it was: the service as stored then (no record: with Simplify off it is the documented fields). */
function eventOfEntry(entry: OutboxEntry): ItemEvent {
	return {
		event: entry.event,
		id_service: entry.id_service,
		service: simplifiedFromStored(entry.id_service, entry.values),
		previous: entry.previous,
	};
}

function bySeq(a: { seq: number }, b: { seq: number }): number {
	return a.seq - b.seq;
}

/**
 * The outbox without the events emitted more than OUTBOX_WINDOW_MS before `reference` (none aged
 * without one), then at most OUTBOX_MAX of the newest; the last emission is always kept whole.
 */
export function pruneOutbox(outbox: readonly OutboxEntry[], reference: number | undefined): readonly OutboxEntry[] {
	if (outbox.length === 0) return outbox;
	let last = -Infinity;
	for (const entry of outbox) last = Math.max(last, entry.emittedAt);
	const oldest = reference === undefined ? -Infinity : reference - OUTBOX_WINDOW_MS;
	const kept = outbox.filter((entry) => entry.emittedAt === last || entry.emittedAt >= oldest);
	if (kept.length <= OUTBOX_MAX) return kept.length === outbox.length ? outbox : kept;
	const newest = kept.filter((entry) => entry.emittedAt === last);
	const older = kept.filter((entry) => entry.emittedAt !== last).sort((a, b) => b.emittedAt - a.emittedAt || b.seq - a.seq);
	const room = Math.max(0, OUTBOX_MAX - newest.length);
	const keep = new Set(older.filter((_, index) => index < room));
	return kept.filter((entry) => entry.emittedAt === last || keep.has(entry));
}

/** The removals kept for Resync: the stored ones and this poll's, without services listed again, within the window and the cap. */
function keptTombstones(
	stored: readonly Tombstone[],
	added: readonly OutboxEntry[],
	listed: ServiceSnapshot,
	reference: number | undefined,
	windowMs: number,
): Tombstone[] {
	const oldest = reference === undefined ? -Infinity : reference - windowMs;
	const byId = new Map<string, Tombstone>();
	for (const tombstone of stored) if (tombstone.removedAt >= oldest) byId.set(tombstone.eventId, tombstone);
	for (const entry of added) {
		if (entry.event !== 'removed' || byId.has(entry.eventId)) continue;
		byId.set(entry.eventId, {
			eventId: entry.eventId,
			seq: entry.seq,
			id_service: entry.id_service,
			values: entry.values,
			detectedAt: entry.detectedAt,
			removedAt: entry.emittedAt,
		});
	}
	const kept = [...byId.values()].filter((tombstone) => !listed.has(tombstone.id_service));
	if (kept.length <= TOMBSTONE_MAX) return kept;
	return kept.sort((a, b) => b.removedAt - a.removedAt || b.seq - a.seq).filter((_, index) => index < TOMBSTONE_MAX);
}

/** The deliveries record with this process at `seq`, at most DELIVERED_PROCESSES_MAX processes (the lowest, then the oldest, dropped first). */
function deliveredBy(delivered: Readonly<Record<string, number>>, me: string, seq: number): Record<string, number> {
	const others = Object.entries(delivered)
		.filter(([process]) => process !== me)
		.reverse()
		.sort((a, b) => b[1] - a[1]);
	return Object.fromEntries([...others.filter((_, index) => index < DELIVERED_PROCESSES_MAX - 1).reverse(), [me, seq]]);
}
