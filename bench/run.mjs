#!/usr/bin/env node
// `npm run bench`: the List operation at scale, through n8n's engine, against a plain baseline.
//
//   node bench/run.mjs [--no-build] [--sizes 1000,10000,100000] [--runs N] [--memory-runs N]
//                          [--quick] [--no-profile | --profile] [--no-gc] [--json out.json]
//
// 1. Builds the package (npm run build) and measures the compiled dist/ as n8n loads it.
// 2. Serves 1,000 / 10,000 / 100,000 generated records of the documented shape from the mock API
//    (scripts/lib/mock-api/), on 127.0.0.1, in a child process of its own.
// 3. Per size, in one fresh child process (bench/measure.mjs): the baseline (plain GET of the same
//    URL, JSON.parse, wrap each record as { json }) and the List operation, raw and simplified,
//    through n8n-core's WorkflowExecute (bench/engine.cjs), interleaved, several runs, median.
// 4. Peak memory per size and variant, each in a fresh process (median of --memory-runs processes):
//    RSS high-water mark growth and sampled heap growth, against the body size and against the
//    baseline's own growth.
// 5. Cold load of the built node and credential modules against a bare `node` start.
// 6. Targets at 100,000 records: ratio <= 1.3 raw, <= 1.5 simplified, peak memory growth <= 3x body.
//    When one is missed, a CPU profile of that run (node --cpu-prof) says where the time goes.
//    Load average (/proc/loadavg) is printed as read at the start and at the end.
// Cold load times the spawn of a `node` process itself, so it spawns synchronously and directly.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { ensureN8n } from '../scripts/lib/n8n-runtime.mjs';
import { makeTempDir, run, runNpm, startProcess } from '../scripts/lib/process.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const measureScript = join(root, 'bench/measure.mjs');
// Every child's temporary folders (n8n user folders, CPU profiles) go into one folder of this run's,
// removed on clean-up: also when a child is killed or the bench is stopped with Ctrl-C.
process.env.TMPDIR = makeTempDir('sp-bench-');
const started = performance.now();
const readLoadavg = () => {
	try {
		return readFileSync('/proc/loadavg', 'utf8').trim();
	} catch {
		return os.loadavg().map((value) => value.toFixed(2)).join(' ');
	}
};
const loadavgAtStart = readLoadavg();

const { values: args } = parseArgs({
	options: {
		build: { type: 'boolean', default: true },
		'no-build': { type: 'boolean', default: false },
		sizes: { type: 'string', default: '1000,10000,100000' },
		runs: { type: 'string' },
		'memory-runs': { type: 'string' },
		quick: { type: 'boolean', default: false },
		'no-profile': { type: 'boolean', default: false },
		'no-gc': { type: 'boolean', default: false },
		profile: { type: 'boolean', default: false },
		json: { type: 'string' },
		help: { type: 'boolean', short: 'h', default: false },
	},
});
if (args.help) {
	process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1).filter((l, i, all) => all.slice(0, i + 1).every((x) => x.startsWith('//'))).map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
	process.exit(0);
}

const TARGETS = { size: 100_000, raw: 1.3, simplified: 1.5, memory: 3, paged: 1.5, peer: 0.8 };
const PAGE_SIZE = 1000; // the paged row: TARGETS.size records in pages of this many
const PEER_VARIANTS = ['peer', 'env-raw', 'env-simplified'];
const sizes = args.sizes.split(',').map(Number);
const runsFor = (size) => Number(args.runs ?? (args.quick ? 3 : size >= 100_000 ? 7 : size >= 10_000 ? 11 : 21));
const memoryRuns = Number(args['memory-runs'] ?? (args.quick ? 1 : 3));
const variants = ['baseline', 'raw', 'simplified'];

const log = (line = '') => process.stdout.write(`${line}\n`);
const progress = (line) => process.stderr.write(`bench: ${line}\n`);

// ---- helpers ------------------------------------------------------------------------------------

const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const fixed = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
const thousands = (value) => Math.round(value).toLocaleString('en-US');

