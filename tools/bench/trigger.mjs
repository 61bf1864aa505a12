#!/usr/bin/env node
// The Services Trigger at scale (issue 16): what one poll costs over a large account, against the
// List operation (raw) over the same listing, measured in the same process.
//
//   node tools/bench/trigger.mjs [--size 100000] [--changed 0.01] [--rounds 3] [--memory-runs 3]
//                                [--url <mock url> --key <its API key>] [--against <git ref>]
//
// 1. Measures the built package (dist/, so run `npm run build` first) through n8n-core: the poll
//    through PollTriggerExecutor with the workflow's static data living on between polls, as in an
//    active workflow; List raw through WorkflowExecute (both via tools/bench/engine.cjs).
// 2. The mock API (tools/mock-platform/, via tools/bench/server.mjs in a process of its own on
//    127.0.0.1, stopped on exit; or the one at --url, whose records this script replaces) serves
//    --size generated records (A). In each round a fresh workflow's first poll records A (the
//    baseline, untimed); then the mock serves B, the same records with --changed of them changed
//    (in turn the status, the RAM, the name: two of three give an event), and three timed runs
//    follow, their order rotated per round: the poll over B (events for the changes), a second poll
//    (nothing changed) and List raw over B. A warm-up round comes first and is not counted.
// 3. Ratios are paired (each poll over the List raw of its own round, robust to load that drifts)
//    and the median over --rounds is the figure. Target: the poll with changes <= 1.5x List raw.
// 4. State: the JSON size of the workflow's static data as n8n stores it after a poll that emitted
//    (the remembered services, per service), the time to serialise it as n8n saves it, the size
//    after the poll with changes (its events in the outbox) and right after the first activation
//    (with the activation copy). tools/bench/trigger-state.mjs measures the state in steady state and in
//    the worst cases.
// 5. Peak memory: the RSS high-water growth of the poll with changes (and, for scale, of List raw),
//    each in a fresh process of this script (mode `memory`; median of --memory-runs), the state
//    handed over on stdin as n8n would load it from its database.
// 6. --against <ref>: that commit, built in a temporary git worktree (tools/bench/refs.mjs), polls the
//    same listings in the same rounds (a workflow of its own, its own baseline): its two polls are
//    timed in the rotation too, and each of this build's polls is paired with the ref's of the same
//    round (before/after in one run, on the same machine load), by wall time and by this process's
//    CPU time (steadier on a loaded machine).
// Human-readable lines go to stderr, one JSON line to stdout (for tools/bench/bench.mjs). Temporary files
// (n8n's user folder) go under $TMPDIR and are removed on exit. With --url the mock is left serving
// B. Where the time goes: `node --cpu-prof --cpu-prof-dir=<dir> tools/bench/trigger.mjs --memory-runs 0`.
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

import { runMain } from '../lib/cleanup.mjs';
import { generateServices, startMockApi } from '../mock-platform/mock.mjs';
import { benchArgs, loadEngine, median, readLoadavg, runJsonChild, startBenchServer, thousands } from './common.mjs';
import { prepareRef } from './refs.mjs';

const script = fileURLToPath(import.meta.url);
const root = fileURLToPath(new URL('../..', import.meta.url));
const TARGET = 1.5;
const SEED = 1;

const { positionals, values: args } = benchArgs(
	import.meta.url,
	{
		size: { type: 'string', default: '100000' },
		changed: { type: 'string', default: '0.01' },
		rounds: { type: 'string', default: '3' },
		'memory-runs': { type: 'string', default: '3' },
		url: { type: 'string' },
		key: { type: 'string' },
		variant: { type: 'string' }, // mode `memory`: poll1pct or listRaw
		against: { type: 'string' },
	},
	{ allowPositionals: true, helpTo: process.stderr },
);
const size = Number(args.size);
const changedShare = Number(args.changed);
const rounds = Number(args.rounds);
const memoryRuns = Number(args['memory-runs']);
const changedCount = Math.round(size * changedShare);
if (!(Number.isInteger(size) && size > 0) || !(changedCount >= 1 && changedCount <= size) || !(rounds >= 1) || !(memoryRuns >= 0)) {
	process.stderr.write(
		'trigger.mjs: --size must be a whole number > 0, --changed a share (0..1] leaving at least one service changed, --rounds >= 1, --memory-runs >= 0\n',
	);
	process.exit(2);
}
if (Boolean(args.url) !== Boolean(args.key)) {
	process.stderr.write('trigger.mjs: give --url and --key together (or neither, to start a mock)\n');
	process.exit(2);
}

