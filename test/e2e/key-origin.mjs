// The `origin` group of the line suite (issue 34 item 7): where the API key goes when the credential is
// used outside the Services node, in real n8n. n8n's way to make the platform's calls the Services
// node does not offer (and where its Custom API Call points) is HTTP Request with Authentication
// "Predefined Credential Type" -> Service Platform API. Here: calls to the Base URL's origin get the key
// (a GET the node does not make, a POST, a same-origin redirect, every page of a paginated call);
// a call to another origin, a redirect to another origin and a pagination page on another origin get
// no key, and the refusals carry the credential's message. Also what n8n serves for the credential
// and the Services node (Custom API Call, no credential-only node), and Custom API Call run.
// Runs on the line suite's started n8n (core.mjs), as HTTP Request's current version and 4.2 (whose
// default still forwards credentials along a cross-origin redirect).

import assert from 'node:assert/strict';
import http from 'node:http';

import { onCleanup } from '../../tools/lib/cleanup.mjs';
import { nodeItems, workflowError } from '../../tools/lib/n8n-instance.mjs';
import { CREDENTIAL_TYPE, NODE_TYPE } from './workflows.mjs';

const ORIGIN_KEY = 'e2e-origin-key-5b8d0c2e9f71a4c6';
const REFUSED =
	/^Not sending the Service Platform API key to http:\/\/127\.0\.0\.1:\d+\. The credential sends its key only to its Base URL's address/;

/**
 * A server on 127.0.0.1 recording each request (path, method, Authorization). `/redirect?to=<url>`
 * answers 302 to it; `/paged?next=<url>` answers a page naming `next`; anything else `{ ok: true }`.
 */
