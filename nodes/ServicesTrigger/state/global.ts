/**
 * What the trigger keeps in the workflow's global static data, which a renamed node keeps and n8n
 * saves at activation and with every emission: the copy of a state taken from an empty static data
 * (durable cursors do not commit the poll at activation, so the first scheduled poll, even after a
 * restart, starts from it), and a mark at or above every sequence number the workflow's triggers
 * gave (a new baseline, e.g. after another credential, or a rename where n8n keys the state by the
 * node's name, numbers above it whatever the clock says).
 */
import type { IDataObject } from 'n8n-workflow';

import type { TriggerState } from './delivery';
import { readDelivery, writeDelivery } from './delivery';
import { readSnapshot, writeSnapshot } from './snapshot';

const SEQ_KEY = 'servicesTriggerSeq';
/**
 * How far ahead of the numbers given the saved mark is moved when one passes it: the workflow's static
 * data then changes once per million numbers, not with every poll (with durable cursors each change
 * is a save of the workflow's whole static data).
 */
const SEQ_RESERVE = 1_000_000;

/** The key of a trigger's activation copy. */
function copyKey(nodeName: string): string {
	return `servicesTrigger:${nodeName}`;
}

/** The activation copy, or undefined when there is none, it is of another credential, or anything in it is damaged (a new baseline then). */
function readActivationCopy(globalData: IDataObject, nodeName: string, credentialId: string | null): TriggerState | undefined {
	const copy = globalData[copyKey(nodeName)];
	if (typeof copy !== 'object' || copy === null) return undefined;
	try {
		const read = readSnapshot(copy, credentialId);
		if (read === undefined || read.damage !== undefined) return undefined;
		const { delivery, damage } = readDelivery(copy as IDataObject, read);
		return damage === undefined ? { snapshot: read.snapshot, delivery } : undefined;
	} catch {
		return undefined;
	}
}

/** What a poll reads of the global static data: the sequence mark (0 when none is readable), the activation copy when asked. */
export function readGlobal(
	globalData: IDataObject,
	{ nodeName, credentialId, copy }: { nodeName: string; credentialId: string | null; copy: boolean },
): { seqFloor: number; copy?: TriggerState } {
	return { seqFloor: seqFloorOf(globalData), copy: copy ? readActivationCopy(globalData, nodeName, credentialId) : undefined };
}

/**
 * Writes what a poll keeps in the global static data: the sequence mark, moved ahead when `seq`
 * passes it (saved with the emission of `seq`), and the activation copy, dropped once the static
 * data holds a state of its own (`copy` null).
 */
export function writeGlobal(
	globalData: IDataObject,
	{ nodeName, credentialId, seq, copy }: { nodeName: string; credentialId: string | null; seq?: number; copy?: TriggerState | null },
): void {
	if (seq !== undefined && seq > seqFloorOf(globalData)) globalData[SEQ_KEY] = seq + SEQ_RESERVE;
	if (copy === null) {
		// Only when there: n8n watches its static data, and a delete marks it changed, to be saved.
		if (copyKey(nodeName) in globalData) delete globalData[copyKey(nodeName)];
	} else if (copy !== undefined) {
		const written: IDataObject = {};
		writeSnapshot(written, copy.snapshot, credentialId);
		writeDelivery(written, copy.delivery);
		globalData[copyKey(nodeName)] = written;
	}
}

function seqFloorOf(globalData: IDataObject): number {
	const seq = globalData[SEQ_KEY];
	return typeof seq === 'number' && Number.isSafeInteger(seq) && seq > 0 ? seq : 0;
}