function table(rows, columns) {
	const cells = rows.map((row) => columns.map((column) => String(column.get(row))));
	const widths = columns.map((column, i) => Math.max(column.title.length, ...cells.map((cell) => cell[i].length)));
	const line = (values) =>
		values.map((value, i) => (columns[i].left ? value.padEnd(widths[i]) : value.padStart(widths[i]))).join('  ').trimEnd();
	return [line(columns.map((c) => c.title)), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

/** Runs a node child process and returns its last stdout line as JSON. */
async function runChild(nodeArgs) {
	const result = await run(process.execPath, nodeArgs, { cwd: root, env: process.env });
	if (result.code !== 0) {
		throw new Error(`child ${nodeArgs.join(' ')} failed (${result.signal ?? result.code}):\n${result.stderr}\n${result.stdout}`);
	}
	const lines = result.stdout.trim().split('\n');
	return JSON.parse(lines[lines.length - 1]);
}

function machine() {
	const cpuinfo = (() => {
		try {
			return readFileSync('/proc/cpuinfo', 'utf8');
		} catch {
			return '';
		}
	})();
	const model = /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
	return {
		cpus: os.availableParallelism?.() ?? os.cpus().length,
		model: model.trim(),
		memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
		node: process.version,
		platform: `${os.platform()} ${os.release()} ${os.arch()}`,
	};
}

async function startServer() {
	const { child } = startProcess(process.execPath, [join(root, 'bench/server.mjs'), String(PAGE_SIZE)], { cwd: root, env: process.env, label: 'bench mock server' });
	child.stderr.pipe(process.stderr);
	const first = await new Promise((resolve, reject) => {
		const lines = createInterface({ input: child.stdout });
		lines.once('line', (line) => resolve(JSON.parse(line)));
		child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
	});
	return { ...first, stop: () => child.stdin.end() };
}

async function generate(server, count) {
	for (const url of Object.values(server.urls)) {
		const request = () =>
			fetch(`${url}/__mock/generate`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ count, seed: 1 }),
			});
		// fetch reuses a kept-alive socket that the server may be closing after 5 s idle: retry once.
		const response = await request().catch(request);
		if (!response.ok) throw new Error(`mock generate ${count}: HTTP ${response.status}`);
	}
}

const serverArgs = (server) => [
	'--urls',
	JSON.stringify(server.urls),
	'--small-urls',
	JSON.stringify(server.smallUrls),
	'--key',
	server.apiKey,
	...(nodesBaseDir ? ['--nodes-base', nodesBaseDir] : []),
];

