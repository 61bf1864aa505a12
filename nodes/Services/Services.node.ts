import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { router } from './actions/router';
import * as service from './actions/service/Service.resource';
import { listSearch } from './methods';
import { CREDENTIAL_TYPE } from '../shared/transport/types';

export class Services implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Services',
		name: 'services',
		icon: { light: 'file:../../icons/servicePlatform.svg', dark: 'file:../../icons/servicePlatform.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: '={{ { list: "List services", get: "Get service" }[$parameter["operation"]] ?? $parameter["operation"] }}',
		description: 'Read the services (virtual servers and other products) of a hosting platform account',
		defaults: { name: 'Services' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Service', value: 'service' }],
				default: 'service',
			},
			...service.description,
		],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
