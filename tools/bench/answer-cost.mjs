#!/usr/bin/env node
// What reading one answer costs against JSON.parse of the same text (issue 34, "Refusing costs what
// parsing costs"): any answer up to Max Response Size is read, accepted or refused within about 2x a
// JSON.parse of it, so a hostile answer cannot hold n8n's main process much longer than parsing it did.
//
//   node tools/bench/answer-cost.mjs [--sizes 1,7,64] [--rounds 3] [--runs 3] [--against <git ref>]... [--no-build] [--json]
//
// Texts of about 1, 7 and 64 MB (--sizes, in MB; 64 MiB is Max Response Size's default) of tiny entries,
// the worst case per byte (many names and values, little else); each is read, accepted or refused
// (from 64 MB on, only the maps and arrays of records and the map of numbers: each run takes seconds):
//   map, numbers           {"k0":1,"k1":1,...}                         refused: not a map of records (the 7 MB case)
//   map, records           {"s0":{"id_service":"s0"},...}              accepted
//   map, records, repeat   the same, the last record repeating an id    refused after every record was read
//   array, numbers         [1,1,...]                                    refused at its first record
//   array, records         [{"id_service":"s0"},...]                   accepted
//   array, records, repeat the same, the last record repeating an id    refused after every record was read
//   meta, texts            {"data":[],"meta":{"k0":"x",...}}            accepted (texts under unknown names are harmless)
//   meta, numbers          {"data":[],"meta":{"k0":1,...}}              refused: a number under a name the node does not know
// The target (issue 34) is the maps and arrays; the holders of many fields are measured beside them.
// A read is the listing's first page as List reads it (nodes/shared/listing/listing.ts: JSON.parse, the
// answer stage, the records stage), from a session that answers with the text. In each run: a gc(),
// JSON.parse of the text, a gc(), the read; the ratio is the read over that JSON.parse (wall clock: what
// blocks n8n's main process; CPU beside it), median of --runs, then median of --rounds fresh processes.
// --against <ref>: the same reads with an earlier commit's build in the same processes (tools/bench/refs.mjs;
// 0.5.0 took 14x JSON.parse to refuse the 7 MB map: leave 64 out with it, --sizes 1,7).
// Builds this checkout first (tsc -p tsconfig.build.json) unless --no-build. Prints the load average;
// --json: also one JSON line at the end ({ rows, limit, loadavg }), for npm run bench.
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { makeTempDir } from '../lib/process.mjs';
import { formatTable } from '../lib/table.mjs';
import { benchArgs, fixed, median, readLoadavg, root, runJsonChild } from './common.mjs';
import { checkoutsToMeasure } from './refs.mjs';

const { values: args } = benchArgs(import.meta.url, {
	sizes: { type: 'string', default: '1,7,64' },
	rounds: { type: 'string', default: '3' },
	runs: { type: 'string', default: '3' },
	json: { type: 'boolean', default: false },
	against: { type: 'string', multiple: true, default: [] },
	'no-build': { type: 'boolean', default: false },
	child: { type: 'string' },
});

/** The limit: a read within this many times JSON.parse of the same text. */
const ANSWER_COST_LIMIT = 2;

