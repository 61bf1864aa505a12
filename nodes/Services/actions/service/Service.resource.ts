import type { INodeProperties } from 'n8n-workflow';

import * as list from './list.operation';

export { list };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['service'] } },
		options: [
			{
				name: 'List',
				value: 'list',
				description: 'List the services (virtual servers and other products) of the account',
				action: 'List services',
			},
		],
		default: 'list',
	},
	...list.description,
];
