#!/usr/bin/env node
// npm run test:e2e: the packed package inside real n8n 2.x (Node 24) and 1.x (Node 20/22, legacy
// expression engine), against the embedded mock API. Prints one PASS/FAIL line per assertion, ends
// with exactly "N passed, N failed" and writes .tmp/e2e-summary.json ({passed, failed, ...}).
//
//   node scripts/e2e.mjs [--n8n 2|1|2,1] [--only <regex>] [--skip-build] [--tarball <file.tgz>]
//   env: E2E_N8N=2,1   E2E_ONLY=<regex>   N8N_RUNTIME_CACHE=<dir>   KEEP_TMP=1 (keep n8n folders)
//
// --only selects groups by name: list, shape, error, http, server, types, credential, trigger,
// editor, zod, secret, queue (n8n 2.x in queue mode: Redis, Postgres, a main and two workers).

import fs from 'node:fs';
import path from 'node:path';

import { runMain } from './lib/cleanup.mjs';
import { N8N_LINES, cacheRoot, describeCache } from './lib/n8n-runtime.mjs';
import { REPO_DIR, buildAndPack } from './lib/n8n-instance.mjs';
import { loadMock } from './lib/mock.mjs';
import { Suite } from '../e2e/harness.mjs';
import { runLineSuite } from '../e2e/suite.mjs';
import { runQueueSuite } from '../e2e/queue.mjs';

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
	const mockModule = await pkgSuite.setup('load the mock API (mock/server.mjs)', loadMock);
	const packed = await pkgSuite.setup(opts.tarball ? 'use the given tarball' : 'npm run build && npm pack', async () => {
		if (opts.tarball) return { tarball: path.resolve(opts.tarball), files: [] };
		return buildAndPack({ skipBuild: opts.skipBuild });
	});
	if (packed?.files?.length) {
		await pkgSuite.test('tarball holds every file package.json "n8n" lists, and no tests or sources', async () => {
			const pkg = JSON.parse(fs.readFileSync(path.join(REPO_DIR, 'package.json'), 'utf8'));
			const listed = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
			const missing = listed.filter((f) => !packed.files.includes(f));
			if (missing.length) throw new Error(`missing from the tarball: ${missing.join(', ')}`);
			const unwanted = packed.files.filter((f) => /(^|\/)(test|e2e|mock|scripts)\//.test(f) || (/\.ts$/.test(f) && !/\.d\.ts$/.test(f)));
			if (unwanted.length) throw new Error(`should not be published: ${unwanted.join(', ')}`);
		});
	}

	const durations = {};
	for (const line of opts.lines) {
		const version = N8N_LINES[line].version;
		const t = new Suite(`n8n ${version}`);
		suites.push(t);
		console.log(`\n=== n8n ${version} ${'='.repeat(60)}`);
		const t0 = Date.now();
		if (!packed || !mockModule) {
			await t.test('run the suite', async () => {
				throw new Error('not run: package or mock unavailable');
			});
		} else {
			await runLineSuite(t, { line, tarball: packed.tarball, startMockApi: mockModule.startMockApi, outDir, only: opts.only });
		}
		durations[version] = Math.round((Date.now() - t0) / 1000);
		console.log(`=== n8n ${version}: ${t.passed} passed, ${t.failed} failed in ${durations[version]} s`);
	}

	if (opts.lines.includes(2) && (!opts.only || opts.only.test('queue'))) {
		const q = new Suite('queue mode');
		suites.push(q);
		console.log(`\n=== n8n ${N8N_LINES[2].version} queue mode ${'='.repeat(49)}`);
		const t0 = Date.now();
		if (packed && mockModule) await runQueueSuite(q, { tarball: packed.tarball, startMockApi: mockModule.startMockApi, outDir });
		durations.queue = Math.round((Date.now() - t0) / 1000);
		console.log(`=== queue mode: ${q.passed} passed, ${q.failed} failed in ${durations.queue} s`);
	}

	const passed = suites.reduce((a, s) => a + s.passed, 0);
	const failed = suites.reduce((a, s) => a + s.failed, 0);
	const total = Math.round((Date.now() - started) / 1000);
	const failures = suites.flatMap((s) => s.results.filter((r) => !r.ok).map((r) => `[${s.label}] ${r.name}`));
	fs.writeFileSync(
		summaryFile,
		JSON.stringify({ passed, failed, seconds: total, secondsPerN8n: durations, failures, suites: suites.map((s) => ({ label: s.label, passed: s.passed, failed: s.failed, results: s.results })) }, null, 2),
	);
	console.log(`\ne2e finished in ${total} s (${Object.entries(durations).map(([v, s]) => `n8n ${v}: ${s} s`).join(', ')}); summary: ${path.relative(process.cwd(), summaryFile) || summaryFile}`);
	if (failures.length) console.log(`failed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
	console.log(`${passed} passed, ${failed} failed`);
	return failed ? 1 : 0;
});
