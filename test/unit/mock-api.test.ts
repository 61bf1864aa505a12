/**
 * The embedded mock platform API (tools/mock-platform/server.cjs): auth, shapes, faults, admin endpoints, data.
 * Real HTTP on 127.0.0.1 free ports; no nock here.
 */
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import {
	FAULT_KINDS,
	NEXT_FORMS,
	generateServices,
	startMockApi,
	type MockApi,
	type MockNextForm,
	type MockServiceRecord,
} from '../../tools/mock-platform/server.cjs';

const repoRoot = join(__dirname, '..', '..');
const DEFAULT_CONFIG = { shape: 'array', envelopeKey: 'data', fault: null, delayMs: 0, pageSize: 0, nextForm: 'next', nextUrl: 'absolute' };

type Opts = { key?: string | null; path?: string; method?: string; headers?: Record<string, string> };

function call(mock: MockApi, { key = mock.apiKey, path = '/v2026/services', method = 'GET', headers = {} }: Opts = {}) {
	const h: Record<string, string> = { accept: 'application/json', ...headers };
	if (key !== null) h.authorization = `Bearer ${key}`;
	return fetch(mock.url + path, { method, headers: h, redirect: 'manual' });
}

async function listing(mock: MockApi): Promise<unknown> {
	const res = await call(mock);
	expect(res.status).toBe(200);
	return res.json();
}