const { runList, triggerWorkflow, pollTrigger } = loadEngine();

// A full collection before each timed run (and before a memory measure), without needing
// `node --expose-gc` from the caller.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const progress = (line) => process.stderr.write(`trigger-bench: ${line}\n`);
const round2 = (value) => Math.round(value * 100) / 100;
const mb = (bytes) => round2(bytes / 1024 / 1024);

// ---- the listings ---------------------------------------------------------------------------------

/**
 * B: the generated records with `changedCount` of them, spread evenly, changed in turn in status
 * (statusChanged), RAM (specsChanged) or name (remembered, no event). Returns the body to serve and
 * how many events a poll that saw A before must emit.
 */
function changedListing() {
	const records = generateServices(size, SEED);
	const step = size / changedCount;
	let events = 0;
	for (let k = 0; k < changedCount; k++) {
		const data = records[Math.floor(k * step)].values.values;
		if (k % 3 === 0) data.status = data.status === 'active' ? 'suspended' : 'active';
		else if (k % 3 === 1) data.service.customize.specifications.GB.ram *= 2;
		else data.name = `${data.name}-renamed`;
		if (k % 3 !== 2) events++;
	}
	return { body: JSON.stringify(records), events };
}

/** The mock's admin API (tools/mock-platform/admin.cjs); a HEAD fills its body cache, so no timed run pays for serialising. */
async function admin(mock, method, route, body) {
	const response = await fetch(`${mock.url}/__mock/${route}`, {
		method,
		headers: { 'content-type': 'application/json' },
		...(body !== undefined && { body }),
	});
	if (!response.ok) throw new Error(`mock ${method} /__mock/${route}: HTTP ${response.status} ${await response.text()}`);
	await response.arrayBuffer();
	const prime = await fetch(`${mock.url}/v2026/services`, { method: 'HEAD', headers: { authorization: `Bearer ${mock.apiKey}` } });
	if (!prime.ok) throw new Error(`mock listing: HTTP ${prime.status} (is --key the mock's key?)`);
}
const serveA = (mock) => admin(mock, 'POST', 'generate', JSON.stringify({ count: size, seed: SEED }));
const serveB = (mock, body) => admin(mock, 'PUT', 'services', body);

/** The mock of tools/bench/server.mjs (its plain-array listing), in a process of its own; or the caller's. */
async function startMock() {
	if (args.url) return { url: args.url.replace(/\/+$/, ''), apiKey: args.key, stop: () => {} };
	const server = await startBenchServer([], 'trigger bench mock');
	return { url: server.urls.main, apiKey: server.apiKey, stop: server.stop };
}

function expectItems(what, items, expected) {
	const count = items === null ? null : items.length;
	if (count !== expected) throw new Error(`${what}: expected ${expected ?? 'nothing'} item(s), got ${count ?? 'nothing'}`);
}

// ---- timing (this process) ------------------------------------------------------------------------

async function timed(run) {
	gc();
	const cpu = process.cpuUsage();
	const started = performance.now();
	const result = await run();
	const used = process.cpuUsage(cpu);
	// CPU time of this process (the mock runs in its own): less sensitive to a loaded machine than wall time.
	return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, result };
}

/**
 * One round: the baseline poll over A in a fresh workflow (untimed), then over B, in an order that
 * rotates with `index`, List raw and the two polls (the poll with nothing changed right after the
 * one with the changes). Returns the times and the static data of the baseline as JSON.
 */
