'use strict';
// Embedded mock of the platform's service-management API, for tests, the benchmark, the demo and
// e2e runs in a real n8n. Node standard library only; never part of the published package.
// CommonJS so that ts-jest (CommonJS, no VM modules) can require it; tools/mock-platform/mock.mjs re-exports it.
// This module holds the state, the config and the server; listing.cjs answers the API, faults.cjs
// misbehaves, admin.cjs changes the running mock.

const http = require('node:http');
const crypto = require('node:crypto');

const { generateServices } = require('./data.cjs');
const { ADMIN_PREFIX, handleAdmin } = require('./admin.cjs');
const { FAULT_KINDS, normalizeFault } = require('./faults.cjs');
const { API_PATH, NEXT_FORMS, NEXT_URLS, SHAPES, createListing } = require('./listing.cjs');
const { errorBody, isPlainObject, sendJson } = require('./respond.cjs');

const DEFAULT_MAX_REQUESTS = 1000;
const DEFAULT_CONFIG = { shape: 'array', envelopeKey: 'data', fault: null, delayMs: 0, pageSize: 0, nextForm: 'next', nextUrl: 'absolute' };
const CONFIG_KEYS = Object.keys(DEFAULT_CONFIG);

function normalizeConfig(base, partial) {
	const next = { ...base };
	if (!isPlainObject(partial)) throw new TypeError('config must be an object');
	for (const [k, v] of Object.entries(partial)) {
		if (k === 'shape') {
			if (!SHAPES.includes(v)) throw new TypeError(`shape must be one of ${SHAPES.join(', ')}`);
			next.shape = v;
		} else if (k === 'envelopeKey') {
			if (typeof v !== 'string' || v === '') throw new TypeError('envelopeKey must be a non-empty string');
			next.envelopeKey = v;
		} else if (k === 'fault') {
			next.fault = normalizeFault(v);
		} else if (k === 'delayMs') {
			const d = Number(v ?? 0);
			if (!Number.isFinite(d) || d < 0) throw new TypeError('delayMs must be a number >= 0');
			next.delayMs = d;
		} else if (k === 'pageSize') {
			const n = v === null ? 0 : Number(v);
			if (!Number.isInteger(n) || n < 0) throw new TypeError('pageSize must be a whole number >= 1 (0 or null: one page)');
			next.pageSize = n;
		} else if (k === 'nextForm') {
			if (!NEXT_FORMS.includes(v)) throw new TypeError(`nextForm must be one of ${NEXT_FORMS.join(', ')}`);
			next.nextForm = v;
		} else if (k === 'nextUrl') {
			if (!NEXT_URLS.includes(v)) throw new TypeError(`nextUrl must be one of ${NEXT_URLS.join(', ')}`);
			next.nextUrl = v;
		} else {
			throw new TypeError(`unknown config key "${k}"; known: ${CONFIG_KEYS.join(', ')}`);
		}
	}
	return next;
}

/**
 * Starts the mock on 127.0.0.1. See server.d.cts for the options and the returned handle.
 */
async function startMockApi(options = {}) {
	const initialConfig = normalizeConfig(
		DEFAULT_CONFIG,
		Object.fromEntries(CONFIG_KEYS.filter((k) => options[k] !== undefined).map((k) => [k, options[k]])),
	);
	const count = options.count ?? 36;
	const seed = options.seed ?? 1;
	const initialServices = () => (options.services ? structuredClone(options.services) : generateServices(count, seed));

	const timers = new Set();
	const sockets = new Set();
	let closed = false;
	const state = {
		apiKey: options.apiKey || 'mock-' + crypto.randomBytes(12).toString('hex'),
		count,
		seed,
		maxRequests: options.maxRequests ?? DEFAULT_MAX_REQUESTS,
		config: initialConfig,
		services: initialServices(),
		dataVersion: 0, // bumped on every change of the records (the listing caches its body per version)
		requests: [],
		later(ms, fn) {
			if (!ms) return fn();
			const t = setTimeout(() => {
				timers.delete(t);
				fn();
			}, ms);
			timers.add(t);
			return undefined;
		},
	};
	const listing = createListing(state);

	const server = http.createServer((req, res) => {
		let pathname;
		try {
			pathname = new URL(req.url, 'http://127.0.0.1').pathname;
		} catch {
			return sendJson(res, 400, errorBody(400, 'Malformed request target'));
		}
		if (pathname.startsWith(ADMIN_PREFIX)) {
			handleAdmin(handle, state, req, res, pathname).catch((err) => {
				const status = err?.status ?? 400;
				sendJson(res, status, errorBody(status, err?.message));
			});
			return undefined;
		}
		return listing.handle(req, res, pathname);
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	// A client dropping a connection mid-request is normal in fault tests; don't crash the process.
	server.on('clientError', (_err, socket) => socket.destroy());
	// The mock never closes an idle keep-alive connection; its clients do (fetch after 4 s, Node's
	// agents after 5 s, n8n's after each request) and close() ends the rest. With Node's default (close
	// after 5 s idle), a client in this same process whose event loop was busy for longer (a test
	// generating 100,000 records on a loaded machine) sends its next request on the pooled connection,
	// then the server's expired idle timer runs before the server reads it: the socket is destroyed
	// with the request unread, the kernel answers with a reset, and fetch fails with ECONNRESET.
	server.keepAliveTimeout = 0;

	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen({ host: '127.0.0.1', port: options.port ?? 0 }, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const port = server.address().port;
	state.origin = `http://127.0.0.1:${port}`;

	const handle = {
		url: state.origin,
		servicesUrl: `${state.origin}${API_PATH}`,
		apiKey: state.apiKey,
		port,
		server,
		get requests() {
			return state.requests;
		},
		clearRequests() {
			state.requests.length = 0;
		},
		getConfig() {
			return structuredClone(state.config);
		},
		setConfig(partial) {
			state.config = normalizeConfig(state.config, partial ?? {});
			return structuredClone(state.config);
		},
		reset() {
			// Requests already waiting (delay, hang) are left alone; close() ends them.
			state.config = initialConfig;
			state.requests.length = 0;
			handle.setServices(initialServices());
		},
		setServices(records) {
			if (!Array.isArray(records)) throw new TypeError('setServices takes an array of records');
			state.services = records; // taken as is (no copy) so the benchmark can hand over 100k records cheaply
			state.dataVersion++;
		},
		getServices() {
			return structuredClone(state.services);
		},
		close() {
			if (closed) return Promise.resolve();
			closed = true;
			for (const t of timers) clearTimeout(t);
			timers.clear();
			return new Promise((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
				for (const s of sockets) s.destroy(); // also sockets whose request never completed
			});
		},
	};
	return handle;
}

module.exports = { startMockApi, generateServices, normalizeFault, SHAPES, FAULT_KINDS, NEXT_FORMS };
