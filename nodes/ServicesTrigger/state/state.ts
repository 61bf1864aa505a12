/**
 * The trigger's state, the one way in. A poll is numbered as it begins (`beginPoll`, before its
 * listing); after the listing it reads the state (`readState`: every stored version under the id
 * rule, the damage it drops, the newer state this process wrote, the activation copy, the clock and
 * the sequence floor), plans what it emits and writes (`planPoll`: a held mass removal, Resync, the
 * delivery) and writes the next state (`writeState`), each once, whatever the poll finds. The
 * files beside this one are the room's parts: snapshot.ts (the remembered services), delivery.ts
 * (the delivery record), outbox.ts (at-least-once delivery), global.ts (what the workflow's global
 * static data keeps), memory.ts (what one process remembers).
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
import { emptyDelivery, readDelivery, writeDelivery } from './delivery';
import { readGlobal, writeGlobal } from './global';
import type { MassRemovalMark, PollTicket, TriggerKey, TriggerMemory } from './memory';
import { beginPoll as numberPoll, holdBack, PROCESS_ID, recall, remember, superseded } from './memory';
import type { Delivery, ItemEvent, PlannedItem } from './outbox';
import { eventIdOf, lastSeq, planDelivery } from './outbox';
import type { StateText } from './snapshot';
import { holdsState, readSnapshot, storedValuesOf, TriggerStateError, writeSnapshot } from './snapshot';

export type { StateText };
/** Numbers a poll as it begins, before its listing (polls overlap: n8n starts each at its time). */
export const beginPoll = numberPoll;

