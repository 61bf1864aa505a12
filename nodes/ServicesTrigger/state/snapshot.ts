// Over 300 lines because every stored version (1 to 3) is read here, under the id rule, each value checked.
import type { IDataObject } from 'n8n-workflow';

import { DescribedError } from '../../shared/errors/errors';
import type { ServiceFieldValue, SimplifiedService } from '../../shared/record/serviceFields';
import { SERVICE_FIELDS } from '../../shared/record/serviceFields';
import { serviceIdKey } from '../../shared/record/serviceId';
import type { Text } from '../../shared/text/text';
import { foreign, join, own, text, thousands } from '../../shared/text/text';

/**
 * What the trigger remembers per service between polls: the value of every declared field
 * (SERVICE_FIELDS, in that order), so changes can be told and a `removed` event can still say which
 * service disappeared. Nothing else of the record is kept. `undefined` means not known: the state
 * was written before that field was declared. An unknown value is never reported as a change.
 */
export type StoredValues = ReadonlyArray<ServiceFieldValue | undefined>;

/** Every service of the last successful poll, by id_service, in the order the API listed them. */
export type ServiceSnapshot = Map<string, StoredValues>;

export const STATE_VERSION = 3;

/** The field order of the 8-slot tuples of state version 1 (package 0.1.0). Frozen: old state is read with it. */
const VERSION_1_FIELDS = ['status', 'os_id', 'os_name', 'vcores', 'ram_gb', 'hd_gb', 'name', 'alias'];

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
interface StoredSnapshot {
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

	constructor(
		readonly kind: 'damaged' | 'future' | 'unwritable',
		message: Text,
		description: Text,
	) {
		super(message, description);
	}
}

const START_OVER = own(
	"To start over, replace the node: add a new Services Trigger under another name, connect it as this one is, delete this one and save. The new node's first poll records the current services as a new baseline, and events come from the next poll on. (Renaming is not enough where n8n keeps a trigger's state by the node's id, as with durable poll cursors.)",
);

/** Bounds of the foreign parts of a message about the state (an id, a stored value); how many dropped entries the warning names. */
const ID_MAX = 60;
const VALUE_MAX = 40;
const DROPPED_NAMED = 3;

/**
 * How stored value lists are read: the stored field order mapped onto the declared one. `read`
 * gives the values in the declared order, the first value of the wrong type for its field (its
 * declared index and the value), or undefined when `stored` is not a list of `width` values.
 */
export interface ValueLayout {
	width: number;
	read(stored: unknown): StoredValues | Misfit | undefined;
}

export interface Misfit {
	misfit: number;
	value: unknown;
}

function layoutOf(storedFields: readonly string[]): ValueLayout {
	// For each declared field, where its value sits in a stored entry (-1: not stored, unknown).
	const positions = sameFields(storedFields) ? undefined : SERVICE_FIELDS.map((field) => storedFields.indexOf(field.key));
	const width = storedFields.length;
	return {
		width,
		read(stored) {
			if (!Array.isArray(stored) || stored.length !== width) return undefined;
			// In the current field order the stored list is used as it is (nothing copied per service).
			const values: unknown[] =
				positions === undefined ? stored : positions.map((position) => (position < 0 ? undefined : stored[position]));
			const misfit = firstMisfit(values);
			return misfit < 0 ? (values as StoredValues) : { misfit, value: values[misfit] };
		},
	};
}

/** The state as read: the snapshot, its version, and how its other value lists are read. */
export interface ReadState extends StoredSnapshot {
	version: number;
	layout: ValueLayout;
	/** Whether it is stored as this version writes it (else a write rewrites the services too). */
	current: boolean;
}

/** What is wrong with a stored value list `layout.read` refused, for a warning: `the vcores of "srv-1" is the text "4", not a number`. */
export function misfitText(layout: ValueLayout, stored: unknown, read: Misfit | undefined, entry: Text, owner: Text): Text {
	if (read === undefined) return text`${entry} is ${describeValue(stored)}, not a list of ${layout.width} values`;
	// A declared field's name is the node's own word, but not a literal for own(): put in as foreign.
	const kind = FIELD_TYPES[read.misfit] === 'number' ? own('a number') : own('text');
	return text`the ${foreign(FIELD_KEYS[read.misfit])} of ${owner} is ${describeValue(read.value)}, not ${kind}`;
}

/**
 * Reads the snapshot from the node's static data. Returns undefined when there is none (first poll)
 * or when it was taken with another credential: the trigger then takes a new baseline. Throws a
 * TriggerStateError saying what is wrong when the state is in no format this version reads
 * (version 1 of package 0.1.0, version 2 or 3 with any set of field names) or is damaged as a whole:
 * the trigger never guesses, which could invent events. A damaged entry (not a list of the stored
 * fields, or a value of the wrong type) is dropped and named in `damage`; the others are kept.
 */
