/**
 * Jest `globalSetup`: runs once, in jest's own process, before any worker starts. Workers inherit
 * `process.env`, so every test sees:
 * - `TMPDIR` set to a folder of this run's own (`os.tmpdir()` reads it), which the global teardown
 *   checks is empty: a test that leaves a file or folder behind fails the run;
 * - n8n-core's settings (env.ts), with `N8N_USER_FOLDER` next to that folder;
 * - the seed of every fast-check property (propertySeed.ts), fixed per commit, printed here.
 * (A `process.on('exit')` in a setup file does not work: jest hands each test file its own copy of
 * `process`, whose 'exit' never fires, which is how one run used to leave ~20 folders behind.)
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { n8nTestEnv } from './env';
import { resolvePropertySeed, SEED_VARIABLE } from './propertySeed';

export const RUN_DIR_VARIABLE = 'SERVICE_PLATFORM_TEST_RUN_DIR';

export default function globalSetup(): void {
	const runDir = mkdtempSync(join(tmpdir(), 'n8n-nodes-service-platform-test-'));
	const testTmp = join(runDir, 'tmp');
	const userFolder = join(runDir, 'n8n-user');
	mkdirSync(testTmp);
	mkdirSync(userFolder);
	process.env[RUN_DIR_VARIABLE] = runDir;
	process.env.TMPDIR = testTmp;
	Object.assign(process.env, n8nTestEnv(userFolder));
	if (!process.env.FC_EXPLORE_SEEDS) {
		const { seed, from } = resolvePropertySeed();
		process.env[SEED_VARIABLE] = String(seed);
		console.log(`\nfast-check seed ${seed} (${from}); FC_SEED=<integer> runs the properties with another`);
	}
}
