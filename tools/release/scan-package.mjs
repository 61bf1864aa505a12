#!/usr/bin/env node
// npm run lint:scan: the lint step of @n8n/scan-community-package (the check n8n applies before
// verifying a community package) on the source folder and on the extracted `npm pack` tarball. Its
// CLI only takes a published package name, so the exported analyzer is called directly.
import { runMain } from '../lib/cleanup.mjs';
import { buildAndPack } from '../lib/n8n-instance.mjs';
import { scanWithN8nScanner } from '../lib/package-checks.mjs';

await runMain(async () => {
	const { tarball } = await buildAndPack();
	let failed = 0;
	for (const result of await scanWithN8nScanner(tarball)) {
		if (result.passed) {
			console.log(`scan (${result.label}): passed${result.message ? ` (${result.message})` : ''}`);
		} else {
			failed++;
			console.log(`scan (${result.label}): FAILED: ${result.message}\n${result.details ?? ''}`);
		}
	}
	return failed === 0 ? 0 : 1;
});
