// One chaos run: n8n with the packed package runs Services Trigger -> HTTP Request (the sink) (and the
// PostgreSQL mirror recipe); the platform changes on a schedule; n8n (or in queue mode its worker) is
// SIGKILLed, process group and all, at random and at dangerous moments and started again on the same
// user folder; after a quiet period the oracle compares what the sink received with the platform's
// ground truth, and the mirror table with the platform. Prints progress; returns the report.
// Used by the e2e `chaos` group (short runs) and `npm run chaos` (long runs).

import fs from 'node:fs';
import path from 'node:path';

import { CREDENTIAL_TYPE } from '../../tools/lib/n8n-instance.mjs';
import { makeTempDir, waitUntil } from '../../tools/lib/process.mjs';
import { applyMirrorSchema, loadMirrorRecipe, mirrorCredential, readMirror, seedMirror } from './mirror.mjs';
import oracle from './oracle.cjs';
import { platformDriver, seededRandom } from './platform.mjs';
import { ACTIVE_LINE, bringUp, EMIT_LINE, SETTINGS, WORKER_STARTED_LINE } from './settings.mjs';
import { startSink } from './sink.mjs';
import { chaosWorkflow } from './workflow.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// n8n 2.41.1 killed while it activates the workflow at a start leaves its publication outbox record
// claimed: the next start activates nothing until the lease ends (2 minutes). Waiting for a moment
// covers that, so no kill is spent on an n8n that does nothing.
const MOMENT_TIMEOUT_MS = 180_000;
const QUIET_POLLS = 3;
const POLL_SECONDS = 15;
const QUIET_TIMEOUT_MS = 4 * 60_000;
const RESYNC_HOURS = 0.0167;

/**
 * @param {object} o
 * @param {string} o.setting       a key of SETTINGS
 * @param {number} o.crashes       SIGKILLs
 * @param {string} o.tarball       the packed package
 * @param {Function} o.startMockApi
 * @param {number} [o.seed]
 * @param {boolean} [o.mirror]     run the PostgreSQL mirror recipe as a second branch (default true)
 * @param {boolean} [o.resync]    the trigger's Resync on (at start, every minute); the quiet period then ends with a resync
 * @param {string} [o.outDir]    where the sink's record is copied (chaos-<setting>-sink.jsonl), for reading a failure
 * @param {Function} [o.log]
 */