/** Each shape: its text of about `bytes`, whether a read accepts it, and whether it is measured from 64 MB on. */
const SHAPES = {
	'map, numbers': { accepted: false, large: true, make: (bytes) => wrap('{', '}', bytes, (i) => `"k${i}":1`) },
	'map, records': { accepted: true, large: true, make: (bytes) => wrap('{', '}', bytes, (i) => `"s${i}":{"id_service":"s${i}"}`) },
	'map, records, repeat': {
		accepted: false,
		make: (bytes) => wrap('{', '}', bytes, (i) => `"s${i}":{"id_service":"s${i}"}`, '"last":{"id_service":"s0"}'),
	},
	'array, numbers': { accepted: false, make: (bytes) => wrap('[', ']', bytes, () => '1') },
	'array, records': { accepted: true, large: true, make: (bytes) => wrap('[', ']', bytes, (i) => `{"id_service":"s${i}"}`) },
	'array, records, repeat': {
		accepted: false,
		large: true,
		make: (bytes) => wrap('[', ']', bytes, (i) => `{"id_service":"s${i}"}`, '{"id_service":"s0"}'),
	},
	'meta, texts': { accepted: true, beside: true, make: (bytes) => wrap('{"data":[],"meta":{', '}}', bytes, (i) => `"k${i}":"x"`) },
	'meta, numbers': { accepted: false, beside: true, make: (bytes) => wrap('{"data":[],"meta":{', '}}', bytes, (i) => `"k${i}":1`) },
};

/** `open`, entries `entry(0)`, `entry(1)`, ... up to about `bytes`, then `last` if given, `close`. */
function wrap(open, close, bytes, entry, last) {
	const parts = [];
	let length = open.length + close.length;
	for (let i = 0; length < bytes; i++) {
		const part = entry(i);
		parts.push(part);
		length += part.length + 1;
	}
	if (last !== undefined) parts.push(last);
	return `${open}${parts.join(',')}${close}`;
}

if (args.child !== undefined) {
	process.stdout.write(`${JSON.stringify(await measure(JSON.parse(args.child)))}\n`);
	process.exit(0);
}

/** One round, in this (child) process: per shape and size, per checkout, the runs' ratios (wall and CPU). */
async function measure({ roots, sizes, runs }) {
	const readers = Object.fromEntries(Object.entries(roots).map(([name, checkout]) => [name, readerOf(checkout)]));
	const results = [];
	for (const sizeMb of sizes) {
		for (const [shape, { accepted, large, make }] of Object.entries(SHAPES)) {
			if (sizeMb >= 64 && !large) continue;
			let json = make(sizeMb * 1e6);
			const row = { shape, sizeMb, bytes: json.length, parse: [], reads: {} };
			for (const [name, read] of Object.entries(readers)) {
				const outcome = await read(json);
				// An earlier build may read it otherwise (0.5.0 accepted a number under an unknown name): only this checkout is held to it.
				if (name === 'this' && outcome.accepted !== accepted)
					throw new Error(`${shape} (${name}): expected ${accepted ? 'accepted' : 'refused'}, ${outcome.said}`);
				row.reads[name] = { wall: [], cpu: [], said: outcome.said };
			}
			for (let run = 0; run < runs; run++) {
				const parse = timed(() => JSON.parse(json));
				row.parse.push(parse);
				for (const [name, read] of Object.entries(readers)) {
					const took = await timedAsync(() => read(json));
					row.reads[name].wall.push(took.wall / parse.wall);
					row.reads[name].cpu.push(took.cpu / parse.cpu);
				}
			}
			results.push(row);
			json = undefined;
		}
	}
	return results;
}

function timed(work) {
	globalThis.gc();
	const cpu = process.cpuUsage();
	const started = performance.now();
	work();
	const used = process.cpuUsage(cpu);
	return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
}

async function timedAsync(work) {
	globalThis.gc();
	const cpu = process.cpuUsage();
	const started = performance.now();
	await work();
	const used = process.cpuUsage(cpu);
	return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
}

