// The end-to-end assertions for one n8n line (2.x on Node 24, 1.x on Node 20 with the legacy
// expression engine), run against the packed package inside a real n8n and the embedded mock API.
//
// Layout per line, chosen for speed (measured: `n8n execute` costs 5-8 s per run because every run
// boots n8n; a run through the REST API of a started n8n costs 0.1-1 s):
//   1. CLI: one user folder; credentials and all workflows imported in one `import:*` call each;
//      the example workflow and the bad-key case run with `n8n execute --id --rawOutput` (the demo's
//      path, and the exit code of a failing workflow).
//   2. Server: `n8n start` on the same folder (after the CLI: one SQLite writer at a time), owner +
//      login, /types/*.json, every List case run as the editor's "Execute workflow" does
//      (POST /rest/workflows/:id/run), credential Test, HTTP Request node, trigger activation.
//   3. Editor-style installs: fresh folders where the tarball is installed with n8n's own installer
//      steps, and with `npm install <tarball>` in ~/.n8n/nodes; a workflow must run there (zod).
//   4. Secret scan: neither API key appears in anything n8n printed or wrote.
//
// Over 400 lines because it is one n8n per line taken through these phases in order: they share
// the instance, the mock, the credentials and the workflows imported once, which is what keeps the
// suite fast.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { ensureN8n } from '../../tools/lib/n8n-runtime.mjs';
import { N8nInstance, nodeItems, nodeError, workflowError, tail } from '../../tools/lib/n8n-instance.mjs';
import {
	CREDENTIAL_TYPE,
	NODE_TYPE,
	SERVICES_NAME,
	TRIGGER_TYPE,
	exampleWorkflow,
	getWorkflow,
	httpRequestWorkflow,
	listWorkflow,
	simplify,
	triggerWorkflow,
	workflowId,
} from './workflows.mjs';
import { inspectEditorInstall, readEditorNpmFlags } from './zod-resolution.mjs';
import { runKeyOriginGroup } from './key-origin.mjs';

const MOCK_COUNT = 60; // more than the default limit of 50
const BAD_KEY = 'e2e-WRONG-key-7f3c9a1d2b4e6f80';
const SIMPLIFIED_KEYS = ['id_service', 'name', 'alias', 'status', 'os_id', 'os_name', 'vcores', 'ram_gb', 'hd_gb'].sort();
const MSG_401 = /rejected the API key.*401/i;
const TRIGGER_BAD_KEY = 'e2e-WRONG-trigger-key-0001';
const GET_INDEX = 47; // a service on page 2 of 25-record pages
const PAGE_SIZE = 25; // 60 services: pages of 25, 25, 10
/** The page number a request to the mock asked for. */
const pageOf = (request) => Number(new URL(request.path, 'http://x').searchParams.get('page') ?? 1);
/** The page numbers the mock was asked for, in order. */
const pagesRequested = (mock) => mock.requests.filter((q) => q.path.startsWith('/v2026/services')).map(pageOf);

/** The groups --only selects in this suite (each `want(...)` below names one). */
export const LINE_GROUPS = [
	'list',
	'example',
	'cli',
	'error',
	'shape',
	'answer',
	'paging',
	'retry',
	'get',
	'http',
	'credential',
	'origin',
	'trigger',
	'editor',
	'zod',
];

/**
 * @param {import('./harness.mjs').Suite} t
 * @param {{ line: 1|2, tarball: string, startMockApi: Function, outDir: string, only?: RegExp }} o
 */
