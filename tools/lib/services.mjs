// Throwaway Redis and PostgreSQL 15 for n8n queue mode (e2e `queue` group, `npm run demo:queue`):
// Debian packages installed when missing, one instance each on a free loopback port in a temp dir,
// stopped by tools/lib/cleanup.mjs on success, failure and Ctrl-C. Node standard library only.
//
// Facts behind this (verified): /work/shared/notes/queue-mode.md. As root, initdb and postgres must
// run as the `postgres` user, on a data directory it owns.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { aptInstall } from './apt.mjs';
import { freePort, makeTempDir, startProcess } from './process.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PG_MAJOR = 15;
const PG_BIN_DIRS = [`/usr/lib/postgresql/${PG_MAJOR}/bin`];
const isRoot = () => process.getuid?.() === 0;

function which(cmd) {
	const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
	return r.status === 0 ? r.stdout.trim() : null;
}

/** Directory holding initdb/postgres/psql of PostgreSQL 15, or null. */
export function postgresBinDir() {
	for (const dir of PG_BIN_DIRS) if (['initdb', 'postgres', 'psql'].every((b) => fs.existsSync(path.join(dir, b)))) return dir;
	return null;
}

/**
 * Makes sure `redis-server` and PostgreSQL 15 are installed; installs the Debian packages
 * (`redis-server`, `postgresql-15`) with apt-get when missing. Needs root for that; otherwise
 * throws with the command to run.
 */
export async function ensureDebianPackages({ log = console.log } = {}) {
	const missing = [];
	if (!which('redis-server')) missing.push('redis-server');
	if (!postgresBinDir()) missing.push(`postgresql-${PG_MAJOR}`);
	if (!missing.length) return { installed: [] };
	await aptInstall(missing, { why: 'queue mode', log });
	if (!which('redis-server') || !postgresBinDir()) throw new Error(`apt-get finished but ${missing.join(' / ')} is still missing`);
	return { installed: missing };
}

/**
 * A long-running child (tools/lib/process.mjs startProcess: own process group, killed on
 * clean-up), output appended to `logFile`; stop() sends `stopSignal`, then SIGKILL after 10 s.
 */
function startDaemon(label, cmd, args, { logFile, stopSignal = 'SIGTERM', cwd } = {}) {
	const { child, exit: exited, killGroup } = startProcess(cmd, args, { cwd, env: process.env, label });
	child.stdin.end();
	const out = fs.createWriteStream(logFile, { flags: 'a' });
	child.stdout.pipe(out, { end: false });
	child.stderr.pipe(out, { end: false });
	let exit = null;
	exited.then(
		(r) => (exit = r),
		() => (exit = { code: 'spawn error' }),
	);
	const stop = async () => {
		if (exit) return;
		killGroup(stopSignal);
		if (!(await Promise.race([exited.catch(() => true), sleep(10_000).then(() => null)]))) killGroup('SIGKILL');
	};
	return {
		stop,
		get exit() {
			return exit;
		},
	};
}