function admin(mock: MockApi, method: string, path: string, body?: unknown) {
	return fetch(`${mock.url}/__mock/${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
}

/** One HEAD of the listing on an open socket (keep-alive, HTTP/1.1); resolves with the head of the answer. */
function headOnSocket(socket: Socket, mock: MockApi): Promise<string> {
	return new Promise((resolve, reject) => {
		let head = '';
		const onData = (chunk: Buffer) => {
			head += chunk.toString('latin1');
			if (!head.includes('\r\n\r\n')) return;
			socket.off('data', onData).off('close', onClose);
			resolve(head);
		};
		const onClose = () => reject(new Error(`the connection closed; received: ${JSON.stringify(head)}`));
		socket.on('data', onData).once('close', onClose);
		socket.write(`HEAD /v2026/services HTTP/1.1\r\nHost: 127.0.0.1:${mock.port}\r\nAuthorization: Bearer ${mock.apiKey}\r\n\r\n`);
	});
}

/** fetch rejects with an error of Node's realm, not jest's, so compare plain outcomes. */
function settle(p: Promise<unknown>): Promise<{ failed: boolean; message?: string }> {
	return p.then(
		() => ({ failed: false }),
		(err: unknown) => ({ failed: true, message: (err as Error).message }),
	);
}

function isRecordShape(r: MockServiceRecord) {
	const v = r.values.values;
	const c = v.service.customize;
	return (
		/^srv-\d+$/.test(r.id_service) &&
		typeof v.name === 'string' &&
		typeof v.alias === 'string' &&
		typeof v.status === 'string' &&
		typeof c.OS.id === 'string' &&
		typeof c.OS.name === 'string' &&
		Number.isInteger(c.specifications.vcores) &&
		Number.isInteger(c.specifications.GB.ram) &&
		Number.isInteger(c.specifications.GB.hd)
	);
}

describe('mock platform API', () => {
	let mock: MockApi;

	beforeAll(async () => {
		mock = await startMockApi();
	});
	afterAll(async () => {
		await mock.close();
	});
	beforeEach(() => {
		mock.reset();
	});

	describe('server and auth', () => {
		it('listens on 127.0.0.1 on a free port with a random mock- key', () => {
			expect(mock.url).toBe(`http://127.0.0.1:${mock.port}`);
			expect(mock.servicesUrl).toBe(`${mock.url}/v2026/services`);
			expect(mock.port).toBeGreaterThan(0);
			expect(mock.server.address()).toMatchObject({ address: '127.0.0.1', port: mock.port });
			expect(mock.apiKey).toMatch(/^mock-[0-9a-f]{24}$/);
		});

		it('answers 401 with a JSON error without a key, with a wrong key, or with another scheme', async () => {
			const variants: Record<string, string>[] = [
				{},
				{ authorization: 'Bearer wrong-key' },
				{ authorization: `Basic ${mock.apiKey}` },
				{ authorization: mock.apiKey },
			];
			for (const headers of variants) {
				const res = await call(mock, { key: null, headers });
				expect(res.status).toBe(401);
				expect(res.headers.get('content-type')).toMatch(/^application\/json/);
				expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
				expect(await res.json()).toEqual({ error: 'unauthorized', message: 'Invalid or missing API key' });
			}
		});

		it('answers 200 with 36 valid records for the right key (scheme case-insensitive)', async () => {
			const body = (await listing(mock)) as MockServiceRecord[];
			expect(Array.isArray(body)).toBe(true);
			expect(body).toHaveLength(36);
			expect(body.every(isRecordShape)).toBe(true);
			const res = await call(mock, { key: null, headers: { authorization: `bearer ${mock.apiKey}` } });
			expect(res.status).toBe(200);
		});

		it('answers 404 JSON for other paths and 405 for other methods on the listing', async () => {
			for (const path of ['/', '/v2026', '/v2026/services/', '/v2025/services', '//v2026/services', '/v2026/services/srv-1']) {
				const res = await call(mock, { path });
				expect(res.status).toBe(404);
				expect(await res.json()).toMatchObject({ error: 'not_found' });
			}
			const res = await call(mock, { method: 'POST' });
			expect(res.status).toBe(405);
			expect(res.headers.get('allow')).toBe('GET, HEAD');
			expect(await res.json()).toMatchObject({ error: 'method_not_allowed' });
		});

		it('ignores a query string', async () => {
			expect(await listing(mock)).toHaveLength(36);
			expect((await call(mock, { path: '/v2026/services?page=2' })).status).toBe(200);
		});

		it('records requests without ever storing the key', async () => {
			await call(mock, { key: null });
			await call(mock, { key: 'wrong' });
			await call(mock);
			await admin(mock, 'GET', 'config'); // admin calls are not recorded
			expect(mock.requests.map((r) => [r.method, r.path, r.authPresent, r.authMatched, r.status])).toEqual([
				['GET', '/v2026/services', false, false, 401],
				['GET', '/v2026/services', true, false, 401],
				['GET', '/v2026/services', true, true, 200],
			]);
			expect(mock.requests[2].headerNames).toContain('authorization');
			expect(Date.parse(mock.requests[0].time)).not.toBeNaN();
			const res = await admin(mock, 'GET', 'requests');
			const text = await res.text();
			expect(JSON.parse(text)).toHaveLength(3);
			expect(text).not.toContain(mock.apiKey);
			expect(JSON.stringify(mock.requests)).not.toContain(mock.apiKey);
			expect((await admin(mock, 'DELETE', 'requests')).status).toBe(204);
			expect(mock.requests).toHaveLength(0);
		});

		it('never closes an idle keep-alive connection itself: a client busy for longer than 5 s can still reuse it', async () => {
			// Node's default closed it after 5 s idle: a fetch in this process whose event loop had been busy
			// that long (generating 100,000 records on a loaded machine) sent its next request just as the
			// server's expired idle timer destroyed the socket, request unread: ECONNRESET. Raw socket, so
			// only the server decides when the connection closes.
			const socket = connect(mock.port, '127.0.0.1');
			let ended = false;
			socket.on('end', () => (ended = true));
			socket.on('error', () => (ended = true));
			try {
				expect(await headOnSocket(socket, mock)).toMatch(/^HTTP\/1\.1 200 /);
				await new Promise((resolve) => setTimeout(resolve, 6000));
				expect(ended).toBe(false);
				expect(await headOnSocket(socket, mock)).toMatch(/^HTTP\/1\.1 200 /);
			} finally {
				socket.destroy();
			}
		});

		it('rejects a port in use', async () => {
			await expect(startMockApi({ port: mock.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
		});
	});

	describe('shapes', () => {
		it('array (default)', async () => {
			expect(mock.getConfig().shape).toBe('array');
			expect(await listing(mock)).toEqual(mock.getServices());
		});

		it('single: the first record as a bare object', async () => {
			mock.setConfig({ shape: 'single' });
			expect(await listing(mock)).toEqual(mock.getServices()[0]);
		});

		it('map: an object keyed by id_service', async () => {
			mock.setConfig({ shape: 'map' });
			const body = (await listing(mock)) as Record<string, MockServiceRecord>;
			const services = mock.getServices();
			expect(Object.keys(body)).toEqual(services.map((s) => s.id_service));
			expect(body[services[3].id_service]).toEqual(services[3]);
		});

		it('envelope: default key "data" and a custom key', async () => {
			mock.setConfig({ shape: 'envelope' });
			expect(await listing(mock)).toEqual({ data: mock.getServices() });
			mock.setConfig({ envelopeKey: 'services' });
			expect(await listing(mock)).toEqual({ services: mock.getServices() });
		});

		it('shape set at start', async () => {
			const other = await startMockApi({ shape: 'envelope', envelopeKey: 'items', count: 2, apiKey: 'k-1' });
			try {
				const res = await call(other);
				expect(await res.json()).toEqual({ items: other.getServices() });
			} finally {
				await other.close();
			}
		});

		it('refuses unknown shapes and config keys', () => {
			expect(() => mock.setConfig({ shape: 'list' as never })).toThrow(/shape must be one of/);
			expect(() => mock.setConfig({ colour: 1 } as never)).toThrow(/unknown config key/);
		});
	});

	describe('faults', () => {
		const text = async (res: Response) => ({ status: res.status, type: res.headers.get('content-type'), body: await res.text() });

		it('status: any code with a JSON error body, Retry-After when asked', async () => {
			for (const status of [400, 403, 404, 408, 409, 410, 422, 500, 502, 503, 504]) {
				mock.setConfig({ fault: { status } });
				const res = await call(mock);
				expect(res.status).toBe(status);
				const body = await res.json();
				expect(body).toEqual({ error: expect.any(String), message: expect.any(String) });
				expect(res.headers.get('retry-after')).toBeNull();
			}
			mock.setConfig({ fault: { status: 429, retryAfter: 30 } });
			const res = await call(mock);
			expect(res.status).toBe(429);
			expect(res.headers.get('retry-after')).toBe('30');
			expect(await res.json()).toEqual({ error: 'too_many_requests', message: 'Too Many Requests' });
		});

		it('status: an unexpected 2xx/3xx has no body', async () => {
			for (const status of [202, 204, 301, 304]) {
				mock.setConfig({ fault: `status:${status}` });
				const res = await call(mock);
				expect(res.status).toBe(status);
				expect(await res.text()).toBe('');
			}
		});

		it('auth is checked before the fault', async () => {
			mock.setConfig({ fault: { status: 503 } });
			expect((await call(mock, { key: 'wrong' })).status).toBe(401);
		});

		it('html: 200 with an HTML page', async () => {
			mock.setConfig({ fault: { kind: 'html' } });
			const r = await text(await call(mock));
			expect(r.status).toBe(200);
			expect(r.type).toMatch(/^text\/html/);
			expect(r.body).toMatch(/^<!DOCTYPE html>/);
		});

		it.each([
			['invalid-json', undefined],
			['truncated-json', undefined],
			['empty', ''],
			['null', 'null'],
			['number', '42'],
		])('%s: 200 with a JSON content type and that body', async (kind, exact) => {
			mock.setConfig({ fault: { kind: kind as never } });
			const r = await text(await call(mock));
			expect(r.status).toBe(200);
			expect(r.type).toMatch(/^application\/json/);
			if (exact !== undefined) expect(r.body).toBe(exact);
			else expect(() => JSON.parse(r.body)).toThrow(SyntaxError);
			if (kind === 'truncated-json') expect(JSON.stringify(mock.getServices())).toContain(r.body);
		});

		it('error-object: 200 with {error, message}', async () => {
			mock.setConfig({ fault: 'error-object' });
			const res = await call(mock);
			expect(res.status).toBe(200);
			expect(await res.json()).toEqual({ error: 'internal_error', message: expect.any(String) });
		});

		it('bad-record: one record has vcores as a string, the stored data stays intact', async () => {
			mock.setConfig({ fault: { kind: 'bad-record' } });
			const body = (await listing(mock)) as MockServiceRecord[];
			const vcores = body.map((r) => r.values.values.service.customize.specifications.vcores);
			expect(typeof vcores[0]).toBe('string');
			expect(vcores.slice(1).every(Number.isInteger)).toBe(true);
			expect(Number.isInteger(mock.getServices()[0].values.values.service.customize.specifications.vcores)).toBe(true);
			mock.setConfig({ fault: { kind: 'bad-record', index: 5 } });
			const body5 = (await listing(mock)) as MockServiceRecord[];
			expect(typeof body5[5].values.values.service.customize.specifications.vcores).toBe('string');
			mock.setConfig({ fault: null });
			expect(await listing(mock)).toEqual(mock.getServices());
		});

		it('duplicate-ids: two records share an id (also as duplicate keys in the map shape)', async () => {
			mock.setConfig({ fault: 'duplicate-ids' });
			const body = (await listing(mock)) as MockServiceRecord[];
			expect(body).toHaveLength(36);
			expect(body[1].id_service).toBe(body[0].id_service);
			expect(body[1]).not.toEqual(body[0]);
			mock.setConfig({ shape: 'map' });
			const raw = await (await call(mock)).text();
			const key = JSON.stringify(body[0].id_service) + ':';
			expect(raw.split(key)).toHaveLength(3);
		});

		it('reset: headers and part of the body, then the connection drops', async () => {
			mock.setConfig({ fault: 'reset' });
			await expect(call(mock).then((res) => res.text())).rejects.toThrow();
			expect(mock.requests.at(-1)).toMatchObject({ authMatched: true, status: null });
		});

		it('no-content: 204', async () => {
			mock.setConfig({ fault: 'no-content' });
			const res = await call(mock);
			expect(res.status).toBe(204);
			expect(await res.text()).toBe('');
		});

		it('redirect: a 302 to the given location', async () => {
			mock.setConfig({ fault: { kind: 'redirect', location: 'http://127.0.0.2:9/v2026/services' } });
			const res = await call(mock);
			expect(res.status).toBe(302);
			expect(res.headers.get('location')).toBe('http://127.0.0.2:9/v2026/services');
		});

		it('raw: any status, body and content type', async () => {
			mock.setConfig({ fault: { kind: 'raw', status: 200, body: '{"a":1}', contentType: 'text/plain' } });
			const r = await text(await call(mock));
			expect(r).toEqual({ status: 200, type: 'text/plain', body: '{"a":1}' });
		});

		it('times: the fault applies to that many authorised listings only', async () => {
			mock.setConfig({ fault: { status: 503, times: 2 } });
			await call(mock, { key: 'wrong' }); // does not count
			expect((await call(mock)).status).toBe(503);
			expect(mock.getConfig().fault).toMatchObject({ status: 503, times: 1 });
			expect((await call(mock)).status).toBe(503);
			expect((await call(mock)).status).toBe(200);
			expect(mock.getConfig().fault).toBeNull();
		});

		it('delayMs delays every answer', async () => {
			mock.setConfig({ delayMs: 150 });
			const start = Date.now();
			expect((await call(mock)).status).toBe(200);
			expect((await call(mock, { key: null })).status).toBe(401);
			expect(Date.now() - start).toBeGreaterThanOrEqual(290);
		});

		it('refuses unknown fault kinds and bad status codes', () => {
			expect(() => mock.setConfig({ fault: 'explode' })).toThrow(/unknown fault kind/);
			expect(() => mock.setConfig({ fault: { status: 99 } })).toThrow(/status/);
			expect(() => mock.setConfig({ fault: { kind: 'redirect' } })).toThrow(/location/);
			expect(FAULT_KINDS).toEqual(expect.arrayContaining(['hang', 'reset', 'html', 'status']));
		});

		it('hang: no answer; close() ends the hanging request and resolves promptly', async () => {
			const other = await startMockApi({ fault: { kind: 'hang' } });
			const pending = settle(call(other).then((res) => res.text()));
			await new Promise((resolve) => setTimeout(resolve, 200));
			expect(other.requests).toHaveLength(1);
			expect(other.requests[0].status).toBeNull();
			const start = Date.now();
			await other.close();
			expect(Date.now() - start).toBeLessThan(2000);
			expect(await pending).toEqual({ failed: true, message: 'fetch failed' });
			await other.close(); // idempotent
			await expect(fetch(other.servicesUrl)).rejects.toThrow();
		});

		it('close() also ends a delayed answer', async () => {
			const other = await startMockApi({ delayMs: 60_000 });
			const pending = settle(call(other));
			await new Promise((resolve) => setTimeout(resolve, 100));
			await other.close();
			expect(await pending).toEqual({ failed: true, message: 'fetch failed' });
		});
	});

	describe('pages', () => {
		type Page = { status: number; next: string | null; ids: string[]; body: any };
		/** Reads one page the way a client must: the records, and the next URL from the form in use. */
		async function readPage(url: string, form: MockNextForm): Promise<Page> {
			const res = await fetch(url, { headers: { authorization: `Bearer ${mock.apiKey}` } });
			const body = (await res.json()) as any;
			const records: MockServiceRecord[] = Array.isArray(body) ? body : body.data;
			let next: string | null;
			if (form === 'link-header') next = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
			else if (form === 'links.next.href') next = body.links.next?.href ?? null;
			else next = form.split('.').reduce((v: any, k) => v?.[k], body) ?? null;
			return { status: res.status, next, ids: records.map((r) => r.id_service), body };
		}
		async function readAll(form: MockNextForm): Promise<{ ids: string[]; nexts: string[] }> {
			const ids: string[] = [];
			const nexts: string[] = [];
			let url: string | null = mock.servicesUrl;
			while (url) {
				const page = await readPage(url, form);
				expect(page.status).toBe(200);
				ids.push(...page.ids);
				if (page.next) nexts.push(page.next);
				url = page.next && new URL(page.next, mock.url).href;
			}
			return { ids, nexts };
		}

		it('offers each next-page form the node follows', () => {
			expect([...NEXT_FORMS].sort()).toEqual(
				['link-header', 'links.next', 'links.next.href', 'meta.next', 'next', 'next_page_url', 'pagination.next'].sort(),
			);
		});

		for (const form of NEXT_FORMS) {
			for (const nextUrl of ['absolute', 'relative'] as const) {
				it(`${form}, ${nextUrl} URLs: following next gives every record once, in order`, async () => {
					mock.setConfig({ pageSize: 10, nextForm: form, nextUrl });
					const { ids, nexts } = await readAll(form);
					expect(ids).toEqual(mock.getServices().map((r) => r.id_service));
					expect(nexts).toHaveLength(3); // 36 records in pages of 10: 4 pages
					for (const n of nexts) {
						if (nextUrl === 'absolute') expect(n).toMatch(new RegExp(`^${mock.url}/v2026/services\\?page=\\d$`));
						else expect(n).toMatch(/^\/v2026\/services\?page=\d$/);
					}
				});
			}
		}

		it('the last page says there is no next page; a page past the end is empty', async () => {
			mock.setConfig({ pageSize: 10, nextForm: 'meta.next' });
			const last = await readPage(`${mock.servicesUrl}?page=4`, 'meta.next');
			expect(last.ids).toHaveLength(6);
			expect(last.body.meta).toEqual({ page: 4, per_page: 10, total: 36, next: null });
			const past = await readPage(`${mock.servicesUrl}?page=9`, 'meta.next');
			expect(past.ids).toEqual([]);
			mock.setConfig({ nextForm: 'link-header' });
			const res = await fetch(`${mock.servicesUrl}?page=4`, { headers: { authorization: `Bearer ${mock.apiKey}` } });
			expect(res.headers.get('link')).toBeNull();
		});

		it('records sit under envelopeKey next to the metadata (data, items, results, services)', async () => {
			for (const key of ['items', 'results', 'services']) {
				mock.setConfig({ pageSize: 5, nextForm: 'next_page_url', envelopeKey: key });
				const body = (await listing(mock)) as Record<string, unknown>;
				expect(Object.keys(body).sort()).toEqual([key, 'current_page', 'next_page_url', 'per_page', 'total'].sort());
				expect(body[key]).toHaveLength(5);
			}
		});

		it('link-header pages keep the configured shape', async () => {
			mock.setConfig({ pageSize: 7, nextForm: 'link-header', shape: 'envelope', envelopeKey: 'items' });
			const body = (await listing(mock)) as { items: unknown[] };
			expect(Object.keys(body)).toEqual(['items']);
			expect(body.items).toHaveLength(7);
		});

		it('a bad page number is a 400; pageSize 0 turns paging off', async () => {
			mock.setConfig({ pageSize: 10 });
			expect((await call(mock, { path: '/v2026/services?page=0' })).status).toBe(400);
			expect((await call(mock, { path: '/v2026/services?page=abc' })).status).toBe(400);
			mock.setConfig({ pageSize: 0 });
			expect(await listing(mock)).toHaveLength(36);
		});

		it('refuses invalid paging config', () => {
			expect(() => mock.setConfig({ pageSize: -1 })).toThrow(/pageSize/);
			expect(() => mock.setConfig({ nextForm: 'cursor' as MockNextForm })).toThrow(/nextForm/);
			expect(() => mock.setConfig({ nextUrl: 'protocol-relative' as 'absolute' })).toThrow(/nextUrl/);
			expect(() => mock.setConfig({ fault: { status: 503, page: 0 } })).toThrow(/fault.page/);
		});

		it('a fault with page fails only that page (a failure on page 3 of 4)', async () => {
			mock.setConfig({ pageSize: 10, nextForm: 'next', fault: { status: 503, page: 3 } });
			expect((await call(mock, { path: '/v2026/services?page=2' })).status).toBe(200);
			expect((await call(mock, { path: '/v2026/services?page=3' })).status).toBe(503);
			expect((await call(mock, { path: '/v2026/services?page=4' })).status).toBe(200);
		});
	});

	describe('fail N times, then succeed (rate limits, transient errors)', () => {
		for (const status of [429, 503]) {
			it(`${status} with Retry-After twice, then the listing (module API)`, async () => {
				mock.setConfig({ fault: { status, retryAfter: 1, times: 2 } });
				for (let i = 0; i < 2; i++) {
					const res = await call(mock);
					expect(res.status).toBe(status);
					expect(res.headers.get('retry-after')).toBe('1');
				}
				expect(await listing(mock)).toHaveLength(36);
				expect(mock.requests.map((r) => r.status)).toEqual([status, status, 200]);
			});
		}

		it('the same through the admin API, and counted per page request when paging', async () => {
			const res = await admin(mock, 'POST', 'config', { pageSize: 20, fault: { status: 429, retryAfter: 2, times: 1 } });
			expect(await res.json()).toMatchObject({ pageSize: 20, fault: { status: 429, retryAfter: 2, times: 1 } });
			expect((await call(mock)).status).toBe(429);
			expect((await call(mock)).status).toBe(200);
			expect((await call(mock, { path: '/v2026/services?page=2' })).status).toBe(200);
		});
	});

	describe('admin endpoints', () => {
		it('GET and POST /__mock/config', async () => {
			expect(await (await admin(mock, 'GET', 'config')).json()).toEqual(DEFAULT_CONFIG);
			const res = await admin(mock, 'POST', 'config', { shape: 'map', fault: { status: 503 } });
			expect(res.status).toBe(200);
			expect(await res.json()).toMatchObject({ shape: 'map', fault: { kind: 'status', status: 503 } });
			expect((await call(mock)).status).toBe(503);
			await admin(mock, 'POST', 'config', { fault: null });
			expect(Object.keys((await listing(mock)) as object)).toHaveLength(36);
		});

		it('POST /__mock/config refuses invalid input with 400', async () => {
			for (const body of [{ shape: 'nope' }, { fault: 'explode' }, [1, 2]]) {
				const res = await admin(mock, 'POST', 'config', body);
				expect(res.status).toBe(400);
				expect(await res.json()).toMatchObject({ error: 'bad_request' });
			}
			const res = await fetch(`${mock.url}/__mock/config`, { method: 'POST', body: '{not json' });
			expect(res.status).toBe(400);
		});

		it('GET, PUT, POST /__mock/services', async () => {
			const all = (await (await admin(mock, 'GET', 'services')).json()) as MockServiceRecord[];
			expect(all).toEqual(mock.getServices());
			const two = generateServices(2, 99);
			expect((await admin(mock, 'PUT', 'services', two)).status).toBe(200);
			expect(await listing(mock)).toEqual(two);
			expect((await admin(mock, 'PUT', 'services', { not: 'an array' })).status).toBe(400);

			const extra = { ...generateServices(1, 5)[0] } as Partial<MockServiceRecord>;
			delete extra.id_service;
			const created = await admin(mock, 'POST', 'services', extra);
			expect(created.status).toBe(201);
			const record = (await created.json()) as MockServiceRecord;
			const maxId = Math.max(...two.map((r) => Number(r.id_service.slice(4))));
			expect(record.id_service).toBe(`srv-${maxId + 1}`);
			expect(((await listing(mock)) as MockServiceRecord[]).map((r) => r.id_service)).toEqual([
				...two.map((r) => r.id_service),
				record.id_service,
			]);
			expect((await admin(mock, 'POST', 'services', record)).status).toBe(409);
			expect((await admin(mock, 'POST', 'services', [record])).status).toBe(400);
		});

		it('PATCH /__mock/services/:id deep-merges (JSON merge patch), DELETE removes', async () => {
			const [first, second] = mock.getServices();
			const res = await admin(mock, 'PATCH', `services/${first.id_service}`, {
				values: { values: { status: 'suspended', service: { customize: { specifications: { GB: { ram: 64 } } } } } },
			});
			expect(res.status).toBe(200);
			const body = (await listing(mock)) as MockServiceRecord[];
			const v = body[0].values.values;
			expect(v.status).toBe('suspended');
			expect(v.service.customize.specifications.GB).toEqual({ ram: 64, hd: first.values.values.service.customize.specifications.GB.hd });
			expect(v.name).toBe(first.values.values.name);
			expect(v.service.customize.OS).toEqual(first.values.values.service.customize.OS);

			await admin(mock, 'PATCH', `services/${first.id_service}`, { values: { values: { alias: null } } });
			expect(mock.getServices()[0].values.values).not.toHaveProperty('alias');

			expect((await admin(mock, 'PATCH', 'services/srv-1', { values: {} })).status).toBe(404);
			expect((await admin(mock, 'DELETE', `services/${second.id_service}`)).status).toBe(204);
			const after = (await listing(mock)) as MockServiceRecord[];
			expect(after).toHaveLength(35);
			expect(after.map((r) => r.id_service)).not.toContain(second.id_service);
			expect((await admin(mock, 'DELETE', `services/${second.id_service}`)).status).toBe(404);
		});

		it('POST /__mock/reset restores the initial data and config', async () => {
			const initial = mock.getServices();
			await admin(mock, 'PUT', 'services', []);
			await admin(mock, 'POST', 'config', { shape: 'single', fault: 'html', delayMs: 5 });
			await call(mock);
			const res = await admin(mock, 'POST', 'reset');
			expect(res.status).toBe(200);
			expect(await res.json()).toMatchObject({ ok: true, count: 36 });
			expect(mock.getConfig()).toEqual(DEFAULT_CONFIG);
			expect(mock.requests).toHaveLength(0);
			expect(await listing(mock)).toEqual(initial);
		});

		it('POST /__mock/generate replaces the data with generated records', async () => {
			const res = await admin(mock, 'POST', 'generate', { count: 500, seed: 7 });
			expect(await res.json()).toEqual({ ok: true, count: 500 });
			expect(await listing(mock)).toEqual(generateServices(500, 7));
		});

		it('unknown admin routes answer 404, wrong methods 405', async () => {
			expect((await admin(mock, 'GET', 'nothing')).status).toBe(404);
			expect((await admin(mock, 'DELETE', 'config')).status).toBe(405);
			expect((await admin(mock, 'GET', 'reset')).status).toBe(405);
		});

		it('setServices / getServices in process', async () => {
			const records = generateServices(3, 3);
			mock.setServices(records);
			expect(await listing(mock)).toEqual(records);
			const copy = mock.getServices();
			copy[0].values.values.status = 'changed';
			expect(mock.getServices()[0].values.values.status).toBe(records[0].values.values.status);
			expect(() => mock.setServices({} as never)).toThrow(TypeError);
		});
	});

	describe('data', () => {
		it('is deterministic for a seed and differs between seeds', () => {
			expect(generateServices(36, 1)).toEqual(generateServices(36, 1));
			expect(generateServices(36)).toEqual(generateServices(36, 1));
			expect(generateServices(36, 2)).not.toEqual(generateServices(36, 1));
			expect(generateServices(36, 'demo')).toEqual(generateServices(36, 'demo'));
			expect(generateServices(36, '1')).toEqual(generateServices(36, 1));
			// A longer list starts with the shorter one.
			expect(generateServices(100, 4).slice(0, 36)).toEqual(generateServices(36, 4));
		});

		it('is realistic: documented shape, unique ids, every status and OS early, varied sizes', () => {
			const services = generateServices(36, 1);
			expect(services.every(isRecordShape)).toBe(true);
			expect(new Set(services.map((s) => s.id_service)).size).toBe(36);
			const statuses = new Set(services.slice(0, 12).map((s) => s.values.values.status));
			expect([...statuses].sort()).toEqual(['active', 'cancelled', 'pending', 'provisioning', 'suspended', 'terminated']);
			const os = new Set(services.slice(0, 12).map((s) => s.values.values.service.customize.OS.id));
			expect(os.size).toBe(8);
			expect(os).toContain('ubuntu-24.04');
			expect(services.filter((s) => s.values.values.status === 'active').length).toBeGreaterThan(12);
			expect(new Set(services.map((s) => s.values.values.service.customize.specifications.vcores)).size).toBeGreaterThan(3);
			for (const s of services) {
				expect(s.values.values.name).toMatch(/^[a-z]+-\d{2,}\.[a-z-]+$/);
			}
			expect(generateServices(0)).toEqual([]);
		});

		it('records do not share objects', () => {
			const [a, b] = generateServices(2, 1);
			expect(a.values.values.service.customize.OS).not.toBe(b.values.values.service.customize.OS);
		});

		it('generates and serves 100,000 records', async () => {
			const big = generateServices(100_000, 1);
			expect(big).toHaveLength(100_000);
			expect(new Set(big.map((s) => s.id_service)).size).toBe(100_000);
			mock.setServices(big);
			const first = await call(mock);
			const length = Number(first.headers.get('content-length'));
			const body = (await first.json()) as MockServiceRecord[];
			expect(body).toHaveLength(100_000);
			expect(body[99_999]).toEqual(big[99_999]);
			// HEAD: same cached body length, without moving 26 MB again.
			const head = await call(mock, { method: 'HEAD' });
			expect(head.status).toBe(200);
			expect(Number(head.headers.get('content-length'))).toBe(length);
		}, 60_000);
	});
});

