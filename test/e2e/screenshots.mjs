#!/usr/bin/env node
// npm run screenshots: regenerates the README's pictures (docs/images/*.png) from the same walk
// through the real n8n 2.41.1 editor as the e2e `browser` group (test/e2e/editor.mjs): the node
// creator, the node panel, the credential dialog with its plain-http notice, the output table, Get's
// searchable list, a trigger test event, the MCP workflow, and each recipe with a picture on the
// canvas (docs/recipes.md). Each picture is one element of a 1440x900 page at scale 1, checked < 300 KB.
//
//   node test/e2e/screenshots.mjs [--skip-build]

import fs from 'node:fs';
import path from 'node:path';

import { runMain } from '../../tools/lib/cleanup.mjs';
import { startMockApi } from '../../tools/mock-platform/mock.mjs';
import { REPO_DIR, buildAndPack } from '../../tools/lib/n8n-instance.mjs';
import { SCREENSHOTS, runBrowserGroup } from './editor.mjs';
import { Suite } from './harness.mjs';

const MAX_BYTES = 300 * 1024;

await runMain(async () => {
	const imagesDir = path.join(REPO_DIR, 'docs', 'images');
	const outDir = path.join(REPO_DIR, '.tmp');
	fs.mkdirSync(outDir, { recursive: true });
	const shotsDir = fs.mkdtempSync(path.join(outDir, 'screenshots-'));
	const t = new Suite('screenshots');
	const packed = await buildAndPack({ skipBuild: process.argv.includes('--skip-build') });
	await runBrowserGroup(t, { line: 2, tarball: packed.tarball, startMockApi, outDir, shots: shotsDir });
	// Only a complete, green walk replaces the committed pictures.
	const made = SCREENSHOTS.filter((f) => fs.existsSync(path.join(shotsDir, f)));
	if (t.failed || made.length !== SCREENSHOTS.length) {
		console.log(
			`\nNot updating docs/images: ${t.failed} step(s) failed, ${made.length}/${SCREENSHOTS.length} pictures taken (kept in ${path.relative(REPO_DIR, shotsDir)}).`,
		);
		return 1;
	}
	fs.mkdirSync(imagesDir, { recursive: true });
	let tooBig = 0;
	for (const f of SCREENSHOTS) {
		const size = fs.statSync(path.join(shotsDir, f)).size;
		const ok = size < MAX_BYTES;
		if (!ok) tooBig++;
		fs.copyFileSync(path.join(shotsDir, f), path.join(imagesDir, f));
		console.log(`  ${ok ? 'ok  ' : 'FAIL'} docs/images/${f}  ${(size / 1024).toFixed(1)} KB${ok ? '' : ` (over ${MAX_BYTES / 1024} KB)`}`);
	}
	fs.rmSync(shotsDir, { recursive: true, force: true });
	return tooBig ? 1 : 0;
});
