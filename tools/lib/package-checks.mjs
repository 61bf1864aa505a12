// Checks of the package as n8n and npm will see it: the packed tarball's files, n8n's own scanner
// lint (@n8n/scan-community-package, the rule set n8n verifies community packages with), and the
// version the package.json, CHANGELOG.md and README's version history give.

import fs from 'node:fs';
import path from 'node:path';

import { REPO_DIR } from './n8n-instance.mjs';
import { makeTempDir, run } from './process.mjs';

export const readPackageJson = () => JSON.parse(fs.readFileSync(path.join(REPO_DIR, 'package.json'), 'utf8'));

/** What is wrong with the packed file list: a file package.json "n8n" lists is missing, or tests/sources ship. */
export function tarballProblems(files, pkg = readPackageJson()) {
	const problems = [];
	const listed = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	const missing = listed.filter((f) => !files.includes(f));
	if (missing.length) problems.push(`missing from the tarball: ${missing.join(', ')}`);
	const unwanted = files.filter(
		(f) => /(^|\/)(test|tools|e2e|mock|scripts|bench|demo|dev|docs)\//.test(f) || (/\.ts$/.test(f) && !/\.d\.ts$/.test(f)),
	);
	if (unwanted.length) problems.push(`should not be published: ${unwanted.join(', ')}`);
	return problems;
}

/**
 * The scanner makes a folder with the `tmp` package when it is loaded and never removes it: load it
 * (once per process) while TMPDIR points into `dir`, a folder clean-up removes.
 */
async function importScanner(dir) {
	const saved = process.env.TMPDIR;
	process.env.TMPDIR = dir;
	try {
		return await import('@n8n/scan-community-package/scanner/scanner.mjs');
	} finally {
		if (saved === undefined) delete process.env.TMPDIR;
		else process.env.TMPDIR = saved;
	}
}

/**
 * n8n's scanner lint on the source (its SOURCE_FILE_PATTERNS) and on the unpacked tarball.
 * Returns [{ label, passed, message, details }].
 */
export async function scanWithN8nScanner(tarball) {
	// eslint-plugin-n8n-nodes-base reads NODE_ENV when the scanner loads it: under "test" (jest sets
	// it) it takes every file for its own fixture Test.node.ts and reports errors that are not there.
	if (process.env.NODE_ENV === 'test') delete process.env.NODE_ENV;
	const work = makeTempDir('scan-package-');
	const { analyzePackage, SOURCE_FILE_PATTERNS } = await importScanner(work);
	const untar = await run('tar', ['-xzf', tarball, '-C', work]);
	if (untar.code !== 0) throw new Error(`tar failed: ${untar.stderr}`);
	const results = [];
	for (const [label, dir, patterns] of [
		['source', REPO_DIR, SOURCE_FILE_PATTERNS],
		['packed tarball', path.join(work, 'package'), undefined],
	]) {
		results.push({ label, ...(await analyzePackage(dir, patterns)) });
	}
	return results;
}

/**
 * The versions the release states: package.json, the newest CHANGELOG.md entry (`## [x.y.z]`), the
 * first README "Version history" bullet (`- x.y.z: ...`), and the git tag when one is given.
 * Returns a list of disagreements (empty when all agree).
 */
export function versionProblems({ tag } = {}) {
	const { version } = readPackageJson();
	const problems = [];
	const changelog = fs.readFileSync(path.join(REPO_DIR, 'CHANGELOG.md'), 'utf8');
	const changelogVersion = /^## \[(\d+\.\d+\.\d+[^\]]*)\]/m.exec(changelog)?.[1];
	if (changelogVersion !== version)
		problems.push(`CHANGELOG.md's newest entry is ${changelogVersion ?? '(none)'}, package.json says ${version}`);
	const readme = fs.readFileSync(path.join(REPO_DIR, 'README.md'), 'utf8');
	const history = /^## Version history\s*\n+- (\d+\.\d+\.\d+[^:\s]*):/m.exec(readme)?.[1];
	if (history !== version) problems.push(`README's Version history starts with ${history ?? '(nothing)'}, package.json says ${version}`);
	if (tag !== undefined && tag !== `v${version}`) problems.push(`the tag is ${tag}, package.json says ${version} (tag v${version})`);
	return problems;
}
