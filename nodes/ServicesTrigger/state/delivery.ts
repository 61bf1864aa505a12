/**
 * The delivery record of state version 3, kept beside the remembered services (snapshot.ts): the
 * sequence number, which processes delivered the events, the events emitted but not known to be
 * delivered (the outbox), and recent removals (tombstones, for Resync). Read defensively: a damaged
 * entry is dropped and named in a warning, never turned into an event; a damaged sequence number
 * resets the whole state (a new baseline), because every event id is derived from it. Times are
 * the trigger's clock (memory.ts readClock: never back, a system clock step aside) but `detectedAt`,
 * the system clock's time shown in an item.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Text } from '../../shared/text/text';
import { join, own, text, thousands } from '../../shared/text/text';
import { SERVICE_FIELDS } from '../../shared/record/serviceFields';
import { serviceIdKey } from '../../shared/record/serviceId';
import type { PreviousValues, ServiceEventName } from '../diff';
import { SERVICE_EVENT_NAMES } from '../diff';
import type { Misfit, ReadState, ServiceSnapshot, StateText, StoredValues, ValueLayout } from './snapshot';
import { damaged, describeValue, misfitText } from './snapshot';

/** An event emitted but not known to be delivered; stored as `[eventId, seq, event, id_service, previous, values, detectedAt, emittedAt]`. */
export interface OutboxEntry {
	eventId: string;
	seq: number;
	event: ServiceEventName;
	id_service: string;
	previous: PreviousValues | null;
	/** The service's values when detected (for `removed`: as last seen), in the declared field order. */
	values: StoredValues;
	/** When the change was first detected (ms); kept on every redelivery. */
	detectedAt: number;
	/** When it was last emitted (the trigger's clock): its age in the outbox is counted from here; the last emission has the highest. */
	emittedAt: number;
}

/** A removal a resync reports again; stored as `[eventId, seq, id_service, values, detectedAt, removedAt]`. */
export interface Tombstone {
	eventId: string;
	seq: number;
	id_service: string;
	values: StoredValues;
	detectedAt: number;
	/** When the removal was emitted (ms): its age is counted from here. */
	removedAt: number;
}

export interface DeliveryRecord {
	/** The last sequence number given (0 in a state older than version 3); event ids derive from it. */
	seq: number;
	/** A state of version 1 or 2: no sequence number given yet. */
	legacy: boolean;
	/** The process that wrote the state last, and when (ms). */
	writer?: string;
	writtenAt?: number;
	/** By process: the highest sequence number it delivered (it emitted every outbox event up to it). */
	delivered: Readonly<Record<string, number>>;
	outbox: readonly OutboxEntry[];
	tombstones: readonly Tombstone[];
	/** When the last resync was emitted (ms). */
	resyncAt?: number;
}

/** The state a poll starts from: the remembered services and the delivery record. */
export interface TriggerState {
	snapshot: ServiceSnapshot;
	delivery: DeliveryRecord;
}

/** The delivery record of a state without one (older versions, a new baseline before its first write). */
export function emptyDelivery(seq: number, legacy: boolean): DeliveryRecord {
	return { seq, legacy, delivered: {}, outbox: [], tombstones: [] };
}

const EVENT_ID_MAX = 64;
const NAMED = 3;
const CHANGE_FIELDS = new Map<string, string>(
	SERVICE_FIELDS.filter((field) => 'change' in field).map((field) => [field.key, field.type === 'integer' ? 'number' : 'string']),
);

/** Lists this process wrote or already read, by the list object (as snapshot.ts does for the services). */
const knownLists = new WeakMap<object, { entries: unknown[]; named: Text[]; dropped: number }>();

/**
 * Reads the delivery record of `state` (the node's static data, read as `read`). Returns what could
 * be read and, when something could not, the warning saying what the trigger dropped. Throws the
 * "damaged as a whole" error when the sequence number is unreadable.
 */
