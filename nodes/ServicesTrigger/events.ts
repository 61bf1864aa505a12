/**
 * The Services Trigger's output items: one per event, with how it is delivered (eventId, seq,
 * redelivered), and the "Fetch test event" item built from the live listing.
 */
import type { IDataObject } from 'n8n-workflow';

import { matchesServiceFilters } from '../shared/parameters/filters';
import { SERVICE_FIELDS } from '../shared/record/serviceFields';
import type { ServiceRecord } from '../shared/record/serviceRecord';
import { nestServiceRecord, simplifyServiceRecord } from '../shared/record/serviceRecord';
import { own, text } from '../shared/text/text';
import type { ChangeEventName, DetectedEvent, DiffOptions, PreviousValues } from './diff';
import { changedSpecs, diffServices, SERVICE_EVENT_NAMES, TriggerInputError } from './diff';
import type { Delivery, ItemEvent } from './state/outbox';
import type { ServiceSnapshot } from './state/snapshot';

/**
 * The output item's JSON: `{ event, id_service, service, previous, detectedAt, eventId, seq, redelivered }`
 * (the contract a sink relies on: docs/trigger.md). With Simplify off, `service` is the record as the
 * API sent it; an event that has no record (a removal, a redelivery) gives the documented fields in
 * the API's shape.
 */
export function formatEvent(event: ItemEvent, delivery: Delivery, simplify: boolean): IDataObject {
	const service = simplify ? event.service : (event.record ?? nestServiceRecord(event.service));
	return {
		event: event.event,
		id_service: event.id_service,
		service: service as IDataObject,
		previous: event.previous as IDataObject | null,
		detectedAt: new Date(delivery.detectedAt).toISOString(),
		eventId: delivery.eventId,
		seq: delivery.seq,
		redelivered: delivery.redelivered,
	};
}

/**
 * The "Fetch test event" result: one event built from the live listing, never stored.
 * If a snapshot exists and a real change is waiting, that change is the test event (it is what the
 * next poll would emit). Otherwise the event is built on the first service that matches the
 * filters, of the first selected kind; `previous` then borrows values of another listed service
 * so the fields can be mapped, and is null when no other service differs.
 */
export function buildTestEvent(
	previous: ServiceSnapshot | undefined,
	records: readonly ServiceRecord[],
	options: DiffOptions,
): DetectedEvent {
	if (records.length === 0) {
		throw new TriggerInputError(
			own('There are no services in the account to build a test event from'),
			own(
				'The platform listed no services for this credential. Create a service on the platform (or use a credential of an account that has services) and fetch a test event again. An active workflow will still report services created later.',
			),
		);
	}
	if (previous !== undefined) {
		const pending = diffServices(previous, records, options).events[0];
		if (pending !== undefined) return pending;
	}
	const simplified = records.map(simplifyServiceRecord);
	const chosen = simplified.findIndex((candidate) => matchesServiceFilters(candidate, options.filters));
	if (chosen < 0) {
		throw new TriggerInputError(
			text`None of the ${records.length} listed service(s) matches the Filters, so there is nothing to build a test event from`,
			own('Loosen the Filters (Status, Search) or fetch a test event again once a matching service exists.'),
		);
	}
	const event = SERVICE_EVENT_NAMES.find((name) => options.events.includes(name)) ?? 'created';
	const record = records[chosen];
	const service = simplified[chosen];
	const others = simplified.filter((_, index) => index !== chosen);
	if (event === 'statusChanged') {
		const otherStatus = others.find((other) => other.status !== service.status)?.status;
		return { event, id_service: service.id_service, service, record, previous: { status: otherStatus ?? null } };
	}
	if (event === 'specsChanged') {
		let specs: PreviousValues | undefined;
		for (const other of others) {
			specs = changedSpecs(other, service);
			if (specs !== undefined) break;
		}
		return {
			event,
			id_service: service.id_service,
			service,
			record,
			previous: specs ?? nullPrevious('specsChanged'),
		};
	}
	if (event === 'removed') return { event, id_service: service.id_service, service, previous: null };
	return { event, id_service: service.id_service, service, record, previous: null };
}

/** `previous` with every field of `event` null: the shape of a test event when no other service differs. */
function nullPrevious(event: ChangeEventName): PreviousValues {
	return Object.fromEntries(
		SERVICE_FIELDS.filter((field) => 'change' in field && field.change === event).map((field) => [field.key, null]),
	) as PreviousValues;
}
