#!/usr/bin/env node
// The record pass of List alone (a microbenchmark): from a parsed page of records to the output
// items' JSON, as List does it, this checkout against earlier commits in the same processes.
//
//   node tools/bench/records.mjs [--against <git ref>]... [--size 100000] [--rounds 5] [--runs 9] [--no-build]
//
// Variants, each over the same JSON.parse'd page of generated records of the documented shape
// (tools/mock-platform/data.cjs), parsed afresh before every timed run (after a full gc()):
//   raw         checkPageRecords: the record check, nesting bound (from issue 24) and duplicate ids (from
//               0.5.0 with the answer stage before it: its scans of the raw text, and the one id rule)
//   simplified  the same and Simplify: in one pass where the build can (checkPageRecords' fourth
//               argument), else the check and then simplifyServiceRecord over the records (before)
//   raw@<ref>, simplified@<ref>   the same with the dist/ of an earlier commit (tools/bench/refs.mjs)
// Each round is a fresh process running every variant --runs times, interleaved, the order rotated
// every run. Figures: milliseconds per page, wall and CPU time (process.cpuUsage: less moved by other
// processes on a shared machine), median of the rounds' medians; this/ref as a paired ratio (each run
// over the ref's run of the same rotation, median per round, median of the rounds).
// It builds this checkout first (tsc -p tsconfig.build.json) unless --no-build. Prints the load average.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { makeTempDir } from '../lib/process.mjs';
import { benchArgs, fixed, median, readLoadavg, root, runJsonChild } from './common.mjs';
import { checkoutsToMeasure } from './refs.mjs';

const { values: args } = benchArgs(import.meta.url, {
	against: { type: 'string', multiple: true, default: [] },
	size: { type: 'string', default: '100000' },
	rounds: { type: 'string', default: '5' },
	runs: { type: 'string', default: '9' },
	'no-build': { type: 'boolean', default: false },
	child: { type: 'string' },
});

const require = createRequire(import.meta.url);

if (args.child !== undefined) {
	process.stdout.write(`${JSON.stringify(measure(JSON.parse(args.child)))}\n`);
	process.exit(0);
}

/** One round, in this (child) process: { times: { variant: [ms per run] } }. */
function measure({ roots, size, runs }) {
	const { generateServices } = require('../mock-platform/data.cjs');
	const text = JSON.stringify(generateServices(size, 1));
	const gc = globalThis.gc ?? (() => {});
	const variants = {};
	for (const [name, checkout] of Object.entries(roots)) {
		const suffix = name === 'this' ? '' : `@${name}`;
		// Builds before 0.5.0 kept every shared module in one folder (--against an older ref).
		const built = (room, name) =>
			[join(checkout, 'dist/nodes/shared', room, `${name}.js`), join(checkout, 'dist/nodes/shared', `${name}.js`)].find((file) =>
				existsSync(file),
			);
		const { simplifyServiceRecord } = require(built('record', 'serviceRecord'));
		const answerStage = built('answer', 'answer');
		let check;
		if (answerStage === undefined) {
			const listing = require(built('listing', 'listing'));
			check = (body, services) => listing.checkPageRecords(listing.readListingPage(body), new Map(), 1, services);
		} else {
			// 0.5.0 on: the answer stage (with its scans of the raw text), then the records stage.
			const { readAnswer } = require(answerStage);
			const { checkPageRecords } = require(built('record', 'pageRecords'));
			const { PROVIDER_HINT } = require(built('answer', 'answerTexts'));
			const url = 'https://api.example.com/v2026/services';
			check = (body, services) => {
				const answer = readAnswer({ body, text, headers: {}, status: 200, url }, { page: 1, resumed: false });
				return checkPageRecords(answer, { seen: new Map(), pageNumber: 1, simplified: services, advice: PROVIDER_HINT });
			};
		}
		// A build whose checkPageRecords fills a fourth argument simplifies in the same pass.
		const probe = [undefined];
		check(JSON.parse(text), probe);
		const fused = probe[0] !== undefined;
		variants[`raw${suffix}`] = (body) => check(body);
		variants[`simplified${suffix}`] = fused
			? (body) => {
					// As listing.ts: an array of the page's length, filled by checkPageRecords.
					const services = new Array(body.length);
					check(body, services);
					return services;
				}
			: (body) => {
					const records = check(body);
					const services = new Array(records.length);
					for (let i = 0; i < records.length; i++) services[i] = simplifyServiceRecord(records[i]);
					return services;
				};
	}
	const names = Object.keys(variants);
	const times = Object.fromEntries(names.map((name) => [name, []]));
	const cpu = Object.fromEntries(names.map((name) => [name, []]));
	for (let run = -1; run < runs; run++) {
		for (let i = 0; i < names.length; i++) {
			const name = names[(i + Math.max(run, 0)) % names.length];
			gc();
			const body = JSON.parse(text);
			const cpuBefore = process.cpuUsage();
			const started = performance.now();
			const out = variants[name](body);
			const elapsed = performance.now() - started;
			const used = process.cpuUsage(cpuBefore);
			if (out.length !== size) throw new Error(`${name}: ${out.length} of ${size}`);
			// Run -1 warms every variant up.
			if (run >= 0) {
				times[name].push(elapsed);
				cpu[name].push((used.user + used.system) / 1000);
			}
		}
	}
	return { times, cpu };
}

const size = Number(args.size);
const rounds = Number(args.rounds);
const runs = Number(args.runs);
const log = (line = '') => process.stdout.write(`${line}\n`);

// The --against worktrees go into a folder of this run's, removed on clean-up (as in tools/bench/bench.mjs).
process.env.TMPDIR = makeTempDir('sp-records-');
const roots = await checkoutsToMeasure(root, { build: !args['no-build'], against: args.against, log });

log(
	`record pass of List, ${size.toLocaleString('en-US')} records, ${rounds} rounds x ${runs} runs; load average at start: ${readLoadavg()}`,
);
const perRound = [];
for (let round = 0; round < rounds; round++) {
	perRound.push(
		await runJsonChild(['--expose-gc', join(root, 'tools/bench/records.mjs'), '--child', JSON.stringify({ roots, size, runs })]),
	);
	log(`  round ${round + 1}: load average ${readLoadavg()}`);
}

// Each run over its reference's run of the same rotation, median per round.
const paired = (variant, reference, clock) =>
	perRound.map((round) => median(round[clock][variant].map((ms, i) => ms / round[clock][reference][i])));
log('');
log('variant                 wall ms   rounds (each a median of runs)        CPU ms   rounds');
for (const variant of Object.keys(perRound[0].times)) {
	const walls = perRound.map((round) => median(round.times[variant]));
	const cpus = perRound.map((round) => median(round.cpu[variant]));
	const cells = (values) => values.map((ms) => fixed(ms)).join(' ');
	log(
		`${variant.padEnd(22)}  ${fixed(median(walls)).padStart(7)}   ${cells(walls).padEnd(36)}  ${fixed(median(cpus)).padStart(6)}   ${cells(cpus)}`,
	);
}
for (const ref of args.against) {
	log('');
	for (const kind of ['raw', 'simplified']) {
		for (const clock of ['times', 'cpu']) {
			const ratios = paired(kind, `${kind}@${ref}`, clock);
			log(
				`${kind} this/${ref}, ${clock === 'times' ? 'wall' : 'CPU'} time: ${fixed(median(ratios), 2)}  (rounds ${ratios.map((r) => fixed(r, 2)).join(' ')})`,
			);
		}
	}
}
log(`load average at end: ${readLoadavg()}`);
