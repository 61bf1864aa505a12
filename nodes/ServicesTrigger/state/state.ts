/**
 * The trigger's state, the one way in: a poll reads it (`readState`: every stored version, the
 * damage it drops, the process memory and the activation copy behind it), plans what it emits and
 * writes from it (`planPoll`: a held mass removal, Resync, the delivery) and writes the next one
 * (`writeState`), each once, whatever the poll finds. The files beside this one are the room's
 * parts: snapshot.ts (the remembered services), delivery.ts (the delivery record and the activation
 * copy), outbox.ts (at-least-once delivery), memory.ts (what one process remembers).
 */
import type { IDataObject } from 'n8n-workflow';

import type { ServiceFilters } from '../../shared/parameters/filters';
import { matchesServiceFilters } from '../../shared/parameters/filters';
import { serviceIdKey } from '../../shared/record/serviceId';
import type { ServiceRecord } from '../../shared/record/serviceRecord';
import { simplifyServiceRecord } from '../../shared/record/serviceRecord';
import type { DiffResult, ServiceEventName } from '../diff';
import type { ResyncOptions } from '../resync';
import { resyncDue, tombstoneWindow } from '../resync';
import type { DeliveryRecord, TriggerState } from './delivery';
import { dropActivationCopy, emptyDelivery, readActivationCopy, readDelivery, writeActivationCopy, writeDelivery } from './delivery';
import type { MassRemovalMark, TriggerMemory } from './memory';
import { holdBack, PROCESS_ID, recall, remember } from './memory';
import type { Delivery, ItemEvent, PlannedItem } from './outbox';
import { eventIdOf, lastSeq, planDelivery } from './outbox';
import type { ReadState, StateText } from './snapshot';
import { holdsState, readSnapshot, storedValuesOf, TriggerStateError, writeSnapshot } from './snapshot';

export type { StateText };

/** Where the trigger's state lives for one poll, as n8n hands it out. */
export interface StateAccess {
	/** The node's static data (n8n tracks changes on this very object). */
	staticData: IDataObject;
	/** The workflow's global static data: a copy of a state taken from an empty static data is kept there. */
	globalData: IDataObject;
	workflowId: string | undefined;
	/** The trigger node: its name keys its static data, its id and name its process memory. */
	node: { id?: string; name: string };
	credentialId: string | null;
	/** What n8n reports as the activation mode of this poll. */
	activationMode: string;
	/** "Fetch test event": the state is read as stored, never written, and nothing is logged. */
	manual: boolean;
	/** Says in n8n's log what was wrong with a damaged state. */
	warn: (said: StateText) => void;
	/** This process (memory.ts PROCESS_ID; a test may pose as another). */
	me?: string;
}

/** What a poll starts from. */
export interface PollStart {
	access: StateAccess;
	me: string;
	/** This process's memory of the trigger. */
	memory: TriggerMemory;
	/** The trigger's identity in event ids: the workflow and the node name (its static data key). */
	trigger: string;
	/** What the poll compares with; undefined for a new baseline. */
	state?: TriggerState;
	/** The stored state as read (its dropped entries, whether it is stored as this version writes it). */
	read?: ReadState;
	/** A damaged or other-credential state's sequence number: a new baseline continues above it. */
	seq?: number;
	/** The static data held no state (durable cursors do not commit the poll at activation); never in manual mode. */
	empty: boolean;
	/** The first poll of this process or of this activation (Resync At Start). */
	starting: boolean;
	/** The mass removal held for confirmation. */
	held?: IDataObject;
}

/**
 * Reads the state a poll starts from. The stored state wins; only an empty static data falls back on
 * what this process computed, then on the activation copy. Damaged entries are dropped, the others
 * kept (a warning naming them); a state damaged as a whole is a new baseline (a warning saying what
 * was wrong); a state from a newer version, or static data that is not an object, fails the poll.
 * "Fetch test event" reads the stored state only and logs nothing (docs/trigger.md).
 */
export function readState(access: StateAccess): PollStart {
	const { staticData, workflowId, node, credentialId } = access;
	const stored = readStored(access);
	const { memory, starting, held } = recall(access, staticData, access.activationMode);
	const fallback = stored.empty ? (memory.base ?? readActivationCopy(access.globalData, node.name, credentialId)) : undefined;
	return {
		access,
		me: access.me ?? PROCESS_ID,
		trigger: JSON.stringify([workflowId ?? null, node.name]),
		state: stored.state ?? fallback,
		read: stored.read,
		seq: stored.seq,
		empty: stored.empty,
		memory,
		starting,
		held,
	};
}

function readStored(access: StateAccess): { state?: TriggerState; read?: ReadState; seq?: number; empty: boolean } {
	const { staticData, manual } = access;
	const warn = (said: StateText | undefined) => {
		if (!manual && said !== undefined) access.warn(said);
	};
	// A new baseline continues the sequence numbers of the state it replaces, where they can be read.
	const seq = typeof staticData?.seq === 'number' && Number.isSafeInteger(staticData.seq) ? staticData.seq : undefined;
	let failure: unknown;
	try {
		const read = readSnapshot(staticData, access.credentialId);
		if (read === undefined) return { seq, empty: !manual && !holdsState(staticData) };
		warn(read.damage);
		const { delivery, damage } = readDelivery(staticData, read);
		warn(damage);
		return { state: { snapshot: read.snapshot, delivery }, read, empty: false };
	} catch (error) {
		failure = error;
	}
	// Damaged as a whole: a new baseline; a newer version or no object at all fails the poll (the node says how to start over).
	if (!(failure instanceof TriggerStateError && (manual || failure.kind === 'damaged'))) throw failure;
	warn(failure.text);
	return { seq, empty: false };
}