export async function runLineSuite(t, { line, tarball, startMockApi, outDir, only }) {
	const want = (name) => !only || only.test(name);
	const ctx = {};

	const runtime = await t.setup(`install/locate n8n (line ${line})`, async () => {
		const r = await ensureN8n(line);
		console.log(`    n8n ${r.version} with ${r.nodeBin}`);
		return r;
	});
	if (!runtime) return;

	const mock = await t.setup('start mock API', async () => startMockApi({ count: MOCK_COUNT, seed: 7 }));
	if (!mock) return;
	const services = mock.getServices();
	const creds = {
		good: {
			id: 'e2eCredGood00001',
			name: 'Service Platform (mock)',
			type: CREDENTIAL_TYPE,
			data: { apiKey: mock.apiKey, baseUrl: mock.url },
		},
		suffix: {
			id: 'e2eCredSuffix001',
			name: 'Service Platform (pasted /v2026/)',
			type: CREDENTIAL_TYPE,
			data: { apiKey: mock.apiKey, baseUrl: `${mock.url}/v2026/` },
		},
		bad: {
			id: 'e2eCredBad000001',
			name: 'Service Platform (wrong key)',
			type: CREDENTIAL_TYPE,
			data: { apiKey: BAD_KEY, baseUrl: mock.url },
		},
	};
	try {
		const wfs = {
			example: exampleWorkflow('list-active-services.json', creds.good),
			badKey: listWorkflow('badkey', { cred: creds.bad }),
			defaults: listWorkflow('defaults', { cred: creds.good }),
			raw: listWorkflow('raw', { cred: creds.good, params: { simplify: false, returnAll: true } }),
			all: listWorkflow('all', { cred: creds.good, params: { returnAll: true } }),
			limit: listWorkflow('limit', { cred: creds.good, params: { limit: 5 } }),
			filters: listWorkflow('filters', { cred: creds.good, params: { returnAll: true, filters: { status: 'Suspended, ACTIVE' } } }),
			search: listWorkflow('search', { cred: creds.good, params: { returnAll: true, filters: { search: 'DB-' } } }),
			suffix: listWorkflow('suffix', { cred: creds.suffix, params: { limit: 3 } }),
			continue: listWorkflow('continue', { cred: creds.bad, onError: 'continueRegularOutput' }),
			http: httpRequestWorkflow('http', { url: mock.servicesUrl, cred: creds.good }),
			pagedLimit: listWorkflow('pagedlimit', { cred: creds.good, params: { returnAll: false, limit: 30 } }),
			allOneByOne: listWorkflow('allonebyone', { cred: creds.good, params: { returnAll: true, options: { parallelRequests: 1 } } }),
			getById: getWorkflow('getbyid', { cred: creds.good, serviceId: { __rl: true, mode: 'id', value: services[GET_INDEX].id_service } }),
			getByIdOneByOne: getWorkflow('getbyidone', {
				cred: creds.good,
				serviceId: { __rl: true, mode: 'id', value: services[GET_INDEX].id_service },
				params: { options: { parallelRequests: 1 } },
			}),
			getFromList: getWorkflow('getfromlist', {
				cred: creds.good,
				serviceId: {
					__rl: true,
					mode: 'list',
					value: services[GET_INDEX].id_service,
					cachedResultName: services[GET_INDEX].values.values.name,
				},
			}),
			getPlain: getWorkflow('getplain', { cred: creds.good, serviceId: services[GET_INDEX].id_service, params: { simplify: false } }),
			getUnknown: getWorkflow('getunknown', { cred: creds.good, serviceId: { __rl: true, mode: 'id', value: 'srv-does-not-exist' } }),
			getUnknownContinue: getWorkflow('getunknowncont', {
				cred: creds.good,
				onError: 'continueRegularOutput',
				serviceId: { __rl: true, mode: 'id', value: 'srv-does-not-exist' },
			}),
		};
		const mockAnswers = (config) =>
			mock.setConfig({
				shape: 'array',
				envelopeKey: 'data',
				fault: null,
				delayMs: 0,
				pageSize: 0,
				nextForm: 'next',
				nextUrl: 'absolute',
				...config,
			});
		const expectOk = (r, node, how) => {
			const err = workflowError(r.result);
			if (!r.ok) {
				const nodeErr = nodeError(r.result, node);
				throw new Error(
					`workflow failed (${how}): ${err?.message ?? nodeErr?.message ?? ''} ${err?.description ?? ''}${r.stdout ? `\n${tail(r.stdout + r.stderr, 15)}` : ''}`,
				);
			}
			const items = nodeItems(r.result, node);
			assert.ok(
				Array.isArray(items),
				`no output of node "${node}" (${how}); run data has: ${JSON.stringify(Object.keys(r.result?.data?.resultData?.runData ?? {}))}, status ${r.status ?? r.result?.status}, execution ${r.executionId ?? '-'}`,
			);
			return items;
		};

		// ---------------------------------------------------------------- 1. CLI
		const inst = await t.setup('create n8n user folder with the packed package in ~/.n8n/nodes/node_modules', async () =>
			N8nInstance.create({ runtime, tarball, install: 'extract', label: `n8n ${runtime.version}` }),
		);
		if (!inst) return;
		ctx.inst = inst;
		await t.setup('n8n import:credentials and import:workflow', async () => {
			const a = await inst.importCredentials(Object.values(creds));
			const b = await inst.importWorkflows(Object.values(wfs));
			console.log(
				`    imported ${Object.keys(creds).length} credentials in ${(a.ms / 1000).toFixed(1)} s, ${Object.keys(wfs).length} workflows in ${(b.ms / 1000).toFixed(1)} s`,
			);
		});
		const cliExec = async (key) => {
			const r = await inst.execute(wfs[key].id);
			console.log(`    n8n execute took ${(r.ms / 1000).toFixed(1)} s`);
			if (!r.result) throw new Error(`no result parsed from n8n execute (exit ${r.signal ?? r.code}):\n${tail(r.stdout + r.stderr, 30)}`);
			return r;
		};
		if (want('list') || want('example') || want('cli')) {
			await t.test('n8n execute: example workflow (Manual Trigger -> List Services -> Filter status active)', async () => {
				mockAnswers({});
				const r = await cliExec('example');
				const listed = expectOk(r, SERVICES_NAME, `exit ${r.code}`);
				const items = expectOk(r, 'Only Active', `exit ${r.code}`);
				assert.deepEqual(listed, services.slice(0, 50).map(simplify));
				const expected = services
					.slice(0, 50)
					.filter((x) => x.values.values.status.toLowerCase() === 'active')
					.map(simplify);
				assert.ok(expected.length > 0 && expected.length < 50, 'mock data has active and other services');
				assert.deepEqual(items, expected);
			});
		}
		if (want('error') || want('cli')) {
			await t.test("n8n execute with a bad key: exit code 1 and the node's clear 401 message", async () => {
				mockAnswers({});
				mock.clearRequests();
				const r = await cliExec('badKey');
				assert.equal(r.code, 1, 'n8n execute exits 1 when the workflow fails');
				const err = workflowError(r.result);
				assert.match(String(err?.message), MSG_401);
				assert.match(String(nodeError(r.result, SERVICES_NAME)?.message), MSG_401, 'the error belongs to the Services node');
				assert.ok(
					mock.requests.some((q) => q.authPresent && !q.authMatched),
					'the mock saw the wrong bearer key',
				);
				console.log(`    message: ${err.message}${err.description ? ` / ${err.description}` : ''}`);
			});
		}

		// ---------------------------------------------------------------- 2. server + REST
		const started = await t.setup('n8n start: ready on 127.0.0.1, owner set up, logged in', async () => {
			await inst.start();
			console.log(`    ready after ${(inst.startMs / 1000).toFixed(1)} s at ${inst.baseUrl}`);
			await inst.setupOwner();
			await inst.login();
			return true;
		});
		if (!started) return;
		const runTimes = [];
		const restRun = async (key) => {
			const r = await inst.runWorkflow(wfs[key].id);
			runTimes.push(r.ms);
			return r;
		};
		const okItems = async (key, node = SERVICES_NAME) => expectOk(await restRun(key, node), node, 'REST run');

		let types = null;
		await t.test(`package loads: node ${NODE_TYPE} is listed in /types/nodes.json`, async () => {
			types = await inst.nodeTypes();
			const node = types.find((n) => n.name === NODE_TYPE);
			assert.ok(node, `${NODE_TYPE} not among ${types.length} node types`);
			assert.ok(
				node.credentials?.some((c) => c.name === CREDENTIAL_TYPE),
				'the node declares the servicePlatformApi credential',
			);
		});
		await t.test(`package loads: credential ${CREDENTIAL_TYPE} is listed in /types/credentials.json`, async () => {
			const list = await inst.credentialTypes();
			const c = list.find((x) => x.name === CREDENTIAL_TYPE);
			assert.ok(c, `${CREDENTIAL_TYPE} not among ${list.length} credential types`);
			const names = c.properties.map((x) => x.name);
			for (const f of ['apiKey', 'baseUrl']) assert.ok(names.includes(f), `field ${f} missing (fields: ${names.join(', ')})`);
			assert.ok(c.properties.find((x) => x.name === 'apiKey')?.typeOptions?.password, 'apiKey is a password field');
		});
		const trigger = triggerScenario(t, { inst, startMockApi, types, want });
		ctx.trigger = trigger;
		await trigger.start();

		if (want('list')) {
			await t.test('List with defaults: simplified items, default limit 50', async () => {
				mockAnswers({});
				const items = await okItems('defaults');
				assert.equal(items.length, 50);
				for (const it of items) assert.deepEqual(Object.keys(it).sort(), SIMPLIFIED_KEYS);
				assert.deepEqual(items, services.slice(0, 50).map(simplify));
			});
			await t.test('List simplify off, return all: the raw records exactly as the API sent them', async () => {
				assert.deepEqual(await okItems('raw'), services);
			});
			await t.test('List return all: every service (60 > default limit)', async () => {
				assert.deepEqual(await okItems('all'), services.map(simplify));
			});
			await t.test('List limit 5: the first five', async () => {
				assert.deepEqual(await okItems('limit'), services.slice(0, 5).map(simplify));
			});
			await t.test('List filters status "Suspended, ACTIVE" (case-insensitive)', async () => {
				const items = await okItems('filters');
				const expected = services.filter((x) => ['suspended', 'active'].includes(x.values.values.status.toLowerCase())).map(simplify);
				assert.ok(expected.length > 0 && expected.length < MOCK_COUNT, 'mock data must have a mix of statuses');
				assert.deepEqual(items, expected);
			});
			await t.test('List filters search "DB-" (name or alias, case-insensitive)', async () => {
				const items = await okItems('search');
				const expected = services
					.filter((x) => `${x.values.values.name}\n${x.values.values.alias}`.toLowerCase().includes('db-'))
					.map(simplify);
				assert.ok(expected.length > 0, 'mock data must contain a db- service');
				assert.deepEqual(items, expected);
			});
			await t.test('credential baseUrl with a pasted /v2026/ suffix works', async () => {
				assert.deepEqual(await okItems('suffix'), services.slice(0, 3).map(simplify));
			});
		}

		if (want('shape')) {
			const shapes = [
				['array', {}, MOCK_COUNT],
				['single', {}, 1],
				['map', {}, MOCK_COUNT],
				['envelope', { envelopeKey: 'data' }, MOCK_COUNT],
				['envelope', { envelopeKey: 'services' }, MOCK_COUNT],
			];
			for (const [shape, extra, n] of shapes) {
				const label = shape === 'envelope' ? `envelope {"${extra.envelopeKey}": [...]}` : shape;
				await t.test(`response shape ${label}: ${n} item(s)`, async () => {
					mockAnswers({ shape, ...extra });
					try {
						const items = await okItems('all');
						const byId = (list) => list.map((x) => x.id_service).sort();
						assert.equal(items.length, n);
						assert.deepEqual(byId(items), byId(services.slice(0, n)));
						assert.deepEqual(
							items.slice().sort((a, b) => a.id_service.localeCompare(b.id_service)),
							services
								.slice(0, n)
								.map(simplify)
								.sort((a, b) => a.id_service.localeCompare(b.id_service)),
						);
					} finally {
						mockAnswers({});
					}
				});
			}
		}

		if (want('answer')) {
			// Issue 28: what the answer stage reads that JSON.parse hides, and the closed world, in real n8n.
			const raw = (body) => mockAnswers({ fault: { kind: 'raw', body } });
			const failsWith = async (pattern) => {
				const r = await restRun('raw');
				assert.equal(r.status, 'error', `the run should fail: ${JSON.stringify(nodeItems(r.result, SERVICES_NAME))?.slice(0, 200)}`);
				assert.match(String(nodeError(r.result, SERVICES_NAME)?.message), pattern);
			};
			const [one, two] = services.map((record) => JSON.stringify(record));
			await t.test('an integer beyond 2^53 in raw output keeps its exact digits (in a string), a small one stays a number', async () => {
				raw(`[${one.replace(/}$/, ', "usage_bytes": 12345678901234567890, "small": -42}')}]`);
				try {
					const items = await okItems('raw');
					assert.equal(items.length, 1);
					assert.equal(items[0].usage_bytes, '12345678901234567890');
					assert.equal(items[0].small, -42);
				} finally {
					mockAnswers({});
				}
			});
			await t.test('a map of records naming one id twice: an error naming it (JSON.parse would keep the last)', async () => {
				raw(`{"srv-x": ${one}, "srv-x": ${two}}`);
				try {
					await failsWith(/^The answer names the key "srv-x" twice in one object/);
				} finally {
					mockAnswers({});
				}
			});
			await t.test('paging metadata the node does not know: an error naming the field, never part of the listing', async () => {
				raw(`{"data": [${one}], "meta": {"request_id": "r-1", "scroll_cursor": "c2"}}`);
				try {
					await failsWith(/^The answer holds paging metadata the node does not know: "meta\.scroll_cursor"/);
				} finally {
					mockAnswers({});
				}
			});
		}

		if (want('error')) {
			await t.test("bad key (editor run): the execution fails with the node's clear 401 message", async () => {
				mockAnswers({});
				const r = await restRun('badKey');
				assert.equal(r.status, 'error');
				assert.match(String(workflowError(r.result)?.message), MSG_401);
				assert.match(String(nodeError(r.result, SERVICES_NAME)?.message), MSG_401);
			});
			await t.test('On Error "Continue (regular output)": the workflow succeeds with an error item', async () => {
				const items = await okItems('continue');
				assert.equal(items.length, 1);
				assert.match(String(items[0].error ?? JSON.stringify(items[0])), MSG_401);
			});
		}

		if (want('paging')) {
			// Return All across pages, in each of three next-link forms (absolute and relative).
			for (const [nextForm, nextUrl, extra] of [
				['links.next', 'absolute', {}],
				['meta.next', 'relative', { envelopeKey: 'items' }],
				['link-header', 'relative', {}],
			]) {
				await t.test(
					`paged listing (${nextForm}, ${nextUrl} next URL, pages of ${PAGE_SIZE}): Return All returns every service across the pages`,
					async () => {
						mockAnswers({ pageSize: PAGE_SIZE, nextForm, nextUrl, ...extra });
						mock.clearRequests();
						try {
							assert.deepEqual(await okItems('all'), services.map(simplify));
							// Pages 2 and 3 may be read at once (the links show the sequence and the total says where it ends).
							assert.deepEqual(
								pagesRequested(mock).sort((a, b) => a - b),
								[1, 2, 3],
								'the node read each page once',
							);
							assert.ok(
								mock.requests.every((q) => q.authMatched),
								'every page request carried the key',
							);
						} finally {
							mockAnswers({});
						}
					},
				);
			}
			await t.test(
				`paged listing read ahead (Parallel Requests at its default, 5) and one by one (1): the same items, item for item; ahead, page 3 is asked before page 2 is answered`,
				async () => {
					// Each answer waits 1 s: one by one, page 3 is asked a second after page 2; read ahead, at once.
					mockAnswers({ pageSize: PAGE_SIZE, nextForm: 'meta.next', nextUrl: 'relative', envelopeKey: 'items', delayMs: 1000 });
					try {
						const askedAt = () => {
							const at = (page) => Date.parse(mock.requests.find((q) => pageOf(q) === page).time);
							return at(3) - at(2);
						};
						mock.clearRequests();
						const ahead = await okItems('all');
						const aheadGap = askedAt();
						mock.clearRequests();
						const oneByOne = await okItems('allOneByOne');
						const oneByOneGap = askedAt();
						assert.equal(ahead.length, services.length);
						assert.deepEqual(ahead, oneByOne, 'the same items in the same order');
						assert.ok(aheadGap < 1000, `read ahead: page 3 asked ${aheadGap} ms after page 2, before its answer`);
						assert.ok(oneByOneGap >= 1000, `one by one: page 3 asked ${oneByOneGap} ms after page 2, after its answer`);
					} finally {
						mockAnswers({});
					}
				},
			);
			await t.test(`paged listing, Limit 30: the first 30, and no page after the one that completes them`, async () => {
				mockAnswers({ pageSize: PAGE_SIZE, nextForm: 'next' });
				mock.clearRequests();
				try {
					assert.deepEqual(await okItems('pagedLimit'), services.slice(0, 30).map(simplify));
					assert.deepEqual(pagesRequested(mock), [1, 2]);
				} finally {
					mockAnswers({});
				}
			});
		}

		if (want('retry')) {
			for (const status of [429, 503]) {
				await t.test(
					`${status} with Retry-After: 1 twice, then the listing: the node retries by itself (Retry on Rate Limit, default on)`,
					async () => {
						mockAnswers({ fault: { status, retryAfter: 1, times: 2 } });
						mock.clearRequests();
						try {
							const started = Date.now();
							assert.deepEqual(await okItems('all'), services.map(simplify));
							assert.deepEqual(
								mock.requests.map((q) => q.status),
								[status, status, 200],
							);
							assert.ok(Date.now() - started >= 2000, `waited the two Retry-After seconds (run took ${Date.now() - started} ms)`);
						} finally {
							mockAnswers({});
						}
					},
				);
			}
		}

		if (want('get')) {
			const expected = simplify(services[GET_INDEX]);
			await t.test('Get, service by ID (resource locator mode id): the one service, simplified', async () => {
				mockAnswers({});
				assert.deepEqual(await okItems('getById'), [expected]);
			});
			await t.test('Get, service from the list (resource locator mode list): the one service', async () => {
				mockAnswers({});
				assert.deepEqual(await okItems('getFromList'), [expected]);
			});
			await t.test('Get with a plain string id and Simplify off: the raw record', async () => {
				mockAnswers({});
				assert.deepEqual(await okItems('getPlain'), [services[GET_INDEX]]);
			});
			await t.test(
				`Get through a paged listing: stops at the page that holds the service (one by one: no page after it; read ahead: none started after it)`,
				async () => {
					mockAnswers({ pageSize: PAGE_SIZE, nextForm: 'links.next.href', nextUrl: 'relative' });
					mock.clearRequests();
					try {
						assert.deepEqual(await okItems('getByIdOneByOne'), [expected]);
						assert.deepEqual(pagesRequested(mock), [1, 2]);
						mock.clearRequests();
						assert.deepEqual(await okItems('getById'), [expected]);
						// Page 3 was asked with page 2 (the total says it exists): at most Parallel Requests - 1 more.
						assert.deepEqual(
							pagesRequested(mock)
								.sort((a, b) => a - b)
								.slice(0, 2),
							[1, 2],
						);
						assert.ok(pagesRequested(mock).length <= 3);
					} finally {
						mockAnswers({});
					}
				},
			);
			await t.test('Get, unknown id: the execution fails with `No service with id_service "…"`', async () => {
				mockAnswers({});
				const r = await restRun('getUnknown');
				assert.equal(r.status, 'error');
				assert.match(String(nodeError(r.result, SERVICES_NAME)?.message), /No service with id_service "srv-does-not-exist"/);
			});
			await t.test('Get, unknown id with On Error "Continue (regular output)": an error item', async () => {
				mockAnswers({});
				const items = await okItems('getUnknownContinue');
				assert.equal(items.length, 1);
				assert.match(String(items[0].error ?? JSON.stringify(items[0])), /No service with id_service "srv-does-not-exist"/);
			});
		}

		if (want('http')) {
			await t.test('HTTP Request node with predefined credential type servicePlatformApi sends the bearer key', async () => {
				mockAnswers({});
				mock.clearRequests();
				const items = await okItems('http', 'HTTP Request');
				const seen = mock.requests.filter((q) => q.path.startsWith('/v2026/services'));
				assert.equal(seen.length, 1, `expected one request to the mock, saw ${seen.length}`);
				assert.ok(seen[0].authMatched, 'Authorization: Bearer <apiKey> matches the stored key');
				assert.deepEqual(items, services);
			});
		}
		if (runTimes.length) {
			const sec = runTimes.map((ms) => ms / 1000);
			console.log(`    REST runs: ${sec.length}, ${Math.min(...sec).toFixed(1)}-${Math.max(...sec).toFixed(1)} s each`);
		}

		if (want('credential')) {
			// The key as typed in the dialog. n8n 2.x tests an unsaved credential (id ''); n8n 1.x only
			// tests saved ones (the editor saves first), so there the imported credential's id is sent.
			const typedId = (c) => (line >= 2 ? '' : c.id);
			await t.test('credential Test through REST: OK for the good key', async () => {
				const r = await inst.testCredential({
					id: typedId(creds.good),
					name: creds.good.name,
					type: CREDENTIAL_TYPE,
					data: creds.good.data,
				});
				assert.equal(r?.status, 'OK', JSON.stringify(r));
			});
			await t.test('credential Test through REST: an error for a bad key', async () => {
				const r = await inst.testCredential({ id: typedId(creds.bad), name: creds.bad.name, type: CREDENTIAL_TYPE, data: creds.bad.data });
				assert.equal(r?.status, 'Error', JSON.stringify(r));
				assert.ok(!String(r.message).includes(BAD_KEY), 'the message does not echo the key');
				// n8n 2.x applies the credential's responseCode rules; 1.x's tester shows its own 401 text.
				if (line >= 2) assert.match(String(r.message), /The platform rejected the API key \(HTTP 401\)/);
				console.log(`    message shown: ${r.message}`);
			});
			await t.test('credential Test through REST: plain http to a remote host is refused before sending', async () => {
				const r = await inst.testCredential({
					id: typedId(creds.good),
					name: creds.good.name,
					type: CREDENTIAL_TYPE,
					data: { baseUrl: 'http://api.example.com', apiKey: creds.good.data.apiKey },
				});
				assert.equal(r?.status, 'Error', JSON.stringify(r));
				// The credential's authenticate refuses before anything is sent; the dialog shows its message.
				assert.match(
					String(r.message),
					/^Refusing to send the API key over plain http to api\.example\.com\. .*Change the credential's Base URL to https:\/\/api\.example\.com/,
				);
				assert.ok(!String(r.message).includes(creds.good.data.apiKey), 'the message does not echo the key');
				console.log(`    message shown: ${r.message}`);
			});
			await t.test(
				'credential Test through REST: plain http to a loopback host in another spelling (127.1) is OK, as in the node',
				async () => {
					mock.clearRequests();
					const r = await inst.testCredential({
						id: typedId(creds.good),
						name: creds.good.name,
						type: CREDENTIAL_TYPE,
						data: { baseUrl: mock.url.replace('//127.0.0.1:', '//127.1:'), apiKey: creds.good.data.apiKey },
					});
					assert.equal(r?.status, 'OK', JSON.stringify(r));
					assert.ok(
						mock.requests.some((q) => q.path === '/v2026/services' && q.authMatched),
						'the mock got the key',
					);
				},
			);
			const BLANK = '__n8n_BLANK_VALUE_e5362baf-c777-4d57-a609-6eaf1f9e87f6'; // the editor's redacted password value
			await t.test('credential saved through REST, then Test with the key redacted (as the editor sends it): OK', async () => {
				const saved = await inst.createCredential({ name: 'Saved via REST', type: CREDENTIAL_TYPE, data: creds.good.data });
				const r = await inst.testCredential({
					id: saved.id,
					name: saved.name,
					type: CREDENTIAL_TYPE,
					data: { baseUrl: mock.url, apiKey: BLANK },
				});
				assert.equal(r?.status, 'OK', JSON.stringify(r));
			});
			await t.test('imported credential with a wrong key, Test with the key redacted: an error', async () => {
				const r = await inst.testCredential({
					id: creds.bad.id,
					name: creds.bad.name,
					type: CREDENTIAL_TYPE,
					data: { baseUrl: mock.url, apiKey: BLANK },
				});
				assert.equal(r?.status, 'Error', JSON.stringify(r));
			});
		}
		if (want('origin')) await runKeyOriginGroup(t, { inst, mock, ctx });
		await trigger.finish();
		await inst.stop();

		// ---------------------------------------------------------------- 3. editor-style installs
		if (want('zod') || want('editor')) {
			await editorInstallTests(t, { runtime, tarball, creds, mock, outDir, line, ctx });
		}

		// ---------------------------------------------------------------- 4. secret scan
		await t.test('neither API key appears in n8n output, logs, execution data or any file n8n wrote', async () => {
			const hits = [];
			for (const i of [ctx.inst, ...(ctx.editorInsts ?? [])].filter(Boolean)) {
				const keys = [
					['bad key', BAD_KEY],
					['good key', mock.apiKey],
					['trigger bad key', TRIGGER_BAD_KEY],
				];
				if (ctx.trigger?.apiKey) keys.push(['trigger mock key', ctx.trigger.apiKey]);
				if (ctx.originKey) keys.push(['origin key', ctx.originKey]);
				for (const [label, key] of keys) {
					for (const h of i.findSecret(key)) hits.push(`${label} in ${i.label}: ${h}`);
				}
			}
			assert.deepEqual(hits, []);
		});
	} finally {
		await ctx.inst?.stop();
		await ctx.trigger?.close();
		await mock.close();
	}
}

