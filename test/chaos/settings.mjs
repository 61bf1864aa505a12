// The n8n set-ups the chaos test kills, and what it kills in each: the regular-mode main (SQLite,
// default settings or durable poll cursors; 2.41.1 or 1.123.81), or in queue mode (Redis, PostgreSQL
// 15, a main and one worker) the main or the worker. Each gives a `victim`: the process group the
// test SIGKILLs and starts again on the same user folder, and the log lines that mark its dangerous
// moments.

import fs from 'node:fs';
import path from 'node:path';

import { N8nInstance } from '../../tools/lib/n8n-instance.mjs';
import { ensureN8n } from '../../tools/lib/n8n-runtime.mjs';
import { DURABLE_POLLING_ENV, startQueueCluster } from '../../tools/lib/queue-cluster.mjs';
import { ensureDebianPackages, startPostgres } from '../../tools/lib/services.mjs';
import { mirrorDatabase } from './mirror.mjs';

/** n8n's debug line when a poll emits (2.41.1 and 1.123.81): the execution is being made. */
export const EMIT_LINE = /Received event to trigger execution/;
/**
 * n8n's line when a start's activation of the workflow is done (its activation poll included): 2.41.1
 * activates through its publication outbox, 1.123.81 through ActiveWorkflowManager.
 */
export const ACTIVE_LINE = /Finished processing workflow publication outbox record|Added triggers and pollers for workflow/;
/** A worker's line when it begins a job. */
export const WORKER_STARTED_LINE = /Worker started execution/;

const DEBUG = { N8N_LOG_LEVEL: 'debug' };
const START_ATTEMPTS = 3;

/** The first error n8n logged (its JSON log's message), shortened, for the report. */
function errorLine(log) {
	for (const line of log.split('\n')) {
		if (!line.includes('"level":"error"')) continue;
		try {
			return JSON.parse(line).message.split('\n')[0].slice(0, 200);
		} catch {}
	}
	return 'n8n exited while it started (no error line)';
}
/**
 * Where the main is killed, in turn: just after the poll at a start's activation emits, while an
 * execution runs (the sink holds its request), just after a scheduled poll emits, at random.
 */
const MAIN_MOMENTS = ['emit-start', 'running', 'emit', 'random'];

export const SETTINGS = {
	default: { line: 2, label: 'n8n 2.41.1, default settings (SQLite)', victim: 'main', moments: MAIN_MOMENTS },
	durable: { line: 2, label: 'n8n 2.41.1, durable poll cursors (SQLite)', env: DURABLE_POLLING_ENV, victim: 'main', moments: MAIN_MOMENTS },
	'queue-main': { line: 2, label: 'n8n 2.41.1 queue mode, the main killed', queue: true, victim: 'main', moments: MAIN_MOMENTS },
	'queue-worker': {
		line: 2,
		label: 'n8n 2.41.1 queue mode, the worker killed while it runs the execution',
		queue: true,
		victim: 'worker',
		moments: ['started', 'running', 'started', 'random'],
	},
	n8n1: { line: 1, label: 'n8n 1.123.81, default settings (SQLite)', victim: 'main', moments: MAIN_MOMENTS },
};

/**
 * Starts the setting's n8n (ready, owner set up and logged in) and a PostgreSQL 15 for the mirror
 * (queue mode: the cluster's own server, another database). Returns
 * { setting, runtime, main, mirrorDb, victim, stop() }.
 * victim: { label, kill(), start(), onText(fn) -> off } (start() resolves when it is ready again).
 */
