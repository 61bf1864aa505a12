import type { IDataObject } from 'n8n-workflow';

import type { ServiceFieldValue, SimplifiedService } from '../shared/serviceFields';
import { SERVICE_FIELDS } from '../shared/serviceFields';

/**
 * What the trigger remembers per service between polls: the value of every declared field
 * (SERVICE_FIELDS, in that order), so changes can be told and a `removed` event can still say which
 * service disappeared. Nothing else of the record is kept. `undefined` means not known: the state
 * was written before that field was declared. An unknown value is never reported as a change.
 */
export type StoredValues = ReadonlyArray<ServiceFieldValue | undefined>;

/** Every service of the last successful poll, by id_service, in the order the API listed them. */
export type ServiceSnapshot = Map<string, StoredValues>;

export const STATE_VERSION = 2;

/** The field order of the 8-slot tuples of state version 1 (package 0.1.0). Frozen: old state is read with it. */
const VERSION_1_FIELDS = ['status', 'os_id', 'os_name', 'vcores', 'ram_gb', 'hd_gb', 'name', 'alias'];

/**
 * The node's static data: `{ stateVersion: 2, credentialId, fields: [key, ...], services: { [id_service]: [value, ...] } }`,
 * each service's values in the order of `fields` (about 110 bytes per service, see the README).
 * Storing the field names once lets a later version of the node that declares more fields read this
 * state as it is: the new fields are just unknown until the next poll records them.
 * `credentialId` is the id of the credential the snapshot was taken with (not a secret): pointing the
 * trigger at another credential, hence maybe another account, starts a new baseline instead of
 * reporting every service of both accounts as removed and created.
 */
export interface StoredTriggerState extends IDataObject {
	stateVersion: number;
	credentialId: string | null;
	fields: string[];
	services: IDataObject;
}

const FIELD_KEYS: string[] = SERVICE_FIELDS.map((field) => field.key);

export function storedValuesOf(service: SimplifiedService): StoredValues {
	return FIELD_KEYS.map((key) => service[key]);
}

/** The last known simplified view of a service; a value the state does not know is null. */
export function simplifiedFromStored(id: string, values: StoredValues): SimplifiedService {
	const service: Record<string, ServiceFieldValue> = { id_service: id };
	FIELD_KEYS.forEach((key, index) => (service[key] = values[index] ?? null));
	return service as SimplifiedService;
}

/**
 * Reads the snapshot from the node's static data. Returns undefined when there is none (first poll),
 * when it was taken with another credential, or when it is not in the format this version writes:
 * the trigger then takes a new baseline rather than guess, which can never invent events.
 */
export function readSnapshot(staticData: IDataObject, credentialId: string | null): ServiceSnapshot | undefined {
	const storedFields =
		staticData.stateVersion === 1 ? VERSION_1_FIELDS : staticData.stateVersion === STATE_VERSION ? staticData.fields : undefined;
	if (!isFieldList(storedFields)) return undefined;
	if ((staticData.credentialId ?? null) !== credentialId) return undefined;
	const services = staticData.services;
	if (typeof services !== 'object' || services === null || Array.isArray(services)) return undefined;
	// For each declared field, where its value sits in a stored entry (-1: not stored, unknown).
	const positions = SERVICE_FIELDS.map((field) => storedFields.indexOf(field.key));
	const snapshot: ServiceSnapshot = new Map();
	for (const [id, stored] of Object.entries(services)) {
		if (!Array.isArray(stored) || stored.length !== storedFields.length) return undefined;
		const values = positions.map((position) => (position < 0 ? undefined : (stored as unknown[])[position]));
		const typesMatch = SERVICE_FIELDS.every(
			(field, index) =>
				values[index] === undefined ||
				values[index] === null ||
				typeof values[index] === (field.type === 'integer' ? 'number' : 'string'),
		);
		if (!typesMatch) return undefined;
		snapshot.set(id, values as StoredValues);
	}
	return snapshot;
}

/** Replaces the stored snapshot in place (n8n tracks changes on the object it handed out). */
export function writeSnapshot(staticData: IDataObject, snapshot: ServiceSnapshot, credentialId: string | null): void {
	staticData.stateVersion = STATE_VERSION;
	staticData.credentialId = credentialId;
	staticData.fields = FIELD_KEYS;
	// fromEntries defines own properties, so even an id such as "__proto__" is stored as data.
	staticData.services = Object.fromEntries(snapshot) as IDataObject;
}

/** Same services with the same stored values (an unknown value differs from a known one); the order does not matter. */
export function snapshotsEqual(a: ServiceSnapshot, b: ServiceSnapshot): boolean {
	if (a.size !== b.size) return false;
	for (const [id, values] of a) {
		const other = b.get(id);
		if (other === undefined || !values.every((value, index) => value === other[index])) return false;
	}
	return true;
}

function isFieldList(value: unknown): value is string[] {
	return Array.isArray(value) && value.every((key) => typeof key === 'string') && new Set(value).size === value.length;
}

/**
 * Mass removals seen once and waiting for the next poll to confirm them, by workflow and node. n8n
 * saves a poll trigger's static data only after a poll that emits, so the mark kept there by a poll
 * that holds its events back may never be saved: this process-wide set keeps it between polls of one
 * n8n process; the static data copy covers a runtime that reloads static data before each poll.
 */
const unconfirmedMassRemovals = new Set<string>();
const UNCONFIRMED_KEY = 'massRemovalUnconfirmed';

/**
 * Whether this poll must hold back its events and keep the stored snapshot: true the first time a
 * mass removal is `suspected`; the next poll that suspects it again confirms it (false: report it).
 * Any poll that does not suspect one clears the mark. After a restart between the two polls the
 * mark may be gone: the removal is then confirmed one poll later, never lost, never reported twice
 * (the snapshot only moves on when the events are emitted).
 */
export function holdForConfirmation(staticData: IDataObject, key: string, suspected: boolean): boolean {
	if (suspected && !unconfirmedMassRemovals.has(key) && staticData[UNCONFIRMED_KEY] !== true) {
		unconfirmedMassRemovals.add(key);
		staticData[UNCONFIRMED_KEY] = true;
		return true;
	}
	unconfirmedMassRemovals.delete(key);
	if (UNCONFIRMED_KEY in staticData) delete staticData[UNCONFIRMED_KEY];
	return false;
}
