'use strict';
// Embedded mock of the platform's service-management API, for tests, the benchmark, the demo and
// e2e runs in a real n8n. Node standard library only; never part of the published package.
// CommonJS so that ts-jest (CommonJS, no VM modules) can require it; mock/server.mjs re-exports it.

const http = require('node:http');
const crypto = require('node:crypto');
const { generateServices } = require('./data.cjs');

const API_PATH = '/v2026/services';
const ADMIN_PREFIX = '/__mock/';
const SHAPES = ['array', 'single', 'map', 'envelope'];
const FAULT_KINDS = [
  'status', 'html', 'invalid-json', 'truncated-json', 'empty', 'null', 'number', 'error-object',
  'bad-record', 'duplicate-ids', 'reset', 'hang', 'no-content', 'redirect', 'raw',
];
const JSON_TYPE = 'application/json; charset=utf-8';
const MAX_ADMIN_BODY = 256 * 1024 * 1024; // room for PUT of 100k+ records
const DEFAULT_MAX_REQUESTS = 1000;

const ERROR_CODES = {
  400: 'bad_request', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 405: 'method_not_allowed',
  408: 'request_timeout', 409: 'conflict', 410: 'gone', 413: 'payload_too_large', 415: 'unsupported_media_type',
  422: 'unprocessable_entity', 429: 'too_many_requests', 500: 'internal_error', 501: 'not_implemented',
  502: 'bad_gateway', 503: 'service_unavailable', 504: 'gateway_timeout',
};

function errorBody(status, message) {
  return {
    error: ERROR_CODES[status] || (status >= 500 ? 'server_error' : 'client_error'),
    message: message || http.STATUS_CODES[status] || 'Error',
  };
}

function isPlainObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

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
  return f;
}

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
    } else {
      throw new TypeError(`unknown config key "${k}"; known: shape, envelopeKey, fault, delayMs`);
    }
  }
  return next;
}

function safeEqual(a, b) {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb);
}

const HTML_PAGE =
  '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Sign in - Service Platform</title></head>\n' +
  '<body><h1>Sign in</h1><form method="post" action="/login"><input name="email"><input name="password" ' +
  'type="password"><button>Sign in</button></form></body></html>\n';

/**
 * Starts the mock on 127.0.0.1. See mock/server.d.cts for the options and the returned handle.
 */
