// What a run leaves behind (npm test: test/run-all.mjs). The run gets a temporary folder of its
// own as TMPDIR, which every child inherits (os.tmpdir(), mkdtemp, Chromium, npm read it); at the
// end that folder must be empty and no process may still belong to the run. Linux only (/proc);
// elsewhere the process check is skipped.
//
// A process belongs to the run when its TMPDIR is the run's or lies in it, or its working
// folder or command line lies in that folder (n8n's task runner gets a trimmed environment, but runs
// in the n8n instance's folder, which is made under TMPDIR).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { onCleanup } from './cleanup.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Makes a fresh folder under the system's temporary folder and makes it this process's TMPDIR. */
export function isolateTmp(prefix) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	fs.chmodSync(dir, 0o711); // mkdtemp makes it 0700; PostgreSQL runs as its own user and must pass through
	process.env.TMPDIR = dir;
	const rm = () => fs.rmSync(dir, { recursive: true, force: true });
	onCleanup(`remove ${dir}`, async () => rm(), rm); // also on failure and Ctrl-C
	return dir;
}

function readOr(file, fallback) {
	try {
		return fs.readFileSync(file, 'utf8');
	} catch {
		return fallback;
	}
}

function linkOr(file) {
	try {
		return fs.readlinkSync(file);
	} catch {
		return '';
	}
}

/** Listening TCP ports by socket inode, from /proc/net/tcp and tcp6. */
function listeningSockets() {
	const byInode = new Map();
	for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
		for (const line of readOr(file, '').split('\n').slice(1)) {
			const f = line.trim().split(/\s+/);
			if (f.length < 10 || f[3] !== '0A') continue; // 0A: LISTEN
			byInode.set(f[9], parseInt(f[1].split(':').pop(), 16));
		}
	}
	return byInode;
}

/** Processes (other than this one) that belong to the run whose TMPDIR is `dir`, with their listening ports. */
export function runProcesses(dir) {
	if (!fs.existsSync('/proc/self/environ')) return [];
	const inside = (p) => p === dir || p.startsWith(dir + path.sep);
	const sockets = listeningSockets();
	const found = [];
	for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
		if (Number(pid) === process.pid) continue;
		const environ = readOr(`/proc/${pid}/environ`, '').split('\0');
		const cmdline = readOr(`/proc/${pid}/cmdline`, '').split('\0').filter(Boolean);
		const ours =
			environ.some((v) => v.startsWith('TMPDIR=') && inside(v.slice(7))) ||
			inside(linkOr(`/proc/${pid}/cwd`)) ||
			cmdline.some((arg) => arg.includes(dir));
		if (!ours || !cmdline.length) continue; // no command line: a zombie, or gone meanwhile
		const ports = [];
		let fds = [];
		try {
			fds = fs.readdirSync(`/proc/${pid}/fd`);
		} catch {}
		for (const fd of fds) {
			const m = /^socket:\[(\d+)\]$/.exec(linkOr(`/proc/${pid}/fd/${fd}`));
			if (m && sockets.has(m[1])) ports.push(sockets.get(m[1]));
		}
		found.push({ pid: Number(pid), command: cmdline.join(' ').slice(0, 200), ports });
	}
	return found;
}

/**
 * What the run left: entries of its TMPDIR `dir` and processes that belong to it (waiting up to
 * `graceMs` for processes that are being stopped; the ones still there are then killed). Returns a
 * list of lines, empty when clean.
 */
export async function findLeftovers(dir, { graceMs = 5000 } = {}) {
	let processes = runProcesses(dir);
	for (const until = Date.now() + graceMs; processes.length && Date.now() < until; processes = runProcesses(dir)) await sleep(250);
	for (const p of processes) {
		try {
			process.kill(p.pid, 'SIGKILL');
		} catch {}
	}
	const lines = processes.map((p) => `process ${p.pid}${p.ports.length ? ` listening on ${p.ports.join(', ')}` : ''}: ${p.command}`);
	let entries = [];
	try {
		entries = fs.readdirSync(dir);
	} catch {}
	for (const name of entries) lines.push(`in the temporary folder: ${name}`);
	return lines;
}
