/**
 * What one n8n process remembers about each Services Trigger between its polls, beside the static
 * data n8n stores: which process this is, the state it last wrote from an empty static data, the
 * events it last emitted, and a mass removal it holds for confirmation. n8n saves static data only
 * after a poll that emits, and with durable poll cursors the poll at activation is not committed
 * at all (docs/trigger.md): this memory covers those gaps for as long as the process lives. It never
 * overrides a stored state.
 */
import { createHash, randomBytes } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { OutboxEntry, TriggerState } from './delivery';

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
	/**
	 * The state this process last wrote after a poll that found the static data empty and emitted
	 * nothing: the base for the next poll while the static data stays empty (durable cursors do not
	 * commit the poll at activation). Dropped as soon as a poll finds a stored state.
	 */
	base?: TriggerState;
	/** The outbox this process last wrote: an event detected again after a lost save is marked redelivered. */
	outbox?: readonly OutboxEntry[];
	/** The mass removal this process holds for confirmation. */
	hold?: MassRemovalMark;
	/** Whether a poll of this trigger completed in this process (markPollCompleted; a failed or held poll does not count): Resync at start runs until one has. */
	started: boolean;
}

/** The most triggers remembered; the least recently polled is forgotten first (it only loses the gaps above). */
const MEMORY_MAX = 1000;
const memories = new Map<string, TriggerMemory>();

/** The trigger as the memory knows it: workflow, node (its id, and its name: the static data key) and credential. */
export function triggerKey(workflowId: string | undefined, node: { id?: string; name: string }, credentialId: string | null): string {
	return JSON.stringify([workflowId ?? null, node.id ?? null, node.name, credentialId]);
}

/** The memory of one trigger, created empty on first use. */
export function memoryOf(key: string): TriggerMemory {
	let memory = memories.get(key);
	if (memory !== undefined) memories.delete(key);
	else memory = { started: false };
	memories.set(key, memory);
	if (memories.size > MEMORY_MAX) memories.delete(memories.keys().next().value as string);
	return memory;
}

/** The static data objects of activations whose poll completed (emitted or found nothing): their later polls are not the first. */
const startedActivations = new WeakSet<object>();

/**
 * Whether this poll is the first of an activation to complete: n8n reports "activate" for the poll
 * at activation and every later poll of the same activation (they share one context and one static
 * data object), and a fresh static data object for each activation. A poll that failed or held a
 * mass removal does not count (markPollCompleted is called when a poll completes).
 */
export function isFirstPollOfActivation(activationMode: string, staticData: object): boolean {
	return activationMode === 'activate' && !startedActivations.has(staticData);
}

/** Records that a poll of this trigger completed in this process, in the activation of `staticData`. */
export function markPollCompleted(memory: TriggerMemory, staticData: object): void {
	memory.started = true;
	startedActivations.add(staticData);
}

const MARK_KEY = 'massRemovalUnconfirmed';

/** The fingerprint of the services a listing lacks, whatever order they were stored in. */
export function massRemovalMark(missing: readonly string[]): MassRemovalMark {
	const hash = createHash('shake256', { outputLength: 16 });
	for (const id of [...missing].sort()) hash.update(`${id.length}:${id}`);
	return { count: missing.length, hash: hash.digest('hex') };
}

/**
 * Whether this poll holds a suspected mass removal back (emits nothing, keeps the stored list):
 * true unless the mass removal `now` lacks the very services a held one lacked (then it is
 * confirmed, and reported). A poll lacking another set holds again with that set; a poll that
 * suspects none clears the mark. The mark is kept in memory and in the static data (a runtime that
 * reloads static data before each poll has it when the poll that held was saved).
 */
export function holdForConfirmation(staticData: IDataObject, memory: TriggerMemory, now: MassRemovalMark | undefined): boolean {
	const stored = staticData[MARK_KEY] as IDataObject | undefined;
	const held = memory.hold ?? (typeof stored === 'object' && stored !== null ? stored : undefined);
	if (now !== undefined && (held === undefined || held.count !== now.count || held.hash !== now.hash)) {
		memory.hold = now;
		staticData[MARK_KEY] = { ...now };
		return true;
	}
	memory.hold = undefined;
	if (MARK_KEY in staticData) delete staticData[MARK_KEY];
	return false;
}
