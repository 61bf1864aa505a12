import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as list from './list.operation';

export { get, list };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['service'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get one service by its ID (id_service): name, alias, status, operating system, vCores, RAM and disk. Use it when the service ID is known.',
				action: 'Get service',
			},
			{
				name: 'List',
				value: 'list',
				description:
					'List the services (virtual servers and other products) of the account, optionally filtered by status or by text in the name or alias',
				action: 'List services',
			},
		],
		default: 'list',
	},
	...get.description,
	...list.description,
];
