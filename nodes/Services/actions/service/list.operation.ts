import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requestOptionsProperty, serviceFiltersProperty, simplifyProperty } from '../../../shared/descriptions';
import { hasServiceFilters, matchesServiceFilters, parseServiceFilters } from '../../../shared/filters';
import { listServicePages } from '../../../shared/listing';
import { simplifyServiceRecord } from '../../../shared/serviceRecord';
import { openApiSession, readRequestLimits, requirePositiveNumber } from '../../../shared/transport';
import { cutShortNote, isToolUse, LIST_TOOL_DESCRIPTION, TOOL_ANSWER_MAX_BYTES, toolDescriptionProperty } from '../toolUse';

const showForList = { show: { resource: ['service'], operation: ['list'] } };

export const description: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
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
 * Pages are read only until Limit items are gathered. As an AI tool it reads on to count the
 * matching services, keeps the answer under TOOL_ANSWER_MAX_BYTES, and ends a cut-short answer with
 * a note saying so.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll
		? Infinity
		: requirePositiveNumber(this.getNodeParameter('limit', itemIndex, 50), { name: 'Limit', example: '50', integer: true });
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const filters = parseServiceFilters(this.getNodeParameter('filters', itemIndex, {}));
	const filtering = hasServiceFilters(filters);
	const tool = isToolUse(this);

	const session = await openApiSession.call(this, { itemIndex, limits: readRequestLimits.call(this, itemIndex) });

	// One shared pairing object: every output item of this input points at the same source item.
	const pairedItem = { item: itemIndex };
	const items: INodeExecutionData[] = [];
	let matching = 0;
	let answerBytes = 2; // "[]"
	let cutBy: 'limit' | 'size' | undefined;
	for await (const { records } of listServicePages(session)) {
		for (const record of records) {
			if (!tool && items.length >= limit) break;
			const simplified = simplify || filtering ? simplifyServiceRecord(record) : undefined;
			if (filtering && !matchesServiceFilters(simplified!, filters)) continue;
			matching++;
			if (cutBy !== undefined) continue;
			if (items.length >= limit) {
				cutBy = 'limit';
				continue;
			}
			const json = simplify ? simplified : record;
			if (tool) {
				answerBytes += Buffer.byteLength(JSON.stringify(json)) + 1;
				if (answerBytes > TOOL_ANSWER_MAX_BYTES) {
					cutBy = 'size';
					continue;
				}
			}
			items.push({ json: json as IDataObject, pairedItem });
		}
		if (!tool && items.length >= limit) break;
	}
	if (cutBy !== undefined) items.push({ json: cutShortNote(items.length, matching, cutBy), pairedItem });
	return items;
}
