import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { createRunExecutionData, NodeHelpers, Workflow } from 'n8n-workflow';

import { ServicePlatformApi } from '../../credentials/ServicePlatformApi.credentials';
import { Services } from '../../nodes/Services/Services.node';
import { TestCredentialsHelper } from './credentials';

export const PACKAGE_NAME = 'n8n-nodes-service-platform';
export const SERVICES_NODE_TYPE = `${PACKAGE_NAME}.services`;

/** The package's node classes under the type names real n8n gives them, so exported workflows run unchanged. */
const packageNodeTypes: Record<string, INodeType | IVersionedNodeType> = {
	[SERVICES_NODE_TYPE]: new Services(),
};

export function registerNodeType(typeName: string, nodeType: INodeType | IVersionedNodeType): void {
	packageNodeTypes[typeName] = nodeType;
}

export const nodeTypes: INodeTypes = {
	getByName: (type) => lookup(type),
	getByNameAndVersion: (type, version) => NodeHelpers.getVersionedNodeType(lookup(type), version),
	getKnownTypes: () => ({}),
};

function lookup(type: string): INodeType | IVersionedNodeType {
	const nodeType = packageNodeTypes[type];
	if (!nodeType) throw new Error(`Unknown node type ${type}`);
	return nodeType;
}

export const credentialTypes = { servicePlatformApi: new ServicePlatformApi() };

export interface TestCredentials {
	apiKey: string;
	baseUrl: string;
}

export function createAdditionalData(
	credentials: TestCredentials | undefined,
	hooks: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	const data: Record<string, ICredentialDataDecryptedObject> = credentials
		? { servicePlatformApi: { ...credentials } }
		: {};
	return {
		credentialsHelper: new TestCredentialsHelper(credentialTypes, data),
		hooks,
		executeWorkflow: async () => {
			throw new Error('sub-workflows are not used by these tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		variables: {},
		logAiEvent: () => {},
	} as unknown as IWorkflowExecuteAdditionalData;
}

export function createWorkflow(nodes: INode[], staticData?: IDataObject): Workflow {
	return new Workflow({
		id: 'test-workflow',
		name: 'test',
		nodes,
		connections: {},
		active: false,
		nodeTypes,
		staticData,
		settings: { executionOrder: 'v1' },
	});
}

export function servicesNode(parameters: INodeParameters, overrides: Partial<INode> = {}): INode {
	return {
		id: 'services-node',
		name: 'Services',
		type: SERVICES_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { resource: 'service', operation: 'list', ...parameters },
		credentials: { servicePlatformApi: { id: 'cred-1', name: 'Service Platform account' } },
		...overrides,
	};
}

export interface NodeRunResult {
	/** Output items of the node (main output 0), or [] when it failed. */
	items: INodeExecutionData[];
	/** The error the node threw, as n8n stores it in run data (a plain object). */
	error?: Record<string, unknown> & { message?: string; description?: string; context?: IDataObject };
	run: IRun;
	/** Everything n8n keeps of the run, serialized: the place to look for leaked secrets. */
	serialized: string;
}

/**
 * Executes one node through n8n-core's real WorkflowExecute, the way a manual execution runs it,
 * with `inputItems` as its input and `credentials` as its decrypted credential.
 */
export async function runNode({
	node,
	credentials,
	inputItems = [{}],
}: {
	node: INode;
	credentials?: TestCredentials;
	inputItems?: IDataObject[];
}): Promise<NodeRunResult> {
	const workflow = createWorkflow([node]);
	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', {
		id: 'test-workflow',
		name: 'test',
		active: false,
		nodes: [node],
		connections: {},
		createdAt: new Date(),
		updatedAt: new Date(),
		isArchived: false,
		activeVersionId: null,
	} as never);
	const finished = new Promise<IRun>((resolve) => hooks.addHandler('workflowExecuteAfter', resolve));
	const additionalData = createAdditionalData(credentials, hooks);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{
					node,
					data: { main: [inputItems.map((json, index) => ({ json, pairedItem: { item: index } }))] },
					source: null,
				},
			],
		},
	});
	await new WorkflowExecute(additionalData, 'manual', runExecutionData).processRunExecutionData(workflow);
	const run = await finished;
	const taskData = run.data.resultData.runData[node.name]?.[0];
	const serialized = JSON.stringify(run, (_key, value: unknown) =>
		value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
	);
	return {
		items: taskData?.data?.main?.[0] ?? [],
		error: (taskData?.error ?? run.data.resultData.error) as NodeRunResult['error'],
		run,
		serialized,
	};
}