export async function runChaos({
	setting,
	crashes,
	tarball,
	startMockApi,
	seed = Date.now() % 1e9,
	mirror = true,
	resync = false,
	outDir,
	log = console.log,
}) {
	const started = Date.now();
	const clock = () => {
		const s = Math.round((Date.now() - started) / 1000);
		return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
	};
	const say = (line) => log(`    [chaos ${setting} ${clock()}] ${line}`);
	const random = seededRandom(seed);
	const report = { setting, label: SETTINGS[setting]?.label, crashes, seed, resync, mirror, kills: [], restarts: [] };
	// Resync (delivery contract): at each start, and every minute (its shortest interval).
	const triggerParams = resync ? { resync: { onStart: true, intervalHours: RESYNC_HOURS } } : {};
	say(`${report.label}: ${crashes} SIGKILLs, seed ${seed}`);

	const mock = await startMockApi({ count: 30, seed: seed % 1000 });
	const polls = [];
	mock.server.on('request', (req) => {
		if (req.method === 'GET' && req.url.startsWith('/v2026/services')) polls.push(Date.now());
	});
	let sink;
	let up;
	let driver;
	try {
		sink = await startSink({ dir: makeTempDir('sp-chaos-sink-'), random });
		up = await bringUp(setting, { tarball, log: (l) => say(l.trim()) });
		const { main, victim } = up;
		report.n8n = up.runtime.version;
		say(`n8n ${up.runtime.version} ready (${(main.startMs / 1000).toFixed(1)} s)`);
		const cred = await main.createCredential({ name: 'Platform', type: CREDENTIAL_TYPE, data: { apiKey: mock.apiKey, baseUrl: mock.url } });
		let mirrorNodes;
		if (mirror) {
			const recipe = loadMirrorRecipe();
			const pgCred = await mirrorCredential(main, up.mirrorDb);
			applyMirrorSchema(up.mirrorDb, recipe);
			mirrorNodes = recipe.branch(pgCred);
		}
		const wf = await main.createWorkflow(
			chaosWorkflow({ line: up.runtime.line, cred, sinkUrl: sink.url, triggerParams, mirror: mirrorNodes }),
		);
		await main.activateWorkflow(wf.id);
		await waitUntil('the activation poll', () => polls.length > 0, { timeoutMs: 30_000, everyMs: 250 });
		const baseline = mock.getServices();
		if (mirror && !resync) seedMirror(up.mirrorDb, baseline);
		say(`workflow active; baseline: ${baseline.length} services`);
		driver = platformDriver(mock, { random });
		driver.start();

		// ---- the kills ------------------------------------------------------------------------------------
		const moments = up.setting.moments;
		let starting = Promise.resolve();
		let killedWhileStarting = false;
		for (let k = 1; k <= crashes; k++) {
			const kind = moments[(k - 1) % moments.length];
			// The first kill's n8n was activated before the wait began.
			const moment = await waitMoment(kind, { victim, sink, random, ready: starting, activeAlready: k === 1 });
			const t = Date.now();
			killedWhileStarting = !(await settled(starting));
			await victim.kill();
			await starting.catch((e) => {
				if (!killedWhileStarting) throw e;
			});
			report.kills.push({ k, ...moment, atS: Math.round((t - started) / 1000), duringStart: killedWhileStarting });
			say(
				`kill ${k}/${crashes}: ${describeMoment(moment)}${killedWhileStarting ? ' (while n8n was starting)' : ''}; ${driver.history.length} changes, ${sink.received} events at the sink so far`,
			);
			await sleep(random() * 2000);
			const t0 = Date.now();
			const failedBefore = victim.failedStarts?.length ?? 0;
			starting = victim.start().then(() => {
				report.restarts.push((Date.now() - t0) / 1000);
				const failed = victim.failedStarts?.slice(failedBefore) ?? [];
				say(
					`${victim.label} up again in ${((Date.now() - t0) / 1000).toFixed(1)} s${failed.length ? ` after ${failed.length} start(s) that exited by themselves: ${failed.join(' | ')}` : ''}`,
				);
			});
			starting.catch(() => {}); // awaited above or below
		}
		await starting;

		// ---- quiet period: no change for several polls, the sink idle ----------------------------------------
		await sleep(5000);
		driver.stop();
		const quietFrom = Date.now();
		say(`${crashes} kills done; platform quiet, waiting for ${QUIET_POLLS} polls, an idle sink and every execution ended ...`);
		let resyncSeen = !resync;
		const offResync = sink.onRequest(({ body }) => {
			if (body?.event === 'resync') resyncSeen = true;
		});
		// Every execution ended, too: the sink's branch and the mirror's have run to their end (a
		// start recovers or marks crashed what a kill left unfinished).
		let unfinished = [];
		const quiet = await waitUntil(
			`the quiet period (${QUIET_POLLS} polls over the unchanged platform, the sink idle, every execution ended)`,
			// Durable scheduling can run missed polls in a burst after a start: count polls, and time too.
			async () =>
				resyncSeen &&
				polls.filter((p) => p > quietFrom).length >= QUIET_POLLS &&
				Date.now() - quietFrom >= QUIET_POLLS * POLL_SECONDS * 1000 &&
				sink.inFlight === 0 &&
				Date.now() - sink.lastAt > 3000 &&
				(unfinished = await main.unfinishedExecutions(wf.id)).length === 0,
			{
				timeoutMs: QUIET_TIMEOUT_MS,
				everyMs: 250,
				describe: () =>
					`${polls.filter((p) => p > quietFrom).length} polls since the platform went quiet, ${resync ? `resync ${resyncSeen ? 'seen' : 'not seen'}, ` : ''}` +
					`the sink holding ${sink.inFlight} request(s), its last ${Math.round((Date.now() - sink.lastAt) / 1000)} s ago, ` +
					`unfinished executions at the last check: ${unfinished.map((x) => `${x.id} ${x.status}`).join(', ') || 'none'}`,
			},
		)
			.finally(offResync)
			.then(
				() => true,
				(e) => ((report.quietMissed = e.message), false),
			);
		const final = mock.getServices();
		const events = sink.records().map((r) => r.body);
		if (outDir) {
			fs.mkdirSync(outDir, { recursive: true });
			fs.copyFileSync(sink.file, path.join(outDir, `chaos-${setting}-sink.jsonl`));
			fs.writeFileSync(path.join(outDir, `chaos-${setting}-platform.json`), JSON.stringify({ baseline, final, history: driver.history }));
		}
		const verdict = oracle.judge({ baseline, final, events });
		report.quietReached = quiet;
		report.changes = driver.history.length;
		report.changesByKind = countBy(driver.history, (h) => h.kind);
		report.polls = polls.length;
		report.verdict = verdict;
		if (mirror) {
			const rows = readMirror(up.mirrorDb);
			report.mirror = { rows: rows.length, ...oracle.compareServices(final, rows) };
		}
		report.failedStarts = victim.failedStarts ?? [];
		report.executions = await executionsByStatus(main, wf.id).catch((e) => ({ error: e.message }));
		victim.saveLog();
		report.logs = process.env.KEEP_TMP ? victim.logDir : undefined;
		report.seconds = Math.round((Date.now() - started) / 1000);
		say(`executions: ${JSON.stringify(report.executions)}${report.logs ? `; n8n logs in ${report.logs}` : ''}`);
		say(
			`result: ${oracle.summarize(verdict)}${report.mirror ? `; mirror table ${report.mirror.equal ? 'equals the platform' : `differs (missing ${report.mirror.missing.length}, extra ${report.mirror.extra.length}, different ${report.mirror.different.length})`}` : ''}; ${report.changes} changes, ${report.polls} polls, ${report.seconds} s`,
		);
		for (const p of verdict.problems.slice(0, 8)) say(`  ${p.kind}: ${p.id_service ?? ''} ${p.event ?? ''}: ${p.detail}`);
		return report;
	} finally {
		driver?.stop();
		await up?.stop().catch((e) => say(`stopping n8n: ${e.message}`));
		await sink?.close();
		await mock.close();
	}
}

