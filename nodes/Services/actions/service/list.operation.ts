import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { fetchServiceRecords } from '../../../shared/listServices';
import { requestOptionsProperty, serviceFiltersProperty, simplifyProperty } from '../../../shared/descriptions';
import { hasServiceFilters, matchesServiceFilters, parseServiceFilters } from '../../../shared/filters';
import { simplifyServiceRecord } from '../../../shared/serviceRecord';
import { DEFAULT_TIMEOUT_MS } from '../../../shared/transport';

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

/** List: one output item per service record, filtered, then limited, each paired to the input item. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex, 50) as number);
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const filters = parseServiceFilters(this.getNodeParameter('filters', itemIndex, {}));
	const filtering = hasServiceFilters(filters);
	const options = this.getNodeParameter('options', itemIndex, {}) as { timeout?: number };

	const records = await fetchServiceRecords.call(this, {
		itemIndex,
		timeoutMs: options.timeout ?? DEFAULT_TIMEOUT_MS,
	});

	// One shared pairing object: every output item of this input points at the same source item.
	const pairedItem = { item: itemIndex };
	const items: INodeExecutionData[] = [];
	for (const record of records) {
		if (items.length >= limit) break;
		const simplified = simplify || filtering ? simplifyServiceRecord(record) : undefined;
		if (filtering && !matchesServiceFilters(simplified!, filters)) continue;
		const json = simplify ? simplified : record;
		items.push({ json: json as IDataObject, pairedItem });
	}
	return items;
}
