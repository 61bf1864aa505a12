#!/usr/bin/env node
// `npm test`: every check the project has, in order, ending with one line CI reads:
// "N passed, N failed". Unit tests count per jest test, the real-n8n suite per assertion, and
// typecheck, lint and the release check (which includes n8n's package scan) count one each. SKIP_E2E=1 leaves out the real-n8n suite
// (it installs n8n on first use, see README); CI never sets it.
// A run leaves nothing behind: every step runs with a temporary folder of the run's own as TMPDIR;
// at the end that folder must be empty and no process of the run may be left (tools/lib/leftovers.mjs),
// else the run fails naming each leftover.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { findLeftovers, isolateTmp } from '../tools/lib/leftovers.mjs';
import { run as runProcess } from '../tools/lib/process.mjs';

const root = new URL('..', import.meta.url).pathname;
const tmp = join(root, '.tmp');
mkdirSync(tmp, { recursive: true });

const totals = { passed: 0, failed: 0 };
const lines = [];
const runTmp = isolateTmp('n8n-nodes-service-platform-run-');

async function run(label, command, args) {
	console.log(`\n=== ${label} ===`);
	const result = await runProcess(command, args, { cwd: root, env: process.env, stdio: 'inherit', label });
	return { ok: result.code === 0, seconds: (result.ms / 1000).toFixed(1) };
}

async function check(label, command, args) {
	const { ok, seconds } = await run(label, command, args);
	totals[ok ? 'passed' : 'failed']++;
	lines.push(`${ok ? 'ok  ' : 'FAIL'} ${label} (${seconds} s)`);
}

async function suite(label, command, args, summaryFile, readCounts) {
	rmSync(summaryFile, { force: true });
	const { ok, seconds } = await run(label, command, args);
	const counts = existsSync(summaryFile) ? readCounts(JSON.parse(readFileSync(summaryFile, 'utf8'))) : undefined;
	if (!counts) {
		totals.failed++;
		lines.push(`FAIL ${label}: no results were written (${seconds} s)`);
		return;
	}
	// A runner that failed without failing a test (crash, open handles) still fails the run.
	const failed = counts.failed + (ok || counts.failed > 0 ? 0 : 1);
	totals.passed += counts.passed;
	totals.failed += failed;
	lines.push(`${failed === 0 ? 'ok  ' : 'FAIL'} ${label}: ${counts.passed} passed, ${failed} failed (${seconds} s)`);
}

await check('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
await check('lint (eslint, prettier --check)', 'npm', ['run', 'lint']);
await check('release check (versions agree, package.json, tarball, n8n scanner lint on source and tarball)', 'node', [
	'tools/release/release-check.mjs',
]);

const jestSummary = join(tmp, 'jest-summary.json');
await suite('unit and engine tests (jest)', 'npx', ['jest', '--ci', '--json', `--outputFile=${jestSummary}`], jestSummary, (json) => ({
	passed: json.numPassedTests,
	failed: json.numFailedTests + json.numRuntimeErrorTestSuites,
}));

if (process.env.SKIP_E2E === '1') {
	lines.push('skip real-n8n end-to-end suite (SKIP_E2E=1)');
} else {
	const e2eSummary = join(tmp, 'e2e-summary.json');
	await suite('real n8n end-to-end suite', 'node', ['test/e2e/e2e.mjs'], e2eSummary, (json) => ({
		passed: json.passed,
		failed: json.failed,
	}));
}

const leftovers = await findLeftovers(runTmp);
rmSync(runTmp, { recursive: true, force: true });
totals[leftovers.length ? 'failed' : 'passed']++;
lines.push(
	leftovers.length
		? `FAIL the run left ${leftovers.length} thing(s) behind:\n${leftovers.map((l) => `       ${l}`).join('\n')}`
		: 'ok   nothing left behind (temporary folder empty, no process left)',
);

console.log('\n=== summary ===');
for (const line of lines) console.log(line);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exitCode = totals.failed === 0 ? 0 : 1;
