'use strict';
// The /__mock/ admin endpoints (no key): change the running mock's config and data, read its
// request log. Each route calls the mock's handle, so the module API and the admin API agree.

const { generateServices } = require('./data.cjs');
const { errorBody, isPlainObject, send, sendJson } = require('./respond.cjs');

const ADMIN_PREFIX = '/__mock/';
const MAX_ADMIN_BODY = 256 * 1024 * 1024; // room for PUT of 100k+ records

/** JSON merge patch (RFC 7396): objects merge, null removes a key, anything else replaces. */
function mergePatch(target, patch) {
	if (!isPlainObject(patch)) return patch;
	const out = isPlainObject(target) ? { ...target } : {};
	for (const [k, v] of Object.entries(patch)) {
		if (v === null) delete out[k];
		else out[k] = mergePatch(out[k], v);
	}
	return out;
}

function readJson(req) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		let size = 0;
		req.on('data', (c) => {
			size += c.length;
			if (size > MAX_ADMIN_BODY) {
				reject(Object.assign(new Error('body too large'), { status: 413 }));
				req.destroy();
			} else chunks.push(c);
		});
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			if (text.trim() === '') return resolve(undefined);
			try {
				resolve(JSON.parse(text));
			} catch {
				reject(Object.assign(new Error('request body is not valid JSON'), { status: 400 }));
			}
		});
		req.on('error', reject);
	});
}

function nextFreeId(services) {
	let max = 10000;
	for (const r of services) {
		const n = /^srv-(\d+)$/.exec(r?.id_service ?? '');
		if (n) max = Math.max(max, Number(n[1]));
	}
	return `srv-${max + 1}`;
}

/**
 * Answers one admin request. `mock` is the handle startMockApi returns (every change goes through
 * it); `state` the mock's state, read for the current records and the generator's defaults.
 */
async function handleAdmin(mock, state, req, res, pathname) {
	const route = pathname.slice(ADMIN_PREFIX.length).replace(/\/+$/, '');
	const method = req.method;
	const body = method === 'GET' || method === 'DELETE' || method === 'HEAD' ? undefined : await readJson(req);
	const bad = (message) => sendJson(res, 400, errorBody(400, message));
	const { services } = state;

	if (route === 'config') {
		if (method === 'GET') return sendJson(res, 200, mock.getConfig());
		if (method === 'POST' || method === 'PATCH') {
			if (!isPlainObject(body)) return bad('config body must be a JSON object');
			return sendJson(res, 200, mock.setConfig(body));
		}
	} else if (route === 'reset') {
		if (method === 'POST') {
			mock.reset();
			return sendJson(res, 200, { ok: true, count: state.services.length, config: mock.getConfig() });
		}
	} else if (route === 'generate') {
		if (method === 'POST') {
			const b = body ?? {};
			if (!isPlainObject(b)) return bad('generate body must be a JSON object: {count, seed}');
			mock.setServices(generateServices(b.count ?? state.count, b.seed ?? state.seed));
			return sendJson(res, 200, { ok: true, count: state.services.length });
		}
	} else if (route === 'services') {
		if (method === 'GET') return sendJson(res, 200, services);
		if (method === 'PUT') {
			if (!Array.isArray(body)) return bad('PUT /__mock/services takes a JSON array of records');
			mock.setServices(body);
			return sendJson(res, 200, { ok: true, count: body.length });
		}
		if (method === 'POST') {
			if (!isPlainObject(body)) return bad('POST /__mock/services takes one record (a JSON object)');
			const record = { ...body };
			if (record.id_service === undefined) record.id_service = nextFreeId(services);
			if (services.some((r) => r?.id_service === record.id_service)) {
				return sendJson(res, 409, errorBody(409, `A service with id_service ${record.id_service} exists`));
			}
			mock.setServices(services.concat([record]));
			return sendJson(res, 201, record);
		}
	} else if (route.startsWith('services/')) {
		const id = decodeURIComponent(route.slice('services/'.length));
		const index = services.findIndex((r) => r?.id_service === id);
		if (index === -1) return sendJson(res, 404, errorBody(404, `No service with id_service ${id}`));
		if (method === 'GET') return sendJson(res, 200, services[index]);
		if (method === 'PATCH') {
			if (!isPlainObject(body)) return bad('PATCH takes a JSON merge patch object');
			const updated = mergePatch(services[index], body);
			const next = services.slice();
			next[index] = updated;
			mock.setServices(next);
			return sendJson(res, 200, updated);
		}
		if (method === 'DELETE') {
			mock.setServices(services.filter((_, i) => i !== index));
			return send(res, 204, null);
		}
	} else if (route === 'requests') {
		if (method === 'GET') return sendJson(res, 200, mock.requests);
		if (method === 'DELETE') {
			mock.clearRequests();
			return send(res, 204, null);
		}
	} else {
		return sendJson(res, 404, errorBody(404, `No admin route ${pathname}`));
	}
	return sendJson(res, 405, errorBody(405, `Method ${method} is not allowed on ${pathname}`));
}

module.exports = { ADMIN_PREFIX, handleAdmin };
