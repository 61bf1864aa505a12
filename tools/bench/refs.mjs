// `npm run bench -- --against <git ref>`: an earlier commit, checked out with `git worktree add
// --detach` into the run's temporary folder, given this checkout's node_modules (a symlink: the
// same n8n-core and n8n-workflow instances load both versions) and built there (tsc only; the
// bench needs no icons). Its dist/ is then measured as variants `raw@<ref>`, ... in the same
// processes and rounds as this checkout's (tools/bench/measure.mjs --refs).
// The worktree is removed (`git worktree remove --force`, then `git worktree prune`) on clean-up:
// on a normal exit, on a failure and on Ctrl-C (tools/lib/cleanup.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

import { onCleanup } from '../lib/cleanup.mjs';
import { run } from '../lib/process.mjs';

const git = (root, args) => spawnSync('git', ['-C', root, ...args], { encoding: 'utf8' });

/** The files tools/bench/engine.cjs loads from a built checkout. */
export const DIST_FILES = ['dist/nodes/Services/Services.node.js', 'dist/credentials/ServicePlatformApi.credentials.js'];

/**
 * Checks out and builds `ref`; returns { ref, commit, version, dir }. Throws with the reason (unknown
 * ref, build error, node files not where tools/bench/engine.cjs loads them).
 */
export async function prepareRef(root, ref, progress) {
	const commit = git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).stdout.trim();
	if (!commit) throw new Error(`--against ${ref}: not a commit of this repository`);
	const pkg = (() => {
		try {
			return JSON.parse(git(root, ['show', `${commit}:package.json`]).stdout);
		} catch {
			return {};
		}
	})();
	const version = pkg.version ?? '?';
	const dir = join(mkdtempSync(join(os.tmpdir(), 'bench-ref-')), 'checkout');
	progress(`--against ${ref}: git worktree add --detach (${version}, ${commit.slice(0, 10)}) ...`);
	const added = git(root, ['worktree', 'add', '--detach', dir, commit]);
	if (added.status !== 0) throw new Error(`--against ${ref}: git worktree add failed:\n${added.stderr}`);
	const remove = () => {
		git(root, ['worktree', 'remove', '--force', dir]);
		git(root, ['worktree', 'prune']);
	};
	onCleanup(`git worktree remove ${dir}`, async () => remove(), remove);
	symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
	progress(`--against ${ref}: building (tsc -p tsconfig.build.json) ...`);
	const tsc = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
		cwd: dir,
		label: `tsc ${ref}`,
	});
	if (tsc.code !== 0) throw new Error(`--against ${ref}: the build failed:\n${tsc.stdout}${tsc.stderr}`);
	const declared = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	for (const file of DIST_FILES) {
		if (!declared.includes(file) || !existsSync(join(dir, file))) {
			throw new Error(
				`--against ${ref}: ${file} is not built or not declared in its package.json n8n section (${declared.join(', ')}); tools/bench/engine.cjs loads that path`,
			);
		}
	}
	return { ref, commit, version, dir };
}

/** Builds the checkout at `root` (tsc -p tsconfig.build.json: the micro benches need no icons); throws with tsc's output on failure. */
export function buildCheckout(root) {
	const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
		cwd: root,
		encoding: 'utf8',
	});
	if (tsc.status !== 0) throw new Error(`the build failed:\n${tsc.stdout}${tsc.stderr}`);
}

/**
 * The checkouts a micro bench measures: this one (`root`, built unless `build` is false) and each
 * ref of `against`, prepared as above: { this: root, [ref]: its checkout }.
 */
export async function checkoutsToMeasure(root, { build, against, log }) {
	if (build) buildCheckout(root);
	const roots = { this: root };
	for (const ref of against) roots[ref] = (await prepareRef(root, ref, log)).dir;
	return roots;
}
