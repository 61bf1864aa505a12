import type { IDataObject } from 'n8n-workflow';

import { DescribedError } from '../shared/text/errors';
import type { ServiceFieldValue, SimplifiedService } from '../shared/record/serviceFields';
import { SERVICE_FIELDS } from '../shared/record/serviceFields';
import type { Text } from '../shared/text/text';
import { foreign, join, own, text, thousands } from '../shared/text/text';

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
/** The JS type of each declared field's known values (null and undefined aside). */
const FIELD_TYPES: string[] = SERVICE_FIELDS.map((field) => (field.type === 'integer' ? 'number' : 'string'));

/** Whether stored field names are the declared ones in the declared order (the state of this version). */
function sameFields(fields: readonly string[]): boolean {
	if (fields.length !== FIELD_KEYS.length) return false;
	for (let index = 0; index < fields.length; index++) if (fields[index] !== FIELD_KEYS[index]) return false;
	return true;
}

/** What the trigger says about its remembered list: the node's own wording, foreign parts marked. */
export interface StateText {
	message: Text;
	description: Text;
}

/** The remembered list as read: every readable entry, and the damaged ones it dropped. */
export interface StoredSnapshot {
	snapshot: ServiceSnapshot;
	/** The ids of the entries dropped as damaged: their services get no event at this poll (diffServices). */
	dropped: ReadonlySet<string>;
	/** The warning naming the dropped entries (the first few, and the count); undefined when none was. */
	damage?: StateText;
}

const NONE_DROPPED: ReadonlySet<string> = new Set();

/**
 * What was read of each services object this process wrote or already checked, so a later poll that
 * finds the very same object in static data need not read and check it again. Only this node writes
 * the object, and never in place after: static data reloaded from the database, or changed by anyone
 * else, is another object and is checked in full. Weak: a replaced object lets its snapshot go.
 */
const knownSnapshots = new WeakMap<object, StoredSnapshot>();

export function storedValuesOf(service: SimplifiedService): StoredValues {
	const values = new Array<ServiceFieldValue>(FIELD_KEYS.length);
	for (let index = 0; index < FIELD_KEYS.length; index++) values[index] = service[FIELD_KEYS[index]];
	return values;
}

/** The last known simplified view of a service; a value the state does not know is null. */
export function simplifiedFromStored(id: string, values: StoredValues): SimplifiedService {
	const service: Record<string, ServiceFieldValue> = { id_service: id };
	FIELD_KEYS.forEach((key, index) => (service[key] = values[index] ?? null));
	return service as SimplifiedService;
}

/** The most services the trigger remembers (checkWatchable refuses a longer listing); a state holding more is damaged. */
export const MAX_STORED_SERVICES = 1_000_000;

/**
 * Why the stored state cannot be used. `damaged`: wrong types or shape of the state as a whole (a
 * damaged entry is only dropped), or more services than the trigger ever stores; the trigger then
 * takes a new baseline (docs/trigger.md). `future`: written by a newer version of the node,
 * `unwritable`: the node's static data is not an object at all; both fail the poll, leaving the
 * state as it is.
 */
export class TriggerStateError extends DescribedError {
	declare readonly text: StateText;

	constructor(readonly kind: 'damaged' | 'future' | 'unwritable', message: Text, description: Text) {
		super(message, description);
	}
}

const START_OVER = own(
	'To start over, rename the Services Trigger node (its remembered list is kept under its name) and save: the first poll then records the current services as a new baseline, and events come from the next poll on.',
);

/** Bounds of the foreign parts of a message about the state (an id, a stored value); how many dropped entries the warning names. */
const ID_MAX = 60;
const VALUE_MAX = 40;
const DROPPED_NAMED = 3;

/**
 * Reads the snapshot from the node's static data. Returns undefined when there is none (first poll)
 * or when it was taken with another credential: the trigger then takes a new baseline. Throws a
 * TriggerStateError saying what is wrong when the state is in neither format this version reads
 * (version 1 of package 0.1.0, or version 2 with any set of field names) or is damaged as a whole:
 * the trigger never guesses, which could invent events. A damaged entry (not a list of the stored
 * fields, or a value of the wrong type) is dropped and named in `damage`; the others are kept.
 */
