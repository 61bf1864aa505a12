// n8n 2.x in queue mode on this machine: throwaway Redis + PostgreSQL 15 (tools/lib/services.mjs),
// one `n8n start` main and `n8n worker` processes, each with its own user folder holding the packed
// package the way a community install does, all with the same encryption key and their own task
// broker port. Used by the e2e `queue` group and `npm run demo:queue`. Everything is stopped by
// tools/lib/cleanup.mjs. Settings: /work/shared/notes/queue-mode.md (copied into
// docs/scale-and-queue-mode.md).

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CREDENTIAL_TYPE, N8nInstance, NODE_TYPE, tail } from './n8n-instance.mjs';
import { freePort, makeTempDir, startProcess } from './process.mjs';
import { ensureDebianPackages, startPostgres, startRedis } from './services.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** n8n's durable poll scheduling and poll cursors (2.41.1 names; both off by default). */
export const DURABLE_POLLING_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

/** A worker's log line when it begins a job; the id tells which worker ran which execution. */
export const WORKER_STARTED = /Worker started execution (\d+)/g;

/** Settings every process of the cluster shares. */
function sharedEnv({ pg, redis, encryptionKey, extra }) {
	return {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: pg.host,
		DB_POSTGRESDB_PORT: String(pg.port),
		DB_POSTGRESDB_DATABASE: pg.database,
		DB_POSTGRESDB_USER: pg.user,
		DB_POSTGRESDB_PASSWORD: 'unused-trust-auth',
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		N8N_ENCRYPTION_KEY: encryptionKey,
		// A dead worker's job is noticed within seconds instead of a minute (n8n default 60 s / 30 s).
		QUEUE_WORKER_LOCK_DURATION: '10000',
		QUEUE_WORKER_LOCK_RENEW_TIME: '3000',
		QUEUE_WORKER_STALLED_INTERVAL: '5000',
		...extra,
	};
}

/** One `n8n worker` process; `ready` resolves when its /healthz/readiness answers 200. */
class Worker {
	constructor(inst, { concurrency, healthPort }) {
		this.inst = inst;
		this.label = inst.label;
		this.concurrency = concurrency;
		this.healthPort = healthPort;
		this.log = '';
		this.exit = null;
	}

	async start({ timeoutMs = 120_000 } = {}) {
		const { runtime } = this.inst;
		const env = {
			...this.inst.env,
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(this.healthPort),
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		};
		const started = Date.now();
		this.exit = null; // started again after a kill
		const { child, exit, killGroup } = startProcess(runtime.nodeBin, [runtime.n8nBin, 'worker', `--concurrency=${this.concurrency}`], {
			cwd: this.inst.root,
			env,
			label: this.label,
		});
		child.stdin.end();
		this.child = child;
		this.killGroup = killGroup;
		const append = (d) => {
			this.log += d;
		};
		child.stdout.on('data', append);
		child.stderr.on('data', append);
		this.exited = exit.then((r) => (this.exit = r));
		for (;;) {
			if (this.exit)
				throw new Error(`${this.label} exited (${this.exit.signal ?? this.exit.code}) before it was ready:\n${tail(this.log, 30)}`);
			if (Date.now() - started > timeoutMs) throw new Error(`${this.label}: not ready after ${timeoutMs / 1000} s:\n${tail(this.log, 30)}`);
			try {
				const res = await fetch(`http://127.0.0.1:${this.healthPort}/healthz/readiness`, { signal: AbortSignal.timeout(2000) });
				await res.arrayBuffer();
				if (res.status === 200) break;
			} catch {}
			await sleep(250);
		}
		this.startMs = Date.now() - started;
		return this;
	}

	/** Signals the whole process group (the worker and its task runner). */
	kill(sig) {
		this.killGroup?.(sig);
	}

	async stop() {
		if (!this.child || this.exit) return;
		this.kill('SIGTERM');
		if (!(await Promise.race([this.exited, sleep(15_000).then(() => null)]))) this.kill('SIGKILL');
		this.kill('SIGKILL');
	}

