// The `queue` e2e group (issue 12): the packed package in n8n 2.41.1 queue mode, a main and two
// workers on throwaway Redis and PostgreSQL 15 (tools/lib/queue-cluster.mjs).
//
// Layout, chosen for the 5-minute budget (a poll is >= 1 minute apart, at a random second):
//   1. cluster up; node types on the main (REST) and both workers (debug log);
//   2. the Services Trigger is activated first (baseline), a service is created on its mock, and
//      while n8n's next poll is pending: 40 concurrent webhook executions, the wrong-key case, and a
//      worker SIGKILLed mid-run;
//   3. the `created` execution (on the surviving worker); the mock changes and the main restarts:
//      the restart's poll reports each change once, from the state stored in Postgres;
//   4. the key appears in no log of any process.
// Durable poll scheduling / cursors are checked last, on a main restarted with them on.
// Over 400 lines because it is one cluster taken through these steps in order, each working on what
// the one before started.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { ensureN8n } from '../../tools/lib/n8n-runtime.mjs';
import { startQueueCluster, webhookListWorkflow, DURABLE_POLLING_ENV } from '../../tools/lib/queue-cluster.mjs';
import { UNFINISHED_STATUSES, nodeItems, workflowError } from '../../tools/lib/n8n-instance.mjs';
import { waitUntil } from '../../tools/lib/process.mjs';
import { connectMcp, publishMcpWorkflow, resultText } from '../../tools/lib/mcp.mjs';
import { CREDENTIAL_TYPE, NODE_TYPE, TRIGGER_TYPE, simplify, triggerWorkflow } from './workflows.mjs';

const BURST = 40;
const KILL_BATCH = 16;
const MSG_401 = /rejected the API key.*401/i;
const BAD_KEY = 'queue-WRONG-key-5e1b7c2d9a04f863';
const byEvent = (items) => items.map((i) => [i.event, i.id_service]).sort((a, b) => `${a}`.localeCompare(`${b}`));
/** The items a poll detected now, and the ones it delivered again (marked `redelivered`, docs/trigger.md). */
const fresh = (items) => items.filter((i) => i.redelivered === false);
const again = (items) => items.filter((i) => i.redelivered === true);

/** Which worker logged the start of each execution id: { id: [worker labels] }. */
function whoRan(cluster) {
	const map = {};
	for (const w of cluster.workers) for (const id of w.startedExecutions()) (map[id] ??= []).push(w.label);
	return map;
}

/** "<id>: <status>, ran on [<workers>], <error message>" for failure messages and the report. */
async function describeExecution(cluster, x) {
	const d = await cluster.main.waitForExecution(x.id, { timeoutMs: 10_000 }).catch((e) => ({ error: e.message }));
	const err =
		workflowError(d.result) ??
		Object.values(d.result?.data?.resultData?.runData ?? {})
			.flat()
			.find((r) => r?.error)?.error;
	return `${x.id}: ${x.status}, ran on [${whoRan(cluster)[String(x.id)] ?? ''}], ${err?.message ?? d.error ?? ''}`;
}

/** "<n> executions: <count> <status>, ..." for a timeout's message. */
function byStatus(execs) {
	const counts = {};
	for (const x of execs) counts[x.status] = (counts[x.status] ?? 0) + 1;
	return `${execs.length} executions: ${Object.entries(counts)
		.map(([status, n]) => `${n} ${status}`)
		.join(', ')}`;
}

/** Executions of a workflow (up to 100), as the REST API lists them. */
async function allExecutions(main, workflowId) {
	const q = encodeURIComponent(JSON.stringify({ workflowId: String(workflowId) }));
	const r = await main.api('GET', `/rest/executions?filter=${q}&limit=100`);
	return r?.results ?? r ?? [];
}

/**
 * @param {import('./harness.mjs').Suite} t
 * @param {{ tarball: string, startMockApi: Function, outDir: string, log?: Function }} o
 * Returns a report object (also written to <outDir>/queue-report.json).
 */