export function readSnapshot(staticData: unknown, credentialId: string | null): StoredSnapshot | undefined {
	if (typeof staticData !== 'object' || staticData === null || Array.isArray(staticData)) {
		throw new TriggerStateError(
			'unwritable',
			text`The trigger's saved state is damaged: it is ${describeValue(staticData)}, not an object`,
			text`Something other than this node wrote the workflow's static data for this trigger (e.g. a workflow changed through the API or in the database), and the trigger cannot replace it. ${START_OVER}`,
		);
	}
	const state = staticData as IDataObject;
	if (state.stateVersion === undefined && state.services === undefined) return undefined;
	const version = state.stateVersion;
	if (typeof version === 'number' && Number.isInteger(version) && version > STATE_VERSION) {
		throw new TriggerStateError(
			'future',
			text`The trigger's saved state is from a newer version of this node (state version ${foreign(version)}; this version reads 1 and 2)`,
			text`A newer version of n8n-nodes-service-platform ran this trigger and saved its remembered list in a format this version cannot read; it is left as it is. Update the package to that version again, or: ${START_OVER}`,
		);
	}
	const storedFields = version === 1 ? VERSION_1_FIELDS : version === STATE_VERSION ? state.fields : undefined;
	if (version !== 1 && version !== STATE_VERSION) throw damaged(text`its stateVersion is ${describeValue(version)}`);
	if (!isFieldList(storedFields)) throw damaged(own('its list of field names is missing or not a list of distinct texts'));
	const storedCredential = state.credentialId ?? null;
	if (storedCredential !== null && typeof storedCredential !== 'string') throw damaged(text`its credentialId is ${describeValue(storedCredential)}`);
	if (storedCredential !== credentialId) return undefined;
	const services = state.services;
	if (typeof services !== 'object' || services === null || Array.isArray(services)) {
		throw damaged(text`its services are ${describeValue(services)}, not an object by id_service`);
	}
	const current = sameFields(storedFields);
	// Written or checked by this process before, so not read again (bench/trigger.mjs: reading 100,000
	// services back, even only their ids, cost ~70 ms).
	const known = current ? knownSnapshots.get(services) : undefined;
	if (known !== undefined) return known;
	// Counted before anything is read: n8n hands static data out behind a change-tracking proxy, slow per entry.
	const ids = Object.keys(services);
	if (ids.length > MAX_STORED_SERVICES) {
		throw damaged(text`it holds ${thousands(ids.length)} services, more than the ${thousands(MAX_STORED_SERVICES)} the trigger ever stores`);
	}
	// For each declared field, where its value sits in a stored entry (-1: not stored, unknown).
	const positions = current ? undefined : SERVICE_FIELDS.map((field) => storedFields.indexOf(field.key));
	const width = storedFields.length;
	const snapshot: ServiceSnapshot = new Map();
	let dropped: Set<string> | undefined;
	const named: Text[] = [];
	for (const id of ids) {
		const stored = (services as IDataObject)[id];
		const shaped = Array.isArray(stored) && stored.length === width;
		// In the current field order the stored list is used as it is (nothing copied per service).
		const values = !shaped ? undefined : positions === undefined ? stored : positions.map((position) => (position < 0 ? undefined : stored[position]));
		const misfit = values === undefined ? -1 : firstMisfit(values);
		if (values !== undefined && misfit < 0) {
			snapshot.set(id, values as StoredValues);
			continue;
		}
		// Only this entry is damaged: dropped, named in the warning (the first few), the others kept.
		(dropped ??= new Set()).add(id);
		if (named.length >= DROPPED_NAMED) continue;
		const quoted = foreign(id, ID_MAX);
		// A declared field's name is the node's own word, but not a literal for own(): put in as foreign.
		named.push(
			values === undefined
				? text`the entry of "${quoted}" is ${describeValue(stored)}, not a list of ${width} values`
				: text`the ${foreign(FIELD_KEYS[misfit])} of "${quoted}" is ${describeValue(values[misfit])}, not ${FIELD_TYPES[misfit] === 'number' ? own('a number') : own('text')}`,
		);
	}
	const read: StoredSnapshot = dropped === undefined ? { snapshot, dropped: NONE_DROPPED } : { snapshot, dropped, damage: droppedWarning(named, dropped.size, ids.length) };
	knownSnapshots.set(services, read);
	return read;
}