export function readDelivery(state: IDataObject, read: ReadState): { delivery: DeliveryRecord; damage?: StateText } {
	if (read.version < 3) return { delivery: emptyDelivery(0, true) };
	const seq = state.seq;
	if (!isCount(seq)) throw damaged(text`its seq is ${describeValue(seq)}`);
	const problems: Text[] = [];
	const optional = (name: string, label: Text, check: (value: unknown) => boolean): unknown => {
		const value = state[name] ?? undefined;
		if (value === undefined || check(value)) return value;
		problems.push(text`its ${label} is ${describeValue(value)}`);
		return undefined;
	};
	const writer = optional('writer', own('writer'), (value) => typeof value === 'string') as string | undefined;
	const writtenAt = optional('writtenAt', own('writtenAt'), isTime) as number | undefined;
	const resyncAt = optional('resyncAt', own('resyncAt'), isTime) as number | undefined;
	const delivered = (optional('delivered', own('delivered'), isDeliveredRecord) ?? {}) as Record<string, number>;
	const outbox = readList(
		state.outbox,
		(entry) => readOutboxEntry(entry, read.layout),
		own('undelivered events'),
		problems,
	) as OutboxEntry[];
	const tombstones = readList(
		state.tombstones,
		(entry) => readTombstone(entry, read.layout),
		own('recent removals'),
		problems,
	) as Tombstone[];
	const delivery: DeliveryRecord = { seq, legacy: false, writer, writtenAt, delivered, outbox, tombstones, resyncAt };
	if (problems.length === 0) return { delivery };
	return {
		delivery,
		damage: {
			message: text`The trigger's saved state is damaged: ${join(problems, own('; '))}; the trigger dropped what it could not read and kept the rest`,
			description: own(
				'An undelivered event it dropped is not delivered again after a restart, and a recent removal it dropped is not repeated by a resync; everything else is handled as usual (a dropped delivery record only makes the next poll deliver the undelivered events again, marked redelivered). ' +
					"Nothing needs doing, unless something other than this node changes the workflow's static data (e.g. through the API or in the database).",
			),
		},
	};
}

type EntryRead = object | { wrong: Text };

function readList(list: unknown, readEntry: (entry: unknown) => EntryRead, name: Text, problems: Text[]): unknown[] {
	if (list === undefined) return [];
	if (!Array.isArray(list)) {
		problems.push(text`its ${name} are ${describeValue(list)}, not a list`);
		return [];
	}
	let known = knownLists.get(list);
	if (known === undefined) {
		known = { entries: [], named: [], dropped: 0 };
		for (let index = 0; index < list.length; index++) {
			const entry = readEntry(list[index]);
			if (!('wrong' in entry)) known.entries.push(entry);
			else if (++known.dropped <= NAMED) known.named.push(text`#${index + 1}: ${entry.wrong}`);
		}
		knownLists.set(list, known);
	}
	if (known.dropped > 0) {
		const more = known.dropped > known.named.length ? text`; and ${thousands(known.dropped - known.named.length)} more` : own('');
		problems.push(
			text`${thousands(known.dropped)} of its ${thousands(list.length)} ${name} cannot be read (${join(known.named, own('; '))}${more})`,
		);
	}
	return known.entries;
}

function readOutboxEntry(stored: unknown, layout: ValueLayout): EntryRead {
	if (!Array.isArray(stored) || stored.length !== 8) return { wrong: text`it is ${describeValue(stored)}, not a list of 8 values` };
	const [eventId, seq, event, id, previous, values, detectedAt, emittedAt] = stored as unknown[];
	const wrong =
		commonMisfit(eventId, seq, id, detectedAt) ?? (isTime(emittedAt) ? undefined : text`its emittedAt is ${describeValue(emittedAt)}`);
	if (wrong !== undefined) return { wrong };
	if (!(SERVICE_EVENT_NAMES as readonly unknown[]).includes(event)) return { wrong: text`its event is ${describeValue(event)}` };
	if (!isPrevious(previous)) return { wrong: text`its previous is ${describeValue(previous)}` };
	const read = layout.read(values);
	if (!Array.isArray(read)) return { wrong: misfitText(layout, values, read as Misfit | undefined, own('its values'), own('its values')) };
	const entry: OutboxEntry = {
		eventId: eventId as string,
		seq: seq as number,
		event: event as ServiceEventName,
		id_service: serviceIdKey(id as string),
		previous: previous as PreviousValues | null,
		values: read,
		detectedAt: detectedAt as number,
		emittedAt: emittedAt as number,
	};
	return entry;
}

