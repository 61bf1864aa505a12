import type { ServiceRecord, SimplifiedService } from './serviceFields';
import { serviceIdKey } from './serviceId';
import { parseServiceRecord, parseSimplifiedServiceRecord, ServiceResponseError } from './serviceRecord';
import type { Text } from '../text/text';
import { foreign, own, text } from '../text/text';

/**
 * The records stage of a page: each record checked (schema, nesting bound), and each id compared by
 * the one id rule (serviceId.ts) with every id the listing held before, so an id listed twice anywhere
 * in the listing is an error. What the answer stage (answer/) found is handed in; nothing here reads
 * the answer again.
 */

/** One page's records as the answer stage found them. */
export interface RecordsOfPage {
	items: unknown[];
	/** How to name record `index` to a user: its position, or its key in a map (`#3 of 40 on page 2`). */
	labelOf: (index: number) => Text;
}

interface RecordCheck {
	/** id (by the id rule) -> the page it was first listed on; carries across the pages of one listing. */
	seen: Map<string, number>;
	pageNumber: number;
	/** With it, each record's Simplify view is put here at its index, made in the pass that checks it. */
	simplified?: SimplifiedService[];
	/** Ends the description of every error (what the caller suggests). */
	advice: Text;
}

/**
 * The checked records of one page, in the API's order: the page's own array, the very objects the API
 * sent (no copies). Each record is read once.
 */
export function checkPageRecords(page: RecordsOfPage, { seen, pageNumber, simplified, advice }: RecordCheck): ServiceRecord[] {
	// One label function per page, not per record: it is only called for a record that fails.
	let index = 0;
	const label = () => page.labelOf(index);
	const repeated = (id: string, firstPage: number) => {
		// Named when this id is not as compared: `srv-1 ` repeats `srv-1`.
		const rule = id === serviceIdKey(id) ? own('') : own(' (ids are compared without spaces at their ends, in one Unicode form)');
		return new ServiceResponseError(
			text`The listing contains id_service "${foreign(id, 80)}" more than once`,
			firstPage === pageNumber
				? text`Record ${page.labelOf(index)} repeats an id already listed${rule}. Each service must appear once; ${advice}`
				: text`Record ${page.labelOf(index)} repeats an id already listed on page ${firstPage}${rule}. Each service must appear once; if services were added or removed while the pages were read, run again. ${advice}`,
		);
	};
	// On the listing's first page a repeated id can only be from it: one Map operation per record (tools/bench/records.mjs).
	const firstOfListing = seen.size === 0;
	for (; index < page.items.length; index++) {
		const item = page.items[index];
		let id: string;
		if (simplified === undefined) {
			id = parseServiceRecord(item, label, advice).id_service;
		} else {
			const service = parseSimplifiedServiceRecord(item, label, advice);
			simplified[index] = service;
			id = service.id_service;
		}
		const key = serviceIdKey(id);
		if (key === '') throw blankId(page.labelOf(index), advice);
		if (firstOfListing) {
			const size = seen.size;
			if (seen.set(key, pageNumber).size === size) throw repeated(id, pageNumber);
		} else {
			const firstPage = seen.get(key);
			if (firstPage !== undefined) throw repeated(id, firstPage);
			seen.set(key, pageNumber);
		}
	}
	return page.items as ServiceRecord[];
}

function blankId(label: Text, advice: Text): ServiceResponseError {
	return new ServiceResponseError(
		text`Service record ${label} has an id_service of spaces only`,
		text`${own('An id_service identifies the service; spaces at its ends are not part of it, so this one names no service. ')}${advice}`,
	);
}
