// The one place tools start child processes and build their environment. Every child runs in its
// own process group and is killed as a group on clean-up (tools/lib/cleanup.mjs), so n8n's task
// runner or npm's children go with it.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { onCleanup } from './cleanup.mjs';

/** Variables an outer `npm run` (or the caller's shell) sets that must not leak into a child. */
const DROPPED_EXACT = new Set([
	'npm_config_local_prefix',
	'npm_config_prefix',
	'npm_config_ignore_scripts',
	'npm_command',
	'npm_execpath',
	'npm_node_execpath',
	'init_cwd',
]);
const DROPPED_PREFIXES = ['npm_package_', 'npm_lifecycle_', 'n8n_', 'db_'];

/**
 * Environment for a child process: this process's, without what an outer `npm run` exported about
 * this repo and without the caller's n8n/DB settings, plus `extra`.
 */
export function childEnv(extra = {}) {
	const env = {};
	for (const [k, v] of Object.entries(process.env)) {
		const lk = k.toLowerCase();
		if (DROPPED_EXACT.has(lk) || DROPPED_PREFIXES.some((p) => lk.startsWith(p))) continue;
		env[k] = v;
	}
	return { ...env, ...extra };
}

/** How to call npm: the npm that runs this script when started by `npm run`, else `npm` on PATH. */
export function npmCommand() {
	const execpath = process.env.npm_execpath;
	if (execpath && /npm-cli\.js$/.test(execpath) && fs.existsSync(execpath)) return { cmd: process.execPath, pre: [execpath] };
	return { cmd: 'npm', pre: [] };
}

/**
 * Starts a child in its own process group, registered for clean-up. Returns
 * { child, exit: Promise<{code, signal}>, killGroup(sig) }.
 * stdio: 'pipe' (default) or 'inherit'; `label` names it in clean-up messages.
 */
export function startProcess(cmd, args, { cwd, env, stdio = 'pipe', label } = {}) {
	const child = spawn(cmd, args, {
		cwd,
		env,
		stdio: stdio === 'inherit' ? ['ignore', 'inherit', 'inherit'] : ['pipe', 'pipe', 'pipe'],
		detached: true,
	});
	const killGroup = (sig) => {
		try {
			process.kill(-child.pid, sig);
		} catch {}
	};
	const unregister = onCleanup(
		label ?? `${path.basename(cmd)} ${args[0] ?? ''}`,
		async () => killGroup('SIGKILL'),
		() => killGroup('SIGKILL'),
	);
	const exit = new Promise((resolve, reject) => {
		child.on('error', (e) => {
			unregister();
			reject(e);
		});
		child.on('close', (code, signal) => {
			unregister();
			resolve({ code, signal });
		});
	});
	return { child, exit, killGroup };
}

/**
 * Runs a command to its end and collects its output; rejects on spawn error only.
 * Options: timeoutMs (kills the group), echo (also print the output), input (stdin text),
 * onLine(line) (each output line as it comes), stdio 'inherit' (output straight to the terminal).
 * Resolves { code, signal, stdout, stderr, timedOut, ms }.
 */
export async function run(cmd, args, { cwd, env, timeoutMs = 0, echo = false, input, onLine, stdio = 'pipe', label } = {}) {
	const started = Date.now();
	const { child, exit, killGroup } = startProcess(cmd, args, { cwd, env, stdio, label });
	let stdout = '';
	let stderr = '';
	if (stdio !== 'inherit') {
		const collect = (stream, append, echoTo) => {
			let partial = '';
			stream.on('data', (d) => {
				append(d);
				if (echo) echoTo.write(d);
				if (!onLine) return;
				partial += d;
				let i;
				while ((i = partial.indexOf('\n')) >= 0) {
					onLine(partial.slice(0, i));
					partial = partial.slice(i + 1);
				}
			});
			stream.on('end', () => partial && onLine?.(partial));
		};
		collect(child.stdout, (d) => (stdout += d), process.stdout);
		collect(child.stderr, (d) => (stderr += d), process.stderr);
		child.stdin.end(input);
	}
	let timedOut = false;
	const timer = timeoutMs
		? setTimeout(() => {
				timedOut = true;
				killGroup('SIGKILL');
			}, timeoutMs)
		: null;
	try {
		const { code, signal } = await exit;
		return { code, signal, stdout, stderr, timedOut, ms: Date.now() - started };
	} finally {
		if (timer) clearTimeout(timer);
		// Children of the group (n8n's task runner) may outlive the leader for a moment.
		killGroup('SIGKILL');
	}
}

/** Runs npm (see npmCommand) with childEnv(env); same options and result as run(). */
export function runNpm(args, { env, ...options } = {}) {
	const { cmd, pre } = npmCommand();
	return run(cmd, [...pre, ...args], { ...options, env: childEnv(env), label: `npm ${args[0] ?? ''}` });
}

/** Ports this process handed out: a port is closed again before its user binds it, so the OS may offer it twice. */
const handedOutPorts = new Set();

function osFreePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen({ host: '127.0.0.1', port: 0 }, () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

/**
 * A free TCP port on 127.0.0.1 (the OS picks; closed again before use), never one this process
 * handed out before: two instances started in a row (main and worker, n8n and its broker) got the
 * same port once and one of them failed to listen.
 */
export async function freePort() {
	for (let attempt = 0; attempt < 50; attempt++) {
		const port = await osFreePort();
		if (!handedOutPorts.has(port)) {
			handedOutPorts.add(port);
			return port;
		}
	}
	throw new Error('freePort: the OS kept offering ports this run already uses');
}

/** Whether `port` on 127.0.0.1 can be listened on right now. */
export function portIsFree(port) {
	return new Promise((resolve) => {
		const s = net.createServer();
		s.once('error', () => resolve(false));
		s.listen({ host: '127.0.0.1', port }, () => s.close(() => resolve(true)));
	});
}

/**
 * Calls `fn` (sync or async) every `everyMs` until it returns a truthy value, and returns that value;
 * throws "<what>: not within N s" after `timeoutMs`, followed by "; last seen: <describe()>" when
 * `describe` (sync or async) is given: what the last call of `fn` saw, so that a timeout says why.
 */
export async function waitUntil(what, fn, { timeoutMs, everyMs = 500, describe }) {
	const started = Date.now();
	for (;;) {
		const value = await fn();
		if (value) return value;
		if (Date.now() - started > timeoutMs) {
			const seen = describe ? `; last seen: ${await describe()}` : '';
			throw new Error(`${what}: not within ${Math.round(timeoutMs / 1000)} s${seen}`);
		}
		await new Promise((resolve) => setTimeout(resolve, everyMs));
	}
}

/** A temp directory removed on clean-up (kept when KEEP_TMP is set). */
export function makeTempDir(prefix) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	const rm = () => fs.rmSync(dir, { recursive: true, force: true });
	if (!process.env.KEEP_TMP) onCleanup(`remove ${dir}`, async () => rm(), rm);
	return dir;
}
