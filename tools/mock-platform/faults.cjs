'use strict';
// The ways the mock misbehaves on the listing endpoint: what each fault kind answers.

const { JSON_TYPE, errorBody, isPlainObject, send, sendJson } = require('./respond.cjs');

const FAULT_KINDS = [
	'status',
	'html',
	'invalid-json',
	'truncated-json',
	'empty',
	'null',
	'number',
	'error-object',
	'bad-record',
	'duplicate-ids',
	'reset',
	'hang',
	'no-content',
	'redirect',
	'raw',
];
/** Faults that still answer with the listing, but with altered records. */
const RECORD_FAULTS = ['bad-record', 'duplicate-ids'];

const HTML_PAGE =
	'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Sign in - Service Platform</title></head>\n' +
	'<body><h1>Sign in</h1><form method="post" action="/login"><input name="email"><input name="password" ' +
	'type="password"><button>Sign in</button></form></body></html>\n';

/** Accepts a fault object, a CLI-style string ("html", "status:503", "503"), or null/undefined. */
function normalizeFault(fault) {
	if (fault === undefined || fault === null || fault === false || fault === '' || fault === 'none') return null;
	if (typeof fault === 'number') fault = { status: fault };
	if (typeof fault === 'string') {
		const [head, arg] = fault.split(':', 2);
		if (/^\d{3}$/.test(head)) fault = { status: Number(head) };
		else if (head === 'status') fault = { status: Number(arg) };
		else fault = { kind: head };
	}
	if (!isPlainObject(fault)) throw new TypeError('fault must be an object, a string or null');
	const f = { ...fault };
	if (f.kind === undefined && f.status !== undefined) f.kind = 'status';
	if (!FAULT_KINDS.includes(f.kind)) {
		throw new TypeError(`unknown fault kind "${f.kind}"; known: ${FAULT_KINDS.join(', ')}`);
	}
	if (f.status !== undefined) {
		f.status = Number(f.status);
		if (!Number.isInteger(f.status) || f.status < 200 || f.status > 599) {
			throw new TypeError('fault.status must be an HTTP status code from 200 to 599');
		}
	}
	if (f.kind === 'status' && f.status === undefined) throw new TypeError('fault kind "status" needs fault.status');
	if (f.kind === 'redirect' && typeof f.location !== 'string') throw new TypeError('fault kind "redirect" needs fault.location');
	if (f.times !== undefined && !(Number.isInteger(f.times) && f.times > 0)) {
		throw new TypeError('fault.times must be a positive integer');
	}
	if (f.page !== undefined && !(Number.isInteger(f.page) && f.page > 0)) {
		throw new TypeError('fault.page must be a positive integer');
	}
	return f;
}

/** The records a record fault serves: one with a wrong type, or two with the same id. */
function recordsForFault(services, fault) {
	if (!fault || services.length === 0) return services;
	if (fault.kind === 'bad-record') {
		const index = Math.min(fault.index ?? 0, services.length - 1);
		const copy = services.slice();
		const bad = structuredClone(services[index]);
		const specs = bad?.values?.values?.service?.customize?.specifications;
		if (specs) specs.vcores = String(specs.vcores);
		copy[index] = bad;
		return copy;
	}
	if (fault.kind === 'duplicate-ids') {
		const copy = services.slice();
		const twin = structuredClone(services[Math.min(1, services.length - 1)]);
		twin.id_service = services[0].id_service;
		if (services.length > 1) copy[1] = twin;
		else copy.push(twin);
		return copy;
	}
	return services;
}

/** Answers an authorised listing request with `fault`; body() is the listing the fault starts from. */
function answerWithFault(res, fault, body) {
	switch (fault.kind) {
		case 'status': {
			const headers = {};
			if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
			if (fault.location !== undefined) headers.location = fault.location;
			// Errors carry the usual JSON error body; an unexpected 2xx/3xx comes without a body.
			if (fault.status >= 400) return sendJson(res, fault.status, errorBody(fault.status, fault.message), headers);
			return send(res, fault.status, null, headers);
		}
		case 'redirect':
			return send(res, fault.status ?? 302, null, { location: fault.location });
		case 'html':
			return send(res, fault.status ?? 200, HTML_PAGE, { 'content-type': 'text/html; charset=utf-8' });
		case 'invalid-json':
			return send(res, 200, "[{'id_service': 'srv-10001', values: {values: {name: 'web-01'}}},]", {
				'content-type': JSON_TYPE,
			});
		case 'truncated-json': {
			const full = body();
			return send(res, 200, full.subarray(0, Math.max(1, Math.floor(full.length / 2))), { 'content-type': JSON_TYPE });
		}
		case 'empty':
			return send(res, 200, '', { 'content-type': JSON_TYPE });
		case 'null':
			return send(res, 200, 'null', { 'content-type': JSON_TYPE });
		case 'number':
			return send(res, 200, '42', { 'content-type': JSON_TYPE });
		case 'error-object':
			return sendJson(res, 200, {
				error: fault.error ?? 'internal_error',
				message: fault.message ?? 'The service list could not be loaded. Please try again later.',
			});
		case 'bad-record':
		case 'duplicate-ids':
			return send(res, 200, body(), { 'content-type': JSON_TYPE });
		case 'no-content':
			return send(res, 204, null);
		case 'raw':
			return send(res, fault.status ?? 200, fault.body ?? '', {
				'content-type': fault.contentType ?? JSON_TYPE,
			});
		case 'reset': {
			// Promise the whole body, send part of it, then drop the connection.
			const full = body();
			res.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': full.length });
			res.write(full.subarray(0, Math.max(1, Math.floor(full.length / 2))), () => {
				setImmediate(() => res.socket?.destroy());
			});
			return undefined;
		}
		case 'hang':
			return undefined; // closed by close()/reset() or by the client
		default:
			return sendJson(res, 500, errorBody(500, `mock: unhandled fault ${fault.kind}`));
	}
}

module.exports = { FAULT_KINDS, RECORD_FAULTS, normalizeFault, recordsForFault, answerWithFault };