/** n8n-nodes-base of the installed n8n 2.x (the e2e suite's runtime cache), for the peer; null when n8n cannot be had. */
async function findNodesBase() {
	try {
		const runtime = await ensureN8n(2);
		return join(runtime.dir, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes');
	} catch (error) {
		progress(`peer rows not measured: n8n 2.x is not installed (${error.message.split('\n')[0]})`);
		return null;
	}
}

// ---- cold load ----------------------------------------------------------------------------------

function coldLoad() {
	const credential = join(root, 'dist/credentials/ServicePlatformApi.credentials.js');
	const node = join(root, 'dist/nodes/Services/Services.node.js');
	const spawnMs = (code) => {
		const t = performance.now();
		const result = spawnSync(process.execPath, ['-e', code], { cwd: root });
		if (result.status !== 0) throw new Error(`cold load: ${result.stderr}`);
		return performance.now() - t;
	};
	const peers = "require('n8n-workflow');require('zod');";
	const pkg = `require(${JSON.stringify(credential)});require(${JSON.stringify(node)});`;
	const cases = [
		{ name: 'bare `node -e 0`', code: '0' },
		{ name: 'node + n8n-workflow + zod (n8n has these loaded)', code: peers },
		{ name: 'node + built credential + Services node (cold)', code: pkg },
	];
	const rounds = args.quick ? 3 : 9;
	const spawned = cases.map((c) => ({ ...c, times: [] }));
	for (let round = 0; round < rounds; round++) for (const c of spawned) c.times.push(spawnMs(c.code));
	// The package's own share: require time of its modules in a process that already has the peers.
	const inProcess = [];
	for (let round = 0; round < rounds; round++) {
		const result = spawnSync(
			process.execPath,
			['-e', `${peers}const t=performance.now();${pkg}process.stdout.write(String(performance.now()-t))`],
			{ cwd: root, encoding: 'utf8' },
		);
		inProcess.push(Number(result.stdout));
	}
	return { rounds, spawned: spawned.map((c) => ({ name: c.name, median: median(c.times) })), packageRequireMs: median(inProcess) };
}

// ---- profile ------------------------------------------------------------------------------------

function summarizeProfile(file, windows) {
	const profile = JSON.parse(readFileSync(file, 'utf8'));
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const selfTime = new Map();
	// Only samples taken during the timed runs (not start-up, module loading or warm-up).
	let timestamp = profile.startTime;
	profile.samples.forEach((id, i) => {
		timestamp += profile.timeDeltas[i];
		const delta = profile.timeDeltas[i + 1] ?? 0;
		if (windows.some(([start, end]) => timestamp >= start && timestamp <= end)) {
			selfTime.set(id, (selfTime.get(id) ?? 0) + delta);
		}
	});
	const total = [...selfTime.values()].reduce((a, b) => a + b, 0);
	const short = (url) => url.replace(/^file:\/\//, '').replace(`${root}/`, '').replace(/.*node_modules\//, '');
	const group = (url) => {
		const s = short(url);
		if (s === '') return '(V8/native)';
		if (s.startsWith('node:')) return 'node core';
		if (s.startsWith('dist/') || s.startsWith('bench/') || s.startsWith('mock/')) return s;
		return s.replace(/^((@[^/]+\/)?[^/]+).*/, '$1');
	};
	const label = (frame) => `${frame.functionName || '(anonymous)'}  ${short(frame.url) || ''}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
	const fn = new Map();
	const pkg = new Map();
	const inclusive = new Map();
	for (const [id, time] of selfTime) {
		const { callFrame } = byId.get(id);
		fn.set(label(callFrame), (fn.get(label(callFrame)) ?? 0) + time);
		const g = callFrame.functionName.startsWith('(') ? callFrame.functionName : group(callFrame.url);
		pkg.set(g, (pkg.get(g) ?? 0) + time);
		const seen = new Set();
		for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
			const key = label(byId.get(cur).callFrame);
			if (!seen.has(key)) {
				seen.add(key);
				inclusive.set(key, (inclusive.get(key) ?? 0) + time);
			}
		}
	}
	const top = (map, n, filter = () => true) =>
		[...map]
			.filter(([key]) => filter(key))
			.sort((a, b) => b[1] - a[1])
			.slice(0, n)
			.map(([key, time]) => `  ${fixed(time / 1000, 0).padStart(6)} ms ${fixed((100 * time) / total).padStart(5)}%  ${key}`)
			.join('\n');
	const wall = windows.reduce((sum, [start, end]) => sum + (end - start), 0);
	return [
		`  ${windows.length} timed runs, ${fixed(wall / 1000, 0)} ms wall, ${fixed(total / 1000, 0)} ms sampled (start-up and warm-up left out)`,
		'  self time by package:',
		top(pkg, 10),
		'  self time by function:',
		top(fn, 12),
		'  inclusive time, package code and validation:',
		top(inclusive, 10, (key) => /dist\/|safeParse|JSON|measure\.mjs|axios|handleStreamEnd/.test(key)),
	].join('\n');
}

async function profileRun(server, size, variant) {
	const dir = mkdtempSync(join(os.tmpdir(), 'bench-profile-'));
	try {
		const { windows } = await runChild([
			'--expose-gc',
			'--cpu-prof',
			'--cpu-prof-interval=200',
			`--cpu-prof-dir=${dir}`,
			measureScript,
			'profile',
			...serverArgs(server),
			'--size',
			String(size),
			'--variant',
			variant,
			'--runs',
			'3',
		]);
		const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
		return summarizeProfile(join(dir, file), windows);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

// ---- main ---------------------------------------------------------------------------------------

if (args.build && !args['no-build']) {
	progress('building (npm run build) ...');
	const build = await runNpm(['run', 'build'], { cwd: root });
	if (build.code !== 0) {
		process.stderr.write(build.stdout + build.stderr);
		process.stderr.write('bench: the build failed; fix it or run with --no-build against an existing dist/\n');
		process.exit(1);
	}
}

const info = machine();
const nodesBaseDir = await findNodesBase();
const server = await startServer();
const results = [];
let paged = null; // the paged row, at TARGETS.size
const peers = []; // the peer rows, per size
try {
	for (const size of sizes) {
		await generate(server, size);
		progress(`${thousands(size)} records: timing ${variants.join(', ')} (${runsFor(size)} runs, one process) ...`);
		const child = await runChild([
			'--expose-gc',
			measureScript,
			'timing',
			...serverArgs(server),
			'--size',
			String(size),
			'--runs',
			String(runsFor(size)),
			'--variants',
			variants.join(','),
			...(args['no-gc'] ? ['--no-gc'] : []),
		]);
		const timing = { runs: child.runs, bodyBytes: child.bodyBytes, times: child.times, paired: {} };
		// Ratio of each run to the baseline of the same round: robust to load that drifts.
		for (const variant of variants.slice(1)) {
			timing.paired[variant] = child.times[variant].map((ms, i) => ms / child.times.baseline[i]);
		}
		progress(`${thousands(size)} records: memory (${memoryRuns} fresh process(es) per variant) ...`);
		const memory = {};
		for (const variant of variants) {
			const samples = [];
			for (let run = 0; run < memoryRuns; run++) {
				samples.push(
					await runChild(['--expose-gc', measureScript, 'memory', ...serverArgs(server), '--size', String(size), '--variant', variant]),
				);
			}
			memory[variant] = {
				samples,
				peakRssGrowth: median(samples.map((m) => m.peakRssGrowth)),
				peakRssIsUpperBound: samples.some((m) => m.peakRssIsUpperBound),
				heapPeakSampledGrowth: median(samples.map((m) => m.heapPeakSampledGrowth)),
				heapRetainedGrowth: median(samples.map((m) => m.heapRetainedGrowth)),
			};
		}
		results.push({ size, timing, memory });
	}
	if (sizes.includes(TARGETS.size)) {
		await generate(server, TARGETS.size);
		progress(`${thousands(TARGETS.size)} records in pages of ${thousands(PAGE_SIZE)} vs one page: timing List raw (${runsFor(TARGETS.size)} runs) ...`);
		try {
			const child = await runChild(['--expose-gc', measureScript, 'timing', ...serverArgs(server), '--size', String(TARGETS.size), '--runs', String(runsFor(TARGETS.size)), '--variants', 'raw,paged']);
			paged = { runs: child.runs, raw: median(child.times.raw), paged: median(child.times.paged), paired: median(child.times.paged.map((ms, i) => ms / child.times.raw[i])) };
		} catch (error) {
			const reason = String(error.message).split('\n').find((l) => /List failed|expected \d+ items/.test(l)) ?? 'the paged run failed';
			paged = { unavailable: `n/a: the node does not page (${reason.replace(/^Error: /, '').trim()})` };
		}
	}
	if (nodesBaseDir) {
		for (const size of sizes) {
			await generate(server, size);
			progress(`${thousands(size)} records: the peer (HTTP Request + Split Out) vs List on the same {"data": [...]} listing ...`);
			const child = await runChild(['--expose-gc', measureScript, 'timing', ...serverArgs(server), '--size', String(size), '--runs', String(runsFor(size)), '--variants', PEER_VARIANTS.join(',')]);
			const memory = {};
			for (const variant of PEER_VARIANTS) {
				const samples = [];
				for (let i = 0; i < memoryRuns; i++) samples.push(await runChild(['--expose-gc', measureScript, 'memory', ...serverArgs(server), '--size', String(size), '--variant', variant]));
				memory[variant] = median(samples.map((m) => m.peakRssGrowth));
			}
			peers.push({ size, runs: child.runs, times: child.times, memory });
		}
	}
} finally {
	server.stop();
}
progress('cold load ...');
const cold = coldLoad();

// ---- report -------------------------------------------------------------------------------------

const loadavgAfterMeasuring = readLoadavg();
log(`Machine: ${info.cpus} CPU(s), ${info.model}, ${info.memory} RAM, Node ${info.node}, ${info.platform}`);
log(`Load average (/proc/loadavg) at start: ${loadavgAtStart}; after measuring: ${loadavgAfterMeasuring} (other work on the machine skews the figures)`);
log(`Body: the mock API's generated records of the documented shape, array listing, served from a separate process on 127.0.0.1.`);
log(`Median of N runs per variant, variants interleaved in one process; ${args['no-gc'] ? 'back-to-back runs (--no-gc)' : 'a full gc() before each run'}.`);
log(`Memory: median of ${memoryRuns} fresh process(es) per size and variant.`);
log();
const rows = [];
for (const { size, timing, memory } of results) {
	const baseMs = median(timing.times.baseline);
	const baseMem = memory.baseline;
	for (const variant of variants) {
		const ms = median(timing.times[variant]);
		const mem = memory[variant];
		rows.push({
			size,
			variant,
			runs: timing.runs,
			ms,
			perSecond: size / (ms / 1000),
			ratio: ms / baseMs,
			paired: timing.paired[variant] ? median(timing.paired[variant]) : 1,
			body: timing.bodyBytes,
			rss: mem.peakRssGrowth,
			rssUpper: mem.peakRssIsUpperBound,
			rssVsBaseline: mem.peakRssGrowth / baseMem.peakRssGrowth,
			heap: mem.heapPeakSampledGrowth,
			heapVsBaseline: mem.heapPeakSampledGrowth / baseMem.heapPeakSampledGrowth,
			retained: mem.heapRetainedGrowth,
		});
	}
}
log(
	table(rows, [
		{ title: 'records', get: (r) => thousands(r.size) },
		{ title: 'variant', get: (r) => r.variant, left: true },
		{ title: 'runs', get: (r) => r.runs },
		{ title: 'wall ms', get: (r) => fixed(r.ms) },
		{ title: 'records/s', get: (r) => thousands(r.perSecond) },
		{ title: 'x baseline', get: (r) => fixed(r.ratio, 2) },
		{ title: 'paired', get: (r) => fixed(r.paired, 2) },
		{ title: 'body MB', get: (r) => mb(r.body) },
		{ title: 'peak RSS +MB', get: (r) => `${r.rssUpper ? '<=' : ''}${mb(r.rss)}` },
		{ title: 'x body', get: (r) => fixed(r.rss / r.body, 2) },
		{ title: 'x base', get: (r) => fixed(r.rssVsBaseline, 2) },
		{ title: 'heap peak +MB', get: (r) => mb(r.heap) },
		{ title: 'x body', get: (r) => fixed(r.heap / r.body, 2) },
		{ title: 'x base', get: (r) => fixed(r.heapVsBaseline, 2) },
		{ title: 'heap held +MB', get: (r) => mb(r.retained) },
	]),
);
log();
log('x baseline: median wall time / median baseline wall time of the same process; paired: median of the per-round');
log('ratios (each run / the baseline run of the same round).');
log('peak RSS: the process high-water mark (getrusage maxrss) during the run minus RSS before it ("<=" when the run');
log('did not raise the mark); heap peak: largest heapUsed sampled every 1 ms (synchronous phases are not sampled);');
log('heap held: heapUsed right after the run with the output items still referenced. "x body": growth / body size;');
log('"x base": growth / the baseline\'s growth for the same size (1.00 = no more memory than a plain GET + JSON.parse).');
log();
log(
	table(cold.spawned, [
		{ title: `cold start (median of ${cold.rounds} spawns)`, get: (c) => c.name, left: true },
		{ title: 'wall ms', get: (c) => fixed(c.median) },
	]),
);
const bare = cold.spawned[0].median;
log(`package modules add ${fixed(cold.spawned[2].median - bare)} ms to a bare start (n8n-workflow and zod included);`);
log(`in a process that already has n8n-workflow and zod loaded, requiring the credential and node takes ${fixed(cold.packageRequireMs)} ms.`);
log();

// The paged row and the peer rows.
if (paged) {
	log(`Paged listing: ${thousands(TARGETS.size)} records in pages of ${thousands(PAGE_SIZE)} vs the same in one page (List raw, ${paged.runs ?? '-'} runs):`);
	if (paged.unavailable) log(`  ${paged.unavailable}`);
	else {
		const ok = paged.paged / paged.raw <= TARGETS.paged && paged.paired <= TARGETS.paged;
		log(`  one page ${fixed(paged.raw)} ms, ${TARGETS.size / PAGE_SIZE} pages ${fixed(paged.paged)} ms: ratio ${fixed(paged.paged / paged.raw, 2)} (paired ${fixed(paged.paired, 2)})`);
		log(`  ${ok ? 'MET' : 'MISSED'}  paged time <= ${TARGETS.paged}x one page`);
	}
	log();
}
const peerRows = peers.flatMap(({ size, runs, times, memory }) => {
	const peerMs = median(times.peer);
	return PEER_VARIANTS.map((variant) => ({
		size,
		variant,
		runs,
		ms: median(times[variant]),
		vsPeer: median(times[variant]) / peerMs,
		paired: median(times[variant].map((ms, i) => ms / times.peer[i])),
		rss: memory[variant],
		rssVsPeer: memory[variant] / memory.peer,
	}));
});
if (peerRows.length) {
	log('The peer: the same listing through n8n\'s HTTP Request (this credential as predefined credential type) + Split Out,');
	log('in the same n8n-core engine (n8n-nodes-base of the installed n8n 2.41.1), served as {"data": [...]}, against List on it:');
	log(
		table(peerRows, [
			{ title: 'records', get: (r) => thousands(r.size) },
			{ title: 'variant', get: (r) => (r.variant === 'peer' ? 'peer: HTTP Request + Split Out' : `List ${r.variant.replace('env-', '')}`), left: true },
			{ title: 'runs', get: (r) => r.runs },
			{ title: 'wall ms', get: (r) => fixed(r.ms) },
			{ title: 'x peer', get: (r) => fixed(r.vsPeer, 2) },
			{ title: 'paired', get: (r) => fixed(r.paired, 2) },
			{ title: 'peak RSS +MB', get: (r) => mb(r.rss) },
			{ title: 'x peer', get: (r) => fixed(r.rssVsPeer, 2) },
		]),
	);
	for (const r of peerRows.filter((x) => x.variant !== 'peer' && x.size >= 10_000)) {
		const timeOk = r.vsPeer <= TARGETS.peer && r.paired <= TARGETS.peer;
		log(`  ${timeOk ? 'MET   ' : 'MISSED'}  ${thousands(r.size)} List ${r.variant.replace('env-', '')}: time <= ${TARGETS.peer}x the peer's (${fixed(r.vsPeer, 2)}, paired ${fixed(r.paired, 2)})`);
		log(`  ${r.rssVsPeer <= 1 ? 'MET   ' : 'MISSED'}  ${thousands(r.size)} List ${r.variant.replace('env-', '')}: peak RSS growth <= the peer's (${fixed(r.rssVsPeer, 2)}x)`);
	}
	log();
}

const at = (variant) => rows.find((r) => r.size === TARGETS.size && r.variant === variant);
const verdicts = [];
if (at('raw')) {
	const baselineRow = at('baseline');
	const baseBody = baselineRow.rss / baselineRow.body;
	for (const variant of ['raw', 'simplified']) {
		const row = at(variant);
		const limit = TARGETS[variant];
		// Both the ratio of medians and the median of per-round ratios must be within the limit; when
		// they disagree the target is on the edge of the noise and is reported as such, not as met.
		const okMedian = row.ratio <= limit;
		const okPaired = row.paired <= limit;
		verdicts.push({
			variant,
			what: `time ratio <= ${limit}`,
			value: `${fixed(row.ratio, 2)} (paired ${fixed(row.paired, 2)})`,
			ok: okMedian && okPaired,
			status: okMedian && okPaired ? 'MET' : okMedian || okPaired ? 'EDGE' : 'MISSED',
		});
	}
	for (const variant of ['baseline', 'raw', 'simplified']) {
		const row = at(variant);
		const value = row.rss / row.body;
		verdicts.push({
			variant,
			what: `peak RSS growth <= ${TARGETS.memory}x body`,
			value: `${fixed(value, 2)}x body${variant === 'baseline' ? '' : ` = ${fixed(row.rssVsBaseline, 2)}x the baseline's`}`,
			ok: value <= TARGETS.memory,
			status: value <= TARGETS.memory ? 'MET' : 'MISSED',
		});
	}
	log(`Targets at ${thousands(TARGETS.size)} records (body ${mb(baselineRow.body)} MB):`);
	for (const v of verdicts) log(`  ${v.status.padEnd(6)}  ${v.variant.padEnd(11)} ${v.what.padEnd(30)} ${v.value}`);
	if (verdicts.some((v) => v.status === 'EDGE')) {
		log('  EDGE: one of the two ratios (of medians, paired) is within the limit and the other is not: not counted as met.');
	}
	if (baseBody > TARGETS.memory) {
		const heldBody = baselineRow.retained / baselineRow.body;
		log(
			`  The ${TARGETS.memory}x-body memory target is MISSED by the baseline too (${fixed(baseBody, 2)}x body): a plain GET + JSON.parse`,
		);
		log(
			`  holds the received chunks and their concatenation (2x body) and the decoded string (~1x body) while JSON.parse`,
		);
		log(
			`  builds the records, which alone hold ${mb(baselineRow.retained)} MB = ${fixed(heldBody, 2)}x body after a full GC (baseline "heap held").`,
		);
		log(`  No client that parses the whole body into n8n items can meet ${TARGETS.memory}x; the node is measured against the baseline:`);
	}
	for (const variant of ['raw', 'simplified']) {
		const row = at(variant);
		log(
			`  ${variant}: node peak RSS growth = ${fixed(row.rssVsBaseline, 2)}x the baseline's (${mb(row.rss)} MB vs ${mb(baselineRow.rss)} MB); ` +
				`peak heap growth = ${fixed(row.heapVsBaseline, 2)}x the baseline's`,
		);
	}
	const timeMissed = verdicts.filter((v) => !v.ok && v.what.startsWith('time'));
	const memoryMissedByNodeOnly = baseBody <= TARGETS.memory && verdicts.some((v) => !v.ok && v.variant !== 'baseline');
	if (((timeMissed.length > 0 || memoryMissedByNodeOnly) && !args['no-profile']) || args.profile) {
		const variant = timeMissed.some((v) => v.variant === 'raw') || timeMissed.length === 0 ? 'raw' : 'simplified';
		const server2 = await startServer();
		try {
			await generate(server2, TARGETS.size);
			log();
			for (const name of [variant, 'baseline']) {
				progress(`profiling ${name} ...`);
				log(`CPU profile of ${name === 'baseline' ? 'the baseline' : `List ${name}`}, ${thousands(TARGETS.size)} records (node --cpu-prof, 200 us interval):`);
				log(await profileRun(server2, TARGETS.size, name));
				log();
			}
		} finally {
			server2.stop();
		}
	}
}
log();
log(`Load average (/proc/loadavg) at end: ${readLoadavg()}`);
log(`bench total: ${fixed((performance.now() - started) / 1000)} s`);

if (args.json) {
	writeFileSync(args.json, JSON.stringify({ machine: info, loadavg: { start: loadavgAtStart, end: readLoadavg() }, results, rows, cold, verdicts, paged, peerRows }, null, 2));
	progress(`wrote ${args.json}`);
}
