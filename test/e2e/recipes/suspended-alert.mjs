// Recipe: a chat alert when a service is suspended (examples/alert-suspended-services.json).
// Services Trigger (Trigger On: Status Changed) -> IF (event is statusChanged and the service's
// status is now "suspended") -> HTTP Request posting {"text": "..."} as JSON, the format of Slack's
// incoming webhooks (Mattermost, Rocket.Chat and Discord's /slack endpoint take it too).
//
// The test sets what the docs tell a user to set: the credential and the webhook URL (a loopback
// server here). It also sets Poll Times to every 15 s (four "custom" times; the recipe ships "Every
// Minute") only to wait less. It publishes the workflow in the running n8n, suspends one service
// and un-suspends another through the mock's admin endpoints (two requests: a poll may fall between
// them), waits until the trigger has reported both status changes, and checks the webhook received
// exactly one message, naming the suspended service: the IF let the un-suspension through to nothing.

import assert from 'node:assert/strict';
import http from 'node:http';

import { pollEvery } from '../../chaos/workflow.mjs';
import { nodeItems, workflowError } from '../../../tools/lib/n8n-instance.mjs';
import { setParameter } from './workflow.mjs';

const FILE = 'alert-suspended-services.json';
const TRIGGER_NODE = 'Status changed';
const POST_NODE = 'Post to chat';
const WAIT_MS = 75_000;
const WEBHOOK_PATH = '/services/T00000000/B00000000/e2e-recipe';
/** The recipe's Wait Between Tries (Retry On Fail). */
const RETRY_WAIT_MS = 5000;

/**
 * A loopback stand-in for a chat's incoming webhook: records each request and answers "ok" as Slack
 * does, except the first, which gets a 503 (a chat briefly down: the recipe's HTTP Request retries).
 */
async function startChatWebhook() {
	const received = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const status = received.length === 0 ? 503 : 200;
			received.push({
				method: req.method,
				path: req.url,
				contentType: req.headers['content-type'] ?? '',
				body: Buffer.concat(chunks).toString('utf8'),
				status,
				at: Date.now(),
			});
			res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'service unavailable');
		});
	});
	await new Promise((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}${WEBHOOK_PATH}`,
		received,
		close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
	};
}

/** PATCH /__mock/services/<id>: the mock's admin endpoint, as an operator's change on the platform. */
async function setStatus(mock, id, status) {
	const res = await fetch(`${mock.url}/__mock/services/${encodeURIComponent(id)}`, {
		method: 'PATCH',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ values: { values: { status } } }),
	});
	assert.equal(res.status, 200, `PATCH ${id}: HTTP ${res.status} ${await res.text()}`);
}

export const suspendedAlertRecipe = {
	name: 'suspended-alert',
	title: 'chat alert when a service is suspended',
	file: FILE,
	picture: 'recipe-suspended-alert.png',

	async run(t, ctx) {
		const mock = await ctx.startMock({ count: 6, seed: 31 });
		const services = mock.getServices();
		const [suspend, resume] = services.slice(0, 2);
		suspend.values.values.status = 'active';
		resume.values.values.status = 'suspended';
		mock.setServices(services);
		const hook = await ctx.track(startChatWebhook(), (h) => h.close());
		const credential = await ctx.serviceCredential(mock, 'alert');
		return t.test(
			'suspended alert: imported with the webhook URL set, published (its first poll records the services), then one service suspended and one un-suspended',
			async () => {
				const wf = await ctx.importRecipe(FILE, {
					credentials: { servicePlatformApi: credential },
					edit: (w) => {
						setParameter(w, POST_NODE, 'url', hook.url);
						setParameter(w, TRIGGER_NODE, 'pollTimes', pollEvery(15, 2));
					},
				});
				await ctx.inst.activateWorkflow(wf.id);
				assert.ok(
					mock.requests.some((q) => q.path.startsWith('/v2026/services')),
					'the activation polled the platform',
				);
				const changedAt = Date.now();
				await setStatus(mock, suspend.id_service, 'suspended');
				await setStatus(mock, resume.id_service, 'active');
				return { wf, hook, changedAt, suspended: suspend, resumed: resume };
			},
		);
	},

	async check(t, ctx, state) {
		const { inst } = ctx;
		const { wf, hook, suspended, resumed } = state;
		const runs = await t.test(
			`suspended alert: within ${WAIT_MS / 1000} s the trigger reports both status changes, and every execution succeeds`,
			async () => {
				const done = new Map();
				// Status changes only: items of other kinds the trigger may add (a resync of every service) are the IF's to drop.
				const events = () =>
					[...done.values()].flatMap((r) => nodeItems(r.result, TRIGGER_NODE) ?? []).filter((e) => e.event === 'statusChanged');
				const seen = (id) => events().some((e) => e.id_service === id);
				while (!(seen(suspended.id_service) && seen(resumed.id_service))) {
					assert.ok(
						Date.now() - state.changedAt < WAIT_MS,
						`reported so far: ${JSON.stringify(events().map((e) => [e.event, e.id_service]))}`,
					);
					for (const e of await inst.executions(wf.id))
						if (!done.has(e.id)) done.set(e.id, await inst.waitForExecution(e.id, { timeoutMs: 60_000 }));
					await new Promise((r) => setTimeout(r, 500));
				}
				for (const r of done.values()) assert.ok(r.ok, `execution ${r.executionId}: ${r.status} ${workflowError(r.result)?.message ?? ''}`);
				const got = events().map((e) => [e.event, e.id_service, e.service?.status, e.previous?.status]);
				assert.deepEqual(
					got.sort(),
					[
						['statusChanged', suspended.id_service, 'suspended', 'active'],
						['statusChanged', resumed.id_service, 'active', 'suspended'],
					].sort(),
				);
				console.log(`      ${done.size} execution(s), the last ${((Date.now() - state.changedAt) / 1000).toFixed(1)} s after the changes`);
				return [...done.values()];
			},
		);
		await inst.deactivateWorkflow(wf.id).catch(() => {});
		if (!runs) return;

		await t.test(
			`suspended alert: the webhook got exactly one message (its first try answered 503, n8n retried ${RETRY_WAIT_MS / 1000} s later), JSON {"text"} naming the suspended service (${suspended.id_service}) and not the resumed one`,
			() => {
				assert.deepEqual(
					hook.received.map((m) => m.status),
					[503, 200],
					`requests: ${JSON.stringify(hook.received)}`,
				);
				const [failed, message] = hook.received;
				assert.equal(failed.body, message.body, 'the retry sends the same message');
				const waited = message.at - failed.at;
				assert.ok(waited >= RETRY_WAIT_MS - 500 && waited < RETRY_WAIT_MS + 10_000, `retried after ${waited} ms`);
				assert.equal(message.method, 'POST');
				assert.equal(message.path, WEBHOOK_PATH);
				assert.match(message.contentType, /^application\/json\b/);
				const body = JSON.parse(message.body);
				assert.deepEqual(Object.keys(body), ['text']);
				const { name, alias } = suspended.values.values;
				for (const part of [name, suspended.id_service, alias, 'was suspended', 'active'].filter(Boolean))
					assert.ok(body.text.includes(part), `"${part}" in ${JSON.stringify(body.text)}`);
				assert.ok(
					!body.text.includes(resumed.id_service) && !body.text.includes(resumed.values.values.name),
					'the resumed service is not named',
				);
				console.log(`      message: ${message.body}`);
			},
		);
	},
};
