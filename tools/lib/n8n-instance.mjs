// Runs an isolated real n8n with this package installed the way a user's n8n holds a community
// package, and drives it: CLI import/execute, `n8n start` + REST API (owner, login, credentials,
// node types, workflows). Everything started here is stopped and removed by tools/lib/cleanup.mjs
// on exit, failure and Ctrl-C. Node standard library only.
//
// Over 400 lines because N8nInstance is one driver of one n8n (its folders, CLI, process and REST
// API) whose methods share that state; the helpers around it read what it returns.

import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onCleanup } from './cleanup.mjs';
import { childEnv, freePort, makeTempDir, run, runNpm, startProcess } from './process.mjs';

export const REPO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PACKAGE_NAME = 'n8n-nodes-service-platform';
export const NODE_TYPE = `${PACKAGE_NAME}.services`;
export const TRIGGER_TYPE = `${PACKAGE_NAME}.servicesTrigger`;
export const CREDENTIAL_TYPE = 'servicePlatformApi';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The statuses of an execution that has not ended yet. */
export const UNFINISHED_STATUSES = ['new', 'running', 'waiting', 'unknown'];

// Kept importable from here: the e2e groups and demos built before process.mjs existed import them so.
export { freePort, makeTempDir, run };

/** npm run build, then npm pack into a temp dir; returns the tarball path. */
export async function buildAndPack({ skipBuild = false, log = console.log } = {}) {
	if (!skipBuild) {
		const t = Date.now();
		log('Building the package (npm run build) ...');
		// gulp's v8flags caches a file in ~/.cache/js-v8flags, or in the temporary folder where ~/.cache
		// does not exist yet (a fresh machine): there a test run would count it as left behind.
		fs.mkdirSync(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), { recursive: true });
		const r = await runNpm(['run', 'build'], { cwd: REPO_DIR });
		if (r.code !== 0) throw new Error(`npm run build failed (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
		log(`  built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
	}
	const dir = makeTempDir('sp-pack-');
	const r = await runNpm(['pack', '--json', '--pack-destination', dir], { cwd: REPO_DIR });
	if (r.code !== 0) throw new Error(`npm pack failed (exit ${r.code}):\n${r.stderr}`);
	const info = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')));
	const tarball = path.join(dir, info[0].filename);
	log(`Packed ${info[0].filename} (${info[0].entryCount} files, ${(info[0].size / 1024).toFixed(1)} kB)`);
	return { tarball, files: info[0].files.map((f) => f.path) };
}

/**
 * The exact log record n8n's `execute --rawOutput` prints the result in (N8N_LOG_FORMAT=json):
 * one JSON line per log record whose `message` is the JSON-stringified run result.
 */
