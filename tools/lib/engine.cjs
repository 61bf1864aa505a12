'use strict';
// Runs nodes through n8n-core's real WorkflowExecute, the way a manual execution runs them (n8n's
// own node-test harness, which is not published, re-done small), and polling triggers through
// n8n-core's PollTriggerExecutor, the way an active workflow polls. Plain CommonJS so that the jest
// tests (TypeScript sources, via test/harness/workflow.ts) and the benchmark (the built dist/, via
// tools/bench/engine.cjs) share one copy.

const { Container } = require('@n8n/di');
const { ExecuteContext, ExecutionLifecycleHooks, PollContext, PollTriggerExecutor, RoutingNode, WorkflowExecute } = require('n8n-core');
const { createRunExecutionData, ICredentialsHelper, NodeHelpers, Workflow } = require('n8n-workflow');

/**
 * Hands out fixed decrypted credentials and, unlike the helper in n8n's own repository, applies
 * *generic* `authenticate` blocks the way n8n does, so tests see the real `Authorization` header.
 */
class TestCredentialsHelper extends ICredentialsHelper {
	constructor(types, data) {
		super();
		this.types = types;
		this.data = data;
	}

	getParentTypes() {
		return [];
	}

	isCredentialUsableByNode() {
		return true;
	}

	async authenticate(credentials, typeName, requestOptions, workflow, node) {
		const authenticate = this.types[typeName]?.authenticate;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (!authenticate || authenticate.type !== 'generic') return requestOptions;
		if (!workflow || !node) throw new Error('generic authenticate needs the workflow and node');
		const resolve = (value) =>
			typeof value === 'string'
				? workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: credentials })
				: value;
		const headers = { ...(requestOptions.headers ?? {}) };
		for (const [name, value] of Object.entries(authenticate.properties.headers ?? {})) headers[name] = resolve(value);
		const qs = { ...(requestOptions.qs ?? {}) };
		for (const [name, value] of Object.entries(authenticate.properties.qs ?? {})) qs[name] = resolve(value);
		return { ...requestOptions, headers, qs };
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(_details, type) {
		throw new Error(`getCredentials(${type}) is not used by these tests`);
	}

	async getDecrypted(_additionalData, _details, type) {
		const data = this.data[type];
		if (!data) throw new Error(`No test credentials of type ${type}`);
		return { ...data };
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type) {
		return this.types[type]?.properties ?? [];
	}
}

/**
 * An engine over the given node types (keyed `<package name>.<node name>`, as real n8n names them,
 * so exported workflows run unchanged) and credential types (keyed by credential name).
 */
