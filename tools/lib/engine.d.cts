// Types for engine.cjs, so the type-checked tests can use it.
import type { ExecutionLifecycleHooks } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IConnections,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';

export declare class TestCredentialsHelper extends ICredentialsHelper {
	constructor(types: Record<string, ICredentialType>, data: Record<string, ICredentialDataDecryptedObject>);
	getParentTypes(): string[];
	isCredentialUsableByNode(): boolean;
	authenticate(...args: Parameters<ICredentialsHelper['authenticate']>): ReturnType<ICredentialsHelper['authenticate']>;
	preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined>;
	runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined>;
	getCredentials(...args: Parameters<ICredentialsHelper['getCredentials']>): ReturnType<ICredentialsHelper['getCredentials']>;
	getDecrypted(...args: Parameters<ICredentialsHelper['getDecrypted']>): ReturnType<ICredentialsHelper['getDecrypted']>;
	updateCredentials(): Promise<void>;
	updateCredentialsOauthTokenData(): Promise<void>;
	getCredentialsProperties(type: string): ReturnType<ICredentialsHelper['getCredentialsProperties']>;
}

export interface NodeRunResult {
	/** Output items of the node (main output 0), or [] when it failed. */
	items: INodeExecutionData[];
	/** The error the node threw, as n8n stores it in run data (a plain object). */
	error?: Record<string, unknown> & { message?: string; description?: string; context?: IDataObject };
	run: IRun;
	/** Everything n8n keeps of the run, serialized: the place to look for leaked secrets. */
	readonly serialized: string;
}

export interface Engine {
	nodeTypes: INodeTypes;
	registerNodeType(typeName: string, nodeType: INodeType | IVersionedNodeType): void;
	createAdditionalData(credentials: IDataObject | undefined, hooks: ExecutionLifecycleHooks): IWorkflowExecuteAdditionalData;
	createWorkflow(nodes: INode[], staticData?: IDataObject, connections?: IConnections): Workflow;
	createHooks(mode: WorkflowExecuteMode, node: INode): ExecutionLifecycleHooks;
	execute(options: {
		workflow: Workflow;
		node: INode;
		mode?: WorkflowExecuteMode;
		credentials?: IDataObject;
		main: INodeExecutionData[][];
		/** Whose output `items` holds (default: `node`). */
		outputNode?: string;
	}): Promise<NodeRunResult>;
	runNode(options: { node: INode; credentials?: IDataObject; inputItems?: IDataObject[] }): Promise<NodeRunResult>;
	/** `nodes` connected in order, one manual execution; the last node's items. */
	runChain(options: { nodes: INode[]; credentials?: IDataObject; inputItems?: IDataObject[] }): Promise<NodeRunResult>;
	/**
	 * The credential's Test button as n8n runs a declarative `test` (RoutingNode, the credential's
	 * `authenticate`): what the dialog shows, and the error behind an Error.
	 */
	testCredential(
		typeName: string,
		credentials: IDataObject,
	): Promise<{ status: 'OK' | 'Error'; message: string; error?: Error & { cause?: unknown } }>;
	/** One scheduled poll of a polling trigger through n8n-core's PollTriggerExecutor. */
	poll(options: {
		workflow: Workflow;
		node: INode;
		credentials?: IDataObject;
		/** The poll n8n runs while activating: its error is thrown instead of reported. */
		activation?: boolean;
		/** What getActivationMode() reports (default 'activate' for the activation poll, else 'update'). */
		activationMode?: string;
		pollBudgetMs?: number;
		/** The staging hooks of n8n 2.41's durable poll cursors (PollContext's __commitCursor, __runPoll, resolveNodeStaticData). */
		cursor?: {
			commitCursor?: () => Promise<void>;
			runPoll?: <T>(poll: () => Promise<T>) => Promise<T>;
			resolveNodeStaticData?: () => IDataObject;
		};
	}): Promise<{ emitted: INodeExecutionData[][] | null; error?: Error }>;
}

export declare function createEngine(options: {
	nodeTypes: Record<string, INodeType | IVersionedNodeType>;
	credentialTypes: Record<string, ICredentialType>;
}): Engine;
