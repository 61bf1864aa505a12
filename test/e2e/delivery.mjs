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
//   3. (issue 33) a trigger over 100 pages of 1,000 services behind a latency relay of 80 ms round
//      trips (TLS, a handshake per connection, slow start: tools/lib/latency-proxy.cjs) completes
//      its scheduled polls within the 36 s n8n gives a poll under durable scheduling: the listing is
//      read ahead along the platform's page sequence.
// Many kills at random moments, with a sink and an oracle, are the chaos test's (issue 27, item 1).

import assert from 'node:assert/strict';

import { startLatencyProxy } from '../../tools/lib/latency-proxy.cjs';
import { ensureN8n } from '../../tools/lib/n8n-runtime.mjs';
import { N8nInstance, UNFINISHED_STATUSES, nodeItems } from '../../tools/lib/n8n-instance.mjs';
import { makeTempDir, waitUntil } from '../../tools/lib/process.mjs';
import { makeCertificate, tlsInFront } from '../../tools/lib/tls-front.mjs';
import { DURABLE_POLLING_ENV } from '../../tools/lib/queue-cluster.mjs';
import { pollEvery } from '../chaos/workflow.mjs';
import { CREDENTIAL_TYPE, triggerWorkflow } from './workflows.mjs';

/** A poll every 30 s (at seconds 0 and 30). */
const POLL_MS = 30_000;
/** n8n 2.41.1's time for a poll under durable scheduling: 36 s of its 45 s N8N_SCHEDULER_POLL_TIMEOUT. */
const DURABLE_POLL_BUDGET_MS = 36_000;
/** The node's debug line at the end of each listing (nodes/shared/listing/listing.ts). */
const LISTING_LINE =
	/Services listing (read whole|failed on page \d+|stopped early by its reader) in ([\d.]+) (ms|s|min): (\d+) page\(s\), ([\d,]+) services; ((?:[^"\\\n]|\\.)*)/g;

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
	// The far platform (issue 33): 100 pages of 1,000 behind TLS and an 80 ms relay; n8n trusts the certificate.
	const certificate = makeCertificate(makeTempDir('sp-e2e-tls-'));
	const closers = [];
	try {
		const ready = await t.setup('n8n 2.41.1 with durable poll scheduling and cursors', async () => {
			inst = await N8nInstance.create({
				runtime,
				tarball,
				label: 'n8n (durable cursors)',
				log,
				extraEnv: { ...DURABLE_POLLING_ENV, N8N_LOG_LEVEL: 'debug', NODE_EXTRA_CA_CERTS: certificate.cert },
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
		await t.test(
			'a trigger over 100 pages of 1,000 services at 80 ms round trips completes its scheduled polls within the 36 s of durable scheduling (read ahead)',
			async () => {
				// The trigger of the cases above lists the small mock: off, so every listing logged below is the far one's.
				if (state.wf) await inst.deactivateWorkflow(state.wf.id);
				const far = await startMockApi({
					count: 100_000,
					seed: 33,
					pageSize: 1000,
					nextForm: 'next',
					nextUrl: 'relative',
					shape: 'envelope',
				});
				closers.push(() => far.close());
				const front = await tlsInFront(far.port, certificate.pem);
				closers.push(() => front.close());
				const relay = await startLatencyProxy({ target: front.port, rttMs: 80 });
				closers.push(() => relay.close());
				const cred = await inst.createCredential({
					name: 'Far platform',
					type: CREDENTIAL_TYPE,
					data: { apiKey: far.apiKey, baseUrl: `https://127.0.0.1:${relay.port}` },
				});
				const wf = await inst.createWorkflow(
					// Every 30 s: n8n 2.41.1 runs each Poll Times entry as a job of its own, and entries closer than a
					// poll takes run at the same time (seen at 15 s: four polls of 100 pages at once).
					triggerWorkflow('far', {
						cred,
						params: { pollTimes: pollEvery(30, 2), events: ['created', 'statusChanged', 'specsChanged', 'removed'] },
					}),
				);
				// Activated just after a poll time: the poll at activation ends before the first scheduled one.
				await waitUntil('just after a poll time', () => Date.now() % POLL_MS > 500 && Date.now() % POLL_MS < 2000, {
					timeoutMs: POLL_MS + 5000,
					everyMs: 250,
				});
				const mark = inst.serverLog.length;
				await inst.activateWorkflow(wf.id);
				// The poll at activation, then two scheduled polls: each logs its listing's line when it ends.
				const listings = () =>
					[...inst.serverLog.slice(mark).matchAll(LISTING_LINE)].filter(([, ended, , , pages]) => ended !== 'read whole' || pages !== '1');
				await waitUntil('three polls of the far listing', () => listings().length >= 3, { timeoutMs: 150_000, everyMs: 500 });
				await inst.deactivateWorkflow(wf.id);
				const polls = listings().map(([line, ended, amount, unit, pages, services, how]) => ({
					line,
					ended,
					ms: Number(amount) * (unit === 'min' ? 60_000 : unit === 's' ? 1000 : 1),
					pages: Number(pages),
					services,
					how,
				}));
				report.farPolls = polls.map(({ ms, how }) => ({ seconds: ms / 1000, how }));
				log(`    polls over 100 x 1,000 at 80 ms: ${polls.map(({ ms }) => `${(ms / 1000).toFixed(1)} s`).join(', ')} (${polls[0].how})`);
				for (const poll of polls) {
					assert.equal(poll.ended, 'read whole', `a poll failed: ${poll.line}`);
					assert.equal(poll.pages, 100, poll.line);
					assert.equal(poll.services, '100,000', poll.line);
					assert.ok(poll.ms < DURABLE_POLL_BUDGET_MS, `over the ${DURABLE_POLL_BUDGET_MS} ms n8n gives a poll: ${poll.line}`);
					assert.match(poll.how, /^up to 5 at a time/, poll.line);
				}
			},
		);
	} finally {
		await inst?.stop();
		for (const close of closers.reverse()) await close();
		await mock.close();
	}
	return report;
}