function createEngine({ nodeTypes: initialNodeTypes, credentialTypes }) {
	const registry = { ...initialNodeTypes };
	const lookup = (type) => {
		const nodeType = registry[type];
		if (!nodeType) throw new Error(`Unknown node type ${type}`);
		return nodeType;
	};
	const nodeTypes = {
		getByName: (type) => lookup(type),
		getByNameAndVersion: (type, version) => NodeHelpers.getVersionedNodeType(lookup(type), version),
		getKnownTypes: () => ({}),
	};

	function registerNodeType(typeName, nodeType) {
		registry[typeName] = nodeType;
	}

	/** `credentials` is the decrypted data of the one credential type the node uses, or undefined. */
	function createAdditionalData(credentials, hooks) {
		const data = {};
		if (credentials) for (const name of Object.keys(credentialTypes)) data[name] = { ...credentials };
		const base = 'http://127.0.0.1:5678';
		return {
			credentialsHelper: new TestCredentialsHelper(credentialTypes, data),
			hooks,
			executeWorkflow: async () => {
				throw new Error('sub-workflows are not used by these tests');
			},
			getRunExecutionData: async () => undefined,
			getRuntimeCredential: async () => undefined,
			currentNodeExecutionIndex: 0,
			// n8n-core builds URLs from these; empty strings give "Invalid URL".
			restApiUrl: `${base}/rest`,
			instanceBaseUrl: `${base}/`,
			formBaseUrl: `${base}/form`,
			formWaitingBaseUrl: `${base}/form-waiting`,
			formTestBaseUrl: `${base}/form-test`,
			webhookBaseUrl: `${base}/webhook`,
			webhookWaitingBaseUrl: `${base}/webhook-waiting`,
			webhookTestBaseUrl: `${base}/webhook-test`,
			mcpBaseUrl: `${base}/mcp`,
			mcpTestBaseUrl: `${base}/mcp-test`,
			variables: {},
			logAiEvent: () => {},
		};
	}

	function createWorkflow(nodes, staticData, connections = {}) {
		return new Workflow({
			id: 'test-workflow',
			name: 'test',
			nodes,
			connections,
			active: false,
			nodeTypes,
			staticData,
			settings: { executionOrder: 'v1' },
		});
	}

	/** Lifecycle hooks for one execution; triggers run in an active workflow. */
	function createHooks(mode, node) {
		return new ExecutionLifecycleHooks(mode, `test-${mode}-execution`, {
			id: 'test-workflow',
			name: 'test',
			active: mode === 'trigger',
			nodes: [node],
			connections: {},
			createdAt: new Date(),
			updatedAt: new Date(),
			isArchived: false,
			activeVersionId: null,
		});
	}

	/**
	 * Executes `node` of `workflow` with `main` as its input data, in `mode`. `serialized` (everything
	 * n8n keeps of the run, as JSON: where to look for leaked secrets) is computed on first read, so
	 * the benchmark does not pay for it.
	 */
	async function execute({ workflow, node, mode = 'manual', credentials, main, outputNode = node.name }) {
		const hooks = createHooks(mode, node);
		const finished = new Promise((resolve) => hooks.addHandler('workflowExecuteAfter', resolve));
		const runExecutionData = createRunExecutionData({
			executionData: { nodeExecutionStack: [{ node, data: { main }, source: null }] },
		});
		await new WorkflowExecute(createAdditionalData(credentials, hooks), mode, runExecutionData).processRunExecutionData(workflow);
		const run = await finished;
		const taskData = run.data.resultData.runData[outputNode]?.[0];
		let serialized;
		return {
			items: taskData?.data?.main?.[0] ?? [],
			error: taskData?.error ?? run.data.resultData.error,
			run,
			get serialized() {
				serialized ??= JSON.stringify(run, (_key, value) =>
					value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
				);
				return serialized;
			},
		};
	}

	/** Executes one node as a manual execution, with `inputItems` as its input items. */
	async function runNode({ node, credentials, inputItems = [{}] }) {
		const main = [inputItems.map((json, index) => ({ json, pairedItem: { item: index } }))];
		return await execute({ workflow: createWorkflow([node]), node, credentials, main });
	}

	/**
	 * Executes `nodes` connected one after the other (as one manual execution); returns the last
	 * node's output, or the error of the node that failed.
	 */
	async function runChain({ nodes, credentials, inputItems = [{}] }) {
		const connections = {};
		for (let i = 0; i < nodes.length - 1; i++) {
			connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
		}
		const main = [inputItems.map((json, index) => ({ json, pairedItem: { item: index } }))];
		const workflow = createWorkflow(nodes, undefined, connections);
		const result = await execute({ workflow, node: nodes[0], credentials, main, outputNode: nodes[nodes.length - 1].name });
		const failed = nodes.map((n) => result.run.data.resultData.runData[n.name]?.[0]?.error).find(Boolean);
		return failed && !result.error ? { ...result, error: failed } : result;
	}

	/**
	 * One scheduled poll of the polling trigger `node` of `workflow`, as an active workflow runs it:
	 * n8n-core's PollTriggerExecutor with a real PollContext, so the node's static data lives on in
	 * `workflow` between polls. `activation`: the poll n8n runs while activating (its error is thrown
	 * to the activating user instead of reported). Resolves { emitted, error }: what the poll handed
	 * to `__emit` (null when nothing) and the error n8n received through `__emitError`, if any.
	 * `activationMode` (default 'activate' for the activation poll, else 'update') is what
	 * getActivationMode() reports; `cursor` ({ runPoll, resolveNodeStaticData, commitCursor }) are the
	 * staging hooks n8n 2.41's durable poll cursors give the context (test/harness/n8nProcess.ts).
	 */
	async function poll({ workflow, node, credentials, activation = false, activationMode, pollBudgetMs, cursor = {} }) {
		const additionalData = createAdditionalData(credentials, createHooks('trigger', node));
		let emitted = null;
		let error;
		const pollFunctions = new PollContext(
			workflow,
			node,
			additionalData,
			'trigger',
			activationMode ?? (activation ? 'activate' : 'update'),
			(data) => {
				emitted = data;
			},
			(reported) => {
				error = reported;
			},
			cursor.commitCursor,
			cursor.runPoll,
			cursor.resolveNodeStaticData,
			pollBudgetMs === undefined ? undefined : () => pollBudgetMs,
		);
		await Container.get(PollTriggerExecutor).create(workflow, node, pollFunctions, () => true)(activation);
		return { emitted, error };
	}

	/**
	 * The Test button of a credential with a declarative `test`, as n8n's CredentialsTester runs it
	 * (n8n 2.41.1 and 1.123.81, services/credentials-tester.service.js runRequestTest): the test request
	 * as the routing of a temporary node's one property, sent by n8n-core's RoutingNode with the
	 * credential (so through its `authenticate`), and the outcome as the dialog shows it.
	 */
	async function testCredential(typeName, credentials) {
		const { test } = credentialTypes[typeName];
		const type = 'test.credentialTest';
		const nodeType = {
			description: {
				displayName: 'Temp',
				name: 'credentialTest',
				group: ['transform'],
				version: 1,
				description: 'The credential test request',
				defaults: { name: 'Temp-Node' },
				inputs: ['main'],
				outputs: ['main'],
				credentials: [{ name: typeName, required: true }],
				properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: test.request }, default: '' }],
			},
		};
		registerNodeType(type, nodeType);
		const node = {
			id: 'temp',
			name: 'Temp-Node',
			type,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
			credentials: { [typeName]: { id: 'cred-1', name: 'Tested credential' } },
		};
		const workflow = createWorkflow([node]);
		const additionalData = createAdditionalData(credentials, createHooks('internal', node));
		const inputData = { main: [[{ json: {} }]] };
		const executeData = { node, data: {}, source: null };
		const context = new ExecuteContext(
			workflow,
			node,
			additionalData,
			'internal',
			createRunExecutionData(),
			0,
			[],
			inputData,
			executeData,
			[],
		);
		const decrypted = { id: 'cred-1', name: 'Tested credential', type: typeName, data: { ...credentials } };
		try {
			await workflow.expression.acquireIsolate();
			await new RoutingNode(context, nodeType, decrypted).runNode();
		} catch (error) {
			// n8n's mapping, in its order: an HTTP answer (the test's responseCode rules, then its status), a code, the message.
			const response = error.cause?.response;
			if (response) {
				const rule = (test.rules ?? []).find((r) => r.type === 'responseCode' && r.properties.value === response.status);
				if (rule) return { status: 'Error', message: rule.properties.message, error };
				if (response.status < 199 || response.status > 299) {
					return { status: 'Error', message: response.statusText || `Received HTTP status code: ${response.status}`, error };
				}
			} else if (error.cause?.code) {
				return { status: 'Error', message: error.cause.code, error };
			}
			return { status: 'Error', message: error.message.toString(), error };
		} finally {
			await workflow.expression.releaseIsolate();
		}
		return { status: 'OK', message: 'Connection successful!' };
	}

	return {
		nodeTypes,
		registerNodeType,
		createAdditionalData,
		createWorkflow,
		createHooks,
		execute,
		runNode,
		runChain,
		poll,
		testCredential,
	};
}

module.exports = { createEngine, TestCredentialsHelper };
