import type { ICredentialDataDecryptedObject, IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requestOptionsProperty, serviceFiltersProperty, simplifyProperty } from '../../../shared/parameters/descriptions';
import type { ServiceFilters } from '../../../shared/parameters/filters';
import { hasServiceFilters, matchesServiceFilters, parseServiceFilters } from '../../../shared/parameters/filters';
import type { ServicePage } from '../../../shared/listing/listing';
import { listServicePages } from '../../../shared/listing/listing';
import { parameterReader, readSimplify, readSwitch, requirePositiveNumber } from '../../../shared/parameters/parameters';
import { own } from '../../../shared/text/text';
import { readRequestLimits } from '../../../shared/parameters/limits';
import { openApiSession } from '../../../shared/transport/transport';
import type { RequestLimits } from '../../../shared/transport/types';
import { CREDENTIAL_TYPE } from '../../../shared/transport/types';
import { readOncePerRun } from './listingCache';
import { cutShortNote, isToolUse, LIST_TOOL_DESCRIPTION, TOOL_ANSWER_MAX_BYTES, toolDescriptionProperty } from '../toolUse';

const showForList = { show: { resource: ['service'], operation: ['list'] } };

export const description: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		validateType: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: showForList,
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { ...showForList.show, returnAll: [false] } },
	},
	{ ...simplifyProperty, displayOptions: showForList },
	{ ...serviceFiltersProperty, displayOptions: showForList },
	{ ...requestOptionsProperty, displayOptions: showForList },
	toolDescriptionProperty('list', LIST_TOOL_DESCRIPTION),
];

/**
 * List: one output item per service record, filtered, then limited, each paired to the input item.
 * Input items whose resolved parameters and credential are the same share one listing per run
 * (listingCache.ts); each gets its own copy of the items.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	// Every value an expression may give has one meaning or is a parameter error (docs/parameters.md).
	const read = parameterReader(this, itemIndex);
	const returnAll = readSwitch(read, 'returnAll', own('Return All'), false);
	const limit = returnAll ? Infinity : requirePositiveNumber(read('limit', 50), { label: own('Limit'), example: own('50'), integer: true });
	const simplify = readSimplify(read);
	const filters = parseServiceFilters(read('filters', {}));
	const limits = readRequestLimits.call(this, itemIndex);
	const request: ListRequest = { limit, simplify, filters, limits, tool: isToolUse(this) };

	// The credential as resolved for this item (its fields may be expressions): the same parameters
	// with another key or address are another listing. Only a key in this run's memory, never shown.
	const credentials = await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE, itemIndex);
	const key = JSON.stringify([credentials.baseUrl, credentials.apiKey, returnAll, request]);
	const listed = await readOncePerRun(this, key, itemIndex, async () => await readListing.call(this, itemIndex, request, credentials));

	// One shared pairing object: every output item of this input points at the same source item.
	const pairedItem = { item: itemIndex };
	return listed.map((json) => ({ json, pairedItem }));
}

interface ListRequest {
	limit: number;
	simplify: boolean;
	filters: ServiceFilters;
	limits: RequestLimits;
	tool: boolean;
}

/**
 * The listing's items' JSON. Pages are read only until Limit items are gathered. As an AI tool it
 * reads on to count the matching services, keeps the answer under TOOL_ANSWER_MAX_BYTES, and ends a
 * cut-short answer with a note saying so.
 */
async function readListing(
	this: IExecuteFunctions,
	itemIndex: number,
	{ limit, simplify, filters, limits, tool }: ListRequest,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject[]> {
	const filtering = hasServiceFilters(filters);
	const session = await openApiSession.call(this, { itemIndex, limits, credentials });

	let items: IDataObject[] = [];
	let matching = 0;
	let answerBytes = 2; // "[]"
	let cutBy: 'limit' | 'size' | undefined;
	// Without filters, the records still wanted say how many pages to read ahead, at the size of the last.
	let recordsLeft = limit;
	const pagesWanted =
		tool || filtering
			? undefined
			: ({ records }: ServicePage) => {
					recordsLeft -= records.length;
					return recordsLeft <= 0 ? 0 : records.length === 0 ? Infinity : Math.ceil(recordsLeft / records.length);
				};
	// Simplify (for the output or the filters) is made in the pass that checks the records (listing.ts).
	for await (const { records, services = [] } of listServicePages(session, { simplify: simplify || filtering, pagesWanted })) {
		const output = (simplify ? services : records) as IDataObject[];
		if (!tool && !filtering) {
			// Most lists: the page's items as they are, up to Limit; a first page that fits is not copied.
			const take = Math.min(output.length, limit - items.length);
			if (items.length === 0 && take === output.length) items = output;
			else for (let index = 0; index < take; index++) items.push(output[index]);
			if (items.length >= limit) break;
			continue;
		}
		for (let index = 0; index < output.length; index++) {
			if (!tool && items.length >= limit) break;
			if (filtering && !matchesServiceFilters(services[index], filters)) continue;
			matching++;
			if (cutBy !== undefined) continue;
			if (items.length >= limit) {
				cutBy = 'limit';
				continue;
			}
			const json = output[index];
			if (tool) {
				answerBytes += Buffer.byteLength(JSON.stringify(json)) + 1;
				if (answerBytes > TOOL_ANSWER_MAX_BYTES) {
					cutBy = 'size';
					continue;
				}
			}
			items.push(json);
		}
		if (!tool && items.length >= limit) break;
	}
	if (cutBy !== undefined) items.push(cutShortNote(items.length, matching, cutBy));
	return items;
}
