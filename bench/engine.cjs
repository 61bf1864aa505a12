'use strict';
// Runs the built Services node (dist/) through n8n-core's real WorkflowExecute with the tests'
// engine (scripts/lib/engine.cjs), so the benchmark measures the compiled package as n8n loads it
// (no ts-jest, no TypeScript at run time).
//
// Set N8N_USER_FOLDER / N8N_LOG_LEVEL before requiring this file (see bench/measure.mjs).

const path = require('node:path');

const root = path.resolve(__dirname, '..');
const { createEngine } = require('../scripts/lib/engine.cjs');
const { Services } = require(path.join(root, 'dist/nodes/Services/Services.node.js'));
const { ServicePlatformApi } = require(path.join(root, 'dist/credentials/ServicePlatformApi.credentials.js'));

const NODE_TYPE = 'n8n-nodes-service-platform.services';
const engine = createEngine({
  nodeTypes: { [NODE_TYPE]: new Services() },
  credentialTypes: { servicePlatformApi: new ServicePlatformApi() },
});

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
  const { items, error } = await engine.runNode({ node, credentials: { apiKey, baseUrl } });
  if (error) throw Object.assign(new Error(`List failed: ${error.message}`), { nodeError: error });
  return items;
}

module.exports = { runList };
