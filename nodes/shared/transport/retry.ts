import { formatDuration } from '../text/text';
import type { Text } from '../text/text';
import { foreign, own, text } from '../text/text';

/** Which answers are retried, how often, and how long to wait in between (a Retry-After read as HTTP defines it, below). */

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

// ---- Retry-After ---------------------------------------------------------------------------------

/**
 * `Retry-After` read as HTTP defines it (RFC 9110 §10.2.3): delta-seconds (digits only) or an
 * HTTP-date (§5.6.7) in one of its three forms, each matched exactly, case included:
 *   IMF-fixdate   Sun, 06 Nov 1994 08:49:37 GMT
 *   RFC 850       Sunday, 06-Nov-94 08:49:37 GMT   (two-digit year: never more than 50 years ahead)
 *   asctime       Sun Nov  6 08:49:37 1994
 * Anything else is nonsense and is ignored (README: "nonsense is ignored, never shown"): never
 * Date.parse, which reads `later 3000` as the year 3000. A date that does not exist (31 Feb, 25:00)
 * is nonsense too. The day name is not checked against the date.
 */

/** Longest wait a Retry-After may ask for before we call it nonsense: a day. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC_850 = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} (\\d{2}| \\d) ${TIME} (\\d{4})$`);

/** What a Retry-After says: a wait in seconds, or a moment (ms since the epoch). */
type RetryAfter = { seconds: number } | { at: number };

/** Reads a Retry-After value; undefined when absent or not one of the forms HTTP defines. */
export function readRetryAfter(value: string | undefined, now = Date.now()): RetryAfter | undefined {
	const trimmed = value?.trim() ?? '';
	if (/^\d+$/.test(trimmed)) return { seconds: Number(trimmed) };
	let match = IMF_FIXDATE.exec(trimmed);
	if (match) return atOf(Number(match[3]), match[2], match[1], match.slice(4, 7));
	match = RFC_850.exec(trimmed);
	if (match) return atOf(fullYear(Number(match[3]), now), match[2], match[1], match.slice(4, 7));
	match = ASCTIME.exec(trimmed);
	if (match) return atOf(Number(match[6]), match[1], match[2], match.slice(3, 6));
	return undefined;
}

/**
 * RFC 9110 §5.6.7: a two-digit year that would be more than 50 years in the future is the most
 * recent past year with those last two digits.
 */
function fullYear(twoDigits: number, now: number): number {
	const thisYear = new Date(now).getUTCFullYear();
	let year = thisYear - (thisYear % 100) + twoDigits;
	if (year > thisYear + 50) year -= 100;
	return year;
}

/** The moment of a date whose parts each are in range (day within its month), else undefined. */
function atOf(year: number, monthName: string, dayText: string, [hours, minutes, seconds]: string[]): RetryAfter | undefined {
	const month = MONTHS.indexOf(monthName);
	const day = Number(dayText.trim());
	const [h, m, s] = [Number(hours), Number(minutes), Number(seconds)];
	// Second 60: a leap second (RFC 9110 allows it; Date.UTC carries it into the next minute).
	if (h > 23 || m > 59 || s > 60 || day < 1) return undefined;
	const date = new Date(0);
	date.setUTCFullYear(year, month, day); // setUTCFullYear, not Date.UTC: years 0-99 stay themselves
	if (date.getUTCDate() !== day) return undefined; // 31 Feb rolled into March
	date.setUTCHours(h, m, s, 0);
	return { at: date.getTime() };
}

/** The wait a Retry-After read asks for in ms: capped at a day, never negative. */
function waitOf(read: RetryAfter, now: number): number {
	const ms = 'seconds' in read ? read.seconds * 1000 : read.at - now;
	return Math.min(Math.max(0, ms), MAX_RETRY_AFTER_MS);
}

/**
 * The wait a Retry-After asks for in ms, capped at a day, never negative; undefined when absent or
 * unreadable (`-5`, `1.5`, `1e23`, `soon`, `later 3000`).
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	const read = readRetryAfter(value, now);
	return read === undefined ? undefined : waitOf(read, now);
}

/** A readable Retry-After ("30 s", "5 min (until 2026-…)"), or undefined when there is none that makes sense. */
export function describeRetryAfter(value: string | undefined, now = Date.now()): Text | undefined {
	const read = readRetryAfter(value, now);
	if (read === undefined) return undefined;
	const ms = waitOf(read, now);
	// 0 (or a date already past) asks for no wait at all: nothing worth saying.
	if (ms === 0) return undefined;
	const wait = ms <= 120_000 ? text`${Math.ceil(ms / 1000)} s` : formatDuration(ms);
	const capped = ms === MAX_RETRY_AFTER_MS ? own(' or more') : own('');
	// The date as the node writes it (ISO 8601), from the one it read: quoted as foreign text.
	const until = 'at' in read ? text` (until ${foreign(new Date(read.at).toISOString())})` : own('');
	return text`${wait}${capped}${until}`;
}
