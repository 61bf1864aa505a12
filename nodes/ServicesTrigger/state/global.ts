/**
 * What the trigger keeps in the workflow's global static data, which a renamed node keeps and n8n
 * saves at activation and with every emission: the copy of a state taken from an empty static data
 * (durable cursors do not commit the poll at activation, so the first scheduled poll, even after a
 * restart, starts from it), and the highest sequence number the workflow's triggers gave (a new
 * baseline, e.g. of a renamed node, numbers above it whatever the clock says).
 */
import type { IDataObject } from 'n8n-workflow';

import type { TriggerState } from './delivery';
import { readDelivery, writeDelivery } from './delivery';
import { readSnapshot, writeSnapshot } from './snapshot';

const SEQ_KEY = 'servicesTriggerSeq';

/** The key of a trigger's activation copy. */
function copyKey(nodeName: string): string {
	return `servicesTrigger:${nodeName}`;
}

/** Writes the copy of a state taken from an empty static data. */
export function writeActivationCopy(globalData: IDataObject, nodeName: string, state: TriggerState, credentialId: string | null): void {
	const copy: IDataObject = {};
	writeSnapshot(copy, state.snapshot, credentialId);
	writeDelivery(copy, state.delivery);
	globalData[copyKey(nodeName)] = copy;
}

/** The activation copy, or undefined when there is none, it is of another credential, or anything in it is damaged (a new baseline then). */
export function readActivationCopy(globalData: IDataObject, nodeName: string, credentialId: string | null): TriggerState | undefined {
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

/** Drops the activation copy once the static data holds a state of its own. */
export function dropActivationCopy(globalData: IDataObject, nodeName: string): void {
	if (copyKey(nodeName) in globalData) delete globalData[copyKey(nodeName)];
}

/** The highest sequence number the workflow's triggers gave, as saved (0 when none is, or it is unreadable). */
export function readSeqFloor(globalData: IDataObject): number {
	const seq = globalData[SEQ_KEY];
	return typeof seq === 'number' && Number.isSafeInteger(seq) && seq > 0 ? seq : 0;
}

/** Raises the saved highest sequence number to `seq` (written only when higher: n8n saves static data that changed). */
export function raiseSeqFloor(globalData: IDataObject, seq: number): void {
	if (seq > readSeqFloor(globalData)) globalData[SEQ_KEY] = seq;
}
