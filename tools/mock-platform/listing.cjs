'use strict';
// The platform's one documented endpoint, GET /v2026/services: the API key check, the request log,
// the response shapes, pages (when config.pageSize is set), and the faults and delay the config
// asks for.

const crypto = require('node:crypto');

const { JSON_TYPE, errorBody, send, sendJson } = require('./respond.cjs');
const { RECORD_FAULTS, answerWithFault, recordsForFault } = require('./faults.cjs');

const API_PATH = '/v2026/services';
const SHAPES = ['array', 'single', 'map', 'envelope'];
/**
 * Where a paged answer says where the next page is: a key path in the JSON envelope, or the HTTP
 * `Link: <url>; rel="next"` header ('link-header', the body then has the configured shape).
 */
const NEXT_FORMS = ['next', 'links.next', 'links.next.href', 'next_page_url', 'meta.next', 'pagination.next', 'link-header'];
const NEXT_URLS = ['absolute', 'relative'];

/** The paging metadata next to the records, for each body form; `next` is null on the last page. */
function pageMeta(form, { next, page, perPage, total }) {
	switch (form) {
		case 'next':
			return { next, total };
		case 'links.next':
			return { links: { next }, total };
		case 'links.next.href':
			return { links: { next: next === null ? null : { href: next } }, total };
		case 'next_page_url':
			return { current_page: page, per_page: perPage, total, next_page_url: next };
		case 'meta.next':
			return { meta: { page, per_page: perPage, total, next } };
		case 'pagination.next':
			return { pagination: { page, per_page: perPage, total, next } };
		default:
			return null;
	}
}

/** The requested page (1-based, `?page=`), or an error text. */
function requestedPage(req) {
	const value = new URL(req.url, 'http://127.0.0.1').searchParams.get('page');
	if (value === null) return 1;
	return /^[1-9]\d{0,8}$/.test(value) ? Number(value) : `page must be a whole number from 1, got "${value}"`;
}

function safeEqual(a, b) {
	const ha = crypto.createHash('sha256').update(a).digest();
	const hb = crypto.createHash('sha256').update(b).digest();
	return crypto.timingSafeEqual(ha, hb);
}

function serialize(records, { shape, envelopeKey }) {
	if (shape === 'single') return records.length ? JSON.stringify(records[0]) : '{}';
	if (shape === 'map') {
		// Built by hand so that duplicate ids stay duplicate keys, as a real map response would carry them.
		const parts = records.map((r) => JSON.stringify(String(r?.id_service)) + ':' + JSON.stringify(r));
		return '{' + parts.join(',') + '}';
	}
	const list = JSON.stringify(records);
	return shape === 'envelope' ? '{' + JSON.stringify(envelopeKey) + ':' + list + '}' : list;
}

/**
 * The listing endpoint over the mock's shared state
 * ({ apiKey, origin, config, services, dataVersion, requests, maxRequests, later }).
 */
function createListing(state) {
	// Answers serialised once per page, data version and config: { buffer, next } by page.
	let cacheKey = '';
	let pages = new Map();

	/** The listing answer for `page`: { buffer, next } (next: the next page's URL, or null). */
	function body(fault, page) {
		const kind = fault && RECORD_FAULTS.includes(fault.kind) ? fault.kind : '';
		const { config } = state;
		const key = `${state.dataVersion}|${config.shape}|${config.envelopeKey}|${config.pageSize}|${config.nextForm}|${config.nextUrl}|${kind}|${fault?.index ?? ''}`;
		if (key !== cacheKey || pages.size > 10_000) {
			cacheKey = key;
			pages = new Map();
		}
		const cached = pages.get(page);
		if (cached) return cached;
		const records = recordsForFault(state.services, kind ? fault : null);
		let answer;
		if (!config.pageSize) {
			answer = { buffer: Buffer.from(serialize(records, config)), next: null };
		} else {
			const start = (page - 1) * config.pageSize;
			const slice = records.slice(start, start + config.pageSize);
			const more = start + config.pageSize < records.length;
			const nextPath = `${API_PATH}?page=${page + 1}`;
			const next = more ? (config.nextUrl === 'relative' ? nextPath : `${state.origin}${nextPath}`) : null;
			const meta = pageMeta(config.nextForm, { next, page, perPage: config.pageSize, total: records.length });
			const text = meta
				? '{' + JSON.stringify(config.envelopeKey) + ':' + JSON.stringify(slice) + ',' + JSON.stringify(meta).slice(1)
				: serialize(slice, config);
			answer = { buffer: Buffer.from(text), next };
		}
		pages.set(page, answer);
		return answer;
	}

	function logRequest(req, res) {
		const entry = {
			method: req.method,
			path: req.url,
			time: new Date().toISOString(),
			authPresent: req.headers.authorization !== undefined,
			authMatched: false,
			headerNames: Object.keys(req.headers),
			status: null,
		};
		const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '');
		entry.authMatched = Boolean(m && safeEqual(m[1], state.apiKey));
		state.requests.push(entry);
		if (state.requests.length > state.maxRequests) state.requests.splice(0, state.requests.length - state.maxRequests);
		res.on('finish', () => {
			entry.status = res.statusCode;
		});
		return entry;
	}

	function handle(req, res, pathname) {
		const entry = logRequest(req, res);
		const page = requestedPage(req);
		// Fault and delay are read now, so a config change during the delay affects only later requests.
		// A fault with `page` applies only to requests for that page.
		const configured = state.config.fault;
		const fault = configured && (configured.page === undefined || configured.page === page) ? configured : null;
		if (pathname === API_PATH && (req.method === 'GET' || req.method === 'HEAD') && entry.authMatched && fault?.times) {
			// A fault with `times` applies to that many authorised listings, then the mock answers normally.
			state.config = { ...state.config, fault: fault.times > 1 ? { ...fault, times: fault.times - 1 } : null };
		}
		state.later(state.config.delayMs, () => {
			try {
				answer(req, res, pathname, entry, fault, page);
			} catch (err) {
				sendJson(res, 500, errorBody(500, `mock: ${err?.message ?? err}`));
			}
		});
	}

	function answer(req, res, pathname, entry, fault, page) {
		if (pathname !== API_PATH) {
			return sendJson(res, 404, errorBody(404, `No route for ${req.method} ${pathname}`));
		}
		if (req.method !== 'GET' && req.method !== 'HEAD') {
			return sendJson(res, 405, errorBody(405, `Method ${req.method} is not allowed on ${API_PATH}`), {
				allow: 'GET, HEAD',
			});
		}
		if (!entry.authMatched) {
			return sendJson(
				res,
				401,
				{ error: 'unauthorized', message: 'Invalid or missing API key' },
				{
					'www-authenticate': 'Bearer realm="service-platform-mock"',
				},
			);
		}
		if (typeof page === 'string') return sendJson(res, 400, errorBody(400, page));
		if (fault) return answerWithFault(res, fault, () => body(fault, page).buffer);
		const { buffer, next } = body(null, page);
		const headers = { 'content-type': JSON_TYPE };
		if (next !== null && state.config.nextForm === 'link-header') headers.link = `<${next}>; rel="next"`;
		return send(res, 200, buffer, headers);
	}

	return { handle };
}

module.exports = { API_PATH, SHAPES, NEXT_FORMS, NEXT_URLS, createListing };
