// Child process of tools/bench/bench.mjs (run with --expose-gc). Measures one listing size in a fresh
// process and prints one JSON line on stdout.
//
//   node --expose-gc tools/bench/measure.mjs timing  --urls J --small-urls J --key K --size N --runs R [--variants a,b]
//   node --expose-gc tools/bench/measure.mjs memory  --urls J --small-urls J --key K --size N --variant V
//   node --expose-gc tools/bench/measure.mjs profile --urls J --small-urls J --key K --size N --variant V --runs R
//   (J: the JSON {main, paged, envelope} of base URLs tools/bench/server.mjs prints; --nodes-base D: the
//   installed n8n's n8n-nodes-base/dist/nodes, for the peer; --refs J: {"<ref>": "<checkout>"} of
//   earlier commits built by tools/bench/refs.mjs, for the variants `<variant>@<ref>`)
//
// Variants:
//   baseline        plain GET of the same URL (node:http, same headers), JSON.parse, wrap each record as { json }
//   raw, simplified the Services node's List (Return All) through n8n-core's WorkflowExecute, from dist/
//   paged           List raw over the same records in pages (the paged mock), reading ahead (Parallel Requests 5)
//   paged-1         the same one page after another (Parallel Requests 1)
//   peer            HTTP Request + Split Out (n8n-nodes-base) over the records as {"data": [...]}
//   env-raw, env-simplified   List over that same {"data": [...]} listing, to compare with the peer
//   raw@R, simplified@R, paged@R, env-raw@R, ...   the List variants with the dist/ of the commit R
// timing: a variant that fails its warm-up run (an earlier commit that does not page) is left out
// and named in `unavailable` with the reason; the others are measured.
import http from 'node:http';
import { parseArgs } from 'node:util';

import { loadEngine } from './common.mjs';

const { runList, runPeer } = loadEngine();

const { positionals, values: args } = parseArgs({
	allowPositionals: true,
	options: {
		urls: { type: 'string' },
		'small-urls': { type: 'string' },
		'nodes-base': { type: 'string' },
		refs: { type: 'string', default: '{}' },
		key: { type: 'string' },
		size: { type: 'string' },
		runs: { type: 'string', default: '5' },
		variants: { type: 'string', default: 'baseline,raw,simplified' },
		variant: { type: 'string' },
		'no-gc': { type: 'boolean', default: false },
	},
});
const mode = positionals[0];
const size = Number(args.size);
const apiKey = args.key;
const urls = JSON.parse(args.urls);
const smallUrls = JSON.parse(args['small-urls']);
const refs = JSON.parse(args.refs);
// A full collection before each timed run: every run starts from a collected heap, as a workflow
// execution minutes after the previous one would. (--no-gc: back-to-back runs instead.)
const gc = args['no-gc'] ? () => {} : (globalThis.gc ?? (() => {}));
const collect = globalThis.gc ?? (() => {});

let lastBodyBytes = 0;

/** The baseline: what any client must do at least to get the records as n8n items. */
function baseline(baseUrl) {
	return new Promise((resolve, reject) => {
		const request = http.get(
			`${baseUrl}/v2026/services`,
			// A connection of its own: a kept-alive socket idle for longer than the server's 5 s (the
			// List runs in between take that long on a loaded machine) ends in "socket hang up".
			{ headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' }, agent: false },
			(response) => {
				const chunks = [];
				response.on('data', (chunk) => chunks.push(chunk));
				response.on('error', reject);
				response.on('end', () => {
					if (response.statusCode !== 200) return reject(new Error(`baseline: HTTP ${response.statusCode}`));
					const body = Buffer.concat(chunks);
					lastBodyBytes = body.length;
					const records = JSON.parse(body.toString('utf8'));
					resolve(records.map((json) => ({ json })));
				});
			},
		);
		request.on('error', reject);
	});
}

/** Each variant: which listing it reads, and how (`packageRoot`: whose dist/ runs List; undefined: this checkout's). */
const VARIANTS = {
	baseline: ['main', (baseUrl) => baseline(baseUrl)],
	raw: ['main', (baseUrl, packageRoot) => runList({ baseUrl, apiKey, simplify: false, packageRoot })],
	simplified: ['main', (baseUrl, packageRoot) => runList({ baseUrl, apiKey, simplify: true, packageRoot })],
	paged: ['paged', (baseUrl, packageRoot) => runList({ baseUrl, apiKey, simplify: false, packageRoot })],
	'paged-1': ['paged', (baseUrl) => runList({ baseUrl, apiKey, simplify: false, options: { parallelRequests: 1 } })],
	peer: ['envelope', (baseUrl) => runPeer({ baseUrl, apiKey, nodesBaseDir: args['nodes-base'] })],
	'env-raw': ['envelope', (baseUrl, packageRoot) => runList({ baseUrl, apiKey, simplify: false, packageRoot })],
	'env-simplified': ['envelope', (baseUrl, packageRoot) => runList({ baseUrl, apiKey, simplify: true, packageRoot })],
};

/** Runs `variant` (`name` or `name@ref`) on its listing (`small`: the 20-record twin, for warming up). */
async function runVariant(variant, { small = false } = {}) {
	const [name, ref] = variant.split('@');
	if (!VARIANTS[name] || (ref !== undefined && (!refs[ref] || name === 'baseline' || name === 'peer'))) {
		throw new Error(`measure.mjs: unknown variant "${variant}"`);
	}
	const [kind, run] = VARIANTS[name];
	return await run((small ? smallUrls : urls)[kind], ref === undefined ? undefined : refs[ref]);
}

/** How long each timed run is left to settle before the next (see timing()). */
const SETTLE_MS = 50;

/**
 * The order of the variants in run `run`: every run another, and each variant after another one
 * from run to run (a rotation would keep every variant after the same one, and a run pays for some
 * of what the run before it left). A fixed shuffle per run: the same orders on every machine.
 */
function orderOf(variants, run) {
	const order = [...variants];
	let seed = (run + 1) * 0x9e3779b1;
	for (let i = order.length - 1; i > 0; i--) {
		seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) >>> 0;
		const j = seed % (i + 1);
		[order[i], order[j]] = [order[j], order[i]];
	}
	return order;
}

