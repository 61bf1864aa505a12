/**
 * tools/release/release-check.mjs refuses a release whose versions disagree (here: the tag), and passes
 * the repository as it is. Runs the real script (it packs and scans: a few seconds), with jest's
 * NODE_ENV=test inherited, which n8n's lint plugin misreads unless the check clears it.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { version } from '../../package.json';

const repoRoot = join(__dirname, '..', '..');

function releaseCheck(args: string[]) {
	const r = spawnSync(process.execPath, ['tools/release/release-check.mjs', ...args], { cwd: repoRoot, encoding: 'utf8' });
	return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('npm run release:check', () => {
	it('passes for the tag of the current version', () => {
		const r = releaseCheck(['--tag', `v${version}`]);
		expect(r.out).toMatch(/release check: all passed/);
		expect(r.code).toBe(0);
	}, 120_000);

	it('fails, naming the disagreement, for a tag of another version', () => {
		const r = releaseCheck(['--tag', 'v99.0.0', '--skip-build']);
		expect(r.out).toMatch(/FAIL version: .*\n.*the tag is v99\.0\.0, package\.json says/);
		expect(r.code).toBe(1);
	}, 120_000);
});
