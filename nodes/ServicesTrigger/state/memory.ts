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
	/** Whether a poll of this trigger completed in this process (remember; a failed or held poll does not count): Resync at start runs until one has. */
	started: boolean;
}

/** The most triggers remembered; the least recently polled is forgotten first (it only loses the gaps above). */
const MEMORY_MAX = 1000;
const memories = new Map<string, TriggerMemory>();

/** The trigger as the memory knows it: workflow, node (its id, and its name: the static data key) and credential. */
export interface TriggerKey {
	workflowId: string | undefined;
	node: { id?: string; name: string };
	credentialId: string | null;
}

/** The memory of one trigger, created empty on first use. */
function memoryOf({ workflowId, node, credentialId }: TriggerKey): TriggerMemory {
	const key = JSON.stringify([workflowId ?? null, node.id ?? null, node.name, credentialId]);
	let memory = memories.get(key);
	if (memory !== undefined) memories.delete(key);
	else memory = { started: false };
	memories.set(key, memory);
	if (memories.size > MEMORY_MAX) memories.delete(memories.keys().next().value as string);
	return memory;
}

/** The static data objects of activations whose poll completed (emitted or found nothing): their later polls are not the first. */
const startedActivations = new WeakSet<object>();

const MARK_KEY = 'massRemovalUnconfirmed';

/** What this process remembers of a trigger when a poll of it starts. */
export interface Recalled {
	memory: TriggerMemory;
	/**
	 * The first poll of this process, or the first of an activation to complete: n8n reports
	 * "activate" for the poll at activation and every later poll of the same activation (they share
	 * one context and one static data object), and a fresh static data object for each activation. A
	 * poll that failed or held a mass removal does not count (only `remember` marks a poll completed).
	 */
	starting: boolean;
	/** The mass removal held for confirmation: in memory, or in the static data (a runtime that reloads static data before each poll has it when the poll that held was saved). */
	held?: IDataObject;
}

/** What this process remembers of a trigger at the start of a poll of it. */
export function recall(trigger: TriggerKey, staticData: IDataObject | null, activationMode: string): Recalled {
	const memory = memoryOf(trigger);
	const stored = staticData?.[MARK_KEY];
	return {
		memory,
		starting: !memory.started || (activationMode === 'activate' && !startedActivations.has(staticData as object)),
		held: memory.hold ?? (typeof stored === 'object' && stored !== null ? (stored as IDataObject) : undefined),
	};
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
 * What this process remembers after a poll: the mass removal it holds (also in the static data), or
 * none; its base; and, unless it held a mass removal, the outbox it wrote and that a poll completed.
 */
export function remember(
	memory: TriggerMemory,
	staticData: IDataObject,
	{ hold, base, outbox }: Pick<TriggerMemory, 'hold' | 'base' | 'outbox'>,
): void {
	memory.hold = hold;
	memory.base = base;
	if (hold !== undefined) {
		staticData[MARK_KEY] = { ...hold };
		return;
	}
	if (MARK_KEY in staticData) delete staticData[MARK_KEY];
	memory.outbox = outbox;
	memory.started = true;
	startedActivations.add(staticData);
}
