#!/usr/bin/env node
// Runs the lint step of @n8n/scan-community-package (the check n8n applies before verifying a
// community package) on the source folder and on the extracted `npm pack` tarball. Its CLI only
// takes a published package name, so the exported analyzer is called directly.
import { join } from 'node:path';

import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

import { runMain } from './lib/cleanup.mjs';
import { REPO_DIR, buildAndPack } from './lib/n8n-instance.mjs';
import { makeTempDir, run } from './lib/process.mjs';

await runMain(async () => {
	const { tarball } = await buildAndPack();
	const work = makeTempDir('scan-package-');
	const untar = await run('tar', ['-xzf', tarball, '-C', work]);
	if (untar.code !== 0) throw new Error(`tar failed: ${untar.stderr}`);

	let failed = 0;
	for (const [label, dir, patterns] of [
		['source', REPO_DIR, SOURCE_FILE_PATTERNS],
		['packed tarball', join(work, 'package'), undefined],
	]) {
		const result = await analyzePackage(dir, patterns);
		if (result.passed) {
			console.log(`scan (${label}): passed${result.message ? ` (${result.message})` : ''}`);
		} else {
			failed++;
			console.log(`scan (${label}): FAILED: ${result.message}\n${result.details ?? ''}`);
		}
	}
	return failed === 0 ? 0 : 1;
});
