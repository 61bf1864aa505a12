import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { ServicePlatformApi } from '../../credentials/ServicePlatformApi.credentials';
import { Services } from '../../nodes/Services/Services.node';
import { ServicesTrigger } from '../../nodes/ServicesTrigger/ServicesTrigger.node';
import type { NodeRunResult } from '../../tools/lib/engine.cjs';
import { createEngine } from '../../tools/lib/engine.cjs';

export type { NodeRunResult };

export const PACKAGE_NAME = 'n8n-nodes-service-platform';
export const SERVICES_NODE_TYPE = `${PACKAGE_NAME}.services`;
export const SERVICES_TRIGGER_TYPE = `${PACKAGE_NAME}.servicesTrigger`;

/** The package's TypeScript sources in n8n's real engine (tools/lib/engine.cjs). */
const engine = createEngine({
	nodeTypes: { [SERVICES_NODE_TYPE]: new Services(), [SERVICES_TRIGGER_TYPE]: new ServicesTrigger() },
	credentialTypes: { servicePlatformApi: new ServicePlatformApi() },
});

export const { nodeTypes, registerNodeType, createAdditionalData, createWorkflow, createHooks, execute, poll, testCredential } = engine;

export interface TestCredentials extends IDataObject {
	apiKey: string;
	baseUrl: string;
}

/** Executes one node through n8n-core's WorkflowExecute as a manual execution. */
export async function runNode(options: { node: INode; credentials?: TestCredentials; inputItems?: IDataObject[] }): Promise<NodeRunResult> {
	return await engine.runNode(options);
}

/** A node of this package, with the test credential (its data comes from runNode's `credentials`). */
function packageNode(node: Pick<INode, 'id' | 'name' | 'type' | 'parameters'>, overrides: Partial<INode>): INode {
	return {
		...node,
		typeVersion: 1,
		position: [0, 0],
		credentials: { servicePlatformApi: { id: 'cred-1', name: 'Service Platform account' } },
		...overrides,
	};
}

export function servicesNode(parameters: INodeParameters, overrides: Partial<INode> = {}): INode {
	const list = { resource: 'service', operation: 'list', ...parameters };
	return packageNode({ id: 'services-node', name: 'Services', type: SERVICES_NODE_TYPE, parameters: list }, overrides);
}

/** A Services Trigger node watching every event, unless `parameters` says otherwise. */
export function servicesTriggerNode(parameters: INodeParameters = {}, overrides: Partial<INode> = {}): INode {
	const allEvents = { events: ['created', 'statusChanged', 'specsChanged', 'removed'], ...parameters };
	return packageNode({ id: 'trigger-node', name: 'Services Trigger', type: SERVICES_TRIGGER_TYPE, parameters: allEvents }, overrides);
}

/**
 * `parameters` with a Limit of 1,000 + the item's index, so that each input item reads a listing of
 * its own: items whose parameters resolve the same share one listing per run, and a test that
 * scripts the server's answer per request (item 0's, then item 1's) needs each item to send its own.
 * No test listing here holds 1,000 services, so the output is the whole listing, as with Return All.
 */
export function ownListingPerItem(parameters: INodeParameters = {}): INodeParameters {
	if (parameters.returnAll !== undefined || parameters.limit !== undefined) {
		throw new Error('ownListingPerItem sets Return All and Limit itself');
	}
	return { ...parameters, returnAll: false, limit: '={{ 1000 + $itemIndex }}' };
}