async function startMockApi(options = {}) {
  const apiKey = options.apiKey || 'mock-' + crypto.randomBytes(12).toString('hex');
  const count = options.count ?? 36;
  const seed = options.seed ?? 1;
  const maxRequests = options.maxRequests ?? DEFAULT_MAX_REQUESTS;
  const initialConfig = normalizeConfig(
    { shape: 'array', envelopeKey: 'data', fault: null, delayMs: 0 },
    {
      ...(options.shape !== undefined && { shape: options.shape }),
      ...(options.envelopeKey !== undefined && { envelopeKey: options.envelopeKey }),
      ...(options.fault !== undefined && { fault: options.fault }),
      ...(options.delayMs !== undefined && { delayMs: options.delayMs }),
    },
  );
  const initialServices = () => (options.services ? structuredClone(options.services) : generateServices(count, seed));

  let config = initialConfig;
  let services = initialServices();
  let dataVersion = 0;
  let bodyCache = null; // { key, buffer }: serialised once per data version and shape
  const requests = [];
  const sockets = new Set();
  const timers = new Set();
  let closed = false;

  const touch = () => {
    dataVersion++;
    bodyCache = null;
  };

  // ---- listing bodies ---------------------------------------------------------------------------

  function recordsForFault(fault) {
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

  function serialize(records) {
    const { shape, envelopeKey } = config;
    if (shape === 'single') return records.length ? JSON.stringify(records[0]) : '{}';
    if (shape === 'map') {
      // Built by hand so that duplicate ids stay duplicate keys, as a real map response would carry them.
      const parts = records.map((r) => JSON.stringify(String(r?.id_service)) + ':' + JSON.stringify(r));
      return '{' + parts.join(',') + '}';
    }
    const list = JSON.stringify(records);
    return shape === 'envelope' ? '{' + JSON.stringify(envelopeKey) + ':' + list + '}' : list;
  }

  function listingBody(fault) {
    const kind = fault && (fault.kind === 'bad-record' || fault.kind === 'duplicate-ids') ? fault.kind : '';
    const key = `${dataVersion}|${config.shape}|${config.envelopeKey}|${kind}|${fault?.index ?? ''}`;
    if (!bodyCache || bodyCache.key !== key) {
      bodyCache = { key, buffer: Buffer.from(serialize(recordsForFault(kind ? fault : null))) };
    }
    return bodyCache.buffer;
  }

  // ---- responses --------------------------------------------------------------------------------

  function send(res, status, body, headers = {}) {
    if (res.destroyed || res.writableEnded) return;
    const buffer = body === undefined || body === null ? null : Buffer.isBuffer(body) ? body : Buffer.from(body);
    const h = { ...headers };
    if (buffer) h['content-length'] = buffer.length;
    else if (status !== 204 && status !== 304) h['content-length'] = 0;
    res.writeHead(status, h);
    res.end(buffer ?? undefined);
  }

  const sendJson = (res, status, value, headers = {}) =>
    send(res, status, JSON.stringify(value), { 'content-type': JSON_TYPE, ...headers });

  function later(ms, fn) {
    if (!ms) return fn();
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  }

  function answerWithFault(req, res, fault) {
    const body = () => listingBody(fault);
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

  function handleApi(req, res, pathname) {
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
    entry.authMatched = Boolean(m && safeEqual(m[1], apiKey));
    requests.push(entry);
    if (requests.length > maxRequests) requests.splice(0, requests.length - maxRequests);
    res.on('finish', () => {
      entry.status = res.statusCode;
    });

    // Fault and delay are read now, so a config change during the delay affects only later requests.
    const fault = config.fault;
    if (pathname === API_PATH && (req.method === 'GET' || req.method === 'HEAD') && entry.authMatched && fault?.times) {
      // A fault with `times` applies to that many authorised listings, then the mock answers normally.
      config = { ...config, fault: fault.times > 1 ? { ...fault, times: fault.times - 1 } : null };
    }

    later(config.delayMs, () => {
      try {
        answerApi(req, res, pathname, entry, fault);
      } catch (err) {
        sendJson(res, 500, errorBody(500, `mock: ${err?.message ?? err}`));
      }
    });
  }

  function answerApi(req, res, pathname, entry, fault) {
    if (pathname !== API_PATH) {
      return sendJson(res, 404, errorBody(404, `No route for ${req.method} ${pathname}`));
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendJson(res, 405, errorBody(405, `Method ${req.method} is not allowed on ${API_PATH}`), {
        allow: 'GET, HEAD',
      });
    }
    if (!entry.authMatched) {
      return sendJson(res, 401, { error: 'unauthorized', message: 'Invalid or missing API key' }, {
        'www-authenticate': 'Bearer realm="service-platform-mock"',
      });
    }
    if (fault) return answerWithFault(req, res, fault);
    return send(res, 200, listingBody(null), { 'content-type': JSON_TYPE });
  }

  // ---- admin ------------------------------------------------------------------------------------

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

  function nextFreeId() {
    let max = 10000;
    for (const r of services) {
      const n = /^srv-(\d+)$/.exec(r?.id_service ?? '');
      if (n) max = Math.max(max, Number(n[1]));
    }
    return `srv-${max + 1}`;
  }

  async function handleAdmin(req, res, pathname) {
    const route = pathname.slice(ADMIN_PREFIX.length).replace(/\/+$/, '');
    const method = req.method;
    const body = method === 'GET' || method === 'DELETE' || method === 'HEAD' ? undefined : await readJson(req);
    const bad = (message) => sendJson(res, 400, errorBody(400, message));

    if (route === 'config') {
      if (method === 'GET') return sendJson(res, 200, handle.getConfig());
      if (method === 'POST' || method === 'PATCH') {
        if (!isPlainObject(body)) return bad('config body must be a JSON object');
        return sendJson(res, 200, handle.setConfig(body));
      }
    } else if (route === 'reset') {
      if (method === 'POST') {
        handle.reset();
        return sendJson(res, 200, { ok: true, count: services.length, config: handle.getConfig() });
      }
    } else if (route === 'generate') {
      if (method === 'POST') {
        const b = body ?? {};
        if (!isPlainObject(b)) return bad('generate body must be a JSON object: {count, seed}');
        handle.setServices(generateServices(b.count ?? count, b.seed ?? seed));
        return sendJson(res, 200, { ok: true, count: services.length });
      }
    } else if (route === 'services') {
      if (method === 'GET') return sendJson(res, 200, services);
      if (method === 'PUT') {
        if (!Array.isArray(body)) return bad('PUT /__mock/services takes a JSON array of records');
        handle.setServices(body);
        return sendJson(res, 200, { ok: true, count: services.length });
      }
      if (method === 'POST') {
        if (!isPlainObject(body)) return bad('POST /__mock/services takes one record (a JSON object)');
        const record = { ...body };
        if (record.id_service === undefined) record.id_service = nextFreeId();
        if (services.some((r) => r?.id_service === record.id_service)) {
          return sendJson(res, 409, errorBody(409, `A service with id_service ${record.id_service} exists`));
        }
        services = services.concat([record]);
        touch();
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
        services = services.slice();
        services[index] = updated;
        touch();
        return sendJson(res, 200, updated);
      }
      if (method === 'DELETE') {
        services = services.filter((_, i) => i !== index);
        touch();
        return send(res, 204, null);
      }
    } else if (route === 'requests') {
      if (method === 'GET') return sendJson(res, 200, requests);
      if (method === 'DELETE') {
        requests.length = 0;
        return send(res, 204, null);
      }
    } else {
      return sendJson(res, 404, errorBody(404, `No admin route ${pathname}`));
    }
    return sendJson(res, 405, errorBody(405, `Method ${method} is not allowed on ${pathname}`));
  }

  // ---- server -----------------------------------------------------------------------------------

  const server = http.createServer((req, res) => {
    let pathname;
    try {
      pathname = new URL(req.url, 'http://127.0.0.1').pathname;
    } catch {
      return sendJson(res, 400, errorBody(400, 'Malformed request target'));
    }
    if (pathname.startsWith(ADMIN_PREFIX)) {
      handleAdmin(req, res, pathname).catch((err) => {
        const status = err?.status ?? 400;
        sendJson(res, status, errorBody(status, err?.message));
      });
      return undefined;
    }
    return handleApi(req, res, pathname);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A client dropping a connection mid-request is normal in fault tests; don't crash the process.
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: options.port ?? 0 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = server.address().port;

  const handle = {
    url: `http://127.0.0.1:${port}`,
    servicesUrl: `http://127.0.0.1:${port}${API_PATH}`,
    apiKey,
    port,
    server,
    get requests() {
      return requests;
    },
    clearRequests() {
      requests.length = 0;
    },
    getConfig() {
      return structuredClone(config);
    },
    setConfig(partial) {
      config = normalizeConfig(config, partial ?? {});
      bodyCache = null;
      return structuredClone(config);
    },
    reset() {
      // Requests already waiting (delay, hang) are left alone; close() ends them.
      config = initialConfig;
      services = initialServices();
      requests.length = 0;
      touch();
    },
    setServices(records) {
      if (!Array.isArray(records)) throw new TypeError('setServices takes an array of records');
      services = records; // taken as is (no copy) so the benchmark can hand over 100k records cheaply
      touch();
    },
    getServices() {
      return structuredClone(services);
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

module.exports = { startMockApi, generateServices, normalizeFault, API_PATH, SHAPES, FAULT_KINDS };
