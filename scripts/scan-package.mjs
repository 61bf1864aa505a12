#!/usr/bin/env node
// Runs the lint step of @n8n/scan-community-package (the check n8n applies before verifying a
// community package) on the source folder and on the extracted `npm pack` tarball. Its CLI only
// takes a published package name, so the exported analyzer is called directly.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { analyzePackage, SOURCE_FILE_PATTERNS } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'scan-package-'));
const run = (command, args, cwd = root) => execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] }).toString();

try {
	run('npm', ['run', '--silent', 'build']);
	const [{ filename }] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work]));
	run('tar', ['-xzf', join(work, filename), '-C', work]);

	let failed = 0;
	for (const [label, dir, patterns] of [
		['source', root, SOURCE_FILE_PATTERNS],
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
	process.exitCode = failed === 0 ? 0 : 1;
} finally {
	rmSync(work, { recursive: true, force: true });
}