/**
 * Issue 4, the polling trigger (runs only when the package ships it, i.e. it is listed in
 * /types/nodes.json). Uses its own mock so the List cases' shape/fault changes don't disturb it.
 * start(): activate a workflow (n8n polls once at activation: the baseline), then change the mock's
 * services. finish(): wait for n8n's next scheduled poll (every minute: the shortest interval n8n
 * allows) to start an execution whose items are exactly the changes. The List cases run in between,
 * so most of that minute is not spent waiting.
 */
export function triggerScenario(t, { inst, startMockApi, types, want }) {
	const present = types?.some((n) => n.name === TRIGGER_TYPE);
	const state = {};
	return {
		async start() {
			if (!want('trigger')) return;
			if (!present) {
				console.log(`    (${TRIGGER_TYPE} is not in this build: trigger assertions skipped)`);
				return;
			}
			await t.test(`trigger ${TRIGGER_TYPE}: activation polls the platform once (baseline, no execution)`, async () => {
				state.mock = await startMockApi({ count: 8, seed: 11 });
				const cred = await inst.createCredential({
					name: 'Trigger mock',
					type: CREDENTIAL_TYPE,
					data: { apiKey: state.mock.apiKey, baseUrl: state.mock.url },
				});
				const wf = await inst.createWorkflow(
					triggerWorkflow('trigger', { cred, params: { events: ['created', 'statusChanged', 'specsChanged', 'removed'] } }),
				);
				state.wf = wf;
				await inst.activateWorkflow(wf.id);
				state.activatedAt = Date.now();
				const polls = state.mock.requests.filter((q) => q.path.startsWith('/v2026/services'));
				assert.ok(polls.length >= 1 && polls.every((q) => q.authMatched), `baseline poll with the bearer key (saw ${polls.length})`);
				assert.deepEqual(await inst.executions(wf.id), [], 'the baseline poll starts no execution');
				// Now the platform changes: one new service, one status change, one resize, one removal.
				const svc = state.mock.getServices();
				const changed = svc[0];
				const before = changed.values.values.status;
				changed.values.values.status = before === 'suspended' ? 'active' : 'suspended';
				const resized = svc[2];
				resized.values.values.service.customize.specifications.GB.ram *= 2;
				const removed = svc.splice(1, 1)[0];
				const created = structuredClone(svc[3]);
				created.id_service = 'srv-99001';
				created.values.values.name = 'new-01.e2e';
				svc.push(created);
				state.mock.setServices(svc);
				state.expected = [
					['created', 'srv-99001'],
					['removed', removed.id_service],
					['specsChanged', resized.id_service],
					['statusChanged', changed.id_service],
				].sort((a, b) => `${a}`.localeCompare(`${b}`));
				state.newStatus = changed.values.values.status;
				state.changedId = changed.id_service;
			});
			await t.test(`trigger ${TRIGGER_TYPE}: activating with a wrong key fails with the 401 message`, async () => {
				const cred = await inst.createCredential({
					name: 'Trigger wrong key',
					type: CREDENTIAL_TYPE,
					data: { apiKey: TRIGGER_BAD_KEY, baseUrl: state.mock?.url ?? 'http://127.0.0.1:9' },
				});
				const wf = await inst.createWorkflow(triggerWorkflow('triggerbad', { cred }));
				let error = null;
				try {
					await inst.activateWorkflow(wf.id);
				} catch (e) {
					error = e;
				}
				assert.ok(error, 'activation must fail');
				assert.match(error.message, MSG_401);
			});
		},
		async finish() {
			if (!state.wf || !state.expected) return;
			await t.test(`trigger ${TRIGGER_TYPE}: the next scheduled poll starts one execution with exactly the changes`, async () => {
				const deadline = state.activatedAt + 100_000; // a poll every minute at a random second
				let execs = [];
				while (Date.now() < deadline) {
					execs = await inst.executions(state.wf.id);
					if (execs.length) break;
					await new Promise((r) => setTimeout(r, 1000));
				}
				console.log(
					`    first trigger execution ${execs.length ? `after ${Math.round((Date.now() - state.activatedAt) / 1000)} s` : 'never came'}`,
				);
				assert.ok(execs.length >= 1, 'no execution within 100 s of activation');
				const done = await inst.waitForExecution(execs[execs.length - 1].id);
				assert.equal(done.status, 'success', `execution status ${done.status}: ${workflowError(done.result)?.message ?? ''}`);
				const items = nodeItems(done.result, 'Service Changes');
				const got = items.map((i) => [i.event, i.id_service]).sort((a, b) => `${a}`.localeCompare(`${b}`));
				assert.deepEqual(got, state.expected);
				const status = items.find((i) => i.event === 'statusChanged');
				assert.equal(status.service?.status, state.newStatus, 'statusChanged carries the new status (simplified service)');
				// How each is delivered (docs/trigger.md): its own id, increasing numbers, not a redelivery.
				assert.ok(
					items.every((i) => /^[0-9a-f]{24}$/.test(i.eventId) && Number.isSafeInteger(i.seq) && i.redelivered === false),
					`eventId, seq, redelivered: ${JSON.stringify(items.map((i) => [i.eventId, i.seq, i.redelivered]))}`,
				);
				assert.equal(new Set(items.map((i) => i.eventId)).size, items.length, 'distinct eventIds');
				assert.deepEqual(
					items.map((i) => i.seq),
					[...items.map((i) => i.seq)].sort((a, b) => a - b),
					'seq in emission order',
				);
				await inst.deactivateWorkflow(state.wf.id);
			});
		},
		get apiKey() {
			return state.mock?.apiKey;
		},
		async close() {
			await state.mock?.close();
		},
	};
}