export async function bringUp(name, { tarball, extraEnv = {}, log }) {
	const setting = SETTINGS[name];
	if (!setting) throw new Error(`unknown setting "${name}"; known: ${Object.keys(SETTINGS).join(', ')}`);
	const runtime = await ensureN8n(setting.line);
	const env = { ...DEBUG, ...(setting.env ?? {}), ...extraEnv };
	if (setting.queue) {
		const cluster = await startQueueCluster({ runtime, tarball, workers: 1, extraEnv: env, log });
		const { main, pg } = cluster;
		let mirrorDb;
		try {
			await main.setupOwner();
			await main.login();
			mirrorDb = mirrorDatabase(pg);
		} catch (e) {
			await cluster.stop().catch(() => {});
			throw e;
		}
		const worker = cluster.workers[0];
		const victim = setting.victim === 'main' ? mainVictim(main) : workerVictim(worker);
		return { setting, runtime, main, mirrorDb, victim, stop: () => cluster.stop() };
	}
	await ensureDebianPackages({ log });
	const main = await N8nInstance.create({ runtime, tarball, label: `n8n ${runtime.version} (chaos ${name})`, log, extraEnv: env });
	// Both at once; when either fails, what did start is stopped before the error goes on.
	const [pgStarted, mainStarted] = await Promise.allSettled([
		startPostgres({ log }),
		(async () => {
			await main.start({ timeoutMs: 180_000 });
			await main.setupOwner();
			await main.login();
		})(),
	]);
	const pg = pgStarted.value;
	const stop = async () => (await main.stop(), await pg?.stop());
	try {
		if (pgStarted.status === 'rejected') throw pgStarted.reason;
		if (mainStarted.status === 'rejected') throw mainStarted.reason;
		const mirrorDb = mirrorDatabase(pg);
		return { setting, runtime, main, mirrorDb, victim: mainVictim(main), stop };
	} catch (e) {
		await stop().catch(() => {});
		throw e;
	}
}

/** Each start's log in <n8n folder>/logs/ (kept with KEEP_TMP=1), and the error lines of all of them. */
function keepLogs(inst) {
	const dir = path.join(inst.root, 'logs');
	fs.mkdirSync(dir, { recursive: true });
	let n = 0;
	return (text) => {
		fs.writeFileSync(path.join(dir, `${String(++n).padStart(3, '0')}.log`), text);
		return dir;
	};
}

function mainVictim(main) {
	const save = keepLogs(main);
	return {
		label: main.label,
		onText: (fn) => main.onOutput(fn),
		async kill() {
			await main.kill('SIGKILL');
			this.logDir = save(main.serverLog);
		},
		saveLog() {
			this.logDir = save(main.serverLog);
		},
		failedStarts: [],
		async start() {
			// n8n 2.41.1 can exit while it starts after a kill (seen: its startup recovery of a killed
			// execution throws in InsightsCollectionService). Try again, and say so in the report.
			for (let attempt = 1; ; attempt++) {
				try {
					await main.start({ port: main.port, timeoutMs: 180_000 });
					break;
				} catch (e) {
					// No server left: the test killed it while it started (kill() forgets it first).
					if (!main.server || !/exited/.test(e.message) || attempt === START_ATTEMPTS) throw e;
					this.failedStarts.push(errorLine(main.serverLog));
					this.logDir = save(main.serverLog);
					main.unregisterServer?.();
					main.server = null;
				}
			}
			await main.login();
			// Keep the memory of a long run bounded: the logs of the last few starts are enough to read a failure.
			main.outputs.splice(0, Math.max(0, main.outputs.length - 3));
		},
	};
}

function workerVictim(worker) {
	// The Worker keeps its whole log in one string: watch its growth.
	return {
		label: worker.label,
		onText(fn) {
			let seen = worker.log.length;
			const timer = setInterval(() => {
				if (worker.log.length < seen) seen = 0;
				if (worker.log.length > seen) {
					fn(worker.log.slice(seen));
					seen = worker.log.length;
				}
			}, 5);
			return () => clearInterval(timer);
		},
		async kill() {
			worker.kill('SIGKILL');
			await worker.exited;
			worker.kill('SIGKILL');
		},
		saveLog() {
			this.logDir = keepLogs(worker.inst)(worker.log);
		},
		start: () => worker.start({ timeoutMs: 180_000 }),
	};
}
