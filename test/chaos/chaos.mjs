#!/usr/bin/env node
// npm run chaos: long chaos runs of the Services Trigger in real n8n (docs/chaos.md). The platform
// changes on a schedule, n8n (or its queue-mode worker) is SIGKILLed at random and at dangerous
// moments and started again, and the oracle counts what the sink lost, got twice or ended up without.
//
//   npm run chaos -- --crashes 50 --setting default|durable|queue-main|queue-worker|n8n1|all
//                    [--seed N] [--resync] [--no-mirror] [--skip-build] [--tarball <file.tgz>]
//
// --setting takes one name, a comma-separated list or `all`. --resync turns the trigger's Resync on
// (at start and every minute) and waits for a resync after the quiet period. --no-mirror leaves out
// the PostgreSQL mirror branch (the recipe needs the trigger's `seq`). Each run writes
// .tmp/chaos-<setting>.json; the end prints one table. Exit 1 when a run failed to complete, or lost,
// diverged or left a duplicate unmarked.

import path from 'node:path';

import { runMain } from '../../tools/lib/cleanup.mjs';
import { startMockApi } from '../../tools/mock-platform/mock.mjs';
import { REPO_DIR, buildAndPack } from '../../tools/lib/n8n-instance.mjs';
import { runChaos, writeReport } from './one-run.mjs';
import { SETTINGS } from './settings.mjs';
import { chaosTable } from './report.mjs';

function args() {
	const a = process.argv.slice(2);
	const get = (name, fallback) => {
		const i = a.indexOf(name);
		return i >= 0 ? a[i + 1] : fallback;
	};
	if (a.includes('--help') || a.includes('-h')) {
		console.log(
			'npm run chaos -- --crashes 50 --setting default|durable|queue-main|queue-worker|n8n1|all [--seed N] [--resync] [--no-mirror] [--skip-build] [--tarball <file.tgz>]',
		);
		process.exit(0);
	}
	const setting = get('--setting', 'default');
	const settings = setting === 'all' ? Object.keys(SETTINGS) : setting.split(',').map((s) => s.trim());
	for (const s of settings) if (!SETTINGS[s]) throw new Error(`unknown --setting ${s}; known: ${Object.keys(SETTINGS).join(', ')}, all`);
	const crashes = Number(get('--crashes', '50'));
	if (!Number.isInteger(crashes) || crashes < 1) throw new Error('--crashes takes a whole number >= 1');
	const seed = get('--seed');
	if (seed !== undefined && !/^\d+$/.test(seed)) throw new Error('--seed takes a whole number >= 0');
	return {
		settings,
		crashes,
		seed: seed === undefined ? undefined : Number(seed),
		resync: a.includes('--resync'),
		mirror: !a.includes('--no-mirror'),
		skipBuild: a.includes('--skip-build'),
		tarball: get('--tarball'),
	};
}

await runMain(async () => {
	const o = args();
	const outDir = path.join(REPO_DIR, '.tmp');
	const tarball = o.tarball ? path.resolve(o.tarball) : (await buildAndPack({ skipBuild: o.skipBuild })).tarball;
	const reports = [];
	for (const setting of o.settings) {
		try {
			const report = await runChaos({
				setting,
				crashes: o.crashes,
				tarball,
				startMockApi,
				seed: o.seed,
				mirror: o.mirror,
				resync: o.resync,
				outDir,
			});
			console.log(`  report: ${path.relative(process.cwd(), writeReport(outDir, report))}`);
			reports.push(report);
		} catch (e) {
			console.log(`  chaos ${setting} did not complete: ${e?.stack ?? e}`);
			reports.push({ setting, label: SETTINGS[setting].label, failed: String(e?.message ?? e) });
		}
	}
	console.log(`\n${chaosTable(reports)}`);
	const bad = reports.filter(
		(r) => r.failed || r.verdict.lost.total || r.verdict.diverged.length || r.verdict.duplicates.unmarked || (r.mirror && !r.mirror.equal),
	);
	return bad.length ? 1 : 0;
});
