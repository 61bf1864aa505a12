// What the bench scripts share: their options and --help text (from a script's header comment),
// the load average, the median, the bench mock (tools/bench/server.mjs) in a process of its own, and a
// measuring child's one JSON line.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { run, startProcess } from '../lib/process.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The comment block after the shebang of the script at `scriptUrl` (its import.meta.url), without `//`. */
export function headerText(scriptUrl) {
	const lines = readFileSync(fileURLToPath(scriptUrl), 'utf8').split('\n').slice(1);
	const end = lines.findIndex((line) => !line.startsWith('//'));
	return `${lines
		.slice(0, end)
		.map((line) => line.replace(/^\/\/ ?/, ''))
		.join('\n')}\n`;
}

/**
 * A bench script's command-line options (node:util parseArgs), with `-h`/`--help`, which prints the
 * script's header comment and exits: to stdout, or `helpTo` (a child that answers on stdout).
 */
export function benchArgs(scriptUrl, options, { allowPositionals = false, helpTo = process.stdout } = {}) {
	const parsed = parseArgs({ allowPositionals, options: { ...options, help: { type: 'boolean', short: 'h', default: false } } });
	if (parsed.values.help) {
		helpTo.write(headerText(scriptUrl));
		process.exit(0);
	}
	return parsed;
}

/**
 * tools/bench/engine.cjs for a measuring child, with an n8n user folder of its own: n8n-core writes
 * $N8N_USER_FOLDER/.n8n/config on every execution; kept out of ~/.n8n, removed at exit.
 */
export function loadEngine() {
	const userFolder = mkdtempSync(join(os.tmpdir(), 'n8n-bench-'));
	process.env.N8N_USER_FOLDER = userFolder;
	process.env.N8N_LOG_LEVEL = 'silent';
	process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
	process.on('exit', () => rmSync(userFolder, { recursive: true, force: true }));
	return createRequire(import.meta.url)('./engine.cjs');
}

/** /proc/loadavg as it reads (load averages, running/total tasks, last pid); elsewhere os.loadavg(). */
export function readLoadavg() {
	try {
		return readFileSync('/proc/loadavg', 'utf8').trim();
	} catch {
		return os
			.loadavg()
			.map((value) => value.toFixed(2))
			.join(' ');
	}
}

/** The median of the finite values; NaN when there is none (a variant not measured). */
export function median(values) {
	const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
	if (!sorted.length) return NaN;
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const thousands = (value) => Math.round(value).toLocaleString('en-US');
/** `value` with `digits` decimals; '-' for a figure not measured. */
export const fixed = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

/** A target: the median of its per-round values against `limit` (and `stretch`), MET / MISSED / N/A. */
export function targetOf(name, perRound, limit, stretch) {
	const measured = perRound.filter(Number.isFinite);
	const value = median(measured);
	const status = !Number.isFinite(value) ? 'N/A' : value <= limit ? 'MET' : 'MISSED';
	const straddles = measured.some((v) => v <= limit) && measured.some((v) => v > limit);
	const t = { name, limit, value, rounds: perRound, status, straddles };
	if (stretch !== undefined) {
		t.stretch = stretch;
		t.stretchStatus = !Number.isFinite(value) ? 'N/A' : value <= stretch ? 'MET' : 'MISSED';
	}
	return t;
}

/** A target's line: `  MISSED  <name>  1.43  (rounds 1.39 1.43 1.43)`, its stretch, its CPU pairs if any, and whether its rounds straddle the limit. */
export const formatTarget = (t) =>
	`  ${t.status.padEnd(6)}  ${t.name.padEnd(58)} ${fixed(t.value, 2).padStart(5)}  (rounds ${t.rounds.map((v) => fixed(v, 2)).join(' ')})` +
	(t.stretch !== undefined ? `  stretch <= ${t.stretch}: ${t.stretchStatus}` : '') +
	(t.cpu !== undefined ? `  CPU ${fixed(median(t.cpu), 2)} (rounds ${t.cpu.map((v) => fixed(v, 2)).join(' ')})` : '') +
	(t.straddles ? '  (rounds on both sides of the limit: within the noise)' : '');

/**
 * tools/bench/server.mjs (`args`: its page size, if any) in a process of its own. Resolves with the JSON
 * line it prints first ({ urls, smallUrls, apiKey, ... }) and stop(), which ends it.
 */
export async function startBenchServer(args, label) {
	const { child } = startProcess(process.execPath, [join(root, 'tools/bench/server.mjs'), ...args], { cwd: root, env: process.env, label });
	child.stderr.pipe(process.stderr);
	const first = await new Promise((resolve, reject) => {
		createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
		child.once('exit', (code) => reject(new Error(`tools/bench/server.mjs exited (${code})`)));
	});
	return { ...first, stop: () => child.stdin.end() };
}

/** Runs `node ...nodeArgs` to its end (`input` on its stdin, `env` added to ours) and returns its last stdout line as JSON. */
export async function runJsonChild(nodeArgs, { input, label, env } = {}) {
	const result = await run(process.execPath, nodeArgs, { cwd: root, env: { ...process.env, ...env }, input, label });
	if (result.code !== 0) {
		throw new Error(`child ${nodeArgs.join(' ')} failed (${result.signal ?? result.code}):\n${result.stderr}\n${result.stdout}`);
	}
	const lines = result.stdout.trim().split('\n');
	return JSON.parse(lines[lines.length - 1]);
}