	/** Execution ids this worker logged as started. */
	startedExecutions() {
		return [...this.log.matchAll(WORKER_STARTED)].map((m) => m[1]);
	}
}

/**
 * Starts Redis, Postgres, the main (ready for REST) and `workers` workers (in parallel, after the
 * main has migrated the database). Returns { pg, redis, main, workers, logs(), restartMain() }.
 */
export async function startQueueCluster({ runtime, tarball, workers = 2, concurrency = 5, extraEnv = {}, log = console.log }) {
	await ensureDebianPackages({ log });
	const root = makeTempDir('sp-queue-');
	const [redis, pg] = await Promise.all([startRedis({ root, log }), startPostgres({ root, log })]);
	const encryptionKey = crypto.randomBytes(24).toString('hex');
	const env = sharedEnv({ pg, redis, encryptionKey, extra: extraEnv });

	const t0 = Date.now();
	const main = await N8nInstance.create({ runtime, tarball, label: `n8n ${runtime.version} main`, log, extraEnv: env });
	const ws = [];
	for (let i = 1; i <= workers; i++) {
		const inst = await N8nInstance.create({
			runtime,
			tarball,
			label: `n8n ${runtime.version} worker ${i}`,
			log,
			extraEnv: { ...env, N8N_LOG_LEVEL: 'debug' },
		});
		ws.push(new Worker(inst, { concurrency, healthPort: await freePort() }));
	}
	log(`  starting the main (n8n start, queue mode) ...`);
	await main.start({ timeoutMs: 180_000 });
	log(
		`  main ready in ${(main.startMs / 1000).toFixed(1)} s at ${main.baseUrl}; starting ${workers} workers (n8n worker --concurrency=${concurrency}) ...`,
	);
	await Promise.all(ws.map((w) => w.start({ timeoutMs: 180_000 })));
	log(
		`  workers ready in ${ws.map((w) => `${(w.startMs / 1000).toFixed(1)} s`).join(', ')}; cluster up in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
	);

	return {
		pg,
		redis,
		main,
		workers: ws,
		encryptionKey,
		/**
		 * Stops the main, runs `whileStopped` (e.g. change the platform), starts it again on the same
		 * port, optionally with extra settings, and logs in again.
		 */
		async restartMain({ extraEnv: more = {}, whileStopped } = {}) {
			await main.stop();
			await whileStopped?.();
			Object.assign(main.env, more);
			await main.start({ port: main.port, timeoutMs: 180_000 });
			await main.login();
			return main.startMs;
		},
		/** Stops workers, main, Postgres and Redis (clean-up would do it at exit too). */
		async stop() {
			await Promise.all(ws.map((w) => w.stop()));
			await main.stop();
			await pg.stop();
			await redis.stop();
		},
		/** name -> text of every log of every process (main, workers, Redis, Postgres). */
		logs() {
			const out = { main: main.allOutput() };
			for (const w of ws) out[w.label] = w.log;
			for (const f of [...redis.logFiles, ...pg.logFiles])
				out[path.basename(path.dirname(f)) + '/' + path.basename(f)] = fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '';
			return out;
		},
	};
}

/** Webhook (GET /webhook/<path>) -> Services: List (all, simplified). */
export function webhookListWorkflow(name, { path: hookPath, cred, responseMode = 'lastNode' }) {
	const hook = {
		parameters: { path: hookPath, responseMode, responseData: 'allEntries', options: {} },
		id: crypto.randomUUID(),
		webhookId: crypto.randomUUID(),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
	};
	const list = {
		parameters: { resource: 'service', operation: 'list', returnAll: true },
		id: crypto.randomUUID(),
		name: 'List Services',
		type: NODE_TYPE,
		typeVersion: 1,
		position: [220, 0],
		credentials: { [CREDENTIAL_TYPE]: { id: cred.id, name: cred.name } },
	};
	return {
		name,
		nodes: [hook, list],
		connections: { Webhook: { main: [[{ node: 'List Services', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}
