#!/usr/bin/env node
// What the answer stage's scans of the raw JSON text cost (nodes/shared/answer/jsonText.ts, repeatedKeys.ts), against
// JSON.parse of the same text: the look for integers beyond 2^53 (every answer) and the check for a
// key named twice at the top of an object answer (maps, envelopes, single records).
//
//   node tools/bench/json-text.mjs [--size 100000] [--runs 9] [--no-build]
//
// Texts, from the mock API's generated records of the documented shape (tools/mock-platform/data.cjs):
//   array       the documented shape: [record, ...]             -> the look for long integers only
//   map         {"<id>": record, ...}                            -> both; the key check scans the top level
//   envelope    {"data": [1,000 records], "next": ..., "total"}  -> both; few keys: a native search each
//   digits      the array, each record with a 19-digit string     -> the look finds runs, none a number
//   bigints     the array, each record with a 19-digit integer    -> the look finds them: the full scan
// Figures: CPU milliseconds (process.cpuUsage), median of --runs; each run is a gc(), JSON.parse, then the
// scans, as the answer stage runs them; the ratio is to JSON.parse of the same text in the same run. Builds dist/ first (tsc -p tsconfig.build.json) unless --no-build.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { formatTable } from '../lib/table.mjs';
import { benchArgs, fixed, median, readLoadavg, root } from './common.mjs';
import { buildCheckout } from './refs.mjs';

const { values: args } = benchArgs(import.meta.url, {
	size: { type: 'string', default: '100000' },
	runs: { type: 'string', default: '9' },
	'no-build': { type: 'boolean', default: false },
	child: { type: 'boolean', default: false },
});

if (!args.child) {
	if (!args['no-build']) buildCheckout(root);
	// A child with --expose-gc: every run starts from a collected heap.
	const child = spawnSync(
		process.execPath,
		['--expose-gc', join(root, 'tools/bench/json-text.mjs'), '--child', '--size', args.size, '--runs', args.runs],
		{ cwd: root, stdio: 'inherit' },
	);
	process.exit(child.status ?? 1);
}

const require = createRequire(import.meta.url);
const { generateServices } = require('../mock-platform/data.cjs');
const { inexactIntegers } = require(join(root, 'dist/nodes/shared/answer/jsonText.js'));
const { repeatedTopLevelKey } = require(join(root, 'dist/nodes/shared/answer/repeatedKeys.js'));

const size = Number(args.size);
const runs = Number(args.runs);
const records = generateServices(size, 1);
const page = records.slice(0, 1000);
const texts = {
	array: JSON.stringify(records),
	map: `{${records.map((record) => `${JSON.stringify(record.id_service)}:${JSON.stringify(record)}`).join(',')}}`,
	envelope: JSON.stringify({ data: page, next: 'https://api.example.com/v2026/services?page=2', total: size }),
	digits: JSON.stringify(records.map((record) => ({ ...record, serial: '1234567890123456789' }))),
	bigints: JSON.stringify(records).replaceAll('"id_service":', '"usage_bytes":1234567890123456789,"id_service":'),
};

function cpuMs(work) {
	const before = process.cpuUsage();
	work();
	const used = process.cpuUsage(before);
	return (used.user + used.system) / 1000;
}

const rows = [];
for (const [name, text] of Object.entries(texts)) {
	const keys = Object.keys(JSON.parse(text));
	const object = !text.startsWith('[');
	const parse = [];
	const integers = [];
	const repeated = [];
	for (let run = -1; run < runs; run++) {
		// As the answer stage runs them: right after JSON.parse of the text (a gc() before each run, none between).
		globalThis.gc();
		const p = cpuMs(() => JSON.parse(text));
		const i = cpuMs(() => inexactIntegers(text));
		const r = object ? cpuMs(() => repeatedTopLevelKey(text, keys)) : NaN;
		if (run < 0) continue; // a warm-up
		parse.push(p);
		integers.push(i);
		repeated.push(r);
	}
	const [p, i, r] = [median(parse), median(integers), median(repeated)];
	rows.push([
		name,
		`${(text.length / 1e6).toFixed(1)} MB`,
		fixed(p),
		fixed(i),
		fixed(i / p, 3),
		object ? fixed(r) : '-',
		object ? fixed(r / p, 3) : '-',
	]);
}
process.stdout.write(
	`JSON text scans, ${size.toLocaleString('en-US')} records, median of ${runs} runs (CPU ms); load average: ${readLoadavg()}\n`,
);
const titles = ['text', 'size', 'JSON.parse', 'integers', '/parse', 'repeated keys', '/parse'];
const columns = titles.map((title, index) => ({ title, get: (row) => row[index], align: index === 0 ? 'left' : 'right' }));
process.stdout.write(`${formatTable(rows, columns)}\n`);