export function parseExecuteOutput(stdout) {
	const records = [];
	for (const line of stdout.split('\n')) {
		const t = line.trim();
		if (!t.startsWith('{')) continue;
		try {
			records.push(JSON.parse(t));
		} catch {}
	}
	let result = null;
	for (const rec of records) {
		const msg = typeof rec.message === 'string' ? rec.message.trim() : '';
		if (!msg.startsWith('{')) continue;
		try {
			const parsed = JSON.parse(msg);
			if (
				parsed &&
				typeof parsed === 'object' &&
				('data' in parsed || 'resultData' in parsed || 'finished' in parsed || 'status' in parsed)
			)
				result = parsed;
		} catch {}
	}
	// A pretty-printed (non-JSON-format) fallback: the first '{' at a line start to the end.
	if (!result) {
		const i = stdout.search(/^\{/m);
		if (i >= 0) {
			try {
				result = JSON.parse(stdout.slice(i));
			} catch {}
		}
	}
	return { records, result };
}

/** Items (json) of a node's first output in run data: runData[node][run].data.main[output]. */
export function nodeItems(result, nodeName, { run = 0, output = 0 } = {}) {
	const runData = result?.data?.resultData?.runData ?? result?.resultData?.runData;
	const r = runData?.[nodeName]?.[run];
	if (!r) return null;
	return (r.data?.main?.[output] ?? []).map((i) => i.json);
}

export function nodeError(result, nodeName, { run = 0 } = {}) {
	const runData = result?.data?.resultData?.runData ?? result?.resultData?.runData;
	return runData?.[nodeName]?.[run]?.error ?? null;
}

export function workflowError(result) {
	return result?.data?.resultData?.error ?? result?.resultData?.error ?? null;
}

export class N8nInstance {
	/**
	 * @param {object} o
	 * @param {object} o.runtime       from ensureN8n()
	 * @param {string} [o.tarball]     packed package to install
	 * @param {'extract'|'editor'|'npm'|'none'} [o.install]  how to put the package into .n8n/nodes
	 * @param {string} [o.label]
	 */
	static async create({ runtime, tarball, install = 'extract', label, log = console.log, extraEnv = {} }) {
		const inst = new N8nInstance(runtime, label ?? `n8n ${runtime.version}`, log);
		inst.root = makeTempDir(`sp-n8n-${runtime.line}-`);
		inst.userFolder = path.join(inst.root, 'user');
		inst.n8nDir = path.join(inst.userFolder, '.n8n');
		inst.nodesDir = path.join(inst.n8nDir, 'nodes');
		fs.mkdirSync(inst.nodesDir, { recursive: true });
		// n8n and its npm leave folders in the temporary folder (n8nDataTableUploads, tmp-<pid>-*):
		// give it one inside the instance's root, which clean-up removes.
		inst.tmpDir = path.join(inst.root, 'tmp');
		fs.mkdirSync(inst.tmpDir);
		inst.brokerPort = await freePort();
		inst.env = childEnv({
			PATH: `${runtime.binDir}${path.delimiter}${process.env.PATH}`,
			HOME: inst.userFolder, // nothing of the real user's ~/.n8n or ~/.npmrc auth leaks in or out
			TMPDIR: inst.tmpDir,
			N8N_USER_FOLDER: inst.userFolder,
			N8N_ENCRYPTION_KEY: crypto.randomBytes(24).toString('hex'),
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_RUNNERS_BROKER_PORT: String(inst.brokerPort),
			N8N_LOG_FORMAT: 'json',
			N8N_LOG_LEVEL: 'info',
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_SECURE_COOKIE: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
			DB_TYPE: 'sqlite',
			...runtime.env,
			...extraEnv,
		});
		// npm in the instance: keep the machine's registry settings (~/.npmrc) although HOME moved.
		const userNpmrc = path.join(os.homedir(), '.npmrc');
		if (fs.existsSync(userNpmrc)) inst.env.npm_config_userconfig = userNpmrc;
		if (process.env.npm_config_cache) inst.env.npm_config_cache = process.env.npm_config_cache;
		else inst.env.npm_config_cache = path.join(os.homedir(), '.npm');
		if (tarball && install !== 'none') await inst.installPackage(tarball, install);
		return inst;
	}

	constructor(runtime, label, log) {
		this.runtime = runtime;
		this.label = label;
		this.log = log;
		this.outputs = []; // every stdout/stderr n8n printed, for secret scans
		this.outputListeners = new Set(); // onOutput(): the server's output as it comes
		this.server = null;
		this.cookie = null;
		this.browserId = crypto.randomUUID();
	}

	get packageDir() {
		return path.join(this.nodesDir, 'node_modules', PACKAGE_NAME);
	}

	/**
	 * 'extract': unpack the tarball to .n8n/nodes/node_modules/<name> (the folder n8n's installer
	 * produces). 'editor': n8n's own installer steps (npm pack, untar, strip peer/dev deps, npm install
	 * inside the package). 'npm': `npm install <tarball>` inside .n8n/nodes.
	 */
	async installPackage(tarball, mode = 'extract') {
		if (mode === 'extract') {
			const dest = this.packageDir;
			fs.rmSync(dest, { recursive: true, force: true });
			fs.mkdirSync(dest, { recursive: true });
			const r = await run('tar', ['-xzf', tarball, '-C', dest, '--strip-components=1']);
			if (r.code !== 0) throw new Error(`tar failed: ${r.stderr}`);
			const pkgJsonPath = path.join(this.nodesDir, 'package.json');
			const version = JSON.parse(fs.readFileSync(path.join(dest, 'package.json'), 'utf8')).version;
			fs.writeFileSync(
				pkgJsonPath,
				JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [PACKAGE_NAME]: version } }, null, 2),
			);
			return { mode, dir: dest };
		}
		const pkgJsonPath = path.join(this.nodesDir, 'package.json');
		if (!fs.existsSync(pkgJsonPath))
			fs.writeFileSync(pkgJsonPath, JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
		const flags = this.runtime.editorNpm ?? {
			common: ['--audit=false', '--fund=false'],
			install: ['--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false'],
		};
		// `npm` from PATH on the Node that runs n8n, as n8n itself calls it.
		const npm = (args, cwd) => run('npm', args, { cwd, env: this.env, timeoutMs: 10 * 60_000 });
		const steps = [];
		const check = (r, args, cwd) => {
			steps.push({ cmd: `npm ${args.join(' ')}`, cwd, code: r.code, stdout: r.stdout, stderr: r.stderr });
			if (r.code !== 0) throw new Error(`npm ${args.join(' ')} failed in ${cwd} (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
			return r;
		};
		if (mode === 'editor') {
			// What n8n 1.1xx/2.x's CommunityPackagesService.downloadPackage does, with the tarball in
			// place of `<name>@<version>` from the registry.
			const packArgs = ['pack', tarball, '--quiet'];
			const packed = check(await npm(packArgs, this.nodesDir), packArgs, this.nodesDir);
			const tarballName = packed.stdout.trim().split('\n').pop().trim();
			const dest = this.packageDir;
			fs.rmSync(dest, { recursive: true, force: true });
			fs.mkdirSync(dest, { recursive: true });
			const t = await run('tar', ['-xzf', tarballName, '-C', dest, '--strip-components=1'], { cwd: this.nodesDir });
			if (t.code !== 0) throw new Error(`tar failed: ${t.stderr}`);
			const pj = path.join(dest, 'package.json');
			const { devDependencies, peerDependencies, optionalDependencies, ...packageJson } = JSON.parse(fs.readFileSync(pj, 'utf8'));
			(void devDependencies, peerDependencies, optionalDependencies);
			fs.writeFileSync(pj, JSON.stringify(packageJson, null, 2));
			const installArgs = ['install', ...flags.common, ...flags.install];
			check(await npm(installArgs, dest), installArgs, dest);
			const nodesPkg = JSON.parse(fs.readFileSync(pkgJsonPath, 'utf8'));
			nodesPkg.dependencies = { ...(nodesPkg.dependencies ?? {}), [PACKAGE_NAME]: packageJson.version };
			fs.writeFileSync(pkgJsonPath, JSON.stringify(nodesPkg, null, 2));
			fs.rmSync(path.join(this.nodesDir, tarballName), { force: true });
			this.installProcedure = { mode, steps: steps.map((x) => `${x.cmd}   (in ${path.relative(this.userFolder, x.cwd) || '.'})`) };
			return { mode, dir: dest, steps };
		}
		if (mode === 'npm') {
			// `npm install <tarball>` in ~/.n8n/nodes (how n8n before 1.10x installed packages; npm 7+
			// then also installs peer dependencies there).
			const args = ['install', tarball, ...flags.common, ...flags.install];
			check(await npm(args, this.nodesDir), args, this.nodesDir);
			this.installProcedure = { mode, steps: steps.map((x) => `${x.cmd}   (in ${path.relative(this.userFolder, x.cwd) || '.'})`) };
			return { mode, dir: this.packageDir, steps };
		}
		throw new Error(`unknown install mode ${mode}`);
	}

	/** Runs `n8n <args>` as a CLI command (not the server). */
	async cli(args, { timeoutMs = 120_000, env = {} } = {}) {
		const r = await run(this.runtime.nodeBin, [this.runtime.n8nBin, ...args], {
			cwd: this.root,
			env: { ...this.env, ...env },
			timeoutMs,
		});
		this.outputs.push(`$ n8n ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
		return r;
	}

	writeJson(name, value) {
		const dir = path.join(this.root, 'io');
		fs.mkdirSync(dir, { recursive: true });
		const p = path.join(dir, name);
		fs.writeFileSync(p, JSON.stringify(value, null, 2));
		return p;
	}

	/** credentials: [{id, name, type, data}] with plain data (n8n encrypts on import). */
	async importCredentials(credentials) {
		const file = this.writeJson(`credentials-${Date.now()}.json`, credentials);
		const r = await this.cli(['import:credentials', `--input=${file}`]).finally(() => fs.rmSync(file, { force: true }));
		if (r.code !== 0) throw new Error(`import:credentials failed (exit ${r.code}):\n${tail(r.stdout + r.stderr)}`);
		return r;
	}

	/** workflows: one exported workflow or an array of them. */
	async importWorkflows(workflows) {
		const list = Array.isArray(workflows) ? workflows : [workflows];
		const file = this.writeJson(`workflows-${Date.now()}.json`, list);
		const r = await this.cli(['import:workflow', `--input=${file}`]).finally(() => fs.rmSync(file, { force: true }));
		if (r.code !== 0) throw new Error(`import:workflow failed (exit ${r.code}):\n${tail(r.stdout + r.stderr)}`);
		return r;
	}

	/**
	 * `n8n execute --id=<id> --rawOutput`. Returns { ok, code, result, stdout, stderr, ms }.
	 * ok: exit 0 and a parsed result without a workflow error.
	 */
	async execute(id, { timeoutMs = 120_000 } = {}) {
		// A separate broker port: a running `n8n start` on this folder holds the instance's port.
		const port = await freePort();
		const r = await this.cli(['execute', `--id=${id}`, '--rawOutput'], { timeoutMs, env: { N8N_RUNNERS_BROKER_PORT: String(port) } });
		const { result, records } = parseExecuteOutput(r.stdout);
		return {
			ok: r.code === 0 && !!result && !workflowError(result),
			code: r.code,
			signal: r.signal,
			result,
			records,
			stdout: r.stdout,
			stderr: r.stderr,
			ms: r.ms,
			timedOut: r.timedOut,
		};
	}

	// ---- server ----------------------------------------------------------------------------------

	async start({ port, timeoutMs = 120_000, echo = false } = {}) {
		if (this.server) return this.baseUrl;
		this.port = port ?? (await freePort());
		this.baseUrl = `http://127.0.0.1:${this.port}`;
		const env = { ...this.env, N8N_PORT: String(this.port), N8N_EDITOR_BASE_URL: `${this.baseUrl}/`, WEBHOOK_URL: `${this.baseUrl}/` };
		const started = Date.now();
		const { child, exit, killGroup } = startProcess(this.runtime.nodeBin, [this.runtime.n8nBin, 'start'], {
			cwd: this.root,
			env,
			label: `${this.label} server`,
		});
		this.server = child;
		this.serverLog = '';
		const append = (d) => {
			this.serverLog += d;
			if (echo) process.stdout.write(d);
			for (const fn of this.outputListeners) fn(String(d));
		};
		child.stdout.on('data', append);
		child.stderr.on('data', append);
		let exited = null;
		this.serverExit = exit.then(
			(e) => (exited = e),
			(error) => (exited = { code: null, signal: null, error }),
		);
		// Graceful stop first (stop() below); the process group is killed on clean-up in any case.
		this.unregisterServer = onCleanup(`${this.label} server (graceful)`, () => this.stop());
		this.killGroup = killGroup;
		for (;;) {
			if (exited)
				throw new Error(
					`${this.label}: n8n start exited (${exited.signal ?? exited.code}) before it was ready:\n${tail(this.serverLog, 40)}`,
				);
			if (Date.now() - started > timeoutMs)
				throw new Error(`${this.label}: not ready after ${timeoutMs / 1000} s:\n${tail(this.serverLog, 40)}`);
			try {
				// n8n 1.x answers readiness before its REST routes exist: wait for /rest/settings too.
				const res = await fetch(`${this.baseUrl}/healthz/readiness`, { signal: AbortSignal.timeout(2000) });
				if (res.status === 200) {
					const s = await fetch(`${this.baseUrl}/rest/settings`, {
						headers: { 'browser-id': this.browserId },
						signal: AbortSignal.timeout(2000),
					});
					await s.arrayBuffer();
					if (s.status === 200) break;
				}
			} catch {}
			await sleep(250);
		}
		this.startMs = Date.now() - started;
		return this.baseUrl;
	}

	async stop() {
		if (!this.server) return;
		const child = this.server;
		this.server = null;
		this.stopRequested = true;
		this.unregisterServer?.();
		this.killGroup('SIGTERM');
		const done = await Promise.race([this.serverExit, sleep(15000).then(() => null)]);
		if (!done) this.killGroup('SIGKILL');
		else this.killGroup('SIGKILL'); // leftovers of the group (task runner)
		this.outputs.push(`$ n8n start\n${this.serverLog}`);
		void child;
	}

	/**
	 * Kills the server's whole process group (n8n and its task runner) with `signal`, as an OOM kill or
	 * a pulled plug would, and waits until it is gone. start() then starts it again on the same folder.
	 */
	async kill(signal = 'SIGKILL') {
		if (!this.server) return;
		this.server = null;
		this.unregisterServer?.();
		this.killGroup(signal);
		await this.serverExit;
		this.killGroup('SIGKILL'); // a task runner that outlived the leader
		this.outputs.push(`$ n8n start (killed with ${signal})\n${this.serverLog}`);
	}

	/** Calls fn(text) with the server's output as it comes (every later start included); returns a function that stops it. */
	onOutput(fn) {
		this.outputListeners.add(fn);
		return () => this.outputListeners.delete(fn);
	}

	/** REST call with the login cookie and browser-id. Returns { status, body, headers }. */
	async rest(method, p, body, { raw = false, timeoutMs = 60_000 } = {}) {
		const headers = { 'browser-id': this.browserId, accept: 'application/json' };
		if (this.cookie) headers.cookie = this.cookie;
		if (body !== undefined) headers['content-type'] = 'application/json';
		const res = await fetch(`${this.baseUrl}${p}`, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(timeoutMs),
			redirect: 'manual',
		});
		const setCookie = res.headers.getSetCookie?.() ?? [];
		for (const c of setCookie) {
			const m = /^n8n-auth=([^;]*)/.exec(c);
			if (m) this.cookie = `n8n-auth=${m[1]}`;
		}
		const text = await res.text();
		let parsed = text;
		if (!raw) {
			try {
				parsed = JSON.parse(text);
			} catch {}
		}
		return { status: res.status, body: parsed, text, headers: res.headers };
	}

	/** REST call that must answer 2xx; returns body.data when the body is n8n's {data} envelope. */
	async api(method, p, body) {
		const r = await this.rest(method, p, body);
		if (r.status < 200 || r.status >= 300) throw new Error(`${method} ${p} -> HTTP ${r.status}: ${r.text.slice(0, 500)}`);
		return r.body && typeof r.body === 'object' && 'data' in r.body ? r.body.data : r.body;
	}

	async setupOwner(owner = DEFAULT_OWNER) {
		await this.api('POST', '/rest/owner/setup', owner);
		this.owner = owner;
		return owner;
	}

	async login(owner = this.owner ?? DEFAULT_OWNER) {
		await this.api('POST', '/rest/login', { emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password });
		return this.cookie;
	}

	async createCredential({ name, type, data }) {
		return this.api('POST', '/rest/credentials', { name, type, data });
	}

	/** Runs the credential's `test` through n8n: { status: 'OK'|'Error', message }. */
	async testCredential({ id, name, type, data }) {
		return this.api('POST', '/rest/credentials/test', { credentials: { id, name, type, data } });
	}

	async nodeTypes() {
		return this.api('GET', '/types/nodes.json');
	}

	async credentialTypes() {
		return this.api('GET', '/types/credentials.json');
	}

	/** Creates a workflow through REST (as the editor saves one); returns it (with id, versionId). */
	async createWorkflow(wf) {
		// n8n assigns the id; a workflow is created inactive whatever the JSON says.
		const rest = { ...wf };
		delete rest.id;
		return this.api('POST', '/rest/workflows', { settings: {}, ...rest, active: false });
	}

	/**
	 * Activates ("publishes") a workflow and waits until n8n has really activated its triggers.
	 * n8n 2.x: POST /activate with the versionId answers at once; the triggers are activated in the
	 * background (the first poll runs then) and GET /publication-status ends as "published" or
	 * "failed" with each trigger's errorMessage. n8n 1.x: PATCH active=true activates synchronously
	 * and answers 400 with the activation error. Throws with n8n's message when activation fails.
	 */
	async activateWorkflow(id, { timeoutMs = 90_000 } = {}) {
		const wf = await this.api('GET', `/rest/workflows/${id}`);
		const r2 = await this.rest('POST', `/rest/workflows/${id}/activate`, { versionId: wf.versionId });
		if (r2.status >= 200 && r2.status < 300) {
			const started = Date.now();
			for (;;) {
				const ps = await this.rest('GET', `/rest/workflows/${id}/publication-status`);
				if (ps.status === 404) break; // no publication service: activation was synchronous
				const st = ps.body?.data;
				if (st?.status === 'published') break;
				if (st?.status === 'failed') {
					const msgs = (st.triggers ?? []).map((t) => t.errorMessage).filter(Boolean);
					throw new Error(`activation failed: ${msgs.join('; ') || JSON.stringify(st)}`);
				}
				if (Date.now() - started > timeoutMs) throw new Error(`activation still ${st?.status} after ${timeoutMs / 1000} s`);
				await sleep(250);
			}
			return r2.body?.data ?? r2.body;
		}
		if (r2.status !== 404)
			throw new Error(`activating workflow ${id} failed: HTTP ${r2.status}: ${r2.body?.message ?? r2.text.slice(0, 500)}`);
		const r1 = await this.rest('PATCH', `/rest/workflows/${id}`, { active: true, versionId: wf.versionId });
		if (r1.status >= 200 && r1.status < 300) return r1.body?.data ?? r1.body;
		throw new Error(`activating workflow ${id} failed: HTTP ${r1.status}: ${r1.body?.message ?? r1.text.slice(0, 500)}`);
	}

	async deactivateWorkflow(id) {
		const wf = await this.api('GET', `/rest/workflows/${id}`);
		const r2 = await this.rest('POST', `/rest/workflows/${id}/deactivate`, { versionId: wf.versionId });
		if (r2.status >= 200 && r2.status < 300) return r2.body?.data ?? r2.body;
		return this.api('PATCH', `/rest/workflows/${id}`, { active: false, versionId: wf.versionId });
	}

	/**
	 * Runs a saved workflow as the editor's "Execute workflow" button does (POST /rest/workflows/:id/run
	 * from its trigger, or the one named `trigger`), waits for the execution and returns { ok, status, result, ms } where result
	 * has the same shape as `n8n execute --rawOutput` prints ({ data: { resultData: ... } }).
	 */
	async runWorkflow(id, { timeoutMs = 120_000, trigger: triggerName } = {}) {
		const started = Date.now();
		const wf = await this.api('GET', `/rest/workflows/${id}`);
		// `trigger`: the name of the trigger to run from, in a workflow with several.
		const trigger =
			(triggerName ? wf.nodes.find((n) => n.name === triggerName) : wf.nodes.find((n) => /trigger/i.test(n.type))) ?? wf.nodes[0];
		const r = await this.rest('POST', `/rest/workflows/${id}/run`, { workflowData: wf, triggerToStartFrom: { name: trigger.name } });
		const executionId = r.body?.data?.executionId;
		if (!executionId) throw new Error(`POST /rest/workflows/${id}/run -> HTTP ${r.status}: ${r.text.slice(0, 500)}`);
		const done = await this.waitForExecution(executionId, { timeoutMs: timeoutMs - (Date.now() - started) });
		return { ...done, ms: Date.now() - started };
	}

	/** Waits until an execution has finished and its run data is stored; { ok, status, result }. */
	async waitForExecution(executionId, { timeoutMs = 120_000 } = {}) {
		const started = Date.now();
		let ex;
		let data;
		for (;;) {
			ex = await this.api('GET', `/rest/executions/${executionId}`);
			// n8n 1.x reports status "success" a moment before the run data is stored: wait for both.
			if (ex && !UNFINISHED_STATUSES.includes(ex.status) && ex.data) {
				data = typeof ex.data === 'string' ? this.flatted().parse(ex.data) : ex.data;
				if (Object.keys(data?.resultData?.runData ?? {}).length || data?.resultData?.error) break;
			}
			if (Date.now() - started > timeoutMs)
				throw new Error(`execution ${executionId} still ${ex?.status} (no run data) after ${Math.round(timeoutMs / 1000)} s`);
			await sleep(50);
		}
		const result = { data, status: ex.status, finished: ex.finished, mode: ex.mode, executionId };
		return { ok: ex.status === 'success' && !data?.resultData?.error, status: ex.status, result, executionId };
	}

	/** n8n stores execution data with `flatted`; use n8n's own copy. */
	flatted() {
		this._flatted ??= createRequire(this.runtime.n8nBin)('flatted');
		return this._flatted;
	}

	/** Executions of a workflow, newest first: [{ id, status, mode, ... }]. */
	async executions(workflowId) {
		const q = encodeURIComponent(JSON.stringify({ workflowId: String(workflowId) }));
		const r = await this.api('GET', `/rest/executions?filter=${q}&limit=50`);
		return r?.results ?? r ?? [];
	}

	/** Executions of a workflow that have not ended (n8n's REST list filtered by status), newest first. */
	async unfinishedExecutions(workflowId) {
		const q = encodeURIComponent(JSON.stringify({ workflowId: String(workflowId), status: UNFINISHED_STATUSES }));
		const r = await this.api('GET', `/rest/executions?filter=${q}&limit=100`);
		return r?.results ?? r ?? [];
	}

	/** Everything n8n printed so far (CLI runs and server), plus files in the user folder. */
	allOutput() {
		return [...this.outputs, this.server ? this.serverLog : ''].join('\n');
	}

	/** Searches n8n's output, logs and every file of the user folder (DB included) for a string. */
	findSecret(secret) {
		const hits = [];
		if (this.allOutput().includes(secret)) hits.push('n8n stdout/stderr');
		const needle = Buffer.from(secret);
		const walk = (dir) => {
			for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
				const p = path.join(dir, e.name);
				if (e.isDirectory()) {
					if (p === path.join(this.nodesDir, 'node_modules')) continue;
					walk(p);
				} else if (e.isFile()) {
					try {
						if (fs.readFileSync(p).includes(needle)) hits.push(path.relative(this.root, p));
					} catch {}
				}
			}
		};
		walk(this.root);
		return hits;
	}
}

export const DEFAULT_OWNER = {
	email: 'owner@example.com',
	firstName: 'Demo',
	lastName: 'Owner',
	password: 'Demo-Owner-2026',
};

export function tail(text, lines = 25) {
	return String(text).trim().split('\n').slice(-lines).join('\n');
}