/** Where the trigger's state lives for one poll, as n8n hands it out, and the poll as numbered when it began. */
export interface StateAccess extends TriggerKey {
	/** The node's static data (n8n tracks changes on this very object; with durable cursors a copy taken when the poll began). */
	staticData: IDataObject;
	/** The workflow's global static data: the activation copy and the sequence floor. */
	globalData: IDataObject;
	ticket: PollTicket;
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
interface PollStart {
	access: StateAccess;
	me: string;
	memory: TriggerMemory;
	/** The trigger's identity in event ids: the workflow and the node name (its static data key). */
	trigger: string;
	/** What the poll compares with; undefined for a new baseline. */
	state?: TriggerState;
	/** The ids whose stored entries were dropped as damaged: no event about them at this poll. */
	dropped?: ReadonlySet<string>;
	/** Whether the services are written even unchanged (stored otherwise than this version writes them, or an older copy). */
	rewrite: boolean;
	/** The static data holds the state this process wrote last. */
	settled: boolean;
	/** The static data held no state (durable cursors do not commit the poll at activation); never in manual mode. */
	empty: boolean;
	/** The first poll of this process or of this activation (Resync At Start). */
	starting: boolean;
	/** The mass removal held for confirmation. */
	held?: IDataObject;
	/** The trigger's clock (memory.ts readClock), and the system clock (when a change is detected, as items show it). */
	now: number;
	wall: number;
	/** New sequence numbers go above it (a new baseline or a state older than version 3: every earlier number of the workflow's triggers, a replaced state's, the time). */
	floor: number;
}

/**
 * Reads the state a poll starts from (memory.ts recall says which), or undefined when a poll that
 * began after this one was applied meanwhile (this one's listing is the older: it reports nothing,
 * writes nothing). Damaged entries are dropped (a warning naming them); a state damaged as a whole
 * is a new baseline (a warning); a state from a newer version, or static data that is not an
 * object, fails the poll. "Fetch test event" reads the stored state only and logs nothing
 * (docs/trigger.md).
 */
export function readState(access: StateAccess): PollStart | undefined {
	const { staticData, globalData, workflowId, node, credentialId, ticket, manual, activationMode } = access;
	if (!manual && superseded(ticket)) return undefined;
	const me = access.me ?? PROCESS_ID;
	const stored = readStored(access);
	const kept = readGlobal(globalData, { nodeName: node.name, credentialId, copy: stored.empty });
	const found = { stored: stored.state, empty: stored.empty, copy: kept.copy, staticData, activationMode, workflowId, me, manual };
	const recalled = recall(ticket, found);
	const { state } = recalled;
	const wall = Date.now();
	return {
		access,
		me,
		memory: ticket.memory,
		trigger: JSON.stringify([workflowId ?? null, node.name]),
		state,
		dropped: recalled.behind ? undefined : stored.dropped,
		rewrite: recalled.behind || !stored.current,
		settled: recalled.settled,
		empty: stored.empty,
		starting: recalled.starting,
		held: recalled.held,
		now: recalled.now,
		wall,
		// A state of version 3 goes on from its own number; a new baseline, or an older state, above every earlier one and the time.
		floor: state !== undefined && !state.delivery.legacy ? 0 : Math.max(recalled.seqFloor, kept.seqFloor, stored.seq ?? 0, wall),
	};
}

interface Stored {
	state?: TriggerState;
	dropped?: ReadonlySet<string>;
	/** Stored as this version writes it. */
	current: boolean;
	/** A damaged or other-credential state's sequence number: a new baseline continues above it. */
	seq?: number;
	empty: boolean;
}

function readStored(access: StateAccess): Stored {
	const { staticData, manual } = access;
	const warn = (said: StateText | undefined) => {
		if (!manual && said !== undefined) access.warn(said);
	};
	const seq = typeof staticData?.seq === 'number' && Number.isSafeInteger(staticData.seq) ? staticData.seq : undefined;
	let failure: unknown;
	try {
		const read = readSnapshot(staticData, access.credentialId);
		if (read === undefined) return { seq, current: false, empty: !manual && !holdsState(staticData) };
		warn(read.damage);
		const { delivery, damage } = readDelivery(staticData, read);
		warn(damage);
		return { state: { snapshot: read.snapshot, delivery }, dropped: read.dropped, current: read.current, empty: false };
	} catch (error) {
		failure = error;
	}
	// Damaged as a whole: a new baseline; a newer version or no object at all fails the poll (the node says how to start over).
	if (!(failure instanceof TriggerStateError && (manual || failure.kind === 'damaged'))) throw failure;
	warn(failure.text);
	return { seq, current: false, empty: false };
}

/** What the poll found and how the trigger is set up, for its plan. */
interface PollFound {
	/** The listing compared with the state (diffServices). */
	listing: DiffResult;
	records: readonly ServiceRecord[];
	events: readonly ServiceEventName[];
	filters: ServiceFilters;
	confirmMassRemoval: boolean;
	resync: ResyncOptions;
}

/** What a poll emits and writes. */
interface PollPlan {
	items: PlannedItem[];
	/** A suspected mass removal held back for confirmation: nothing emitted, the stored list kept. */
	hold?: MassRemovalMark;
	/** The next state, when it is written: the services too when `services`. */
	next?: TriggerState & { services: boolean };
	/** Whether the next state is also the activation copy (taken from an empty static data, it emitted nothing). */
	copied: boolean;
}

/** Plans the poll: hold a suspected mass removal, or deliver (the outbox, this poll's changes, a resync when due). */
export function planPoll(start: PollStart, found: PollFound): PollPlan {
	const { listing, resync } = found;
	const { state, now } = start;
	const hold = state !== undefined && found.confirmMassRemoval ? holdBack(start.held, state.snapshot.size, listing.missing) : undefined;
	if (hold !== undefined) return { items: [], hold, copied: false };

	// A new baseline has no delivery record yet: its numbers continue above the floor (event ids derive from it).
	const from: DeliveryRecord = state?.delivery ?? { ...emptyDelivery(start.floor, false), resyncAt: resync.enabled ? now : undefined };
	const due = resyncDue(resync, { start: start.starting || state === undefined, now, resyncAt: from.resyncAt });
	const plan = planDelivery({
		trigger: start.trigger,
		me: start.me,
		now,
		wall: start.wall,
		floor: start.floor,
		from,
		detected: listing.events,
		resync: due ? watched(found.records, found.filters) : undefined,
		listed: listing.snapshot,
		recent: state === undefined ? undefined : start.memory.latest?.delivery.outbox,
		tombstoneWindowMs: tombstoneWindow(resync, found.events.includes('removed')),
	});
	// Written when anything changed, and always from an empty static data (so a durable cursor commits it).
	const written = plan.items.length > 0 || listing.changed || start.empty;
	return {
		items: plan.items,
		next: written
			? { snapshot: listing.snapshot, delivery: plan.record, services: listing.changed || start.empty || start.rewrite }
			: undefined,
		// The copy moves on only when nothing was emitted: after a restart, emitted events whose state was not committed are found again.
		copied: written && start.empty && plan.items.length === 0,
	};
}

/**
 * Writes the plan: the next state, the highest sequence number in the global static data, the
 * activation copy (dropped once the static data holds a state of its own), and what this process
 * remembers (the mark of a held mass removal, or none; the state written).
 */
export function writeState(start: PollStart, plan: PollPlan): void {
	const { staticData, globalData, credentialId, workflowId } = start.access;
	const { next } = plan;
	const written = next === undefined ? undefined : { snapshot: next.snapshot, delivery: next.delivery };
	if (next?.services === true) writeSnapshot(staticData, next.snapshot, credentialId);
	if (written !== undefined) writeDelivery(staticData, written.delivery);
	const copy = !start.empty ? null : plan.copied ? written : undefined;
	writeGlobal(globalData, { nodeName: start.access.node.name, credentialId, seq: written?.delivery.seq, copy });
	remember(start.memory, staticData, { hold: plan.hold, written, settled: start.settled, empty: start.empty, workflowId });
}

/** How "Fetch test event"'s event would be delivered by the next poll: its id from the stored state, the next sequence number. */
export function previewDelivery(start: PollStart, event: ItemEvent): Delivery {
	const from = start.state?.delivery ?? emptyDelivery(start.floor, false);
	const values = storedValuesOf(event.service);
	return {
		eventId: eventIdOf(start.trigger, from.seq, event.event, event.id_service, event.previous, values),
		seq: lastSeq(from, start.floor, start.memory.latest?.delivery.outbox) + 1,
		detectedAt: start.wall,
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