export function readSnapshot(staticData: unknown, credentialId: string | null): ReadState | undefined {
	if (typeof staticData !== 'object' || staticData === null || Array.isArray(staticData)) {
		throw new TriggerStateError(
			'unwritable',
			text`The trigger's saved state is damaged: it is ${describeValue(staticData)}, not an object`,
			text`Something other than this node wrote the workflow's static data for this trigger (e.g. a workflow changed through the API or in the database), and the trigger cannot replace it. ${START_OVER}`,
		);
	}
	const state = staticData as IDataObject;
	if (!holdsState(state)) return undefined;
	const version = state.stateVersion;
	if (typeof version === 'number' && Number.isInteger(version) && version > STATE_VERSION) {
		throw new TriggerStateError(
			'future',
			text`The trigger's saved state is from a newer version of this node (state version ${foreign(version)}; this version reads 1 to ${STATE_VERSION})`,
			text`A newer version of n8n-nodes-service-platform ran this trigger and saved its remembered list in a format this version cannot read; it is left as it is. Update the package to that version again, or: ${START_OVER}`,
		);
	}
	if (version !== 1 && version !== 2 && version !== STATE_VERSION) throw damaged(text`its stateVersion is ${describeValue(version)}`);
	const storedFields = version === 1 ? VERSION_1_FIELDS : state.fields;
	if (!isFieldList(storedFields)) throw damaged(own('its list of field names is missing or not a list of distinct texts'));
	const storedCredential = state.credentialId ?? null;
	if (storedCredential !== null && typeof storedCredential !== 'string')
		throw damaged(text`its credentialId is ${describeValue(storedCredential)}`);
	if (storedCredential !== credentialId) return undefined;
	const services = state.services;
	if (typeof services !== 'object' || services === null || Array.isArray(services)) {
		throw damaged(text`its services are ${describeValue(services)}, not an object by id_service`);
	}
	const layout = layoutOf(storedFields);
	const current = version === STATE_VERSION && sameFields(storedFields);
	// Written or checked by this process before, so not read again (tools/bench/trigger.mjs: reading 100,000
	// services back, even only their ids, cost ~70 ms).
	const known = sameFields(storedFields) ? knownSnapshots.get(services) : undefined;
	if (known !== undefined) return { ...known, version, layout, current };
	// Counted before anything is read: n8n hands static data out behind a change-tracking proxy, slow per entry.
	const ids = Object.keys(services);
	if (ids.length > MAX_STORED_SERVICES) {
		throw damaged(
			text`it holds ${thousands(ids.length)} services, more than the ${thousands(MAX_STORED_SERVICES)} the trigger ever stores`,
		);
	}
	const snapshot: ServiceSnapshot = new Map();
	// Under the one id rule (a state of 0.4.0 may hold ids as sent): entries whose ids are one service are dropped.
	let sentAs: Map<string, string> | undefined;
	let dropped: Set<string> | undefined;
	let count = 0;
	const named: Text[] = [];
	const drop = (key: string, why: () => Text) => {
		(dropped ??= new Set()).add(key);
		count++;
		if (named.length < DROPPED_NAMED) named.push(why());
	};
	for (const id of ids) {
		const stored = (services as IDataObject)[id];
		const values = layout.read(stored);
		const key = serviceIdKey(id);
		const quoted = text`"${foreign(id, ID_MAX)}"`;
		if (!Array.isArray(values)) {
			// Only this entry is damaged: dropped, named in the warning (the first few), the others kept.
			drop(key, () => misfitText(layout, stored, values as Misfit | undefined, text`the entry of ${quoted}`, quoted));
		} else if (snapshot.has(key) || dropped?.has(key) === true) {
			const twin = text`"${foreign(sentAs?.get(key) ?? key, ID_MAX)}"`;
			if (snapshot.delete(key)) count++;
			drop(
				key,
				() =>
					text`the entries of ${twin} and ${quoted} are one service (an id counts without white space at its ends, in one Unicode form)`,
			);
		} else {
			snapshot.set(key, values);
		}
		if (key !== id) (sentAs ??= new Map()).set(key, id);
	}
	const read: StoredSnapshot =
		dropped === undefined ? { snapshot, dropped: NONE_DROPPED } : { snapshot, dropped, damage: droppedWarning(named, count, ids.length) };
	knownSnapshots.set(services, read);
	return { ...read, version, layout, current };
}

/** Whether the static data holds a state at all (a first poll finds none; a state of any version or damage does). */
export function holdsState(staticData: IDataObject): boolean {
	return staticData.stateVersion !== undefined || staticData.services !== undefined;
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

export function damaged(what: Text): TriggerStateError {
	return new TriggerStateError(
		'damaged',
		text`The trigger's saved state is damaged: ${what}`,
		own(
			'The trigger took a new baseline: this poll recorded the current services and reported no events; changes since the last good poll are not reported, and events come from the next poll on. ' +
				"Nothing needs doing, unless something other than this node changes the workflow's static data (e.g. through the API or in the database).",
		),
	);
}

export function describeValue(value: unknown): Text {
	if (value === null) return own('null');
	if (value === undefined) return own('missing');
	if (Array.isArray(value)) return own('a list');
	if (typeof value === 'string') return text`the text "${foreign(value, VALUE_MAX)}"`;
	if (typeof value === 'number') return text`number ${foreign(value, VALUE_MAX)}`;
	if (typeof value === 'boolean') return text`boolean ${foreign(value)}`;
	return typeof value === 'object' ? own('an object') : own('a value of another kind');
}

/**
 * Replaces the stored snapshot in place (n8n tracks changes on the object it handed out): the node's
 * static data `{ stateVersion: 3, credentialId, fields: [key, ...], services: { [id_service]: [value, ...] } }`,
 * each service's values in the order of `fields` (about 110 bytes per service, see the README), and
 * from version 3 the delivery record beside them (delivery.ts).
 * Storing the field names once lets a later version of the node that declares more fields read this
 * state as it is: the new fields are just unknown until the next poll records them.
 * `credentialId` is the id of the credential the snapshot was taken with (not a secret): pointing the
 * trigger at another credential, hence maybe another account, starts a new baseline instead of
 * reporting every service of both accounts as removed and created.
 */
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
