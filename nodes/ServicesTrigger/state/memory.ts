/**
 * What one n8n process remembers about each Services Trigger between its polls, beside the static
 * data n8n stores: which process this is, the polls it began and the last one it applied (polls
 * overlap: n8n starts each at its time), the state it wrote last, its clock, and a mass removal it
 * holds for confirmation. n8n saves static data only after a poll that emits, durable poll cursors
 * hand each poll a copy taken when it began and do not commit the poll at activation
 * (docs/trigger.md): this memory covers those gaps for as long as the process lives.
 */
import { createHash, randomBytes } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { TriggerState } from './delivery';

/**
 * This process, told apart from the one before a restart and from other mains: the state records
 * which processes delivered its events, and a poll by any other process delivers the undelivered
 * ones again (an execution of the process that emitted them may have died with it).
 */
export const PROCESS_ID = randomBytes(6).toString('hex');

/** The services a held mass removal lacked: how many, and a hash of their sorted ids. */
export interface MassRemovalMark extends IDataObject {
	count: number;
	hash: string;
}

export interface TriggerMemory {
	/** The state this process wrote last (a poll handed an older copy of it starts from it). */
	latest?: TriggerState;
	/** Whether `latest` was written from a static data that held no state, and none was found since (a poll that finds none starts from it). */
	fromEmpty?: boolean;
	/** The mass removal this process holds for confirmation. */
	hold?: MassRemovalMark;
	/** Whether a poll of this trigger completed in this process (a failed or held poll does not count): Resync at start runs until one has. */
	started: boolean;
	/** Polls begun; a poll that began before `applied` (the count when the last poll was applied) reports nothing. */
	begun: number;
	applied: number;
	/** The trigger's clock as last read, and the monotonic clock then. */
	clock?: { at: number; mono: number };
}

/** The most triggers remembered; the least recently polled is forgotten first (it only loses the gaps above). */
const MEMORY_MAX = 1000;
const memories = new Map<string, TriggerMemory>();
/** By workflow: the highest sequence number a trigger of it gave in this process (a renamed node starts above it). */
const seqFloors = new Map<string, number>();

/** The trigger as the memory knows it: workflow, node (its id, and its name: the static data key) and credential. */
export interface TriggerKey {
	workflowId: string | undefined;
	node: { id?: string; name: string };
	credentialId: string | null;
}

/** A poll as this process numbers them, from its start (before its listing). */
export interface PollTicket {
	memory: TriggerMemory;
	number: number;
}

/**
 * Whether a poll that began after this one was applied meanwhile: this one's listing is the older
 * (or its pages were read at times mixed with a newer listing's), so it reports nothing.
 */
export function superseded({ memory, number }: PollTicket): boolean {
	return number <= memory.applied;
}

/** Numbers a poll of the trigger as it begins, before its listing. */
export function beginPoll({ workflowId, node, credentialId }: TriggerKey): PollTicket {
	const key = JSON.stringify([workflowId ?? null, node.id ?? null, node.name, credentialId]);
	let memory = memories.get(key);
	if (memory !== undefined) memories.delete(key);
	else memory = { started: false, begun: 0, applied: 0 };
	memories.set(key, memory);
	if (memories.size > MEMORY_MAX) memories.delete(memories.keys().next().value as string);
	return { memory, number: ++memory.begun };
}

/** The static data objects of activations whose poll completed (emitted or found nothing): their later polls are not the first. */
const startedActivations = new WeakSet<object>();

const MARK_KEY = 'massRemovalUnconfirmed';

/** What a poll found stored, as the memory weighs it. */
export interface Found {
	/** The state the static data holds (read under the id rule), if readable and of this credential. */
	stored?: TriggerState;
	/** The static data held no state at all. */
	empty: boolean;
	/** The activation copy, read when the static data held no state. */
	copy?: TriggerState;
	staticData: IDataObject | null;
	activationMode: string;
	workflowId: string | undefined;
	/** This process. */
	me: string;
	/** "Fetch test event": the stored state as it is. */
	manual: boolean;
}

/** What a poll starts from, as this process sees it. */
interface Recalled {
	/**
	 * The stored state, unless this process wrote a later one the static data does not hold yet (a
	 * copy taken before that write, or none: durable cursors hand each poll a copy and do not commit
	 * the poll at activation); then the later one, with what the stored one records as delivered
	 * (the rest is delivered again, marked). With no state, the activation copy.
	 */
	state?: TriggerState;
	/** The state is this process's later one (the stored services are not it). */
	behind: boolean;
	/** The static data holds the state this process wrote last. */
	settled: boolean;
	/**
	 * The first poll of this process, or the first of an activation to complete: n8n reports
	 * "activate" for the poll at activation and every later poll of the same activation (they share
	 * one context and one static data object), and a fresh static data object for each activation. A
	 * poll that failed or held a mass removal does not count (only `remember` marks a poll completed).
	 */
	starting: boolean;
	/** The mass removal held for confirmation: in memory, or in the static data (a runtime that reloads static data before each poll has it when the poll that held was saved). */
	held?: IDataObject;
	/** The highest sequence number a trigger of this workflow gave in this process. */
	seqFloor: number;
	/** The trigger's clock (readClock). */
	now: number;
}

