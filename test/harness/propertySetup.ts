/**
 * Jest `setupFiles`: runs in every test file before it, in its module registry, so the fast-check its
 * tests import is configured here: every property runs with the run's seed (propertySeed.ts).
 * When `FC_EXPLORE_SEEDS` is set (test/explore-properties.mjs), each property runs instead with that
 * many random seeds and `FC_RUNS_FACTOR` times its runs (fast-check as the tests import it is replaced
 * by one whose `assert` does so), and every failure is appended, with its seed and counterexample, to
 * `FC_EXPLORE_REPORT`; the test then fails with the first.
 */
import fc from 'fast-check';

import { runSeed } from './propertySeed';

if (Number(process.env.FC_EXPLORE_SEEDS ?? 0) > 0) {
	jest.mock('fast-check', () => {
		const actual = jest.requireActual<typeof import('fast-check') & { default: typeof import('fast-check') }>('fast-check');
		const { appendFileSync } = jest.requireActual<typeof import('node:fs')>('node:fs');
		const seeds = Number(process.env.FC_EXPLORE_SEEDS);
		const factor = Number(process.env.FC_RUNS_FACTOR ?? 1);
		const report = process.env.FC_EXPLORE_REPORT;
		// A long counterexample (a batch of generated cases) must not push out why it failed.
		const excerpt = (message: string): string => {
			const cause = message.indexOf('\nCause:');
			if (message.length <= 4000 || cause < 0) return message.slice(0, 4000);
			return `${message.slice(0, Math.min(cause, 1000))}\n…${message.slice(cause, cause + 3000)}`;
		};
		const explore = (property: never, params: { numRuns?: number } = {}): void | Promise<void> => {
			const numRuns = Math.max(1, Math.round((params.numRuns ?? 100) * factor));
			const failures: string[] = [];
			const failed = (seed: number, error: unknown): void => {
				const line = JSON.stringify({
					test: expect.getState().currentTestName ?? '?',
					seed,
					numRuns,
					error: excerpt(String((error as Error).message)),
				});
				if (report) appendFileSync(report, `${line}\n`);
				failures.push(`seed ${seed}: ${(error as Error).message}`);
			};
			const verdict = (): void => {
				if (failures.length > 0) throw new Error(`${failures.length} of ${seeds} seeds failed; the first:\n${failures[0]}`);
			};
			const seedsToTry = Array.from({ length: seeds }, () => (Math.random() * 2 ** 32) | 0);
			/** One seed: a failure recorded, thrown or rejected; an async property's promise returned. */
			const attempt = (seed: number): Promise<void> | undefined => {
				try {
					const result = actual.default.assert(property, { ...params, seed, numRuns } as never) as unknown;
					return result instanceof Promise ? result.then(undefined, (error: unknown) => failed(seed, error)) : undefined;
				} catch (error) {
					failed(seed, error);
					return undefined;
				}
			};
			const first = attempt(seedsToTry[0]);
			if (first !== undefined) {
				return (async () => {
					await first;
					for (const seed of seedsToTry.slice(1)) await attempt(seed);
					verdict();
				})();
			}
			for (const seed of seedsToTry.slice(1)) attempt(seed);
			verdict();
		};
		const patched = { ...actual.default, assert: explore };
		return { ...actual, __esModule: true, default: patched, assert: explore };
	});
} else {
	fc.configureGlobal({ seed: runSeed() });
}
