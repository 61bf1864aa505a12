'use strict';
// Runs the built Services node (dist/) through n8n-core's real WorkflowExecute, the way
// test/harness/workflow.ts does for the tests, but in plain JavaScript so the benchmark measures
// the compiled package as n8n loads it (no ts-jest, no TypeScript at run time).
//
// Set N8N_USER_FOLDER / N8N_LOG_LEVEL before requiring this file (see bench/measure.mjs).

const path = require('node:path');
const { ExecutionLifecycleHooks, WorkflowExecute } = require('n8n-core');
const { createRunExecutionData, ICredentialsHelper, NodeHelpers, Workflow } = require('n8n-workflow');

const root = path.resolve(__dirname, '..');
const { Services } = require(path.join(root, 'dist/nodes/Services/Services.node.js'));
const { ServicePlatformApi } = require(path.join(root, 'dist/credentials/ServicePlatformApi.credentials.js'));

const NODE_TYPE = 'n8n-nodes-service-platform.services';
const servicesType = new Services();
const credentialType = new ServicePlatformApi();

const nodeTypes = {
  getByName: () => servicesType,
  getByNameAndVersion: (_type, version) => NodeHelpers.getVersionedNodeType(servicesType, version),
  getKnownTypes: () => ({}),
};

/** Hands out the decrypted credential and applies its generic `authenticate` block as n8n does. */
class BenchCredentialsHelper extends ICredentialsHelper {
  constructor(data) {
    super();
    this.data = data;
  }
  getParentTypes() {
    return [];
  }
  isCredentialUsableByNode() {
    return true;
  }
  async authenticate(credentials, _typeName, requestOptions, workflow, node) {
    const headers = { ...(requestOptions.headers ?? {}) };
    for (const [name, value] of Object.entries(credentialType.authenticate.properties.headers ?? {})) {
      headers[name] = workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: credentials });
    }
    return { ...requestOptions, headers };
  }
  async preAuthentication() {
    return undefined;
  }
  async runPreAuthentication() {
    return undefined;
  }
  async getCredentials() {
    throw new Error('not used');
  }
  async getDecrypted() {
    return { ...this.data };
  }
  async updateCredentials() {}
  async updateCredentialsOauthTokenData() {}
  getCredentialsProperties() {
    return credentialType.properties;
  }
}

function additionalData(credentials, hooks) {
  const base = 'http://127.0.0.1:5678';
  return {
    credentialsHelper: new BenchCredentialsHelper(credentials),
    hooks,
    executeWorkflow: async () => {
      throw new Error('not used');
    },
    getRunExecutionData: async () => undefined,
    getRuntimeCredential: async () => undefined,
    currentNodeExecutionIndex: 0,
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

/**
 * One manual execution of a workflow with only the Services node (List, Return All).
 * Resolves with the node's output items; throws the node's error if it failed.
 */
async function runList({ baseUrl, apiKey, simplify }) {
  const node = {
    id: 'services-node',
    name: 'Services',
    type: NODE_TYPE,
    typeVersion: 1,
    position: [0, 0],
    parameters: { resource: 'service', operation: 'list', returnAll: true, simplify },
    credentials: { servicePlatformApi: { id: 'cred-1', name: 'Service Platform account' } },
  };
  const workflow = new Workflow({
    id: 'bench-workflow',
    name: 'bench',
    nodes: [node],
    connections: {},
    active: false,
    nodeTypes,
    settings: { executionOrder: 'v1' },
  });
  const hooks = new ExecutionLifecycleHooks('manual', 'bench-execution', {
    id: 'bench-workflow',
    name: 'bench',
    active: false,
    nodes: [node],
    connections: {},
    createdAt: new Date(),
    updatedAt: new Date(),
    isArchived: false,
    activeVersionId: null,
  });
  const finished = new Promise((resolve) => hooks.addHandler('workflowExecuteAfter', resolve));
  const data = createRunExecutionData({
    executionData: {
      nodeExecutionStack: [{ node, data: { main: [[{ json: {}, pairedItem: { item: 0 } }]] }, source: null }],
    },
  });
  await new WorkflowExecute(additionalData({ apiKey, baseUrl }, hooks), 'manual', data).processRunExecutionData(workflow);
  const run = await finished;
  const task = run.data.resultData.runData[node.name]?.[0];
  const error = task?.error ?? run.data.resultData.error;
  if (error) throw Object.assign(new Error(`List failed: ${error.message}`), { nodeError: error });
  return task.data.main[0];
}

module.exports = { runList };
