// Workflow JSON (as the editor exports it) for the e2e cases. Node types and credential names are
// the contract's fixed names, so these are exactly what a user's saved workflow holds.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { CREDENTIAL_TYPE, NODE_TYPE, REPO_DIR, TRIGGER_TYPE } from '../../tools/lib/n8n-instance.mjs';

export { CREDENTIAL_TYPE, NODE_TYPE, TRIGGER_TYPE };
const EXAMPLES_DIR = path.join(REPO_DIR, 'examples');

export const TRIGGER_NAME = "When clicking 'Execute workflow'";
export const SERVICES_NAME = 'List Services';

const uuid = () => crypto.randomUUID();

/** Workflow ids are 16 characters like n8n's own; `key` is padded/cut to fit. */
export function workflowId(key) {
	return `e2e${key.replace(/[^A-Za-z0-9]/g, '')}0000000000000`.slice(0, 16);
}

export function credentialRef(cred) {
	return { [CREDENTIAL_TYPE]: { id: cred.id, name: cred.name } };
}

function manualTrigger() {
	return { parameters: {}, id: uuid(), name: TRIGGER_NAME, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] };
}

function chain(nodes) {
	const connections = {};
	for (let i = 0; i < nodes.length - 1; i++) {
		connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	}
	return connections;
}

function workflow(key, name, nodes, extra = {}) {
	return {
		id: workflowId(key),
		name: `e2e: ${name}`,
		active: false,
		nodes,
		connections: chain(nodes),
		settings: { executionOrder: 'v1' },
		pinData: {},
		...extra,
	};
}

/** Manual Trigger -> Services (resource service, operation list, with the given parameters). */
export function listWorkflow(key, { params = {}, cred, onError, name } = {}) {
	const services = {
		parameters: { resource: 'service', operation: 'list', ...params },
		id: uuid(),
		name: SERVICES_NAME,
		type: NODE_TYPE,
		typeVersion: 1,
		position: [220, 0],
		credentials: credentialRef(cred),
	};
	if (onError) services.onError = onError;
	return workflow(key, name ?? `list ${key}`, [manualTrigger(), services]);
}

/**
 * Manual Trigger -> Services Get. `serviceId` is what the parameter holds: a resource locator
 * ({ __rl: true, mode: 'id' | 'list', value }) or a plain string (as an expression or an AI tool gives it).
 */
export function getWorkflow(key, { serviceId, params = {}, cred, onError }) {
	return listWorkflow(key, { cred, onError, name: `get ${key}`, params: { operation: 'get', serviceId, ...params } });
}

/** Manual Trigger -> HTTP Request with the package's credential as "Predefined Credential Type". */
export function httpRequestWorkflow(key, { url, cred }) {
	const http = {
		parameters: {
			url,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: CREDENTIAL_TYPE,
			options: {},
		},
		id: uuid(),
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [220, 0],
		credentials: credentialRef(cred),
	};
	return workflow(key, 'HTTP Request with servicePlatformApi', [manualTrigger(), http]);
}

/** The shipped example workflow, with its credential reference pointed at `cred`. */
export function exampleWorkflow(file = 'list-active-services.json', cred) {
	const wf = JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8'));
	if (cred) {
		for (const n of wf.nodes) {
			if (n.credentials?.[CREDENTIAL_TYPE]) n.credentials[CREDENTIAL_TYPE] = { id: cred.id, name: cred.name };
		}
	}
	return wf;
}

/**
 * Polling trigger workflow (issue 4): ServicesTrigger -> nothing. Activated through REST; every
 * poll that finds changes becomes an execution. Parameters follow the trigger's own definition.
 */
export function triggerWorkflow(key, { params = {}, cred } = {}) {
	const trigger = {
		// Every minute: the shortest polling interval n8n accepts.
		parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, ...params },
		id: uuid(),
		name: 'Service Changes',
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		credentials: credentialRef(cred),
	};
	return workflow(key, 'services trigger', [trigger]);
}

/** The contract's simplified item for a raw record (missing -> null). */
export function simplify(r) {
	const v = r?.values?.values ?? {};
	const c = v.service?.customize ?? {};
	const nz = (x) => (x === undefined ? null : x);
	return {
		id_service: nz(r?.id_service),
		name: nz(v.name),
		alias: nz(v.alias),
		status: nz(v.status),
		os_id: nz(c.OS?.id),
		os_name: nz(c.OS?.name),
		vcores: nz(c.specifications?.vcores),
		ram_gb: nz(c.specifications?.GB?.ram),
		hd_gb: nz(c.specifications?.GB?.hd),
	};
}
