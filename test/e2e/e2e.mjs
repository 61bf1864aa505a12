#!/usr/bin/env node
// npm run test:e2e: the packed package inside real n8n 2.x (Node 24) and 1.x (Node 20/22, legacy
// expression engine), against the embedded mock API. Prints one PASS/FAIL line per assertion, ends
// with exactly "N passed, N failed" and writes .tmp/e2e-summary.json ({passed, failed, ...}).
//
//   node test/e2e/e2e.mjs [--n8n 2|1|2,1] [--only <regex>] [--skip-build] [--tarball <file.tgz>]
//   env: E2E_N8N=2,1   E2E_ONLY=<regex>   N8N_RUNTIME_CACHE=<dir>   KEEP_TMP=1 (keep n8n folders)
//
// --only selects groups by name (the `groups` of SUITES below).

import fs from 'node:fs';
import path from 'node:path';

import { runMain } from '../../tools/lib/cleanup.mjs';
import { startMockApi } from '../../tools/mock-platform/mock.mjs';
import { N8N_LINES, cacheRoot, describeCache } from '../../tools/lib/n8n-runtime.mjs';
import { REPO_DIR, buildAndPack } from '../../tools/lib/n8n-instance.mjs';
import { tarballProblems } from '../../tools/lib/package-checks.mjs';
import { Suite } from './harness.mjs';
import { LINE_GROUPS, runLineSuite } from './core.mjs';
import { runBrowserGroup } from './editor.mjs';
import { runQueueSuite } from './queue.mjs';
import { runAgentGroup } from './agents.mjs';
import { RECIPE_GROUPS, runRecipesGroup } from './recipes/recipes.mjs';
import { runDeliverySuite } from './delivery.mjs';
import { runChaosGroup } from '../chaos/short-runs.mjs';

/**
 * The e2e suites. Each runs once per n8n line it supports (`lines`, of those --n8n asks for), as a
 * Suite of its own, when --only matches its name or one of its `groups` (or there is no --only).
 * run(t, { line, tarball, startMockApi, outDir, only }) records its assertions on `t`.
 * To add a suite: a module test/e2e/<name>.mjs exporting its run function, and one entry here.
 */
const SUITES = [
	// One n8n per line (CLI, then `n8n start`): most groups share it to pay n8n's start-up once.
	{ name: 'line', label: (version) => `n8n ${version}`, groups: LINE_GROUPS, lines: [2, 1], run: runLineSuite },
	// The real editor in headless Chromium, on its own n8n (Community Nodes install).
	{ name: 'browser', label: (version) => `browser, n8n ${version}`, groups: [], lines: [2, 1], run: runBrowserGroup },
	// n8n 2.x queue mode: Redis, PostgreSQL 15, a main and two workers of its own (issue 12).
	{ name: 'queue', label: (version) => `n8n ${version} queue mode`, groups: ['queue'], lines: [2], run: runQueueSuite },
	// The Services tools behind n8n's MCP Server Trigger, called by the official MCP client (issue 15).
	{ name: 'agent', label: (version) => `agent, n8n ${version}`, groups: ['agent'], lines: [2, 1], run: runAgentGroup },
	// The recipes of examples/, imported as a user imports them, run and their results checked (issue 29).
	{ name: 'recipes', label: (version) => `recipes, n8n ${version}`, groups: RECIPE_GROUPS, lines: [2], run: runRecipesGroup },
	{
		name: 'delivery',
		label: (version) => `delivery, n8n ${version} with durable poll cursors`,
		groups: ['delivery'],
		lines: [2],
		run: runDeliverySuite,
	},
	// n8n SIGKILLed while the Services Trigger works: short runs, default settings and durable cursors (issue 27).
	{ name: 'chaos', label: (version) => `chaos, n8n ${version}`, groups: ['chaos'], lines: [2], run: runChaosGroup },
];

const selected = (suite, only) => !only || only.test(suite.name) || suite.groups.some((g) => only.test(g));

