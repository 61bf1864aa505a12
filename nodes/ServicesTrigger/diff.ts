/**
 * The Services Trigger's change detection, free of n8n runtime calls so every case is unit-tested:
 * compare the services of the last successful poll with the ones listed now and say what happened.
 */
import { DescribedError } from '../shared/errors/errors';
import { wrongValue } from '../shared/parameters/parameters';
import type { ServiceFilters } from '../shared/parameters/filters';
import { matchesServiceFilters } from '../shared/parameters/filters';
import type { ChangeFieldKey, SimplifiedService } from '../shared/record/serviceFields';
import { SERVICE_FIELDS } from '../shared/record/serviceFields';
import { serviceIdKey } from '../shared/record/serviceId';
import type { ServiceRecord } from '../shared/record/serviceRecord';
import { simplifyServiceRecord } from '../shared/record/serviceRecord';
import { foreign, join, own, text, thousands } from '../shared/text/text';
import type { ServiceSnapshot, StoredValues } from './state/snapshot';
import { MAX_STORED_SERVICES, simplifiedFromStored, storedValuesOf } from './state/snapshot';

/** In the order events of one service are emitted, and the order the test event is chosen in. */
export const SERVICE_EVENT_NAMES = ['created', 'statusChanged', 'specsChanged', 'removed'] as const;
export type ServiceEventName = (typeof SERVICE_EVENT_NAMES)[number];

/** The events a change of a declared field is (its `change` in SERVICE_FIELDS). */
export type ChangeEventName = 'statusChanged' | 'specsChanged';

/** Earlier values of the fields an event is about, under their simplified names. */
export type PreviousValues = Partial<Pick<SimplifiedService, ChangeFieldKey<ChangeEventName>>>;

export interface DetectedEvent {
	event: ServiceEventName;
	id_service: string;
	/** The service now; for `removed`, as it was last seen. */
	service: SimplifiedService;
	/** The record exactly as the API sent it now; undefined for `removed` (the record is gone). */
	record?: ServiceRecord;
	/** `statusChanged`: `{ status }`; `specsChanged`: the OS, vCores, RAM and disk fields that changed; otherwise null. */
	previous: PreviousValues | null;
}

export interface DiffOptions {
	/** The events the user selected; other changes are still recorded, just not emitted. */
	events: readonly ServiceEventName[];
	filters: ServiceFilters;
	/**
	 * Ids whose remembered entry was dropped as damaged (readSnapshot): listed now, the service is
	 * remembered again with its current values and no event; no longer listed, nothing is said.
	 */
	dropped?: ReadonlySet<string>;
}

export interface DiffResult {
	/** What to store for the next poll: every listed service, whatever the filters (see README). */
	snapshot: ServiceSnapshot;
	/** Selected events about watched services, in listing order; `removed` ones last. */
	events: DetectedEvent[];
	/** True when there was no earlier snapshot: this poll only records the baseline. */
	baseline: boolean;
	/** Whether the snapshot differs from the stored one (the static data only needs a write then). */
	changed: boolean;
	/** How many services of the stored snapshot are no longer listed (whatever the events and filters; a dropped entry is none). */
	removedCount: number;
	/** Their ids (a suspected mass removal is told by them). */
	missing: string[];
}

/** A problem with the input the user can fix or must know about; `description` says what to do. */
export class TriggerInputError extends DescribedError {}

/**
 * Compares `records` (the full, validated listing: the listing code already refused repeated ids)
 * with the `previous` snapshot.
 *
 * The snapshot always covers every listed service and the filters only decide which events are
 * emitted: an event is emitted when its service matches the filters now or matched them before
 * the change (a `removed` service: as last seen). So a service that leaves the filters is reported
 * once, by the event that moved it out (e.g. `statusChanged` with `previous.status`), and is then
 * silent while outside; coming back is a `statusChanged` again, never a false `created` or
 * `removed`. Changing the filters or events later never produces a burst of events either.
 */
export function diffServices(
	previous: ServiceSnapshot | undefined,
	records: readonly ServiceRecord[],
	{ events, filters, dropped }: DiffOptions,
): DiffResult {
	// One pass over the listing, nothing kept per service but its stored values (tools/bench/trigger.mjs: at
	// 100,000 services, most unchanged, a map of wrappers and a second comparison pass cost ~60 ms).
	const snapshot: ServiceSnapshot = new Map();
	if (previous === undefined) {
		for (const record of records) snapshot.set(serviceIdKey(record.id_service), storedValuesOf(simplifyServiceRecord(record)));
		return { snapshot, events: [], baseline: true, changed: true, removedCount: 0, missing: [] };
	}
	const selected = new Set<ServiceEventName>(events);
	const matches = (service: SimplifiedService) => matchesServiceFilters(service, filters);
	const detected: DetectedEvent[] = [];
	// Whether the snapshot differs from `previous`, told on the way (no second pass to compare them);
	// a state that had damaged entries is written again without them.
	let changed = dropped !== undefined && dropped.size > 0;
	let kept = 0;
	for (const record of records) {
		const id = serviceIdKey(record.id_service); // the one id rule (a stored state is read under it too)
		const service = simplifyServiceRecord(record);
		const values = storedValuesOf(service);
		snapshot.set(id, values);
		const before = previous.get(id);
		if (before === undefined) {
			changed = true;
			// Its remembered values were damaged: not new, and nothing known to compare with.
			if (dropped?.has(id) === true) continue;
			if (selected.has('created') && matches(service)) detected.push({ event: 'created', id_service: id, service, record, previous: null });
			continue;
		}
		kept++;
		if (sameValues(before, values)) continue;
		changed = true;
		let watched: boolean | undefined;
		for (const event of CHANGE_EVENT_NAMES) {
			if (!selected.has(event)) continue;
			const earlier = changedFields(event, before, values);
			if (earlier === undefined) continue;
			watched ??= matches(service) || matches(simplifiedFromStored(id, before));
			if (watched) detected.push({ event, id_service: id, service, record, previous: earlier });
		}
	}
	const removedCount = previous.size - kept;
	const missing: string[] = [];
	if (removedCount > 0) {
		changed = true;
		for (const [id, before] of previous) {
			if (snapshot.has(id)) continue;
			missing.push(id);
			if (!selected.has('removed')) continue;
			const last = simplifiedFromStored(id, before);
			if (matches(last)) detected.push({ event: 'removed', id_service: id, service: last, previous: null });
		}
	}
	return { snapshot, events: detected, baseline: false, changed, removedCount, missing };
}