/** Waits for the moment to kill at; resolves { kind, delayMs } (kind 'timeout' when it never came). */
function waitMoment(kind, { victim, sink, random, ready, activeAlready }) {
	return new Promise((resolve) => {
		const offs = [];
		let done = false;
		const fire = (what, delayMs) => {
			if (done) return;
			done = true;
			for (const off of offs) off();
			setTimeout(() => resolve({ kind: what, delayMs: Math.round(delayMs) }), delayMs);
		};
		const timer = setTimeout(() => fire('timeout', 0), MOMENT_TIMEOUT_MS);
		offs.push(() => clearTimeout(timer));
		if (kind === 'emit' || kind === 'emit-start' || kind === 'started') {
			// Lines of this start of the victim (the wait begins as it is started): an emit before the
			// activation is done is the activation poll's; after it, a scheduled poll's.
			let partial = '';
			let active = activeAlready;
			offs.push(
				victim.onText((text) => {
					const lines = (partial + text).split('\n');
					partial = lines.pop();
					for (const l of lines) {
						if (kind === 'started') {
							if (WORKER_STARTED_LINE.test(l)) fire(kind, random() * 300);
						} else if (EMIT_LINE.test(l)) {
							if (kind === 'emit-start') fire(active ? 'emit' : 'emit-start', random() * 300);
							else if (active) fire('emit', random() * 300);
						} else if (ACTIVE_LINE.test(l)) active = true;
					}
				}),
			);
		} else if (kind === 'running') {
			// The sink holds each request 300 ms or more: the execution is running, its requests out.
			offs.push(sink.onRequest(() => fire(kind, random() * 300)));
		} else {
			ready.then(
				() => fire('random', random() * 15_000),
				() => fire('random', 0),
			);
		}
	});
}

/** The workflow's executions counted by status (n8n's REST list, newest first, paged by lastId). */
async function executionsByStatus(main, workflowId) {
	const counts = {};
	let lastId;
	for (let page = 0; page < 20; page++) {
		const q = encodeURIComponent(JSON.stringify({ workflowId: String(workflowId) }));
		const r = await main.api('GET', `/rest/executions?filter=${q}&limit=100${lastId ? `&lastId=${lastId}` : ''}`);
		const results = r?.results ?? [];
		for (const x of results) counts[x.status] = (counts[x.status] ?? 0) + 1;
		if (results.length < 100) break;
		lastId = results[results.length - 1].id;
	}
	return counts;
}

function describeMoment(m) {
	if (m.kind === 'emit') return `${m.delayMs} ms after a scheduled poll emitted`;
	if (m.kind === 'emit-start') return `${m.delayMs} ms after the poll at activation emitted`;
	if (m.kind === 'started') return `${m.delayMs} ms after the worker started an execution`;
	if (m.kind === 'running') return `${m.delayMs} ms after the sink received a request (execution running)`;
	if (m.kind === 'random') return `at random, ${(m.delayMs / 1000).toFixed(1)} s after n8n was ready`;
	return `no such moment within ${MOMENT_TIMEOUT_MS / 1000} s: killed anyway`;
}

async function settled(promise) {
	let done = false;
	promise.then(
		() => (done = true),
		() => (done = true),
	);
	await null;
	await null;
	return done;
}

function countBy(list, key) {
	const out = {};
	for (const x of list) out[key(x)] = (out[key(x)] ?? 0) + 1;
	return out;
}

/** Writes the report next to the others (.tmp/chaos-<setting>.json); returns its path. */
export function writeReport(outDir, report) {
	fs.mkdirSync(outDir, { recursive: true });
	const file = path.join(outDir, `chaos-${report.setting}.json`);
	fs.writeFileSync(file, JSON.stringify(report, null, 2));
	return file;
}