function args() {
	const a = process.argv.slice(2);
	const get = (name) => {
		const i = a.indexOf(name);
		return i >= 0 ? a[i + 1] : undefined;
	};
	const lines = (get('--n8n') ?? process.env.E2E_N8N ?? '2,1')
		.split(',')
		.map((s) => Number(s.trim()))
		.filter((n) => N8N_LINES[n]);
	const only = get('--only') ?? process.env.E2E_ONLY;
	return { lines, only: only ? new RegExp(only, 'i') : undefined, skipBuild: a.includes('--skip-build'), tarball: get('--tarball') };
}

await runMain(async () => {
	const started = Date.now();
	const opts = args();
	const outDir = path.join(REPO_DIR, '.tmp');
	const summaryFile = path.join(outDir, 'e2e-summary.json');
	fs.mkdirSync(outDir, { recursive: true });
	fs.rmSync(summaryFile, { force: true });

	const cache = describeCache();
	console.log(`e2e: n8n lines ${opts.lines.map((l) => N8N_LINES[l].version).join(' and ')}; runtime cache ${cacheRoot()}`);
	for (const e of cache.entries) console.log(`  ${e}`);
	if (!cache.entries.length) console.log('  (empty: the first run installs n8n, several minutes per version, shown below)');

	const suites = [];
	const pkgSuite = new Suite('package');
	suites.push(pkgSuite);
	const packed = await pkgSuite.setup(opts.tarball ? 'use the given tarball' : 'npm run build && npm pack', async () => {
		if (opts.tarball) return { tarball: path.resolve(opts.tarball), files: [] };
		return buildAndPack({ skipBuild: opts.skipBuild });
	});
	if (packed?.files?.length) {
		await pkgSuite.test('tarball holds every file package.json "n8n" lists, and no tests, sources or docs', async () => {
			const problems = tarballProblems(packed.files);
			if (problems.length) throw new Error(problems.join('\n'));
		});
	}

	const durations = {};
	for (const line of opts.lines) {
		const version = N8N_LINES[line].version;
		const t0 = Date.now();
		console.log(`\n=== n8n ${version} ${'='.repeat(60)}`);
		for (const suite of SUITES.filter((s) => s.lines.includes(line) && selected(s, opts.only))) {
			const t = new Suite(suite.label?.(version) ?? `n8n ${version} ${suite.name}`);
			suites.push(t);
			if (!packed) {
				await t.test('run the suite', async () => {
					throw new Error('not run: the package could not be built and packed');
				});
			} else {
				await suite.run(t, { line, tarball: packed.tarball, startMockApi, outDir, only: opts.only });
			}
			console.log(`=== ${t.label}: ${t.passed} passed, ${t.failed} failed`);
		}
		durations[version] = Math.round((Date.now() - t0) / 1000);
		console.log(`=== n8n ${version}: done in ${durations[version]} s`);
	}

	const passed = suites.reduce((a, s) => a + s.passed, 0);
	const failed = suites.reduce((a, s) => a + s.failed, 0);
	const total = Math.round((Date.now() - started) / 1000);
	const failures = suites.flatMap((s) => s.results.filter((r) => !r.ok).map((r) => `[${s.label}] ${r.name}`));
	fs.writeFileSync(
		summaryFile,
		JSON.stringify(
			{
				passed,
				failed,
				seconds: total,
				secondsPerN8n: durations,
				failures,
				suites: suites.map((s) => ({ label: s.label, passed: s.passed, failed: s.failed, results: s.results })),
			},
			null,
			2,
		),
	);
	console.log(
		`\ne2e finished in ${total} s (${Object.entries(durations)
			.map(([v, s]) => `n8n ${v}: ${s} s`)
			.join(', ')}); summary: ${path.relative(process.cwd(), summaryFile) || summaryFile}`,
	);
	if (failures.length) console.log(`failed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
	console.log(`${passed} passed, ${failed} failed`);
	return failed ? 1 : 0;
});