async function recorder() {
	const seen = [];
	const server = http.createServer((req, res) => {
		const url = new URL(req.url, 'http://x');
		seen.push({ method: req.method, path: url.pathname, authorization: req.headers.authorization ?? null });
		req.resume();
		if (url.pathname === '/redirect') {
			res.writeHead(302, { location: url.searchParams.get('to') });
			return res.end();
		}
		res.writeHead(200, { 'content-type': 'application/json' });
		const next = url.pathname === '/paged' ? url.searchParams.get('next') : null;
		res.end(JSON.stringify({ ok: true, path: url.pathname, next }));
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const stop = () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
	const forget = onCleanup('origin recorder', stop);
	const close = () => (forget(), stop());
	const origin = `http://127.0.0.1:${server.address().port}`;
	return { origin, seen, close, at: (path) => seen.filter((r) => r.path === path) };
}

const manualTrigger = {
	id: 'start',
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** HTTP Request with the credential as "Predefined Credential Type"; an error becomes its output item. */
function httpNode(name, credential, { url, version, method = 'GET', options = {}, body }) {
	return {
		id: name,
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: version,
		position: [300, 0],
		onError: 'continueRegularOutput',
		parameters: {
			method,
			url,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: CREDENTIAL_TYPE,
			...(body ? { sendBody: true, contentType: 'json', specifyBody: 'json', jsonBody: JSON.stringify(body) } : {}),
			options,
		},
		credentials: { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } },
	};
}

/** A workflow of nodes run side by side from one Manual Trigger. */
function sideBySide(name, nodes) {
	return {
		name,
		nodes: [manualTrigger, ...nodes.map((node, index) => ({ ...node, position: [300, index * 160] }))],
		connections: { Start: { main: [nodes.map((node) => ({ node: node.name, type: 'main', index: 0 }))] } },
		settings: { executionOrder: 'v1' },
	};
}

/** What a node of the run gave: its first item's JSON, and the error message when it failed. */
function outcome(result, name) {
	const items = nodeItems(result, name);
	assert.ok(items?.length, `node "${name}" gave no items`);
	const json = items[0];
	const error = typeof json.error === 'string' ? json.error : json.error?.message;
	return { json, error };
}

/** A paginated call: each page's `next` is the next URL; the first names `${nextOrigin}/end`, which ends it. */
function pagedNode(name, credential, { platform, nextOrigin, version }) {
	const pagination = {
		paginationMode: 'responseContainsNextURL',
		nextURL: '={{ $response.body.next }}',
		paginationCompleteWhen: 'other',
		completeExpression: '={{ !$response.body.next }}',
	};
	const url = `${platform.origin}/paged?next=${encodeURIComponent(`${nextOrigin}/end`)}`;
	return httpNode(name, credential, { url, version, options: { pagination: { pagination } } });
}

/**
 * @param {import('./harness.mjs').Suite} t
 * @param {{ inst: import('../../tools/lib/n8n-instance.mjs').N8nInstance, mock: object, ctx: object }} o
 */
export async function runKeyOriginGroup(t, { inst, mock, ctx }) {
	ctx.originKey = ORIGIN_KEY;
	const setup = await t.test(
		'origin: two recording servers on 127.0.0.1 (the Base URL, another origin) and credentials for them and the mock',
		async () => {
			const platform = await recorder();
			const other = await recorder();
			const credential = await inst.createCredential({
				name: 'Origin (recorder)',
				type: CREDENTIAL_TYPE,
				data: { apiKey: ORIGIN_KEY, baseUrl: platform.origin },
			});
			const mockCredential = await inst.createCredential({
				name: 'Origin (mock)',
				type: CREDENTIAL_TYPE,
				data: { apiKey: mock.apiKey, baseUrl: mock.url },
			});
			const httpTypes = (await inst.nodeTypes()).filter((n) => n.name === 'n8n-nodes-base.httpRequest');
			const latest = Math.max(...httpTypes.flatMap((n) => [n.version].flat()));
			console.log(`    HTTP Request versions run: ${latest} (latest) and 4.2`);
			return { platform, other, credential, mockCredential, latest };
		},
	);
	if (!setup) return;
	const { platform, other, credential, mockCredential, latest } = setup;
	try {
		await t.test(
			'origin: n8n serves the credential with authenticate (so Custom API Call and HTTP Request list it), no credential-only node',
			async () => {
				const served = (await inst.credentialTypes()).find((c) => c.name === CREDENTIAL_TYPE);
				assert.notEqual(served.authenticate, undefined);
				assert.equal(served.httpRequestNode, undefined);
				const services = (await inst.nodeTypes()).filter((n) => n.name === NODE_TYPE).at(-1);
				const values = (name) => services.properties.find((p) => p.name === name).options.map((o) => o.value);
				assert.deepEqual(
					[values('resource'), values('operation')],
					[
						['service', '__CUSTOM_API_CALL__'],
						['get', 'list', '__CUSTOM_API_CALL__'],
					],
				);
			},
		);

		const cases = [
			httpNode('mock GET', mockCredential, { url: `${mock.url}/v2026/services?status=active`, version: latest }),
			httpNode('POST', credential, {
				url: `${platform.origin}/v2026/services/srv-1/actions/reboot`,
				version: latest,
				method: 'POST',
				body: { confirm: true },
			}),
			httpNode('other origin', credential, { url: `${other.origin}/direct`, version: latest }),
			httpNode('same-origin redirect', credential, {
				url: `${platform.origin}/redirect?to=${encodeURIComponent(`${platform.origin}/landed`)}`,
				version: latest,
			}),
			...[latest, 4.2].map((version) =>
				httpNode(`redirect away ${version}`, credential, {
					url: `${platform.origin}/redirect?to=${encodeURIComponent(`${other.origin}/redirected-${version}`)}`,
					version,
				}),
			),
			pagedNode('pages at home', credential, { platform, nextOrigin: platform.origin, version: latest }),
			pagedNode('page away', credential, { platform, nextOrigin: other.origin, version: latest }),
			{
				id: 'custom',
				name: 'Services Custom API Call',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [300, 0],
				onError: 'continueRegularOutput',
				parameters: { resource: '__CUSTOM_API_CALL__' },
				credentials: { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } },
			},
		];
		const run = await t.test(
			'origin: one workflow runs HTTP Request with the credential in each case, and the Services node with Custom API Call',
			async () => {
				mock.clearRequests();
				const created = await inst.createWorkflow(sideBySide('HTTP Request with Service Platform API', cases));
				const r = await inst.runWorkflow(created.id, { trigger: 'Start' });
				assert.ok(r.result, `no run data (${r.status}): ${workflowError(r.result)?.message ?? ''}`);
				return r.result;
			},
		);
		if (!run) return;
		const bearer = `Bearer ${ORIGIN_KEY}`;

		await t.test('origin: a call the Services node does not make, to the mock platform: answered, with the key', async () => {
			const { json, error } = outcome(run, 'mock GET');
			assert.equal(error, undefined);
			assert.match(String(json.id_service), /^srv-/, 'the output is a service of the mock');
			const seen = mock.requests.filter((q) => q.path.startsWith('/v2026/services?status=active'));
			assert.equal(seen.length, 1, `the mock saw ${seen.length} such requests`);
			assert.ok(seen[0].authMatched, 'the mock got its key');
		});
		await t.test('origin: a POST to the Base URL origin carries the key', async () => {
			assert.deepEqual(outcome(run, 'POST'), {
				json: { ok: true, path: '/v2026/services/srv-1/actions/reboot', next: null },
				error: undefined,
			});
			assert.deepEqual(
				platform.at('/v2026/services/srv-1/actions/reboot').map((r) => [r.method, r.authorization]),
				[['POST', bearer]],
			);
		});
		await t.test("origin: a call to another origin is refused with the credential's message; nothing reaches it", async () => {
			const { error } = outcome(run, 'other origin');
			assert.match(String(error), REFUSED);
			assert.ok(!String(error).includes(ORIGIN_KEY));
			assert.deepEqual(other.at('/direct'), []);
			console.log(`    message: ${error}`);
		});
		await t.test('origin: a redirect within the origin keeps the key', async () => {
			assert.equal(outcome(run, 'same-origin redirect').json.path, '/landed');
			assert.deepEqual(
				platform.at('/landed').map((r) => r.authorization),
				[bearer],
			);
		});
		for (const version of [latest, 4.2]) {
			await t.test(`origin: a redirect to another origin is followed without the key (HTTP Request ${version})`, async () => {
				assert.equal(outcome(run, `redirect away ${version}`).json.path, `/redirected-${version}`);
				assert.deepEqual(
					platform.at('/redirect').filter((r) => r.authorization !== bearer),
					[],
				);
				assert.deepEqual(
					other.at(`/redirected-${version}`).map((r) => r.authorization),
					[null],
				);
			});
		}
		await t.test('origin: pagination within the origin sends the key with every page', async () => {
			assert.deepEqual(
				nodeItems(run, 'pages at home').map((page) => page.path),
				['/paged', '/end'],
			);
			assert.deepEqual(
				platform.at('/end').map((r) => r.authorization),
				[bearer],
			);
		});
		await t.test("origin: a pagination page on another origin is refused with the credential's message; nothing reaches it", async () => {
			assert.match(String(outcome(run, 'page away').error), REFUSED);
			assert.deepEqual(other.at('/end'), []);
		});
		await t.test('origin: the Services node with Custom API Call says where custom calls run', async () => {
			const { json } = outcome(run, 'Services Custom API Call');
			assert.equal(json.error, 'Custom API Call runs in an HTTP Request node, not in this node');
			assert.match(String(json.details), /add an HTTP Request node, set Authentication to 'Predefined Credential Type'/);
		});
		await t.test('origin: no request reached the other origin with the key', async () => {
			assert.deepEqual(
				other.seen.filter((r) => r.authorization !== null),
				[],
			);
		});
	} finally {
		await platform.close();
		await other.close();
	}
}
