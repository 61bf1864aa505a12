'use strict';
// Runs the built Services node (dist/) through n8n-core's real WorkflowExecute with the shared
// engine (tools/lib/engine.cjs), so the benchmark measures the compiled package as n8n loads it
// (no ts-jest, no TypeScript at run time); the built Services Trigger likewise through n8n-core's
// PollTriggerExecutor (tools/bench/trigger.mjs). The peer: the same listing through n8n's own HTTP Request
// (this credential as predefined credential type) and Split Out nodes, from the n8n-nodes-base of
// the installed n8n runtime, in the same engine.
//
// Set N8N_USER_FOLDER / N8N_LOG_LEVEL before requiring this file (see tools/bench/measure.mjs).

const path = require('node:path');

const { createEngine } = require('../lib/engine.cjs');
const root = path.resolve(__dirname, '../..');
const { Services } = require(path.join(root, 'dist/nodes/Services/Services.node.js'));
const { ServicesTrigger } = require(path.join(root, 'dist/nodes/ServicesTrigger/ServicesTrigger.node.js'));
const { ServicePlatformApi } = require(path.join(root, 'dist/credentials/ServicePlatformApi.credentials.js'));

const NODE_TYPE = 'n8n-nodes-service-platform.services';
const TRIGGER_TYPE = 'n8n-nodes-service-platform.servicesTrigger';
const CREDENTIAL = { servicePlatformApi: { id: 'cred-1', name: 'Service Platform account' } };
const engine = createEngine({
	nodeTypes: { [NODE_TYPE]: new Services(), [TRIGGER_TYPE]: new ServicesTrigger() },
	credentialTypes: { servicePlatformApi: new ServicePlatformApi() },
});

function node(name, type, typeVersion, parameters, credentials) {
	return { id: name, name, type, typeVersion, position: [0, 0], parameters, ...(credentials && { credentials }) };
}

// `npm run bench -- --against <ref>` also runs the dist/ of an earlier commit, built in a checkout
// of its own (tools/bench/refs.mjs): an engine of its own per checkout, over that checkout's node and
// credential (as its package.json's n8n section names them).
const refEngines = new Map();
function engineFor(packageRoot) {
	if (!packageRoot || packageRoot === root) return engine;
	if (!refEngines.has(packageRoot)) {
		const ref = (file) => require(path.join(packageRoot, file));
		refEngines.set(
			packageRoot,
			createEngine({
				nodeTypes: {
					[NODE_TYPE]: new (ref('dist/nodes/Services/Services.node.js').Services)(),
					[TRIGGER_TYPE]: new (ref('dist/nodes/ServicesTrigger/ServicesTrigger.node.js').ServicesTrigger)(),
				},
				credentialTypes: { servicePlatformApi: new (ref('dist/credentials/ServicePlatformApi.credentials.js').ServicePlatformApi)() },
			}),
		);
	}
	return refEngines.get(packageRoot);
}

/**
 * One manual execution of a workflow with only the Services node (List, Return All; `options`: its
 * Options, else the defaults), of this checkout or of `packageRoot` (an earlier commit's checkout).
 * Resolves with the node's output items; throws the node's error if it failed.
 */
async function runList({ baseUrl, apiKey, simplify, packageRoot, options }) {
	const parameters = { resource: 'service', operation: 'list', returnAll: true, simplify, ...(options && { options }) };
	const list = node('Services', NODE_TYPE, 1, parameters, CREDENTIAL);
	const { items, error } = await engineFor(packageRoot).runNode({ node: list, credentials: { apiKey, baseUrl } });
	if (error) throw Object.assign(new Error(`List failed: ${error.message}`), { nodeError: error });
	return items;
}

/**
 * One manual execution of Get (By ID, `id`; `options`: its Options, else the defaults), of this
 * checkout or of `packageRoot`. Resolves with the node's output items; throws the node's error.
 */
async function runGet({ baseUrl, apiKey, id, simplify = true, packageRoot, options }) {
	const parameters = {
		resource: 'service',
		operation: 'get',
		serviceId: { __rl: true, mode: 'id', value: id },
		simplify,
		...(options && { options }),
	};
	const get = node('Services', NODE_TYPE, 1, parameters, CREDENTIAL);
	const { items, error } = await engineFor(packageRoot).runNode({ node: get, credentials: { apiKey, baseUrl } });
	if (error) throw Object.assign(new Error(`Get failed: ${error.message}`), { nodeError: error });
	return items;
}

