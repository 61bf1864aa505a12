/**
 * Jest `globalTeardown`: removes the run's folder (see globalSetup.ts) and fails the run when a test
 * left anything in the temporary folder the tests were given, naming what it left.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { RUN_DIR_VARIABLE } from './globalSetup';

export default function globalTeardown(): void {
	const runDir = process.env[RUN_DIR_VARIABLE];
	if (!runDir) return;
	const testTmp = join(runDir, 'tmp');
	let left: string[] = [];
	try {
		left = readdirSync(testTmp);
	} finally {
		rmSync(runDir, { recursive: true, force: true });
	}
	if (left.length) {
		throw new Error(
			`Tests left ${left.length} item(s) in the temporary folder (os.tmpdir()): ${left.join(', ')}. Remove what a test creates in afterAll or a finally block.`,
		);
	}
}