/** What the poll found and how the trigger is set up, for its plan. */
export interface PollFound {
	/** The listing compared with the state (diffServices). */
	listing: DiffResult;
	records: readonly ServiceRecord[];
	events: readonly ServiceEventName[];
	filters: ServiceFilters;
	confirmMassRemoval: boolean;
	resync: ResyncOptions;
	now: number;
}

/** What a poll emits and writes. */
export interface PollPlan {
	items: PlannedItem[];
	/** A suspected mass removal held back for confirmation: nothing emitted, the stored list kept. */
	hold?: MassRemovalMark;
	/** The next state, when it is written: the services too when `services`. */
	next?: TriggerState & { services: boolean };
	/** Whether the next state is also kept as the base of the next poll (it was taken from an empty static data and emitted nothing). */
	keepBase: boolean;
}

/** Plans the poll: hold a suspected mass removal, or deliver (the outbox, this poll's changes, a resync when due). */
export function planPoll(start: PollStart, found: PollFound): PollPlan {
	const { listing, resync, now } = found;
	const { state } = start;
	const hold = state !== undefined && found.confirmMassRemoval ? holdBack(start.held, state.snapshot.size, listing.missing) : undefined;
	if (hold !== undefined) return { items: [], hold, keepBase: false };

	// A new baseline has no delivery record yet: its numbers continue above the one it replaces.
	const from: DeliveryRecord = state?.delivery ?? {
		...emptyDelivery(Math.max(start.seq ?? 0, now), false),
		resyncAt: resync.enabled ? now : undefined,
	};
	const due = resyncDue(resync, { start: start.starting || state === undefined, now, resyncAt: from.resyncAt });
	const plan = planDelivery({
		trigger: start.trigger,
		me: start.me,
		now,
		from,
		detected: listing.events,
		resync: due ? watched(found.records, found.filters) : undefined,
		listed: listing.snapshot,
		recent: state === undefined ? undefined : start.memory.outbox,
		tombstoneWindowMs: tombstoneWindow(resync, found.events.includes('removed')),
	});
	// Written when anything changed, and always from an empty static data (so a durable cursor commits it).
	const written = plan.items.length > 0 || listing.changed || start.empty;
	const services = listing.changed || start.empty || start.read?.current !== true;
	return {
		items: plan.items,
		next: written ? { snapshot: listing.snapshot, delivery: plan.record, services } : undefined,
		// The base moves on only when nothing was emitted: emitted events whose state was not committed are found again.
		keepBase: written && start.empty && plan.items.length === 0,
	};
}

/**
 * Writes the plan: the mark of a held mass removal (or clears it), the next state, and what this
 * process remembers. A stored state of its own makes the process's base and the activation copy
 * obsolete; the base and the copy are kept for a poll that found the static data empty.
 */
export function writeState(start: PollStart, plan: PollPlan): void {
	const { memory } = start;
	const { staticData, globalData, credentialId } = start.access;
	const nodeName = start.access.node.name;
	const { next } = plan;
	if (next?.services === true) writeSnapshot(staticData, next.snapshot, credentialId);
	if (next !== undefined) writeDelivery(staticData, next.delivery);
	// Kept in memory, and in the global static data, which n8n saves at activation even when durable
	// cursors do not commit the poll at activation (a restart before the first scheduled poll loses nothing).
	const base = !start.empty
		? undefined
		: plan.keepBase && next !== undefined
			? { snapshot: next.snapshot, delivery: next.delivery }
			: memory.base;
	if (!start.empty) dropActivationCopy(globalData, nodeName);
	else if (base !== memory.base && base !== undefined) writeActivationCopy(globalData, nodeName, base, credentialId);
	remember(memory, staticData, { hold: plan.hold, base, outbox: next?.delivery.outbox ?? memory.outbox });
}

/** How "Fetch test event"'s event would be delivered by the next poll: its id from the stored state, the next sequence number. */
export function previewDelivery(start: PollStart, event: ItemEvent, now: number): Delivery {
	const from = start.state?.delivery ?? emptyDelivery(0, true);
	const values = storedValuesOf(event.service);
	return {
		eventId: eventIdOf(start.trigger, from.seq, event.event, event.id_service, event.previous, values),
		seq: lastSeq(from, now) + 1,
		detectedAt: now,
		redelivered: false,
	};
}

/** The listed services that match the Filters, for a resync. */
function watched(records: readonly ServiceRecord[], filters: ServiceFilters) {
	const services = [];
	for (const record of records) {
		const service = simplifyServiceRecord(record);
		if (matchesServiceFilters(service, filters)) services.push({ id_service: serviceIdKey(record.id_service), service, record });
	}
	return services;
}
