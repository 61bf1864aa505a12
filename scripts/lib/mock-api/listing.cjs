'use strict';
// The platform's one documented endpoint, GET /v2026/services: the API key check, the request log,
// the response shapes, and the faults and delay the config asks for.

const crypto = require('node:crypto');

const { JSON_TYPE, errorBody, send, sendJson } = require('./respond.cjs');
const { RECORD_FAULTS, answerWithFault, recordsForFault } = require('./faults.cjs');

const API_PATH = '/v2026/services';
const SHAPES = ['array', 'single', 'map', 'envelope'];

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
 * ({ apiKey, config, services, dataVersion, requests, maxRequests, later }).
 */
function createListing(state) {
  let bodyCache = null; // { key, buffer }: serialised once per data version, shape and record fault

  function body(fault) {
    const kind = fault && RECORD_FAULTS.includes(fault.kind) ? fault.kind : '';
    const { config } = state;
    const key = `${state.dataVersion}|${config.shape}|${config.envelopeKey}|${kind}|${fault?.index ?? ''}`;
    if (!bodyCache || bodyCache.key !== key) {
      bodyCache = { key, buffer: Buffer.from(serialize(recordsForFault(state.services, kind ? fault : null), config)) };
    }
    return bodyCache.buffer;
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
    // Fault and delay are read now, so a config change during the delay affects only later requests.
    const fault = state.config.fault;
    if (pathname === API_PATH && (req.method === 'GET' || req.method === 'HEAD') && entry.authMatched && fault?.times) {
      // A fault with `times` applies to that many authorised listings, then the mock answers normally.
      state.config = { ...state.config, fault: fault.times > 1 ? { ...fault, times: fault.times - 1 } : null };
    }
    state.later(state.config.delayMs, () => {
      try {
        answer(req, res, pathname, entry, fault);
      } catch (err) {
        sendJson(res, 500, errorBody(500, `mock: ${err?.message ?? err}`));
      }
    });
  }

  function answer(req, res, pathname, entry, fault) {
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
    if (fault) return answerWithFault(res, fault, () => body(fault));
    return send(res, 200, body(null), { 'content-type': JSON_TYPE });
  }

  return { handle };
}

module.exports = { API_PATH, SHAPES, createListing };