/** The same stored values; an unknown value (undefined) differs from a known one. */
function sameValues(a: StoredValues, b: StoredValues): boolean {
	for (let index = 0; index < b.length; index++) if (a[index] !== b[index]) return false;
	return true;
}

const CHANGE_EVENT_NAMES: readonly ChangeEventName[] = ['statusChanged', 'specsChanged'];

/**
 * The earlier values of the fields whose change is `event` and that differ, or undefined when none
 * does; a value not known before is no change. A field that is the label of another (`labelOf`: the
 * OS name of the OS id) is compared only when neither side has the identifier (a provider renaming
 * "Ubuntu 22.04" to "Ubuntu 22.04 LTS" is no change of the service), and when the identified thing
 * changed, its identifier and labels are all given.
 */
function changedFields(event: ChangeEventName, before: StoredValues, now: StoredValues): PreviousValues | undefined {
	const differs = (index: number) => before[index] !== undefined && before[index] !== now[index];
	const bothNull = (index: number) => before[index] === null && now[index] === null;
	// Created only when something changed: most services of most polls have no change.
	let changedKeys: Set<string> | undefined;
	SERVICE_FIELDS.forEach((field, index) => {
		if (!('change' in field) || field.change !== event) return;
		if ('labelOf' in field) {
			const identifier = FIELD_INDEX[field.labelOf];
			if (differs(identifier) || (bothNull(identifier) && differs(index))) (changedKeys ??= new Set()).add(field.labelOf);
		} else if (differs(index)) {
			(changedKeys ??= new Set()).add(field.key);
		}
	});
	if (changedKeys === undefined) return undefined;
	const changed = changedKeys;
	const previous: Record<string, unknown> = {};
	SERVICE_FIELDS.forEach((field, index) => {
		if (changed.has(field.key) || ('labelOf' in field && changed.has(field.labelOf))) {
			previous[field.key] = before[index] ?? null;
		}
	});
	return previous as PreviousValues;
}

const FIELD_INDEX: Record<string, number> = Object.fromEntries(SERVICE_FIELDS.map((field, index) => [field.key, index]));

/** The earlier spec values (OS, vCores, RAM, disk) of `before` that differ in `now`, or undefined when none does. */
export function changedSpecs(before: SimplifiedService, now: SimplifiedService): PreviousValues | undefined {
	return changedFields('specsChanged', storedValuesOf(before), storedValuesOf(now));
}

/**
 * Reads the `events` parameter (Trigger On): a list of event names, or from an expression also one
 * text of names separated by commas; at least one known event, returned in a fixed order. Anything
 * else (null, a number, an object, a list holding anything but text) is a parameter error naming it.
 */
export function parseEvents(raw: unknown): ServiceEventName[] {
	const fix = own(
		'Choose one or more events in "Trigger On". An expression may give a list of them or one text, comma-separated (e.g. "created, removed"); the events are created, statusChanged, specsChanged and removed.',
	);
	const values = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : undefined;
	if (values === undefined || values.some((value) => typeof value !== 'string')) {
		throw wrongValue(own('Trigger On'), own('a list of events'), raw, fix);
	}
	const names = (values as string[]).map((value) => value.trim()).filter((value) => value !== '');
	const unknown = names.filter((name) => !(SERVICE_EVENT_NAMES as readonly string[]).includes(name));
	if (unknown.length > 0) {
		throw new TriggerInputError(
			text`Unknown event(s) in "Trigger On": ${join(
				unknown.map((name) => text`"${foreign(name, 40)}"`),
				own(', '),
			)}`,
			own('Choose events from: created, statusChanged, specsChanged, removed (as written here, upper and lower case included).'),
		);
	}
	const chosen = SERVICE_EVENT_NAMES.filter((name) => names.includes(name));
	if (chosen.length === 0) {
		throw new TriggerInputError(
			own('Choose at least one event to trigger on'),
			own('Select one or more of Service Created, Status Changed, Specs Changed and Service Removed in "Trigger On".'),
		);
	}
	return chosen;
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
