import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requestOptionsProperty, serviceFiltersProperty, simplifyProperty } from '../../../shared/descriptions';
import { hasServiceFilters, matchesServiceFilters, parseServiceFilters } from '../../../shared/filters';
import { listServicePages } from '../../../shared/listing';
import { simplifyServiceRecord } from '../../../shared/serviceRecord';
import { openApiSession, readRequestLimits, requirePositiveNumber } from '../../../shared/transport';

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
];

/**
 * List: one output item per service record, filtered, then limited, each paired to the input item.
 * Pages are read only until Limit items are gathered.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll
		? Infinity
		: requirePositiveNumber(this.getNodeParameter('limit', itemIndex, 50), { name: 'Limit', example: '50', integer: true });
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const filters = parseServiceFilters(this.getNodeParameter('filters', itemIndex, {}));
	const filtering = hasServiceFilters(filters);

	const session = await openApiSession.call(this, { itemIndex, limits: readRequestLimits.call(this, itemIndex) });

	// One shared pairing object: every output item of this input points at the same source item.
	const pairedItem = { item: itemIndex };
	const items: INodeExecutionData[] = [];
	for await (const { records } of listServicePages(session)) {
		for (const record of records) {
			if (items.length >= limit) break;
			const simplified = simplify || filtering ? simplifyServiceRecord(record) : undefined;
			if (filtering && !matchesServiceFilters(simplified!, filters)) continue;
			const json = simplify ? simplified : record;
			items.push({ json: json as IDataObject, pairedItem });
		}
		if (items.length >= limit) break;
	}
	return items;
}