let peerLoaded = false;
/** Registers HTTP Request and Split Out from `nodesBaseDir` (n8n-nodes-base/dist/nodes). */
function loadPeer(nodesBaseDir) {
	if (peerLoaded) return;
	const { HttpRequest } = require(path.join(nodesBaseDir, 'HttpRequest/HttpRequest.node.js'));
	const { SplitOut } = require(path.join(nodesBaseDir, 'Transform/SplitOut/SplitOut.node.js'));
	engine.registerNodeType('n8n-nodes-base.httpRequest', new HttpRequest());
	engine.registerNodeType('n8n-nodes-base.splitOut', new SplitOut());
	peerLoaded = true;
}

/**
 * HTTP Request's own pagination over a listing in pages of `{data, next}` (`?page=n`), as a user sets
 * it up: the page number in the query, done when `next` is null. Each page one item; no time limit
 * for the whole listing, HTTP Request's own 5 min for each request.
 */
const PAGINATION = {
	paginationMode: 'updateAParameterInEachRequest',
	parameters: { parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }] },
	paginationCompleteWhen: 'other',
	completeExpression: '={{ $response.body.next === null }}',
};

/**
 * The peer: Manual run -> HTTP Request (GET the listing, predefined credential servicePlatformApi;
 * `paged`: with its pagination) -> Split Out on `data` (the envelope the listing is served in), as a
 * user builds it without this package. Resolves with Split Out's items.
 */
async function runPeer({ baseUrl, apiKey, nodesBaseDir, paged = false }) {
	loadPeer(nodesBaseDir);
	const http = node(
		'HTTP Request',
		'n8n-nodes-base.httpRequest',
		4.2,
		{
			method: 'GET',
			url: `${baseUrl}/v2026/services`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'servicePlatformApi',
			options: paged ? { pagination: { pagination: PAGINATION } } : {},
		},
		CREDENTIAL,
	);
	const split = node('Split Out', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: 'data', include: 'noOtherFields', options: {} });
	const { items, error } = await engine.runChain({ nodes: [http, split], credentials: { apiKey, baseUrl } });
	if (error) throw Object.assign(new Error(`HTTP Request + Split Out failed: ${error.message}`), { nodeError: error });
	return items;
}

// The Services Trigger with every event and its defaults (Simplify on, no filters), `parameters` added.
function triggerNode(parameters = {}) {
	return node(
		'Services Trigger',
		TRIGGER_TYPE,
		1,
		{ events: ['created', 'statusChanged', 'specsChanged', 'removed'], simplify: true, ...parameters },
		CREDENTIAL,
	);
}
const trigger = triggerNode();
const workflowNodes = new WeakMap();

/**
 * A workflow with only the Services Trigger (of this checkout, or of `packageRoot`: an earlier
 * commit's), as n8n holds an active one: its static data (the trigger's remembered services;
 * `staticData` as loaded from the database, or none) lives on in it from poll to poll.
 * `parameters` are added to the trigger's defaults (e.g. { resync: { onStart: true } }).
 */
function triggerWorkflow(staticData, { packageRoot, parameters } = {}) {
	const triggerOf = parameters === undefined ? trigger : triggerNode(parameters);
	const workflow = engineFor(packageRoot).createWorkflow([triggerOf], staticData);
	workflowNodes.set(workflow, { node: triggerOf, packageRoot });
	return workflow;
}

/** One scheduled poll of the trigger of `workflow`. Resolves with the emitted items, or null when nothing changed. */
async function pollTrigger({ workflow, baseUrl, apiKey }) {
	const { node: triggerOf, packageRoot } = workflowNodes.get(workflow) ?? { node: trigger };
	const { emitted, error } = await engineFor(packageRoot).poll({ workflow, node: triggerOf, credentials: { apiKey, baseUrl } });
	if (error) throw Object.assign(new Error(`Services Trigger poll failed: ${error.message}`), { nodeError: error });
	return emitted === null ? null : emitted[0];
}

module.exports = { runList, runGet, runPeer, triggerWorkflow, pollTrigger };
