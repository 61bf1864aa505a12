import type { IDataObject } from 'n8n-workflow';

import type { ServiceRecord, SimplifiedService } from '../shared/serviceRecord';
import { simplifyServiceRecord } from '../shared/serviceRecord';

/**
 * What the trigger remembers per service between polls, as one JSON array (about 110 bytes per
 * service, see the README): the fields the events compare (status, OS, vCores, RAM, disk) plus the
 * name and alias, so a `removed` event can still say which service disappeared. Nothing else of
 * the record is kept; the order below is the storage format and must not change without a new
 * STATE_VERSION.
 */
export type CompactService = [
	status: string | null,
	osId: string | null,
	osName: string | null,
	vcores: number | null,
	ramGb: number | null,
	hdGb: number | null,
	name: string | null,
	alias: string | null,
];

/** Every service of the last successful poll, by id_service, in the order the API listed them. */
export type ServiceSnapshot = Map<string, CompactService>;

export const STATE_VERSION = 1;

/**
 * The node's static data: `{ stateVersion: 1, credentialId, services: { [id_service]: CompactService } }`.
 * `credentialId` is the id of the credential the snapshot was taken with (not a secret): pointing the
 * trigger at another credential, hence maybe another account, starts a new baseline instead of
 * reporting every service of both accounts as removed and created.
 */
export interface StoredTriggerState extends IDataObject {
	stateVersion: number;
	credentialId: string | null;
	services: IDataObject;
}

export function compactService(service: SimplifiedService): CompactService {
	return [
		service.status,
		service.os_id,
		service.os_name,
		service.vcores,
		service.ram_gb,
		service.hd_gb,
		service.name,
		service.alias,
	];
}

export function compactRecord(record: ServiceRecord): CompactService {
	return compactService(simplifyServiceRecord(record));
}

/** The last known simplified view of a service, from what the state kept. */
export function expandService(id: string, compact: CompactService): SimplifiedService {
	const [status, osId, osName, vcores, ramGb, hdGb, name, alias] = compact;
	return {
		id_service: id,
		name,
		alias,
		status,
		os_id: osId,
		os_name: osName,
		vcores,
		ram_gb: ramGb,
		hd_gb: hdGb,
	};
}

/**
 * A record in the API's documented shape rebuilt from a simplified view: used for the last known
 * service of a `removed` event when Simplify is off, and to apply the shared filters to it.
 * Fields the API sent beyond the documented ones are not kept, so they are not in it.
 */
export function rebuildServiceRecord(service: SimplifiedService): ServiceRecord {
	return {
		id_service: service.id_service,
		values: {
			values: {
				name: service.name,
				alias: service.alias,
				status: service.status,
				service: {
					customize: {
						OS: { id: service.os_id, name: service.os_name },
						specifications: { vcores: service.vcores, GB: { ram: service.ram_gb, hd: service.hd_gb } },
					},
				},
			},
		},
	} as ServiceRecord;
}

/**
 * Reads the snapshot from the node's static data. Returns undefined when there is none (first poll),
 * when it was taken with another credential, or when it is not in the format this version writes:
 * the trigger then takes a new baseline rather than guess, which can never invent events.
 */
export function readSnapshot(staticData: IDataObject, credentialId: string | null): ServiceSnapshot | undefined {
	if (staticData.stateVersion !== STATE_VERSION) return undefined;
	if ((staticData.credentialId ?? null) !== credentialId) return undefined;
	const services = staticData.services;
	if (typeof services !== 'object' || services === null || Array.isArray(services)) return undefined;
	const snapshot: ServiceSnapshot = new Map();
	for (const [id, value] of Object.entries(services)) {
		const compact = toCompactService(value);
		if (compact === undefined) return undefined;
		snapshot.set(id, compact);
	}
	return snapshot;
}

/** Replaces the stored snapshot in place (n8n tracks changes on the object it handed out). */
export function writeSnapshot(staticData: IDataObject, snapshot: ServiceSnapshot, credentialId: string | null): void {
	staticData.stateVersion = STATE_VERSION;
	staticData.credentialId = credentialId;
	// fromEntries defines own properties, so even an id such as "__proto__" is stored as data.
	staticData.services = Object.fromEntries(snapshot) as IDataObject;
}

/** Same services with the same stored fields; the order does not matter. */
export function snapshotsEqual(a: ServiceSnapshot, b: ServiceSnapshot): boolean {
	if (a.size !== b.size) return false;
	for (const [id, compact] of a) {
		const other = b.get(id);
		if (other === undefined || !compact.every((value, index) => value === other[index])) return false;
	}
	return true;
}

const STRING_SLOTS = [0, 1, 2, 6, 7];
const NUMBER_SLOTS = [3, 4, 5];

function toCompactService(value: unknown): CompactService | undefined {
	if (!Array.isArray(value) || value.length !== 8) return undefined;
	const copy = Array.from(value as unknown[]);
	const ok =
		STRING_SLOTS.every((index) => copy[index] === null || typeof copy[index] === 'string') &&
		NUMBER_SLOTS.every((index) => copy[index] === null || typeof copy[index] === 'number');
	return ok ? (copy as CompactService) : undefined;
}
