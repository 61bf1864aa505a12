/**
 * One scheduled poll of the Services Trigger after the listing was read: compare, hold a mass
 * removal, plan the delivery (outbox, resync) and write the state. Free of n8n runtime calls but the
 * static data object it is given, so every case is tested through n8n-core's poll executor and
 * alone. The order of the steps is what makes a crash at any point lose nothing (docs/trigger.md).
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { ServiceFilters } from '../shared/parameters/filters';
import { matchesServiceFilters } from '../shared/parameters/filters';
import { serviceIdKey } from '../shared/record/serviceId';
import type { ServiceRecord } from '../shared/record/serviceRecord';
import { simplifyServiceRecord } from '../shared/record/serviceRecord';
import type { ServiceEventName } from './diff';
import { diffServices, isMassRemoval, missingIds } from './diff';
import type { DeliveryRecord, TriggerState } from './state/delivery';
import { dropActivationCopy, emptyDelivery, readActivationCopy, writeActivationCopy, writeDelivery } from './state/delivery';
import { formatEvent } from './events';
import type { TriggerMemory } from './state/memory';
import { holdForConfirmation, isFirstPollOfActivation, markPollCompleted, massRemovalMark, PROCESS_ID } from './state/memory';
import type { DeliveryPlan } from './state/outbox';
import { planDelivery } from './state/outbox';
import type { ResyncOptions } from './resync';
import { resyncDue, tombstoneWindow } from './resync';
import type { ReadState } from './state/snapshot';
import { holdsState, writeSnapshot } from './state/snapshot';

/** The stored state as the node read it: undefined for a new baseline (with the old `seq` when it could still be read). */
export interface StoredRead {
	state?: TriggerState;
	read?: ReadState;
	/** A damaged or other-credential state's sequence number: a new baseline continues above it. */
	seq?: number;
}

export interface PollInput {
	staticData: IDataObject;
	/** The workflow's global static data: a copy of the state taken from an empty static data is kept there (activationCopy). */
	globalData: IDataObject;
	/** The node's name: the key of its copy in the global static data. */
	nodeName: string;
	memory: TriggerMemory;
	stored: StoredRead;
	records: readonly ServiceRecord[];
	events: readonly ServiceEventName[];
	filters: ServiceFilters;
	simplify: boolean;
	confirmMassRemoval: boolean;
	resync: ResyncOptions;
	/** The trigger's identity in event ids (triggerIdentity). */
	trigger: string;
	credentialId: string | null;
	activationMode: string;
	now: number;
	/** This process (state/memory.ts PROCESS_ID; a test may pose as another). */
	me?: string;
}

/** The trigger's identity in event ids: the workflow and the node name (its static data key). */
export function triggerIdentity(workflowId: string | undefined, nodeName: string): string {
	return JSON.stringify([workflowId ?? null, nodeName]);
}

/** Runs the poll on the listing `records`; returns the items to emit, or null. */
export function runPoll(input: PollInput): INodeExecutionData[][] | null {
	const { staticData, memory, stored, records, now } = input;
	const me = input.me ?? PROCESS_ID;
	// Only an empty static data falls back on what this process computed (durable cursors do not
	// commit the poll at activation); a stored state, even an old one, always wins.
	const empty = !holdsState(staticData);
	if (!empty) {
		memory.base = undefined;
		dropActivationCopy(input.globalData, input.nodeName);
	}
	const start =
		stored.state ?? (empty ? (memory.base ?? readActivationCopy(input.globalData, input.nodeName, input.credentialId)) : undefined);
	const starting = !memory.started || isFirstPollOfActivation(input.activationMode, staticData);
	const options = { events: input.events, filters: input.filters, dropped: stored.read?.dropped };
	const tombstoneWindowMs = tombstoneWindow(input.resync, input.events.includes('removed'));

	if (start === undefined) {
		// A new baseline: nothing to compare with; a resync at start seeds a mirror.
		holdForConfirmation(staticData, memory, undefined);
		const { snapshot } = diffServices(undefined, records, options);
		const from: DeliveryRecord = {
			...emptyDelivery(Math.max(stored.seq ?? 0, now), false),
			resyncAt: input.resync.enabled ? now : undefined,
		};
		const due = input.resync.onStart;
		const plan = planDelivery({
			trigger: input.trigger,
			me,
			now,
			from,
			detected: [],
			resync: due ? watched(records, input.filters) : undefined,
			listed: snapshot,
			tombstoneWindowMs,
		});
		write(input, snapshot, plan, true);
		memory.base = undefined;
		if (empty && plan.items.length === 0) keepBase(input, { snapshot, delivery: plan.record });
		return emit(input, plan);
	}

	const result = diffServices(start.snapshot, records, options);
	// A mass removal waits for a poll lacking the very same services: nothing emitted, the stored list kept.
	const suspected = input.confirmMassRemoval && isMassRemoval(start.snapshot.size, result.removedCount);
	const mark = suspected ? massRemovalMark(missingIds(start.snapshot, result.snapshot)) : undefined;
	if (holdForConfirmation(staticData, memory, mark)) return null;

	const due = resyncDue(input.resync, { start: starting, now, resyncAt: start.delivery.resyncAt });
	const plan = planDelivery({
		trigger: input.trigger,
		me,
		now,
		from: start.delivery,
		detected: result.events,
		resync: due ? watched(records, input.filters) : undefined,
		listed: result.snapshot,
		recent: memory.outbox,
		tombstoneWindowMs,
	});
	// Written when anything changed, and always from an empty static data (so a durable cursor commits it).
	if (plan.items.length > 0 || result.changed || empty) {
		write(input, result.snapshot, plan, result.changed || empty || stored.read?.current !== true);
		// The base moves on only when nothing was emitted: emitted events whose state was not committed are found again.
		if (empty && plan.items.length === 0) keepBase(input, { snapshot: result.snapshot, delivery: plan.record });
	}
	return emit(input, plan);
}

/**
 * Keeps the state of a poll that found the static data empty, for the next poll while it stays
 * empty: in this process's memory, and in the global static data, which n8n saves at activation
 * even when durable cursors do not commit the poll at activation (a restart before the first
 * scheduled poll then loses nothing either).
 */
function keepBase(input: PollInput, state: TriggerState): void {
	input.memory.base = state;
	writeActivationCopy(input.globalData, input.nodeName, state, input.credentialId);
}

function write(input: PollInput, snapshot: TriggerState['snapshot'], plan: DeliveryPlan, services: boolean): void {
	if (services) writeSnapshot(input.staticData, snapshot, input.credentialId);
	writeDelivery(input.staticData, plan.record);
	input.memory.outbox = plan.record.outbox;
}

function emit(input: PollInput, plan: DeliveryPlan): INodeExecutionData[][] | null {
	markPollCompleted(input.memory, input.staticData);
	if (plan.items.length === 0) return null;
	return [plan.items.map(({ event, delivery }) => ({ json: formatEvent(event, delivery, input.simplify) }))];
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