async function runRound(mock, bodyB, expectedEvents, index, ref) {
	const credentials = { baseUrl: mock.url, apiKey: mock.apiKey };
	await serveA(mock);
	const workflow = triggerWorkflow(undefined);
	expectItems('baseline poll', await pollTrigger({ workflow, ...credentials }), null);
	const activationJson = JSON.stringify(workflow.staticData);
	// As n8n loads it after a restart: saved by a poll that emitted, which dropped the activation copy
	// (the copy of the first baseline in the global static data, for durable cursors; docs/trigger.md).
	const stored = JSON.parse(activationJson);
	delete stored.global?.['servicesTrigger:Services Trigger'];
	if (stored.global && Object.keys(stored.global).length === 0) delete stored.global;
	const stateJson = JSON.stringify(stored);
	const refWorkflow = ref && triggerWorkflow(undefined, { packageRoot: ref.dir });
	if (ref) expectItems(`baseline poll @${ref.ref}`, await pollTrigger({ workflow: refWorkflow, ...credentials }), null);
	await serveB(mock, bodyB);
	const times = {};
	const polls = (key, pollWorkflow, label) => ({
		[`${key}1pct`]: async () => {
			const { ms, cpuMs, result } = await timed(() => pollTrigger({ workflow: pollWorkflow, ...credentials }));
			expectItems(`poll with changes${label}`, result, expectedEvents);
			times[`${key}1pctMs`] = ms;
			times[`${key}1pctCpuMs`] = cpuMs;
			// What n8n does with the static data after the execution this poll starts: save it as JSON.
			times[`${key}StateSaveMs`] = (await timed(async () => JSON.stringify(pollWorkflow.staticData))).ms;
			times[`${key}StateBytes`] = Buffer.byteLength(JSON.stringify(pollWorkflow.staticData));
		},
		[`${key}Nothing`]: async () => {
			const { ms, cpuMs, result } = await timed(() => pollTrigger({ workflow: pollWorkflow, ...credentials }));
			expectItems(`poll with nothing changed${label}`, result, null);
			times[`${key}NothingMs`] = ms;
			times[`${key}NothingCpuMs`] = cpuMs;
		},
	});
	const steps = {
		listRaw: async () => {
			const { ms, result } = await timed(() => runList({ ...credentials, simplify: false }));
			expectItems('List raw', result, size);
			times.listRawMs = ms;
		},
		...polls('poll', workflow, ''),
		...(ref ? polls('refPoll', refWorkflow, ` @${ref?.ref}`) : {}),
	};
	// This build's two polls and the ref's (in turn first), List raw first, between or last.
	const pairs = [['poll1pct', 'pollNothing'], ...(ref ? [['refPoll1pct', 'refPollNothing']] : [])];
	if (index % 2 === 1) pairs.reverse();
	const order = pairs.flat();
	order.splice((index % 3) * (order.length / 2), 0, 'listRaw');
	for (const step of order) await steps[step]();
	times.stateSaveMs = times.pollStateSaveMs;
	return { times, stateJson, activationBytes: Buffer.byteLength(activationJson) };
}

// ---- memory (a fresh process per measure) ---------------------------------------------------------

async function readStdin() {
	const chunks = [];
	for await (const chunk of process.stdin) chunks.push(chunk);
	return Buffer.concat(chunks).toString('utf8');
}

/** Mode `memory`: RSS high-water growth of one poll with changes (state on stdin) or one List raw. */
async function memoryChild() {
	const variant = args.variant;
	if (variant !== 'poll1pct' && variant !== 'listRaw') throw new Error(`memory: unknown --variant ${variant}`);
	const credentials = { baseUrl: args.url, apiKey: args.key };
	// Warm the same code paths on 20 records of a mock in this process: modules loaded and compiled, little memory used.
	const small = await startMockApi({ count: 20, seed: 2 });
	const smallCredentials = { baseUrl: small.url, apiKey: small.apiKey };
	const warm = triggerWorkflow(undefined);
	for (let i = 0; i < 2; i++) {
		await pollTrigger({ workflow: warm, ...smallCredentials });
		await runList({ ...smallCredentials, simplify: false });
	}
	await small.close();
	const workflow = variant === 'poll1pct' ? triggerWorkflow(JSON.parse(await readStdin())) : undefined;
	gc();
	gc();
	const rssBefore = process.memoryUsage().rss;
	const maxRssBefore = process.resourceUsage().maxRSS * 1024;
	const items =
		variant === 'poll1pct' ? await pollTrigger({ workflow, ...credentials }) : await runList({ ...credentials, simplify: false });
	const maxRssAfter = process.resourceUsage().maxRSS * 1024;
	if (items === null || items.length === 0) throw new Error(`memory ${variant}: nothing came out`);
	return {
		variant,
		/** High-water mark of the process RSS during the run, minus RSS right before it. */
		peakRssGrowth: maxRssAfter - rssBefore,
		/** True when the run did not raise the process high-water mark (growth is then an upper bound). */
		peakRssIsUpperBound: maxRssAfter <= maxRssBefore,
	};
}