/** The index of the first value of the wrong type for its field (null and undefined fit any), or -1. */
function firstMisfit(values: readonly unknown[]): number {
	for (let index = 0; index < FIELD_TYPES.length; index++) {
		const value = values[index];
		if (value !== undefined && value !== null && typeof value !== FIELD_TYPES[index]) return index;
	}
	return -1;
}

function droppedWarning(named: readonly Text[], count: number, total: number): StateText {
	const more = count > named.length ? text`; and ${thousands(count - named.length)} more` : own('');
	const it = count === 1 ? own('it') : own('them');
	const outcome = count === total ? text`the trigger dropped ${it}` : text`the trigger dropped ${it} and kept the rest`;
	return {
		message: text`The trigger's saved state is damaged: ${thousands(count)} of its ${thousands(total)} entries cannot be read (${join(named, own('; '))}${more}); ${outcome}`,
		description: own(
			"The changes of the other services are reported as usual. A dropped entry's service that is still listed is remembered again from this poll with its current values, without an event: a change or removal of it since the last good poll is not reported. " +
				"Nothing needs doing, unless something other than this node changes the workflow's static data (e.g. through the API or in the database).",
		),
	};
}

function damaged(what: Text): TriggerStateError {
	return new TriggerStateError(
		'damaged',
		text`The trigger's saved state is damaged: ${what}`,
		own(
			'The trigger took a new baseline: this poll recorded the current services and reported no events; changes since the last good poll are not reported, and events come from the next poll on. ' +
				"Nothing needs doing, unless something other than this node changes the workflow's static data (e.g. through the API or in the database).",
		),
	);
}

function describeValue(value: unknown): Text {
	if (value === null) return own('null');
	if (value === undefined) return own('missing');
	if (Array.isArray(value)) return own('a list');
	if (typeof value === 'string') return text`the text "${foreign(value, VALUE_MAX)}"`;
	if (typeof value === 'number') return text`number ${foreign(value, VALUE_MAX)}`;
	if (typeof value === 'boolean') return text`boolean ${foreign(value)}`;
	return typeof value === 'object' ? own('an object') : own('a value of another kind');
}

/** The trigger remembers every listed service (filters only choose events); past MAX_STORED_SERVICES its state would be refused as damaged. */
export function checkWatchable(count: number, max = MAX_STORED_SERVICES): void {
	if (count <= max) return;
	throw new DescribedError(
		text`The account lists ${thousands(count)} services, more than the ${thousands(max)} the trigger can watch`,
		own(
			"The trigger remembers every listed service between polls (filters only choose which events are reported), and a list this long would not fit in the workflow's static data. Use a schedule with the Services node's List operation and filters instead.",
		),
	);
}

/** Replaces the stored snapshot in place (n8n tracks changes on the object it handed out). */
export function writeSnapshot(staticData: IDataObject, snapshot: ServiceSnapshot, credentialId: string | null): void {
	staticData.stateVersion = STATE_VERSION;
	staticData.credentialId = credentialId;
	staticData.fields = FIELD_KEYS;
	const services: IDataObject = {};
	for (const [id, values] of snapshot) {
		// An id such as "__proto__" must be stored as data, not set the object's prototype.
		if (id === '__proto__') Object.defineProperty(services, id, { value: values, enumerable: true, writable: true, configurable: true });
		else services[id] = values as Array<ServiceFieldValue | undefined>;
	}
	knownSnapshots.set(services, { snapshot, dropped: NONE_DROPPED });
	staticData.services = services;
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