async function waitFor(label, probe, { timeoutMs, daemon, logFile }) {
	const started = Date.now();
	for (;;) {
		if (daemon.exit)
			throw new Error(
				`${label} exited (${daemon.exit.signal ?? daemon.exit.code}) before it was ready:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`,
			);
		if (await probe().catch(() => false)) return Date.now() - started;
		if (Date.now() - started > timeoutMs)
			throw new Error(`${label} not ready after ${timeoutMs / 1000} s:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
		await sleep(200);
	}
}

/** Sends one inline Redis command, resolves with the first reply line. */
export function redisCommand(port, command) {
	return new Promise((resolve, reject) => {
		const s = net.connect({ host: '127.0.0.1', port }, () => s.write(`${command}\r\n`));
		s.setTimeout(2000, () => s.destroy(new Error('redis: timeout')));
		s.once('data', (d) => {
			resolve(String(d).split('\r\n')[0]);
			s.end();
		});
		s.on('error', reject);
	});
}

/** redis-server on a free loopback port, no persistence, log in the temp dir. */
export async function startRedis({ root = makeTempDir('sp-redis-'), log = console.log } = {}) {
	const port = await freePort();
	const dir = path.join(root, 'redis');
	fs.mkdirSync(dir, { recursive: true });
	const logFile = path.join(dir, 'redis.log');
	const args = [
		'--port',
		String(port),
		'--bind',
		'127.0.0.1',
		'--dir',
		dir,
		'--save',
		'',
		'--appendonly',
		'no',
		'--daemonize',
		'no',
		'--logfile',
		logFile,
		'--loglevel',
		'verbose',
	];
	const daemon = startDaemon('redis-server', which('redis-server') ?? 'redis-server', args, {
		logFile: path.join(dir, 'stdout.log'),
		stopSignal: 'SIGTERM',
	});
	const ms = await waitFor('redis-server', async () => (await redisCommand(port, 'PING')) === '+PONG', {
		timeoutMs: 20_000,
		daemon,
		logFile: path.join(dir, 'stdout.log'),
	});
	log(`  redis-server on 127.0.0.1:${port} (ready in ${(ms / 1000).toFixed(1)} s)`);
	return { host: '127.0.0.1', port, logFiles: [logFile, path.join(dir, 'stdout.log')], stop: daemon.stop };
}

/**
 * PostgreSQL 15 on a free loopback port: initdb (trust auth, loopback only) in a temp dir, database
 * `n8n`, statements that change data logged (the key scan reads them). As root everything runs as the
 * `postgres` user, which must be able to enter the directory.
 */
export async function startPostgres({ root = makeTempDir('sp-pg-'), log = console.log } = {}) {
	const bin = postgresBinDir();
	if (!bin) throw new Error(`PostgreSQL ${PG_MAJOR} is not installed (${PG_BIN_DIRS.join(', ')}); see ensureDebianPackages`);
	const port = await freePort();
	const dir = path.join(root, 'postgres');
	const data = path.join(dir, 'data');
	fs.mkdirSync(dir, { recursive: true });
	const asPg = isRoot() ? (cmd, args) => ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : (cmd, args) => [cmd, args];
	if (isRoot()) {
		fs.chmodSync(root, 0o711); // mkdtemp makes it 0700: postgres must pass through
		spawnSync('chown', ['postgres:postgres', dir]);
	}
	const t = Date.now();
	const [initCmd, initArgs] = asPg(path.join(bin, 'initdb'), [
		'-D',
		data,
		'-U',
		'postgres',
		'--auth=trust',
		'--no-sync',
		'-E',
		'UTF8',
		'--locale=C',
	]);
	const init = spawnSync(initCmd, initArgs, { encoding: 'utf8', cwd: dir });
	if (init.status !== 0) throw new Error(`initdb failed (exit ${init.status}):\n${init.stdout}\n${init.stderr}`);
	const logFile = path.join(dir, 'postgres.log');
	fs.writeFileSync(logFile, '');
	if (isRoot()) spawnSync('chown', ['postgres:postgres', logFile]);
	const settings = {
		listen_addresses: '127.0.0.1',
		port: String(port),
		unix_socket_directories: dir,
		fsync: 'off',
		synchronous_commit: 'off',
		full_page_writes: 'off',
		log_statement: 'mod', // INSERT/UPDATE text and parameters: the key scan covers them
		max_connections: '100',
	};
	const [cmd, args] = asPg(path.join(bin, 'postgres'), ['-D', data, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])]);
	// SIGINT to the group: PostgreSQL's fast shutdown.
	const daemon = startDaemon('postgres', cmd, args, { logFile, stopSignal: 'SIGINT', cwd: dir });
	const psqlBin = path.join(bin, 'psql');
	const psql = (sql, db = 'postgres') => {
		const r = spawnSync(
			psqlBin,
			['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', db, '-XAtq', '-v', 'ON_ERROR_STOP=1', '-c', sql],
			{ encoding: 'utf8' },
		);
		if (r.status !== 0) throw new Error(`psql: ${r.stderr.trim()}`);
		return r.stdout.trim();
	};
	await waitFor('postgres', async () => psql('select 1') === '1', { timeoutMs: 30_000, daemon, logFile });
	psql('create database n8n');
	log(`  PostgreSQL ${PG_MAJOR} on 127.0.0.1:${port} (initdb + ready in ${((Date.now() - t) / 1000).toFixed(1)} s)`);
	return {
		host: '127.0.0.1',
		port,
		database: 'n8n',
		user: 'postgres',
		logFiles: [logFile],
		/** Runs SQL in the n8n database; returns psql's unaligned output. */
		query: (sql) => psql(sql, 'n8n'),
		/** Runs SQL in another database of the same server. */
		queryIn: (database, sql) => psql(sql, database),
		stop: daemon.stop,
	};
}