function measureMemory(mock, variant, stateJson) {
	return runJsonChild([script, 'memory', '--variant', variant, '--url', mock.url, '--key', mock.apiKey, '--size', String(size)], {
		input: variant === 'poll1pct' ? stateJson : '',
		label: `trigger bench memory ${variant}`,
	});
}

// ---- main -----------------------------------------------------------------------------------------

async function main() {
	const loadavgAtStart = readLoadavg();
	progress(
		`${thousands(size)} services, ${thousands(changedCount)} changed, ${rounds} round(s) + 1 warm-up; load average ${loadavgAtStart}`,
	);
	const ref = args.against ? await prepareRef(root, args.against, progress) : undefined;
	const mock = await startMock();
	try {
		const { body: bodyB, events: expectedEvents } = changedListing();
		const perRound = [];
		let stateJson;
		let activationBytes;
		for (let index = 0; index <= rounds; index++) {
			const { times, stateJson: state, activationBytes: atActivation } = await runRound(mock, bodyB, expectedEvents, index, ref);
			stateJson ??= state;
			activationBytes ??= atActivation;
			if (index === 0) {
				progress(`warm-up: List raw ${times.listRawMs.toFixed(0)} ms, poll ${times.poll1pctMs.toFixed(0)} ms (not counted)`);
				continue;
			}
			const row = {
				round: index,
				listRawMs: round2(times.listRawMs),
				poll1pctMs: round2(times.poll1pctMs),
				pollNothingMs: round2(times.pollNothingMs),
				stateSaveMs: round2(times.stateSaveMs),
				ratio1pct: round2(times.poll1pctMs / times.listRawMs),
				ratioNothing: round2(times.pollNothingMs / times.listRawMs),
				stateAfter1pctBytes: times.pollStateBytes,
				...(ref && {
					refPoll1pctMs: round2(times.refPoll1pctMs),
					refPollNothingMs: round2(times.refPollNothingMs),
					refStateAfter1pctBytes: times.refPollStateBytes,
					vsRef1pct: round2(times.poll1pctMs / times.refPoll1pctMs),
					vsRefNothing: round2(times.pollNothingMs / times.refPollNothingMs),
					cpuVsRef1pct: round2(times.poll1pctCpuMs / times.refPoll1pctCpuMs),
					cpuVsRefNothing: round2(times.pollNothingCpuMs / times.refPollNothingCpuMs),
				}),
			};
			perRound.push(row);
			progress(
				`round ${index}: List raw ${row.listRawMs.toFixed(0)} ms, poll (${thousands(changedCount)} changed) ${row.poll1pctMs.toFixed(0)} ms = ${row.ratio1pct.toFixed(2)}x, poll (nothing changed) ${row.pollNothingMs.toFixed(0)} ms = ${row.ratioNothing.toFixed(2)}x` +
					(ref
						? `; @${ref.ref}: ${row.refPoll1pctMs.toFixed(0)} ms / ${row.refPollNothingMs.toFixed(0)} ms, this build ${row.vsRef1pct.toFixed(2)}x / ${row.vsRefNothing.toFixed(2)}x of it (CPU ${row.cpuVsRef1pct.toFixed(2)}x / ${row.cpuVsRefNothing.toFixed(2)}x)`
						: ''),
			);
		}
		const stateBytes = Buffer.byteLength(stateJson);
		const memory = { poll1pct: [], listRaw: [] };
		for (let i = 0; i < memoryRuns; i++) {
			progress(`memory ${i + 1}/${memoryRuns} (a fresh process per measure) ...`);
			for (const variant of ['poll1pct', 'listRaw']) memory[variant].push(await measureMemory(mock, variant, stateJson));
		}
		const peak = (variant) => (memoryRuns > 0 ? mb(median(memory[variant].map((m) => m.peakRssGrowth))) : null);
		const result = {
			size,
			changed: changedShare,
			rounds,
			poll1pctMs: round2(median(perRound.map((r) => r.poll1pctMs))),
			pollNothingMs: round2(median(perRound.map((r) => r.pollNothingMs))),
			listRawMs: round2(median(perRound.map((r) => r.listRawMs))),
			ratio1pct: round2(median(perRound.map((r) => r.ratio1pct))),
			ratioNothing: round2(median(perRound.map((r) => r.ratioNothing))),
			perRound,
			stateBytesPerService: round2(stateBytes / size),
			activationStateBytes: activationBytes,
			peakRssGrowthMb: peak('poll1pct'),
			target: TARGET,
			// Context for the figures above.
			events: expectedEvents,
			bodyBytes: Buffer.byteLength(bodyB),
			stateBytes,
			stateSaveMs: round2(median(perRound.map((r) => r.stateSaveMs))),
			listRawPeakRssGrowthMb: peak('listRaw'),
			peakRssIsUpperBound: Object.values(memory)
				.flat()
				.some((m) => m.peakRssIsUpperBound),
			memoryRuns,
			loadavg: { start: loadavgAtStart, end: readLoadavg() },
			stateAfter1pctBytes: perRound[0]?.stateAfter1pctBytes,
			...(ref && {
				against: { ref: ref.ref, commit: ref.commit, version: ref.version },
				refPoll1pctMs: round2(median(perRound.map((r) => r.refPoll1pctMs))),
				refPollNothingMs: round2(median(perRound.map((r) => r.refPollNothingMs))),
				refStateAfter1pctBytes: perRound[0]?.refStateAfter1pctBytes,
				vsRef1pct: round2(median(perRound.map((r) => r.vsRef1pct))),
				vsRefNothing: round2(median(perRound.map((r) => r.vsRefNothing))),
				cpuVsRef1pct: round2(median(perRound.map((r) => r.cpuVsRef1pct))),
				cpuVsRefNothing: round2(median(perRound.map((r) => r.cpuVsRefNothing))),
			}),
		};
		const verdict = (ratio) => (ratio <= TARGET ? 'MET' : 'MISSED');
		progress('');
		progress(`Services Trigger at ${thousands(size)} services, median of ${rounds} round(s), paired with List raw of the same listing:`);
		progress(
			`  poll, ${thousands(changedCount)} changed (${expectedEvents} events): ${result.poll1pctMs.toFixed(0)} ms, ${result.ratio1pct.toFixed(2)}x List raw (${result.listRawMs.toFixed(0)} ms); target <= ${TARGET}x: ${verdict(result.ratio1pct)}`,
		);
		progress(
			`  poll, nothing changed: ${result.pollNothingMs.toFixed(0)} ms, ${result.ratioNothing.toFixed(2)}x List raw; (same target: ${verdict(result.ratioNothing)})`,
		);
		progress(
			`  state: ${thousands(stateBytes)} bytes of JSON = ${result.stateBytesPerService} bytes per service (the listing: ${(result.bodyBytes / size).toFixed(0)} bytes per record); saving it as JSON: ${result.stateSaveMs} ms`,
		);
		progress(
			`  state after the poll with changes (its ${expectedEvents} events in the outbox): ${thousands(result.stateAfter1pctBytes)} bytes; right after the first activation (with the activation copy, until the next emit): ${thousands(activationBytes)} bytes`,
		);
		if (ref) {
			progress(
				`  against ${ref.ref} (${ref.version}, ${ref.commit.slice(0, 10)}), paired per round: poll with changes ${result.poll1pctMs.toFixed(0)} ms vs ${result.refPoll1pctMs.toFixed(0)} ms = ${result.vsRef1pct.toFixed(2)}x; nothing changed ${result.pollNothingMs.toFixed(0)} ms vs ${result.refPollNothingMs.toFixed(0)} ms = ${result.vsRefNothing.toFixed(2)}x; CPU time of the process ${result.cpuVsRef1pct.toFixed(2)}x and ${result.cpuVsRefNothing.toFixed(2)}x; state after the poll with changes ${thousands(result.stateAfter1pctBytes)} vs ${thousands(result.refStateAfter1pctBytes)} bytes`,
			);
		}
		if (memoryRuns > 0) {
			progress(
				`  peak memory (RSS high-water growth, median of ${memoryRuns} fresh process(es)): poll ${result.peakRssGrowthMb} MB, List raw ${result.listRawPeakRssGrowthMb} MB${result.peakRssIsUpperBound ? ' (some only an upper bound)' : ''}`,
			);
		}
		progress(`  load average (/proc/loadavg): ${result.loadavg.start} at start, ${result.loadavg.end} at end`);
		process.stdout.write(`${JSON.stringify(result)}\n`);
	} finally {
		mock.stop();
	}
}

await runMain(async () => {
	if (positionals[0] === 'memory') process.stdout.write(`${JSON.stringify(await memoryChild())}\n`);
	else await main();
});
