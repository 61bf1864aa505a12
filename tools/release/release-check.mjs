#!/usr/bin/env node
// npm run release:check: what must hold before a version is published (the publish workflow runs
// it on the tag; `npm test` runs it too: offline, a few seconds).
//   1. package.json, CHANGELOG.md's newest entry and README's version history give one version
//      (and the tag, with --tag vX.Y.Z or in GitHub Actions on a tag push, names it).
//   2. package.json has what n8n's verification asks of a community package: the name, the
//      n8n-community-node-package keyword, the MIT licence, a repository (npm provenance links the
//      package to it), and no runtime dependencies.
//   3. npm pack: the tarball holds every file package.json "n8n" lists and no tests or sources.
//   4. n8n's scanner lint (@n8n/scan-community-package, the rule set n8n verifies with, the same
//      rules as `n8n-node lint`) on the source and on the tarball.
//
//   node tools/release/release-check.mjs [--tag vX.Y.Z] [--skip-build]
import { runMain } from '../lib/cleanup.mjs';
import { buildAndPack } from '../lib/n8n-instance.mjs';
import { readPackageJson, scanWithN8nScanner, tarballProblems, versionProblems } from '../lib/package-checks.mjs';

const argv = process.argv.slice(2);
const tagArg = argv.includes('--tag') ? argv[argv.indexOf('--tag') + 1] : undefined;
const tag = tagArg ?? (process.env.GITHUB_REF_TYPE === 'tag' ? process.env.GITHUB_REF_NAME : undefined);

/** What n8n's verification asks of package.json (docs.n8n.io, "Submit community nodes"). */
function manifestProblems(pkg) {
	const problems = [];
	if (!/^(@[a-z0-9-~][a-z0-9-._~]*\/)?n8n-nodes-/.test(pkg.name ?? ''))
		problems.push(`name "${pkg.name}" must start with n8n-nodes- (or @scope/n8n-nodes-)`);
	if (!pkg.keywords?.includes('n8n-community-node-package')) problems.push('keywords must include n8n-community-node-package');
	if (pkg.license !== 'MIT') problems.push(`license is ${pkg.license ?? '(none)'}; n8n verifies MIT-licensed packages`);
	if (!/github\.com\//.test(pkg.repository?.url ?? pkg.repository ?? ''))
		problems.push('repository.url must name the GitHub repository the publish workflow runs in (npm provenance checks it)');
	if (Object.keys(pkg.dependencies ?? {}).length)
		problems.push(`runtime dependencies are not allowed in verified packages: ${Object.keys(pkg.dependencies).join(', ')}`);
	if (!pkg.n8n?.nodes?.length) problems.push('package.json "n8n".nodes lists no node');
	return problems;
}

await runMain(async () => {
	let failed = 0;
	const report = (label, problems) => {
		if (problems.length) failed++;
		console.log(`${problems.length ? 'FAIL' : 'ok  '} ${label}${problems.map((p) => `\n       ${p}`).join('')}`);
	};
	const pkg = readPackageJson();
	console.log(`release check for ${pkg.name}@${pkg.version}${tag ? ` (tag ${tag})` : ''}`);
	report('version: package.json, CHANGELOG.md and README version history agree', versionProblems({ tag }));
	report('package.json: what n8n verification asks for', manifestProblems(pkg));
	const { tarball, files } = await buildAndPack({ skipBuild: argv.includes('--skip-build'), log: () => {} });
	report(`npm pack: ${files.length} files, the nodes and credential present, no tests or sources`, tarballProblems(files, pkg));
	for (const r of await scanWithN8nScanner(tarball)) {
		report(`n8n scanner lint (@n8n/scan-community-package) on the ${r.label}`, r.passed ? [] : [`${r.message}\n${r.details ?? ''}`]);
	}
	console.log(failed ? `release check: ${failed} failed` : 'release check: all passed');
	return failed ? 1 : 0;
});
