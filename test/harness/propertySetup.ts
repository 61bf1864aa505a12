/**
 * Jest `setupFiles`: runs in every test file before it, in its module registry, so the fast-check its
 * tests import is configured here: every property runs with the run's seed (propertySeed.ts).
 * When `FC_EXPLORE_SEEDS` is set (scripts/explore-properties.mjs), each property runs instead with that
 * many random seeds and `FC_RUNS_FACTOR` times its runs, and every failure is appended, with its seed
 * and counterexample, to `FC_EXPLORE_REPORT`; the test then fails with the first.
 */
import { appendFileSync } from 'node:fs';

import fc from 'fast-check';

import { runSeed } from './propertySeed';

const exploreSeeds = Number(process.env.FC_EXPLORE_SEEDS ?? 0);

if (exploreSeeds > 0) {
	const factor = Number(process.env.FC_RUNS_FACTOR ?? 1);
	const report = process.env.FC_EXPLORE_REPORT;
	const original = fc.assert;
	const explore = ((property: Parameters<typeof fc.assert>[0], params: Parameters<typeof fc.assert>[1] = {}) => {
		const failures: string[] = [];
		for (let round = 0; round < exploreSeeds; round++) {
			const seed = (Math.random() * 2 ** 32) | 0;
			const numRuns = Math.max(1, Math.round((params.numRuns ?? 100) * factor));
			try {
				original(property as never, { ...params, seed, numRuns } as never);
			} catch (error) {
				const test = expect.getState().currentTestName ?? '?';
				const line = `${JSON.stringify({ test, seed, numRuns, error: String((error as Error).message).slice(0, 4000) })}\n`;
				if (report) appendFileSync(report, line);
				failures.push(`seed ${seed}: ${(error as Error).message}`);
			}
		}
		if (failures.length > 0) throw new Error(`${failures.length} of ${exploreSeeds} seeds failed; the first:\n${failures[0]}`);
	}) as typeof fc.assert;
	fc.assert = explore;
} else {
	fc.configureGlobal({ seed: runSeed() });
}