function check(variant, items, expected) {
	if (!Array.isArray(items) || items.length !== expected) {
		throw new Error(`${variant}: expected ${expected} items, got ${Array.isArray(items) ? items.length : typeof items}`);
	}
}

async function timing() {
	const unavailable = {};
	const variants = [];
	// Warm-up: load modules, JIT the code paths, fill the server's body cache. Not counted. A variant
	// that fails here is not measured (the reason is reported); one that fails later fails the run.
	for (const variant of args.variants.split(',')) {
		try {
			check(variant, await runVariant(variant), size);
			variants.push(variant);
		} catch (error) {
			if (/unknown variant/.test(error.message)) throw error;
			unavailable[variant] = error.message.split('\n')[0];
		}
	}
	const runs = Number(args.runs);
	const times = Object.fromEntries(variants.map((variant) => [variant, []]));
	// This process's CPU time per run too: on a machine other work keeps busy, it moves less than the wall clock.
	const cpu = Object.fromEntries(variants.map((variant) => [variant, []]));
	for (let run = 0; run < runs; run++) {
		for (const variant of orderOf(variants, run)) {
			gc();
			const cpuBefore = process.cpuUsage();
			const started = performance.now();
			let items = await runVariant(variant);
			const elapsed = performance.now() - started;
			check(variant, items, size);
			items = null;
			// What a run leaves to background threads (sweeping its garbage, freeing its buffers) is its CPU
			// time, and must not slow the next run: 0.5.0's bench charged the peer's to the List run after it.
			await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
			const used = process.cpuUsage(cpuBefore);
			times[variant].push(elapsed);
			cpu[variant].push((used.user + used.system) / 1000);
		}
	}
	return { mode, size, bodyBytes: lastBodyBytes, runs, times, cpu, unavailable };
}

async function memory() {
	const variant = args.variant;
	// Warm the same code paths on a 20-record listing: modules loaded and compiled, little memory used.
	for (let i = 0; i < 3; i++) await runVariant(variant, { small: true });
	collect();
	collect();
	const before = process.memoryUsage();
	const maxRssBefore = process.resourceUsage().maxRSS * 1024;
	let heapPeak = before.heapUsed;
	let offHeapPeak = before.external + before.arrayBuffers;
	let rssPeakSampled = before.rss;
	const sample = () => {
		const now = process.memoryUsage();
		heapPeak = Math.max(heapPeak, now.heapUsed);
		offHeapPeak = Math.max(offHeapPeak, now.external + now.arrayBuffers);
		rssPeakSampled = Math.max(rssPeakSampled, now.rss);
	};
	const sampler = setInterval(sample, 1);
	const items = await runVariant(variant);
	sample();
	clearInterval(sampler);
	collect(); // what is left is what the output items hold (they are still referenced here)
	const held = process.memoryUsage();
	const maxRssAfter = process.resourceUsage().maxRSS * 1024;
	check(variant, items, size);
	return {
		mode,
		size,
		variant,
		/** High-water mark of the process RSS during the run, minus RSS right before it. */
		peakRssGrowth: maxRssAfter - before.rss,
		/** True when the run did not raise the process high-water mark (growth is then an upper bound). */
		peakRssIsUpperBound: maxRssAfter <= maxRssBefore,
		rssPeakSampledGrowth: rssPeakSampled - before.rss,
		heapPeakSampledGrowth: heapPeak - before.heapUsed,
		offHeapPeakSampledGrowth: offHeapPeak - (before.external + before.arrayBuffers),
		heapRetainedGrowth: held.heapUsed - before.heapUsed,
	};
}

/**
 * Run under `node --cpu-prof`: warm up, then the timed runs. The window of the timed runs is given
 * in the profiler's clock (CLOCK_MONOTONIC, microseconds) so the summary can leave out start-up and
 * module loading.
 */
async function profile() {
	const variant = args.variant;
	await runVariant(variant);
	const now = () => Number(process.hrtime.bigint() / 1000n);
	const windows = [];
	for (let run = 0; run < Number(args.runs); run++) {
		gc();
		const start = now();
		check(variant, await runVariant(variant), size);
		windows.push([start, now()]);
	}
	return { mode, size, variant, windows };
}

const handlers = { timing, memory, profile };
if (!handlers[mode]) {
	process.stderr.write(`measure.mjs: unknown mode "${mode}" (timing, memory, profile)\n`);
	process.exit(2);
}
const result = await handlers[mode]();
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
