// The `delivery` e2e group (issue 27, the node side): the two n8n facts the trigger's at-least-once
// delivery builds on, checked in real n8n 2.41.1 (SQLite) with durable poll scheduling and cursors on:
//   1. the activation hole: the poll at activation is not committed to the cursor, so before 0.5.0 a
//      change made between the activation and the first scheduled poll was lost. The trigger keeps a
//      copy of its first baseline in the workflow's global static data, which n8n saves at
//      activation: n8n is SIGKILLed right after the activation, the platform changes while it is
//      down, and the first scheduled poll after the restart reports the change;
//   2. a SIGKILL just after a poll emitted: the first poll after the restart delivers that emission
//      again, marked `redelivered`, with the same eventId and seq (the new process cannot know the
//      execution finished).
// Many kills at random moments, with a sink and an oracle, are the chaos test's (issue 27, item 1).

import assert from 'node:assert/strict';

import { ensureN8n } from '../../tools/lib/n8n-runtime.mjs';
import { N8nInstance, UNFINISHED_STATUSES, nodeItems } from '../../tools/lib/n8n-instance.mjs';
import { waitUntil } from '../../tools/lib/process.mjs';
import { DURABLE_POLLING_ENV } from '../../tools/lib/queue-cluster.mjs';
import { pollEvery } from '../chaos/workflow.mjs';
import { CREDENTIAL_TYPE, triggerWorkflow } from './workflows.mjs';

/** A poll every 30 s (at seconds 0 and 30). */
const POLL_MS = 30_000;

/** The trigger items of every successful execution of `wfId`, oldest first. */
async function deliveredItems(inst, wfId) {
	const items = [];
	for (const ex of [...(await inst.executions(wfId))].reverse()) {
		if (ex.status !== 'success') continue;
		const done = await inst.waitForExecution(ex.id);
		items.push(...nodeItems(done.result, 'Service Changes'));
	}
	return items;
}

export async function runDeliverySuite(t, { tarball, startMockApi, log = console.log }) {
	const report = {};
	const runtime = await t.setup('install/locate n8n 2.x', () => ensureN8n(2));
	if (!runtime) return report;
	const mock = await t.setup('start the mock platform', () => startMockApi({ count: 6, seed: 27 }));
	if (!mock) return report;
	// Created before its start, so that the finally below stops it also when the start fails.
	let inst;
	const state = {};
	try {
		const ready = await t.setup('n8n 2.41.1 with durable poll scheduling and cursors', async () => {
			inst = await N8nInstance.create({
				runtime,
				tarball,
				label: 'n8n (durable cursors)',
				log,
				extraEnv: { ...DURABLE_POLLING_ENV, N8N_LOG_LEVEL: 'debug' },
			});
			await inst.start();
			await inst.setupOwner();
			await inst.login();
			return true;
		});
		if (!ready) return report;
		await t.test(
			'SIGKILL right after the activation, a change while n8n is down: the first scheduled poll after the restart reports it (no new baseline)',
			async () => {
				const cred = await inst.createCredential({
					name: 'Platform',
					type: CREDENTIAL_TYPE,
					data: { apiKey: mock.apiKey, baseUrl: mock.url },
				});
				const wf = await inst.createWorkflow(
					triggerWorkflow('delivery', {
						cred,
						params: { pollTimes: pollEvery(30, 2), events: ['created', 'statusChanged', 'specsChanged', 'removed'] },
					}),
				);
				state.wf = wf;
				// Activated just after a poll time, killed at once: no scheduled poll runs in between.
				await waitUntil('just after a poll time', () => Date.now() % POLL_MS > 500 && Date.now() % POLL_MS < 2000, {
					timeoutMs: POLL_MS + 5000,
					everyMs: 250,
				});
				await inst.activateWorkflow(wf.id);
				await inst.kill('SIGKILL'); // n8n's whole process group, as the chaos test does
				const polls = mock.requests.filter((q) => q.path.startsWith('/v2026/services')).length;
				report.pollsBeforeKill = polls;
				assert.equal(polls, 1, 'only the poll at activation ran before the kill (else the check proves nothing)');
				const svc = mock.getServices();
				state.changed = svc[0].id_service;
				svc[0].values.values.status = svc[0].values.values.status === 'suspended' ? 'active' : 'suspended';
				mock.setServices(svc);
				await inst.start();
				await inst.login();
				const [ex] = await waitUntil(
					'an execution after the restart',
					async () => {
						const list = await inst.executions(wf.id);
						return list.length ? list : null;
					},
					{ timeoutMs: 90_000, everyMs: 250 },
				);
				const done = await inst.waitForExecution(ex.id);
				assert.equal(done.status, 'success');
				const items = nodeItems(done.result, 'Service Changes');
				assert.deepEqual(
					items.map((i) => [i.event, i.id_service, i.redelivered]),
					[['statusChanged', state.changed, false]],
				);
				state.first = items[0];
			},
		);

		await t.test(
			'SIGKILL just after a poll emitted: the first poll after the restart delivers that emission again, marked, same eventId and seq',
			async () => {
				assert.ok(state.first, 'the first case did not pass');
				// "Received event to trigger execution" is logged (debug) when a poll emits; kill right after it.
				const mark = inst.serverLog.length;
				const svc = mock.getServices();
				svc[1].values.values.status = svc[1].values.values.status === 'suspended' ? 'active' : 'suspended';
				mock.setServices(svc);
				await waitUntil('the emit of the next poll', () => inst.serverLog.slice(mark).includes('Received event to trigger execution'), {
					timeoutMs: POLL_MS + 15_000,
					everyMs: 250,
				});
				await inst.kill('SIGKILL'); // n8n's whole process group, as the chaos test does
				const before = await (async () => {
					await inst.start();
					await inst.login();
					return (await inst.executions(state.wf.id)).length;
				})();
				// Read the deliveries once they have all ended: one still running is not among them yet (a
				// start recovers or marks crashed what the kill left unfinished).
				let list = [];
				await waitUntil(
					'an execution after the restart, and every execution ended',
					async () =>
						(list = await inst.executions(state.wf.id)).length > before && list.every((x) => !UNFINISHED_STATUSES.includes(x.status)),
					{ timeoutMs: 90_000, everyMs: 250, describe: () => list.map((x) => `${x.id} ${x.status}`).join(', ') || 'no execution' },
				);
				const all = await deliveredItems(inst, state.wf.id);
				const ofChange = all.filter((i) => i.id_service === svc[1].id_service);
				assert.ok(ofChange.length >= 1, 'the change reached a successful execution');
				const ids = new Set(ofChange.map((i) => i.eventId));
				assert.equal(ids.size, 1, 'one eventId for the change, however often it came');
				assert.ok(
					ofChange.slice(1).every((i) => i.redelivered === true),
					`every repeat marked: ${JSON.stringify(ofChange.map((i) => [i.seq, i.redelivered]))}`,
				);
				assert.equal(new Set(ofChange.map((i) => i.seq)).size, 1, 'the same seq on every delivery');
				report.afterEmitKill = { deliveries: ofChange.length, redelivered: ofChange.filter((i) => i.redelivered).length };
				log(`    the change came ${ofChange.length} time(s), ${report.afterEmitKill.redelivered} marked redelivered`);
			},
		);
	} finally {
		await inst?.stop();
		await mock.close();
	}
	return report;
}