export async function runQueueSuite(t, { tarball, startMockApi, outDir, log = console.log }) {
	const report = {};
	const runtime = await t.setup('install/locate n8n 2.x', () => ensureN8n(2));
	if (!runtime) return report;
	const mock = await t.setup('start mock APIs (listing for webhooks, trigger listing)', async () => ({
		list: await startMockApi({ count: 60, seed: 12 }),
		slow: await startMockApi({ count: 20, seed: 13, delayMs: 3000 }),
		trigger: await startMockApi({ count: 8, seed: 14 }),
	}));
	if (!mock) return report;
	const cluster = await t.setup('Redis, PostgreSQL 15, n8n main and two workers in queue mode', () =>
		startQueueCluster({ runtime, tarball, log }),
	);
	if (!cluster) return report;
	const { main, workers } = cluster;
	report.startup = { mainS: main.startMs / 1000, workersS: workers.map((w) => w.startMs / 1000) };

	const ctx = await t.setup('owner, login, credentials', async () => {
		await main.setupOwner();
		await main.login();
		const mk = (name, m, apiKey = m.apiKey) => main.createCredential({ name, type: CREDENTIAL_TYPE, data: { apiKey, baseUrl: m.url } });
		return {
			good: await mk('Platform (list)', mock.list),
			slow: await mk('Platform (slow)', mock.slow),
			trig: await mk('Platform (trigger)', mock.trigger),
			bad: await mk('Platform (wrong key)', mock.list, BAD_KEY),
		};
	});
	if (!ctx) return report;

	await t.test('node types load on the main (REST /types/nodes.json) and on both workers (debug log)', async () => {
		const names = (await main.nodeTypes()).map((n) => n.name);
		for (const type of [NODE_TYPE, TRIGGER_TYPE]) assert.ok(names.includes(type), `main: ${type} missing from /types/nodes.json`);
		for (const w of workers)
			assert.match(w.log, /Loaded all credentials and nodes from n8n-nodes-service-platform/, `${w.label} did not load the package`);
	});

	// ---- trigger: activation (baseline) first, so n8n's next poll runs while the webhook parts do --
	const trig = {};
	await t.test('trigger active on the main: the activation poll is a silent baseline', async () => {
		const wf = await main.createWorkflow(
			triggerWorkflow('queuetrigger', { cred: ctx.trig, params: { events: ['created', 'statusChanged', 'removed'] } }),
		);
		trig.wf = wf;
		await main.activateWorkflow(wf.id);
		trig.activatedAt = Date.now();
		assert.ok(
			mock.trigger.requests.some((q) => q.authMatched),
			'the activation poll reached the platform',
		);
		assert.deepEqual(await main.executions(wf.id), [], 'no execution from the baseline');
		const svc = mock.trigger.getServices();
		const created = structuredClone(svc[0]);
		created.id_service = 'srv-queue-001';
		created.values.values.name = 'queue-created-01';
		mock.trigger.setServices([...svc, created]);
		trig.createdId = created.id_service;
	});

	// ---- 40 concurrent webhook executions ----------------------------------------------------------
	await t.test(
		`${BURST} concurrent webhook executions (Webhook -> Services: List) all return exactly the mock's services, spread over both workers, none lost or duplicated`,
		async () => {
			const wf = await main.createWorkflow(webhookListWorkflow('queue: webhook list', { path: 'queue-list', cred: ctx.good }));
			await main.activateWorkflow(wf.id);
			const expected = mock.list.getServices().map(simplify);
			const t0 = Date.now();
			const answers = await Promise.all(
				Array.from({ length: BURST }, async () => {
					const res = await fetch(`${main.baseUrl}/webhook/queue-list`, { signal: AbortSignal.timeout(120_000) });
					return { status: res.status, body: await res.text() };
				}),
			);
			const seconds = (Date.now() - t0) / 1000;
			// An execution's answer can come before its end is stored: judge them once every one has ended.
			let stored = [];
			const execs = await waitUntil(
				`all ${BURST} executions stored and ended`,
				async () => {
					stored = await allExecutions(main, wf.id);
					return stored.length >= BURST && stored.every((x) => !UNFINISHED_STATUSES.includes(x.status)) ? stored : null;
				},
				{ timeoutMs: 60_000, describe: () => byStatus(stored) },
			);
			const failedRuns = execs.filter((x) => x.status !== 'success');
			assert.deepEqual(await Promise.all(failedRuns.map((x) => describeExecution(cluster, x))), [], 'failed executions');
			for (const [i, a] of answers.entries()) {
				assert.equal(a.status, 200, `request ${i}: HTTP ${a.status} ${a.body.slice(0, 300)}`);
				assert.deepEqual(JSON.parse(a.body), expected, `request ${i}: not exactly the mock's services`);
			}
			const ids = execs.map((e) => String(e.id));
			assert.equal(ids.length, BURST, `${ids.length} executions stored for ${BURST} requests`);
			assert.equal(new Set(ids).size, BURST, 'duplicate execution ids');
			const ran = whoRan(cluster);
			const perWorker = Object.fromEntries(workers.map((w) => [w.label, ids.filter((id) => ran[id]?.includes(w.label)).length]));
			const twice = ids.filter((id) => (ran[id] ?? []).length !== 1);
			assert.deepEqual(twice, [], 'every execution started on exactly one worker (by "Worker started execution <id>" in the worker logs)');
			for (const [w, n] of Object.entries(perWorker)) assert.ok(n > 0, `${w} ran none of the ${BURST}`);
			report.burst = { executions: BURST, seconds, perWorker };
			log(
				`    ${BURST} executions in ${seconds.toFixed(1)} s; per worker: ${Object.entries(perWorker)
					.map(([w, n]) => `${w.replace(/.* /, 'worker ')}: ${n}`)
					.join(', ')}`,
			);
		},
	);

	await t.test('a wrong key, run on a worker, ends in the same 401 message', async () => {
		const wf = await main.createWorkflow(
			webhookListWorkflow('queue: wrong key', { path: 'queue-bad-key', cred: ctx.bad, responseMode: 'onReceived' }),
		);
		await main.activateWorkflow(wf.id);
		const res = await fetch(`${main.baseUrl}/webhook/queue-bad-key`);
		await res.arrayBuffer();
		const [ex] = await waitUntil(
			'the execution',
			async () => {
				const e = await allExecutions(main, wf.id);
				return e.length ? e : null;
			},
			{ timeoutMs: 30_000 },
		);
		const done = await main.waitForExecution(ex.id, { timeoutMs: 60_000 });
		assert.equal(done.status, 'error');
		const err = workflowError(done.result) ?? done.result.data?.resultData?.runData?.['List Services']?.[0]?.error;
		assert.match(String(err?.message ?? ''), MSG_401);
		assert.ok(!JSON.stringify(done.result).includes(BAD_KEY), 'the key is in the execution data');
		assert.equal(whoRan(cluster)[String(ex.id)]?.length, 1, 'it ran on a worker');
		await main.deactivateWorkflow(wf.id);
	});

	// ---- the MCP Server Trigger (issue 15): in queue mode the main hands each tool call to a worker ---
	await t.test(
		'MCP Server Trigger on the main: a tools/call of the List tool runs as an execution on a worker and answers the MCP client',
		async () => {
			const t0 = Date.now();
			const mcp = await publishMcpWorkflow(main, {
				mcpPath: 'queue-mcp',
				credential: { apiKey: mock.list.apiKey, baseUrl: mock.list.url },
			});
			const { client, close } = await connectMcp(mcp.endpoint, { token: mcp.token });
			try {
				const result = await client.callTool({ name: 'List_services', arguments: { limit: 100 } }, undefined, { timeout: 60_000 });
				assert.ok(!result.isError, `an answer, not an error result: ${resultText(result).slice(0, 300)}`);
				assert.deepEqual(JSON.parse(resultText(result)), mock.list.getServices().map(simplify));
			} finally {
				await close();
			}
			const [ex] = await waitUntil(
				"the tool call's execution",
				async () => {
					const e = await allExecutions(main, mcp.workflow.id);
					return e.length ? e : null;
				},
				{ timeoutMs: 30_000 },
			);
			assert.equal(whoRan(cluster)[String(ex.id)]?.length, 1, `execution ${ex.id} ran on a worker`);
			await main.deactivateWorkflow(mcp.workflow.id);
			report.mcp = { seconds: (Date.now() - t0) / 1000, worker: whoRan(cluster)[String(ex.id)][0] };
			log(`    MCP tools/call through the queue in ${report.mcp.seconds.toFixed(1)} s; execution ${ex.id} on ${report.mcp.worker}`);
		},
	);

	// ---- a worker SIGKILLed mid-run -------------------------------------------------------------------
	await t.test(
		`a worker SIGKILLed mid-run: every execution it had not taken finishes on the other worker; none is lost or stuck`,
		async () => {
			const wf = await main.createWorkflow(
				webhookListWorkflow('queue: slow list', { path: 'queue-slow', cred: ctx.slow, responseMode: 'onReceived' }),
			);
			await main.activateWorkflow(wf.id);
			const [survivor, victim] = workers;
			const before = new Set(victim.startedExecutions());
			await Promise.all(Array.from({ length: KILL_BATCH }, async () => (await fetch(`${main.baseUrl}/webhook/queue-slow`)).arrayBuffer()));
			// The slow mock answers after 3 s: kill as soon as the victim has started one of them.
			await waitUntil('the victim starts an execution', () => victim.startedExecutions().some((id) => !before.has(id)), {
				timeoutMs: 30_000,
				everyMs: 100,
			});
			victim.kill('SIGKILL');
			await victim.exited;
			const loggedByVictim = victim.startedExecutions().filter((id) => !before.has(id));
			log(`    SIGKILLed ${victim.label} while it ran execution(s) ${loggedByVictim.join(', ')}; waiting for n8n's stalled-job check ...`);
			// n8n notices the dead worker's jobs when their Redis lock expires (QUEUE_WORKER_LOCK_DURATION,
			// 10 s here, 60 s by default) at the next stalled check (QUEUE_WORKER_STALLED_INTERVAL).
			const execs = await waitUntil(
				'every execution ends',
				async () => {
					const e = await allExecutions(main, wf.id);
					return e.length >= KILL_BATCH && e.every((x) => !['new', 'running', 'waiting'].includes(x.status)) ? e : null;
				},
				{ timeoutMs: 90_000, everyMs: 1000 },
			);
			assert.equal(execs.length, KILL_BATCH, `${execs.length} executions for ${KILL_BATCH} requests`);
			const ran = whoRan(cluster);
			const onSurvivor = execs.filter((x) => ran[String(x.id)]?.includes(survivor.label));
			const taken = execs.filter((x) => !ran[String(x.id)]?.includes(survivor.label));
			assert.deepEqual(
				await Promise.all(onSurvivor.filter((x) => x.status !== 'success').map((x) => describeExecution(cluster, x))),
				[],
				`executions on ${survivor.label}`,
			);
			assert.ok(onSurvivor.length > 0, `${survivor.label} ran none`);
			// The dead worker's jobs (started, or taken from the queue and not yet logged): at most its
			// concurrency, each ended by n8n, none started twice.
			assert.ok(
				taken.length >= loggedByVictim.length && taken.length <= victim.concurrency,
				`${taken.length} executions neither succeeded on ${survivor.label} nor were within the killed worker's ${victim.concurrency} slots`,
			);
			assert.deepEqual(
				execs.filter((x) => (ran[String(x.id)] ?? []).length > 1).map((x) => x.id),
				[],
				'started on both workers',
			);
			const fate = await Promise.all(taken.map((x) => describeExecution(cluster, x)));
			report.killedWorker = { executions: KILL_BATCH, finishedOnOtherWorker: onSurvivor.length, heldByKilledWorker: fate };
			log(
				`    ${onSurvivor.length} finished on ${survivor.label}; the killed worker's ${taken.length}:\n${fate.map((f) => `      ${f}`).join('\n')}`,
			);
			await main.deactivateWorkflow(wf.id);
		},
	);

	// ---- trigger: the created service, on a worker -------------------------------------------------------
	await t.test('after the baseline, one created service gives exactly one `created` execution, run on a worker', async () => {
		assert.ok(trig.wf, 'trigger not activated');
		log(
			`    waiting for n8n's next poll (every minute at a random second; ${Math.round((Date.now() - trig.activatedAt) / 1000)} s since activation) ...`,
		);
		const [ex] = await waitUntil(
			'the created execution',
			async () => {
				const e = await main.executions(trig.wf.id);
				return e.length ? e : null;
			},
			{ timeoutMs: Math.max(5_000, trig.activatedAt + 100_000 - Date.now()), everyMs: 1000 },
		);
		const done = await main.waitForExecution(ex.id);
		assert.equal(done.status, 'success');
		const items = nodeItems(done.result, 'Service Changes');
		assert.deepEqual(byEvent(items), [['created', trig.createdId]]);
		assert.equal(items[0].redelivered, false);
		assert.match(items[0].eventId, /^[0-9a-f]{24}$/);
		trig.delivered = items;
		assert.equal(whoRan(cluster)[String(ex.id)]?.length, 1, 'run on a worker ("Worker started execution <id>")');
		assert.equal((await main.executions(trig.wf.id)).length, 1, 'exactly one execution');
		trig.seen = 1;
	});

	await t.test(
		'main restarted while the platform changes (a status change, a removal): the next poll reports each once, from the state stored in Postgres, and delivers the last emission again, marked',
		async () => {
			assert.ok(trig.seen, 'no created execution before');
			const stored = cluster.pg.query(`select "staticData" from workflow_entity where id = '${trig.wf.id}'`);
			assert.ok(
				stored.includes(trig.createdId),
				`the trigger state in Postgres (workflow_entity.staticData) lacks the created service: ${stored.slice(0, 300)}`,
			);
			const svc = mock.trigger.getServices();
			const changed = svc[1];
			changed.values.values.status = changed.values.values.status === 'suspended' ? 'active' : 'suspended';
			const removed = svc.splice(2, 1)[0];
			log('    restarting the main (the platform changes while it is down) ...');
			await cluster.restartMain({ whileStopped: () => mock.trigger.setServices(svc) });
			log(`    main back in ${(main.startMs / 1000).toFixed(1)} s; waiting for its poll ...`);
			const execs = await waitUntil(
				'an execution after the restart',
				async () => {
					const e = await main.executions(trig.wf.id);
					return e.length > trig.seen ? e : null;
				},
				{ timeoutMs: 100_000, everyMs: 1000 },
			);
			assert.equal(execs.length, trig.seen + 1, 'one execution, no flood');
			const done = await main.waitForExecution(execs[0].id);
			assert.equal(done.status, 'success');
			const items = nodeItems(done.result, 'Service Changes');
			assert.deepEqual(
				byEvent(fresh(items)),
				byEvent([
					{ event: 'statusChanged', id_service: changed.id_service },
					{ event: 'removed', id_service: removed.id_service },
				]),
			);
			// Another process: the outbox (the created event, whose execution it cannot know finished) again, as it was.
			assert.deepEqual(
				again(items).map((i) => [i.eventId, i.seq, i.event]),
				trig.delivered.map((i) => [i.eventId, i.seq, i.event]),
			);
			assert.ok(
				fresh(items).every((i) => i.seq > Math.max(...trig.delivered.map((d) => d.seq))),
				'new events numbered above the earlier ones',
			);
			trig.delivered = items;
			trig.seen += 1;
			report.restart = { mainRestartS: main.startMs / 1000 };
		},
	);

	// ---- durable poll scheduling and cursors -----------------------------------------------------------
	await t.test(
		`durable poll scheduling + cursors on (${Object.keys(DURABLE_POLLING_ENV).join(', ')}): the state moves into poller_state, and the same poll run twice over the same listing emits its events once`,
		async () => {
			assert.ok(trig.seen === 2, 'the restart case did not pass');
			const svc = mock.trigger.getServices();
			const created = structuredClone(svc[0]);
			created.id_service = 'srv-queue-002';
			created.values.values.name = 'queue-created-02';
			log('    restarting the main with durable poll scheduling and cursors on (a service is created meanwhile) ...');
			// At debug level the scheduler logs each poll's outcome, which the last check below waits for.
			await cluster.restartMain({
				extraEnv: { ...DURABLE_POLLING_ENV, N8N_LOG_LEVEL: 'debug' },
				whileStopped: () => mock.trigger.setServices([...svc, created]),
			});
			log(`    main back in ${(main.startMs / 1000).toFixed(1)} s; waiting for the first scheduled poll ...`);
			const execs = await waitUntil(
				'an execution under the scheduler',
				async () => {
					const e = await main.executions(trig.wf.id);
					return e.length > trig.seen ? e : null;
				},
				{ timeoutMs: 100_000, everyMs: 1000 },
			);
			const done = await main.waitForExecution(execs[0].id);
			assert.equal(done.status, 'success');
			const items = nodeItems(done.result, 'Service Changes');
			assert.deepEqual(byEvent(fresh(items)), [['created', created.id_service]], 'the changes since the stored state, no new baseline');
			assert.deepEqual(
				again(items)
					.map((i) => i.eventId)
					.sort(),
				trig.delivered.map((i) => i.eventId).sort(),
				'the last emission again, marked (a new process)',
			);
			const cursor = cluster.pg.query(`select "cursor" from poller_state where "workflowId" = '${trig.wf.id}'`);
			assert.ok(cursor.includes(created.id_service), `poller_state holds the trigger state with the new service: ${cursor.slice(0, 200)}`);
			// The next occurrence polls the same listing again: nothing to emit. Its outcome is the
			// scheduler's line for it ("Poll returned no new data" or "... new data; handed off").
			const mark = main.serverLog.length;
			log('    waiting for the next scheduled poll over the same listing ...');
			const outcome = await waitUntil(
				"the outcome of the next scheduled poll (the scheduler's debug line)",
				() =>
					main.serverLog
						.slice(mark)
						.split('\n')
						.filter((l) => l.includes(`"workflowId":"${trig.wf.id}"`))
						.map((l) => /Poll returned (no new data|new data)/.exec(l)?.[1])
						.find(Boolean),
				{ timeoutMs: 75_000, everyMs: 500, describe: () => `${mock.trigger.requests.length} requests to the platform so far` },
			);
			log(`    the scheduler's outcome of that poll: ${outcome}`);
			// Had it emitted, its execution is listed once stored: wait for that before counting.
			if (outcome === 'new data')
				await waitUntil('the execution of the repeated poll', async () => (await main.executions(trig.wf.id)).length > trig.seen + 1, {
					timeoutMs: 30_000,
				}).catch(() => {});
			assert.equal((await main.executions(trig.wf.id)).length, trig.seen + 1, 'the repeated poll emitted again');
			report.durablePolling = { settings: DURABLE_POLLING_ENV, cursorTable: 'poller_state', repeatedPollEmitted: 0 };
		},
	);

	// ---- the key in no log --------------------------------------------------------------------------------
	await t.test('neither API key appears in any log of main, workers, Redis or Postgres', async () => {
		const keys = [BAD_KEY, mock.list.apiKey, mock.slow.apiKey, mock.trigger.apiKey];
		const hits = [];
		const logs = cluster.logs();
		// The scan means something only if Postgres logged the writes, the credentials' included.
		const pgLog = logs['postgres/postgres.log'] ?? '';
		assert.match(pgLog, /INSERT INTO "public"\."credentials_entity"/, 'Postgres logged no credential INSERT');
		assert.match(pgLog, /DETAIL: {2}parameters: /, 'Postgres logged no statement parameters');
		for (const [name, text] of Object.entries(logs))
			for (const k of keys) if (text.includes(k)) hits.push(`${name} holds ${k === BAD_KEY ? 'the wrong key' : 'a mock key'}`);
		for (const inst of [main, ...workers.map((w) => w.inst)])
			for (const k of keys) for (const f of inst.findSecret(k)) hits.push(`${inst.label}: ${f}`);
		assert.deepEqual(hits, []);
	});

	fs.mkdirSync(outDir, { recursive: true });
	fs.writeFileSync(path.join(outDir, 'queue-report.json'), JSON.stringify(report, null, 2));
	for (const m of Object.values(mock)) await m.close();
	return report;
}