async function editorInstallTests(t, { runtime, tarball, creds, mock, outDir, line, ctx }) {
	const editorNpm = readEditorNpmFlags(runtime);
	console.log(
		`    n8n ${runtime.version} installs community packages by: ${editorNpm.procedure} (${path.relative(runtime.dir, editorNpm.file ?? '?')})`,
	);
	const modes = [
		['editor', "n8n's own installer steps (npm pack, untar, peers stripped, npm install in the package folder)"],
		['npm', 'npm install <tarball> in ~/.n8n/nodes (npm 7+ adds peer dependencies)'],
	];
	ctx.editorInsts = [];
	const report = {
		n8n: runtime.version,
		editorInstaller: { ...editorNpm, file: editorNpm.file && path.relative(runtime.dir, editorNpm.file) },
		modes: {},
	};
	for (const [mode, what] of modes) {
		const inst = await t.test(`install by ${what}`, async () => {
			const i = await N8nInstance.create({
				runtime: { ...runtime, editorNpm },
				tarball,
				install: 'none',
				label: `n8n ${runtime.version} (${mode}-installed)`,
			});
			ctx.editorInsts.push(i);
			await i.installPackage(tarball, mode);
			for (const s of i.installProcedure.steps) console.log(`    ${s}`);
			return i;
		});
		if (!inst) continue;
		const info = await inspectEditorInstall(inst, runtime);
		report.modes[mode] = info;
		console.log(
			`    next to the package in ~/.n8n/nodes/node_modules: ${info.installedTopLevel.length ? `${info.installedTopLevel.length} packages (${info.installedTopLevel.slice(0, 8).join(', ')}${info.installedTopLevel.length > 8 ? ', ...' : ''})` : '(nothing)'}`,
		);
		for (const [spec, where] of Object.entries(info.resolution)) console.log(`    require('${spec}') -> ${where}`);
		await t.test(`${mode}-installed: no runtime dependency, a workflow runs (zod and n8n-workflow resolve)`, async () => {
			assert.deepEqual(Object.keys(info.packageJsonAfterInstall.dependencies), [], 'no runtime dependencies');
			const wf = listWorkflow(`zod${mode}`, { cred: creds.good, params: { limit: 2 } });
			await inst.importCredentials([creds.good]);
			await inst.importWorkflows([wf]);
			const r = await inst.execute(wf.id);
			const err = workflowError(r.result);
			assert.ok(r.ok, `workflow failed (exit ${r.code}): ${err?.message ?? ''}\n${tail(r.stdout + r.stderr, 20)}`);
			assert.equal(nodeItems(r.result, SERVICES_NAME)?.length, 2);
		});
		await t.test(`${mode}-installed: every module the built code requires resolves`, async () => {
			const unresolved = Object.entries(info.resolution).filter(([, where]) => where.startsWith('NOT RESOLVED'));
			assert.deepEqual(unresolved, []);
		});
	}
	fs.mkdirSync(outDir, { recursive: true });
	const file = path.join(outDir, `zod-resolution-n8n-${runtime.version}.json`);
	fs.writeFileSync(file, JSON.stringify(report, null, 2));
	console.log(`    resolution report: ${path.relative(process.cwd(), file)}`);
	void mock;
	void line;
}

export { workflowId };
