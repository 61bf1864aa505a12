/**
 * One poll of the Services Trigger after the listing was read, in stages each entered once: read the
 * state, compare the listing with it, plan what to emit and write (state/state.ts), write, and turn
 * the plan into n8n's items. Free of n8n runtime calls but the static data objects it is given, so
 * every case is tested through n8n-core's poll executor and alone. The order of the stages is what
 * makes a crash at any point lose nothing (docs/trigger.md).
 */
import type { INodeExecutionData } from 'n8n-workflow';

import type { ServiceFilters } from '../shared/parameters/filters';
import type { ServiceRecord } from '../shared/record/serviceRecord';
import type { ServiceEventName } from './diff';
import { checkWatchable, diffServices } from './diff';
import { buildTestEvent, formatEvent } from './events';
import type { ResyncOptions } from './resync';
import type { StateAccess } from './state/state';
import { planPoll, previewDelivery, readState, writeState } from './state/state';

interface PollInput extends StateAccess {
	records: readonly ServiceRecord[];
	events: readonly ServiceEventName[];
	filters: ServiceFilters;
	simplify: boolean;
	confirmMassRemoval: boolean;
	resync: ResyncOptions;
}

/**
 * Runs the poll on the listing `records`; returns the items to emit, or null (also when a poll that
 * began later was applied meanwhile: this listing is the older). "Fetch test event" returns its one event.
 */
export function runPoll(input: PollInput): INodeExecutionData[][] | null {
	const { records, events, filters } = input;
	const start = readState(input);
	if (start === undefined) return null;
	checkWatchable(records.length);
	if (input.manual) {
		const event = buildTestEvent(start.state?.snapshot, records, { events, filters, dropped: start.dropped });
		return [[{ json: formatEvent(event, previewDelivery(start, event), input.simplify) }]];
	}
	const listing = diffServices(start.state?.snapshot, records, { events, filters, dropped: start.dropped });
	const plan = planPoll(start, { ...input, listing });
	writeState(start, plan);
	if (plan.items.length === 0) return null;
	return [plan.items.map(({ event, delivery }) => ({ json: formatEvent(event, delivery, input.simplify) }))];
}