describe('ESM entry and CLI', () => {
	it('tools/mock-platform/mock.mjs exports the same API to ESM scripts', async () => {
		const code =
			"import { startMockApi, generateServices } from './tools/mock-platform/mock.mjs';" +
			"const m = await startMockApi({ count: 3, apiKey: 'esm-key' });" +
			"const r = await fetch(m.servicesUrl, { headers: { authorization: 'Bearer esm-key' } });" +
			'console.log(JSON.stringify({ status: r.status, n: (await r.json()).length, g: generateServices(2).length }));' +
			'await m.close();';
		const out = await new Promise<string>((resolve, reject) => {
			const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: repoRoot });
			let stdout = '';
			child.stdout.on('data', (c: Buffer) => (stdout += c));
			child.on('error', reject);
			child.on('exit', (exitCode) => (exitCode === 0 ? resolve(stdout) : reject(new Error(`exit ${exitCode}`))));
		});
		expect(JSON.parse(out)).toEqual({ status: 200, n: 3, g: 2 });
	});

	it('tools/mock-platform/mock-api.mjs serves, prints its URL and key, and stops cleanly on SIGTERM', async () => {
		const child = spawn(
			process.execPath,
			['tools/mock-platform/mock-api.mjs', '--json', '--quiet', '--count', '4', '--shape', 'envelope', '--port', '0'],
			{
				cwd: repoRoot,
				env: { ...process.env, MOCK_API_KEY: 'cli-key' },
			},
		);
		try {
			const line = await new Promise<string>((resolve, reject) => {
				createInterface({ input: child.stdout }).once('line', resolve);
				child.once('exit', (code) => reject(new Error(`CLI exited early with ${code}`)));
			});
			const info = JSON.parse(line) as { url: string; apiKey: string; servicesUrl: string };
			expect(info.apiKey).toBe('cli-key');
			expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			const res = await fetch(info.servicesUrl, { headers: { authorization: 'Bearer cli-key' } });
			const body = (await res.json()) as { data: unknown[] };
			expect(body.data).toHaveLength(4);
			const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			expect(await exited).toBe(0);
		} finally {
			if (child.exitCode === null) child.kill('SIGKILL');
		}
	});

	it('tools/mock-platform/mock-api.mjs pages and fails N times from its flags', async () => {
		const child = spawn(
			process.execPath,
			[
				'tools/mock-platform/mock-api.mjs',
				'--json',
				'--quiet',
				'--count',
				'5',
				'--page-size',
				'2',
				'--next-form',
				'link-header',
				'--next-url',
				'relative',
				'--fault',
				'status:429',
				'--retry-after',
				'1',
				'--fault-times',
				'2',
				'--port',
				'0',
			],
			{ cwd: repoRoot, env: { ...process.env, MOCK_API_KEY: 'cli-key' } },
		);
		try {
			const line = await new Promise<string>((resolve, reject) => {
				createInterface({ input: child.stdout }).once('line', resolve);
				child.once('exit', (code) => reject(new Error(`CLI exited early with ${code}`)));
			});
			const info = JSON.parse(line) as { url: string; servicesUrl: string };
			const get = (url: string) => fetch(url, { headers: { authorization: 'Bearer cli-key' } });
			expect((await get(info.servicesUrl)).status).toBe(429);
			const second = await get(info.servicesUrl);
			expect([second.status, second.headers.get('retry-after')]).toEqual([429, '1']);
			const first = await get(info.servicesUrl);
			expect(first.status).toBe(200);
			expect(first.headers.get('link')).toBe('</v2026/services?page=2>; rel="next"');
			expect(await first.json()).toHaveLength(2);
		} finally {
			child.kill('SIGKILL');
		}
	});

	it('tools/mock-platform/mock-api.mjs --help prints usage and bad flags exit 2', async () => {
		const run = (args: string[]) =>
			new Promise<{ code: number | null; out: string }>((resolve) => {
				const child = spawn(process.execPath, ['tools/mock-platform/mock-api.mjs', ...args], { cwd: repoRoot });
				let out = '';
				child.stdout.on('data', (c: Buffer) => (out += c));
				child.stderr.on('data', (c: Buffer) => (out += c));
				child.on('exit', (code) => resolve({ code, out }));
			});
		const help = await run(['--help']);
		expect(help.code).toBe(0);
		expect(help.out).toMatch(/--fault/);
		const bad = await run(['--fault', 'explode']);
		expect(bad.code).toBe(2);
		expect(bad.out).toMatch(/unknown fault kind/);
		for (const [args, message] of [
			[['--fault-times', '2'], /--fault-times needs --fault/],
			[['--next-form', 'cursor'], /--next-form must be one of/],
			[['--page-size', '0'], /--page-size must be an integer from 1/],
		] as const) {
			const r = await run([...args]);
			expect(r.code).toBe(2);
			expect(r.out).toMatch(message);
		}
	});
});
