/**
 * The one seed of every fast-check property in a jest run (issue 28: `npm test` never fails at
 * random). It is fixed per commit: derived from the commit checked out, so a commit's run, in CI or on
 * a developer's machine, draws the same cases every time; `FC_SEED=<integer>` chooses another. The
 * global setup prints it; propertySetup.ts hands it to fast-check (`fc.configureGlobal`) in every test
 * file, so no property can run without it. Many random seeds are explored apart, by
 * `npm run explore:properties` (test/explore-properties.mjs); a counterexample it finds is kept as
 * a fixed case in its test.
 */
import { execFileSync } from 'node:child_process';

/** Set by the global setup for the workers: the seed resolved once per run. */
export const SEED_VARIABLE = 'SERVICE_PLATFORM_FC_SEED';
/** Used when there is no commit to derive one from (a copy without .git). */
const FALLBACK_SEED = 0x5eed;

export interface PropertySeed {
	seed: number;
	/** Where it came from, as printed. */
	from: string;
}

/** The seed of this run: FC_SEED when set, else derived from the commit checked out. */
export function resolvePropertySeed(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): PropertySeed {
	const chosen = env.FC_SEED?.trim();
	if (chosen) {
		const seed = Number(chosen);
		if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, not "${chosen}"`);
		return { seed: seed | 0, from: 'FC_SEED' };
	}
	try {
		const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
		return { seed: seedOfCommit(commit), from: `commit ${commit.slice(0, 7)}` };
	} catch {
		return { seed: FALLBACK_SEED, from: 'no commit found: the fixed fallback' };
	}
}

/** The first 8 hex digits of a commit id as a signed 32-bit integer (what fast-check takes). */
export function seedOfCommit(commit: string): number {
	if (!/^[0-9a-f]{8}/i.test(commit)) throw new Error(`not a commit id: "${commit}"`);
	return Number.parseInt(commit.slice(0, 8), 16) | 0;
}

/** The seed for the workers: the one the global setup resolved, or resolved here (a run without it). */
export function runSeed(env: NodeJS.ProcessEnv = process.env): number {
	const resolved = env[SEED_VARIABLE];
	return resolved !== undefined && resolved !== '' ? Number(resolved) : resolvePropertySeed(env).seed;
}
