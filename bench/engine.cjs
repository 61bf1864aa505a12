'use strict';
// Runs the built Services node (dist/) through n8n-core's real WorkflowExecute with the shared
// engine (scripts/lib/engine.cjs), so the benchmark measures the compiled package as n8n loads it
// (no ts-jest, no TypeScript at run time). The peer: the same listing through n8n's own HTTP Request
// (this credential as predefined credential type) and Split Out nodes, from the n8n-nodes-base of
// the installed n8n runtime, in the same engine.
// `packageRoot` names the checkout whose dist/ is run: this one by default, or an earlier commit
// built by `npm run bench -- --against <ref>` (bench/refs.mjs); each gets an engine of its own.
//
// Set N8N_USER_FOLDER / N8N_LOG_LEVEL before requiring this file (see bench/measure.mjs).

const path = require('node:path');

const { createEngine } = require('../scripts/lib/engine.cjs');
const root = path.resolve(__dirname, '..');

const NODE_TYPE = 'n8n-nodes-service-platform.services';
const CREDENTIAL = { servicePlatformApi: { id: 'cred-1', name: 'Service Platform account' } };
const engines = new Map();

/** The engine with the Services node and credential of `packageRoot`'s dist/ (paths as package.json's n8n section names them). */
function engineFor(packageRoot = root) {
  let engine = engines.get(packageRoot);
  if (!engine) {
    const { Services } = require(path.join(packageRoot, 'dist/nodes/Services/Services.node.js'));
    const { ServicePlatformApi } = require(path.join(packageRoot, 'dist/credentials/ServicePlatformApi.credentials.js'));
    engine = createEngine({
      nodeTypes: { [NODE_TYPE]: new Services() },
      credentialTypes: { servicePlatformApi: new ServicePlatformApi() },
    });
    engines.set(packageRoot, engine);
  }
  return engine;
}

function node(name, type, typeVersion, parameters, credentials) {
  return { id: name, name, type, typeVersion, position: [0, 0], parameters, ...(credentials && { credentials }) };
}

/**
 * One manual execution of a workflow with only the Services node (List, Return All).
 * Resolves with the node's output items; throws the node's error if it failed.
 */
async function runList({ baseUrl, apiKey, simplify, packageRoot }) {
  const list = node('Services', NODE_TYPE, 1, { resource: 'service', operation: 'list', returnAll: true, simplify }, CREDENTIAL);
  const { items, error } = await engineFor(packageRoot).runNode({ node: list, credentials: { apiKey, baseUrl } });
  if (error) throw Object.assign(new Error(`List failed: ${error.message}`), { nodeError: error });
  return items;
}

let peerLoaded = false;
/** Registers HTTP Request and Split Out from `nodesBaseDir` (n8n-nodes-base/dist/nodes). */
function loadPeer(nodesBaseDir) {
  if (peerLoaded) return;
  const { HttpRequest } = require(path.join(nodesBaseDir, 'HttpRequest/HttpRequest.node.js'));
  const { SplitOut } = require(path.join(nodesBaseDir, 'Transform/SplitOut/SplitOut.node.js'));
  engineFor().registerNodeType('n8n-nodes-base.httpRequest', new HttpRequest());
  engineFor().registerNodeType('n8n-nodes-base.splitOut', new SplitOut());
  peerLoaded = true;
}

/**
 * The peer: Manual run -> HTTP Request (GET the listing, predefined credential servicePlatformApi)
 * -> Split Out on `data` (the envelope the listing is served in), as a user builds it without this
 * package. Resolves with Split Out's items.
 */
async function runPeer({ baseUrl, apiKey, nodesBaseDir }) {
  loadPeer(nodesBaseDir);
  const http = node(
    'HTTP Request',
    'n8n-nodes-base.httpRequest',
    4.2,
    { method: 'GET', url: `${baseUrl}/v2026/services`, authentication: 'predefinedCredentialType', nodeCredentialType: 'servicePlatformApi', options: {} },
    CREDENTIAL,
  );
  const split = node('Split Out', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: 'data', include: 'noOtherFields', options: {} });
  const { items, error } = await engineFor().runChain({ nodes: [http, split], credentials: { apiKey, baseUrl } });
  if (error) throw Object.assign(new Error(`HTTP Request + Split Out failed: ${error.message}`), { nodeError: error });
  return items;
}

module.exports = { runList, runPeer };