/** The first page of a listing as `checkout`'s build reads it, from a session that answers with the text. */
function readerOf(checkout) {
	const require = createRequire(join(checkout, 'package.json'));
	const { listServicePages } = require(join(checkout, 'dist/nodes/shared/listing/listing.js'));
	const { render } = require(join(checkout, 'dist/nodes/shared/text/text.js'));
	const url = 'https://api.example.com/v2026/services';
	return async (json) => {
		const session = {
			baseUrl: 'https://api.example.com',
			get: async () => ({ body: JSON.parse(json), text: json, headers: {}, status: 200, url }),
			toNodeError: (error) => error,
			show: () => '',
			// One page, no next link: nothing is read ahead (builds before issue 33 ignore these).
			parallelRequests: 1,
			oneAtATime: undefined,
			readAhead: () => {
				throw new Error('a one-page answer reads nothing ahead');
			},
			debug: () => undefined,
		};
		try {
			for await (const page of listServicePages(session)) return { accepted: true, said: `${page.records.length} records` };
		} catch (error) {
			// The message as a user reads it (its quoted parts shown, nothing to redact here).
			return { accepted: false, said: error.text ? render(error.text.message, (part) => part, 100) : String(error.message) };
		}
		return { accepted: true, said: 'no page' };
	};
}

const sizes = args.sizes.split(',').map(Number);
const rounds = Number(args.rounds);
const runs = Number(args.runs);
const log = (line = '') => process.stdout.write(`${line}\n`);

// The --against worktrees go into a folder of this run's, removed on clean-up (as in tools/bench/bench.mjs).
process.env.TMPDIR = makeTempDir('sp-answer-cost-');
const roots = await checkoutsToMeasure(root, { build: !args['no-build'], against: args.against, log });

log(`answer cost against JSON.parse, ${rounds} rounds x ${runs} runs; load average at start: ${readLoadavg()}`);
const perRound = [];
for (let round = 0; round < rounds; round++) {
	perRound.push(
		await runJsonChild([
			'--expose-gc',
			'--max-old-space-size=6144',
			join(root, 'tools/bench/answer-cost.mjs'),
			'--child',
			JSON.stringify({ roots, sizes, runs }),
		]),
	);
	log(`  round ${round + 1}: load average ${readLoadavg()}`);
}

const rows = perRound[0].map((first, index) => {
	const of = (name, clock) => perRound.map((round) => median(round[index].reads[name][clock]));
	const parse = median(perRound.map((round) => median(round[index].parse.map((run) => run.wall))));
	const wall = of('this', 'wall');
	return {
		first,
		parse,
		wall,
		cpu: of('this', 'cpu'),
		refs: args.against.map((ref) => median(of(ref, 'wall'))),
		met: median(wall) <= ANSWER_COST_LIMIT,
	};
});
const columns = [
	{ title: 'answer', get: (row) => row.first.shape },
	{ title: 'size', get: (row) => `${fixed(row.first.bytes / 1e6)} MB`, align: 'right' },
	{ title: 'read', get: (row) => row.first.reads.this.said },
	{ title: 'JSON.parse ms', get: (row) => fixed(row.parse, 0), align: 'right' },
	{ title: 'read/parse', get: (row) => fixed(median(row.wall), 2), align: 'right' },
	{ title: 'rounds', get: (row) => row.wall.map((ratio) => fixed(ratio, 2)).join(' ') },
	{ title: 'CPU', get: (row) => fixed(median(row.cpu), 2), align: 'right' },
	...args.against.map((ref, at) => ({ title: `${ref} read/parse`, get: (row) => fixed(row.refs[at], 2), align: 'right' })),
	{ title: `<= ${ANSWER_COST_LIMIT}x`, get: (row) => (row.met ? 'MET' : 'MISSED') },
];
log('');
log(formatTable(rows, columns, { maxWidth: 60 }));
log(`load average at end: ${readLoadavg()}`);
if (args.json) {
	const report = rows.map(({ first, parse, wall, cpu, refs, met }) => ({
		shape: first.shape,
		bytes: first.bytes,
		read: first.reads.this.said,
		parseMs: parse,
		ratio: median(wall),
		rounds: wall,
		cpu: median(cpu),
		refs: Object.fromEntries(args.against.map((ref, at) => [ref, refs[at]])),
		met,
		// Measured beside the target, not in it.
		beside: SHAPES[first.shape].beside === true,
	}));
	log(JSON.stringify({ rows: report, limit: ANSWER_COST_LIMIT, loadavg: readLoadavg() }));
}
