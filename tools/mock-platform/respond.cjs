'use strict';
// How the mock writes answers: exact bodies with a content-length, and the API's JSON error body.

const http = require('node:http');

const JSON_TYPE = 'application/json; charset=utf-8';

const ERROR_CODES = {
	400: 'bad_request',
	401: 'unauthorized',
	403: 'forbidden',
	404: 'not_found',
	405: 'method_not_allowed',
	408: 'request_timeout',
	409: 'conflict',
	410: 'gone',
	413: 'payload_too_large',
	415: 'unsupported_media_type',
	422: 'unprocessable_entity',
	429: 'too_many_requests',
	500: 'internal_error',
	501: 'not_implemented',
	502: 'bad_gateway',
	503: 'service_unavailable',
	504: 'gateway_timeout',
};

function errorBody(status, message) {
	return {
		error: ERROR_CODES[status] || (status >= 500 ? 'server_error' : 'client_error'),
		message: message || http.STATUS_CODES[status] || 'Error',
	};
}

function send(res, status, body, headers = {}) {
	if (res.destroyed || res.writableEnded) return;
	const buffer = body === undefined || body === null ? null : Buffer.isBuffer(body) ? body : Buffer.from(body);
	const h = { ...headers };
	if (buffer) h['content-length'] = buffer.length;
	else if (status !== 204 && status !== 304) h['content-length'] = 0;
	res.writeHead(status, h);
	res.end(buffer ?? undefined);
}

const sendJson = (res, status, value, headers = {}) => send(res, status, JSON.stringify(value), { 'content-type': JSON_TYPE, ...headers });

function isPlainObject(v) {
	return v !== null && typeof v === 'object' && !Array.isArray(v);
}

module.exports = { JSON_TYPE, errorBody, send, sendJson, isPlainObject };
