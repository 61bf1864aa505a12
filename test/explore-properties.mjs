#!/usr/bin/env node
// npm run explore:properties: the fast-check properties with many random seeds (issue 28). `npm test`
// runs every property with one seed fixed per commit (test/harness/propertySeed.ts), so it never fails
// at random; this explores, apart, what other seeds find. A counterexample it prints is a real bug:
// fix it and keep the case as a fixed example in its test.
//
//   npm run explore:properties [-- --seeds 200] [--factor 4] [--all | test files ...]
//
// The registered property files (PROPERTY_FILES): the redaction's (the default), the answer's, the
// records', the read-ahead walk's (issue 33: 2,048 generated listings and 64 through n8n's engine a
// seed at --factor 1, about 45 s a seed: `-- --seeds 20 --factor 1 test/unit/read-ahead.property.test.ts`
// is 40,000 listings in about 15 minutes) and the trigger's timing model (about half a second a run:
// try --seeds 20 --factor 1); --all runs them all.
// Runs jest on the files (default: test/unit/redact.property.test.ts) with FC_EXPLORE_SEEDS and
// FC_RUNS_FACTOR set: test/harness/propertySetup.ts then runs each property with that many random
// seeds and that many times its runs. Prints jest's count of tests, then each failure (test, seed,
// runs, counterexample; also written to .tmp/explore-properties.jsonl), how many seeds failed and how
// long it took. Exits 1 when any seed failed.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { runMain } from '../tools/lib/cleanup.mjs';
import { run } from '../tools/lib/process.mjs';

const ROOT = join(import.meta.dirname, '..');
const PROPERTY_FILES = [
	'test/unit/redact.property.test.ts',
	'test/unit/answer.property.test.ts',
	'test/unit/property.test.ts',
	'test/unit/read-ahead.property.test.ts',
	'test/unit/trigger-timing.model.test.ts',
];

runMain(async () => {
	const { values, positionals } = parseArgs({
		allowPositionals: true,
		options: {
			seeds: { type: 'string', default: '200' },
			factor: { type: 'string', default: '4' },
			all: { type: 'boolean', default: false },
			help: { type: 'boolean', default: false },
		},
	});
	if (values.help) {
		const lines = readFileSync(new URL(import.meta.url), 'utf8')
			.split('\n')
			.slice(1);
		console.log(
			lines
				.slice(
					0,
					lines.findIndex((line) => !line.startsWith('//')),
				)
				.map((line) => line.replace(/^\/\/ ?/, ''))
				.join('\n'),
		);
		return 0;
	}
	const files = values.all ? PROPERTY_FILES : positionals.length > 0 ? positionals : [PROPERTY_FILES[0]];
	mkdirSync(join(ROOT, '.tmp'), { recursive: true });
	const report = join(ROOT, '.tmp', 'explore-properties.jsonl');
	rmSync(report, { force: true });
	console.log(`exploring ${files.join(', ')}: ${values.seeds} random seeds per property, ${values.factor} times its runs`);
	// No time limit that matters (a day): jest reads --testTimeout=0 as its default of 5 s, after which a
	// long async property goes on in the background, beside the next test.
	const result = await run('npx', ['jest', '--ci', '--testTimeout=86400000', ...files], {
		cwd: ROOT,
		env: { ...process.env, FC_EXPLORE_SEEDS: values.seeds, FC_RUNS_FACTOR: values.factor, FC_EXPLORE_REPORT: report },
		onLine: (line) => {
			if (/Tests:|✓|✕/.test(line)) console.log(line.trim());
		},
	});
	const failures = existsSync(report)
		? readFileSync(report, 'utf8')
				.trim()
				.split('\n')
				.filter(Boolean)
				.map((line) => JSON.parse(line))
		: [];
	for (const failure of failures) {
		const counterexample = /Counterexample: (.*)/.exec(failure.error)?.[1] ?? failure.error.slice(0, 300);
		console.log(`FAILED ${failure.test} with seed ${failure.seed} (${failure.numRuns} runs): ${counterexample}`);
	}
	console.log(`${failures.length} failing seed(s) in ${Math.round(result.ms / 1000)} s; report: .tmp/explore-properties.jsonl`);
	return failures.length > 0 || result.code !== 0 ? 1 : 0;
});