function readTombstone(stored: unknown, layout: ValueLayout): EntryRead {
	if (!Array.isArray(stored) || stored.length !== 6) return { wrong: text`it is ${describeValue(stored)}, not a list of 6 values` };
	const [eventId, seq, id, values, detectedAt, removedAt] = stored as unknown[];
	const wrong =
		commonMisfit(eventId, seq, id, detectedAt) ?? (isTime(removedAt) ? undefined : text`its removedAt is ${describeValue(removedAt)}`);
	if (wrong !== undefined) return { wrong };
	const read = layout.read(values);
	if (!Array.isArray(read)) return { wrong: misfitText(layout, values, read as Misfit | undefined, own('its values'), own('its values')) };
	const tombstone: Tombstone = {
		eventId: eventId as string,
		seq: seq as number,
		id_service: serviceIdKey(id as string),
		values: read,
		detectedAt: detectedAt as number,
		removedAt: removedAt as number,
	};
	return tombstone;
}

function commonMisfit(eventId: unknown, seq: unknown, id: unknown, detectedAt: unknown): Text | undefined {
	if (typeof eventId !== 'string' || eventId === '' || eventId.length > EVENT_ID_MAX) return text`its eventId is ${describeValue(eventId)}`;
	if (!isCount(seq)) return text`its seq is ${describeValue(seq)}`;
	if (typeof id !== 'string') return text`its id_service is ${describeValue(id)}`;
	if (!isTime(detectedAt)) return text`its detectedAt is ${describeValue(detectedAt)}`;
	return undefined;
}

function isCount(value: unknown): value is number {
	return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isTime(value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isDeliveredRecord(value: unknown): boolean {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(isCount);
}

/** `previous` as the trigger writes it: null, or the changed fields of one event with values of their type (or null). */
function isPrevious(value: unknown): boolean {
	if (value === null) return true;
	if (typeof value !== 'object' || Array.isArray(value)) return false;
	const entries = Object.entries(value as object);
	return (
		entries.length > 0 &&
		entries.every(([key, field]) => CHANGE_FIELDS.has(key) && (field === null || typeof field === CHANGE_FIELDS.get(key)))
	);
}

/** Writes the delivery record beside the services (snapshot.ts writes those), as compact lists. */
export function writeDelivery(staticData: IDataObject, delivery: DeliveryRecord): void {
	staticData.seq = delivery.seq;
	staticData.writer = delivery.writer ?? null;
	staticData.writtenAt = delivery.writtenAt ?? null;
	staticData.delivered = { ...delivery.delivered };
	staticData.outbox = writeList(delivery.outbox, (e) => [
		e.eventId,
		e.seq,
		e.event,
		e.id_service,
		e.previous,
		e.values,
		e.detectedAt,
		e.emittedAt,
	]);
	staticData.tombstones = writeList(delivery.tombstones, (e) => [e.eventId, e.seq, e.id_service, e.values, e.detectedAt, e.removedAt]);
	if (delivery.resyncAt === undefined) delete staticData.resyncAt;
	else staticData.resyncAt = delivery.resyncAt;
}

/** A list of entries as stored rows, known to this process so that reading it back costs nothing. */
function writeList<Entry>(entries: readonly Entry[], row: (entry: Entry) => unknown[]): IDataObject[] {
	const list = entries.map(row);
	knownLists.set(list, { entries: [...entries], named: [], dropped: 0 });
	return list as unknown as IDataObject[];
}