/** What the poll of `ticket` starts from, once it has listed and read the stored state. */
export function recall({ memory }: PollTicket, found: Found): Recalled {
	const { stored, staticData } = found;
	const latest = found.manual ? undefined : memory.latest;
	const behind =
		latest !== undefined &&
		(found.empty
			? memory.fromEmpty === true
			: stored?.delivery.writer === found.me && (stored.delivery.writtenAt ?? -1) < (latest.delivery.writtenAt ?? -1));
	const settled =
		!behind && latest?.delivery.writer === stored?.delivery.writer && latest?.delivery.writtenAt === stored?.delivery.writtenAt;
	const state = behind
		? { snapshot: latest.snapshot, delivery: { ...latest.delivery, delivered: stored?.delivery.delivered ?? {} } }
		: (stored ?? found.copy);
	const mark = staticData?.[MARK_KEY];
	return {
		state,
		behind,
		settled,
		starting: !memory.started || (found.activationMode === 'activate' && !startedActivations.has(staticData as object)),
		held: found.manual ? undefined : (memory.hold ?? (typeof mark === 'object' && mark !== null ? (mark as IDataObject) : undefined)),
		seqFloor: seqFloors.get(found.workflowId ?? '') ?? 0,
		now: readClock(memory, state?.delivery.writtenAt),
	};
}

/**
 * The trigger's clock (ms): the system clock when this process first reads it, then moved on by the
 * monotonic clock, so a step of the system clock (NTP, a restored VM) neither ages nor rejuvenates
 * what is kept by time (the outbox, the removals, the resync period); and always past the state's
 * last write, so the order of writes and emissions is the order of their times.
 */
function readClock(memory: TriggerMemory, lastWrite: number | undefined): number {
	const mono = performance.now();
	const clock = memory.clock ?? { at: Date.now(), mono };
	let at = clock.at + Math.max(0, Math.round(mono - clock.mono));
	if (lastWrite !== undefined && at <= lastWrite) {
		at = lastWrite + 1;
		memory.clock = { at, mono };
	} else memory.clock ??= clock;
	return at;
}

/**
 * The mass removal a poll holds back for confirmation (it emits nothing, keeps the stored list), or
 * undefined: a listing that lacks every remembered service, or more than half of them (`missing`),
 * waits for a poll lacking the very same services (then it is confirmed, and reported); a poll
 * lacking another set holds again with that set.
 */
export function holdBack(held: IDataObject | undefined, remembered: number, missing: readonly string[]): MassRemovalMark | undefined {
	if (missing.length === 0 || missing.length * 2 <= remembered) return undefined;
	const hash = createHash('shake256', { outputLength: 16 });
	for (const id of [...missing].sort()) hash.update(`${id.length}:${id}`);
	const mark = { count: missing.length, hash: hash.digest('hex') };
	return held === undefined || held.count !== mark.count || held.hash !== mark.hash ? mark : undefined;
}

/**
 * What this process remembers after a poll it applied (polls that began before it report nothing
 * now): the mass removal it holds (also in the static data), or none; unless it held one, the state
 * it wrote, the highest sequence number of the workflow, and that a poll completed.
 */
export function remember(
	memory: TriggerMemory,
	staticData: IDataObject,
	{
		hold,
		written,
		settled,
		empty,
		workflowId,
	}: { hold?: MassRemovalMark; written?: TriggerState; settled: boolean; empty: boolean; workflowId: string | undefined },
): void {
	memory.applied = Math.max(memory.applied, memory.begun);
	memory.fromEmpty = written !== undefined ? empty : empty && memory.fromEmpty === true;
	memory.hold = hold;
	if (hold !== undefined) {
		staticData[MARK_KEY] = { ...hold };
		return;
	}
	if (MARK_KEY in staticData) delete staticData[MARK_KEY];
	// Kept only while the static data may not hold it yet (a durable cursor commits after the poll).
	if (written === undefined && settled) memory.latest = undefined;
	if (written !== undefined) {
		memory.latest = written;
		const floor = seqFloors.get(workflowId ?? '') ?? 0;
		if (written.delivery.seq > floor) seqFloors.set(workflowId ?? '', written.delivery.seq);
		if (seqFloors.size > MEMORY_MAX) seqFloors.delete(seqFloors.keys().next().value as string);
	}
	memory.started = true;
	startedActivations.add(staticData);
}
