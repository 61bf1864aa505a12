/** Which answers are retried, how often, and how long to wait in between. */

/** Retries of 429, 502, 503 and 504 per request (#10). */
export const MAX_RETRIES = 3;
/**
 * Retries per session, all pages of a listing together (#17): a platform answering 429 on every page
 * cannot hold a run for retries x pages.
 */
export const MAX_SESSION_RETRIES = 10;
export const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/**
 * Wait before retry number `attempt` (0-based): the server's Retry-After when it gave one, else
 * exponential backoff with jitter (0.5-1 s, 1-2 s, 2-4 s).
 */
export function retryDelayMs(attempt: number, retryAfterMs: number | undefined, random = Math.random): number {
	if (retryAfterMs !== undefined) return retryAfterMs;
	const ceiling = 1000 * 2 ** attempt;
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Waits `ms` (a retry's wait); false when the execution was cancelled meanwhile, so the Stop button
 * does not wait out a long Retry-After. AbortSignal.timeout: node code may not use setTimeout.
 */
export async function pause(ms: number, cancel?: AbortSignal): Promise<boolean> {
	if (cancel?.aborted) return false;
	// AbortSignal.any needs Node 20.3; n8n 1.x may run on Node 18, where only the timeout ends the wait.
	const signal =
		cancel && typeof AbortSignal.any === 'function' ? AbortSignal.any([AbortSignal.timeout(ms), cancel]) : AbortSignal.timeout(ms);
	await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
	return !cancel?.aborted;
}
