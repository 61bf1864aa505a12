import { HttpStatusError } from '../errors/errors';
import type { Deadline, Exchange } from './exchange';
import { lowerCaseHeaders, readAnswerBytes, readErrorMessage, requestDeadline, sendGet } from './exchange';
import { describeRedirect, describeRedirectLoop, describeRedirectWithUserInfo } from './httpErrors';
import type { Text } from '../text/text';
import type { SessionUse } from './types';
import { discardBody } from './responseBody';
import type { RequestUrl } from './quotedUrl';
import { foreignUrl } from './quotedUrl';
import { RETRYABLE_STATUSES } from './retry';

/**
 * One read of a session: a request to one address, up to its first outcome. A read may start
 * before the walk needs it (read ahead, issue 33); then it goes only as far as the walk's order does
 * not decide: it follows same-origin redirects, reads a success whole within the room its session
 * gives it, and stops at a failed status. The rest (retries and their waits, the session's counters,
 * decoding and parsing) is the session's, when the walk takes the read, in the walk's order, as if
 * it had been asked then (transport.ts).
 */

const MAX_SAME_ORIGIN_REDIRECTS = 5;

/** Where one attempt of a read ended. */
export type Outcome =
	| { kind: 'answer'; buffer: Buffer; headers: Record<string, string | undefined>; status: number; url: string }
	| FailedStatus
	| { kind: 'failed'; error: unknown };

/** A failed status, not yet judged: retried or an error is the session's call when the walk takes the read. */
export interface FailedStatus {
	kind: 'status';
	status: number;
	headers: Record<string, string | undefined>;
	/** The address that answered it (after redirects), to send again, and how many redirects led there. */
	requested: RequestUrl;
	redirects: number;
	deadline: Deadline;
	/** The body, unread (the head's: a retry needs none of it), or the platform's message read from it (a read ahead's, which lets its connection go). */
	body?: unknown;
	message?: { said: string | undefined };
}

/** What a read needs from its session. */
export interface ReadHost {
	readonly origin: string;
	readonly reads: ReadsUnderWay;
	/** A status that asks the client to slow down (429, 502, 503, 504) came. */
	throttled(status: number): void;
}

export class PageRead {
	/** Body bytes this read holds now (counted against Max Response Size with the session's). */
	bytes = 0;

	dropped = false;

	/** Its outcome is not used: it gave its room to the page before it and is asked again when taken. */
	gaveWay = false;

	private stop = new AbortController();

	private attempts = 0;

	/** The first attempt's outcome, started with the read. */
	readonly first: Promise<Outcome>;

	constructor(
		private readonly host: ReadHost,
		readonly start: RequestUrl,
		readonly action: Text,
	) {
		this.first = this.attempt(start);
	}

	get url(): string {
		return this.start.href;
	}

	/** Stops it (its connection closed): its outcome is not used. */
	stopReading(): void {
		this.stop.abort();
		this.stop = new AbortController();
		this.bytes = 0;
	}

	/** Gives its room to the pages before it: stopped, and asked again when the walk takes it. */
	giveWay(): void {
		this.gaveWay = true;
		this.stopReading();
	}

	/**
	 * One attempt: send, follow same-origin redirects, and end at a success read whole, a failed
	 * status, or a failure (thrown errors become the outcome, already described).
	 */
	async attempt(start: RequestUrl, redirectsBefore = 0): Promise<Outcome> {
		const attempt = ++this.attempts;
		const exchange = this.host.reads.exchange(this, () => attempt === this.attempts && !this.dropped && !this.gaveWay);
		const stop = this.stop.signal;
		let requested = start;
		try {
			for (let redirects = redirectsBefore; ;) {
				const deadline = requestDeadline(exchange, stop);
				const url = requested.href;
				const response = await sendGet(exchange, url, this.action, deadline);
				const { statusCode } = response;
				const headers = lowerCaseHeaders(response.headers);
				if (statusCode >= 200 && statusCode < 300) {
					const buffer = await readAnswerBytes(exchange, response.body, headers, { statusCode, url, action: this.action, deadline });
					return { kind: 'answer', buffer, headers, status: statusCode, url };
				}
				if (statusCode >= 300 && statusCode < 400 && statusCode !== 304) {
					discardBody(response.body);
					requested = redirectTarget(this.host.origin, { statusCode, location: headers.location, requested, redirects: ++redirects });
					continue;
				}
				if (RETRYABLE_STATUSES.has(statusCode)) this.host.throttled(statusCode);
				const failed: FailedStatus = { kind: 'status', status: statusCode, headers, requested, redirects, deadline };
				if (this.host.reads.isHead(this)) return { ...failed, body: response.body };
				// A read ahead keeps no connection open until the walk takes it: the message is read now.
				return { ...failed, message: { said: await readErrorMessage(response.body, headers['content-type'], deadline.signal) } };
			}
		} catch (error) {
			return { kind: 'failed', error };
		}
	}
}

/**
 * The reads of a session under way, in the order the walk takes them (the first is the head), and
 * the room they hold: Max Response Size holds for everything the session holds at once, the pages
 * taken and every read under way together. A read that would pass it makes the reads after it give
 * way, then gives way itself if that is not enough (a read that gave way is asked again when the
 * walk takes it). The head gives way to none: it has the room the one-by-one walk would give it, so
 * it fails exactly when that one would.
 */
export class ReadsUnderWay {
	private readonly reads: PageRead[] = [];

	constructor(
		/** The session's use: what the walk took. */
		private readonly used: SessionUse,
		private readonly base: Pick<Exchange, 'context' | 'limits' | 'remainingMs'>,
		/** Called when a read gives way: reading ahead would pass Max Response Size. */
		private readonly crowded: () => void,
	) {}

	add(read: PageRead, { head }: { head: boolean }): void {
		if (head) this.reads.unshift(read);
		else this.reads.push(read);
	}

	release(read: PageRead): void {
		const at = this.reads.indexOf(read);
		if (at >= 0) this.reads.splice(at, 1);
		read.bytes = 0;
	}

	isHead(read: PageRead): boolean {
		return this.reads[0] === read;
	}

	/** The exchange of an attempt of `read`: the session's counters as they will stand when the walk takes it, its room while `live()`. */
	exchange(read: PageRead, live: () => boolean): Exchange {
		const { used, reads } = this;
		return {
			...this.base,
			// The reads before it are the pages the walk takes first: its texts count them as read.
			used: {
				get bytesRead() {
					return used.bytesRead;
				},
				get pagesRead() {
					return used.pagesRead + Math.max(0, reads.indexOf(read));
				},
				get retries() {
					return used.retries;
				},
			},
			admit: (bytes) => live() && this.admit(read, bytes),
			room: () => Math.max(0, this.base.limits.maxResponseBytes - used.bytesRead - this.othersHold(read)),
		};
	}

	private admit(read: PageRead, bytes: number): boolean {
		if (!this.fits(read, bytes)) {
			// The reads after it give way first (the walk takes them later); then, if still too much, it does.
			const at = this.reads.indexOf(read);
			for (let later = at + 1; later < this.reads.length; later++) if (this.reads[later].bytes > 0) this.reads[later].giveWay();
			this.crowded();
			if (!this.fits(read, bytes)) {
				if (at > 0) read.giveWay();
				return false;
			}
		}
		read.bytes = bytes;
		return true;
	}

	/** Whether `read` may hold `bytes` with what the walk took and every other read holds. */
	private fits(read: PageRead, bytes: number): boolean {
		return this.used.bytesRead + this.othersHold(read) + bytes <= this.base.limits.maxResponseBytes;
	}

	private othersHold(read: PageRead): number {
		return this.reads.reduce((sum, other) => (other === read ? sum : sum + other.bytes), 0);
	}
}

/** Where a redirect leads, when it may be followed: the key goes only where the user pointed it (same scheme, host and port). */
function redirectTarget(
	origin: string,
	{
		statusCode,
		location,
		requested,
		redirects,
	}: { statusCode: number; location: string | undefined; requested: RequestUrl; redirects: number },
): RequestUrl {
	const next = location && URL.canParse(location, requested.href) ? new URL(location, requested.href) : undefined;
	if (next !== undefined && next.origin === origin && (next.username !== '' || next.password !== '')) {
		throw new HttpStatusError(describeRedirectWithUserInfo(statusCode, requested.quoted), statusCode);
	}
	if (next?.origin !== origin) {
		// Quoted as foreign text (redacted, then bounded when shown): a hostile Location may be long and carry the key.
		const said = describeRedirect(statusCode, requested.quoted, location === undefined ? undefined : (next?.href ?? location));
		throw new HttpStatusError(said, statusCode);
	}
	if (redirects > MAX_SAME_ORIGIN_REDIRECTS) {
		throw new HttpStatusError(describeRedirectLoop(statusCode, requested.quoted, MAX_SAME_ORIGIN_REDIRECTS), statusCode);
	}
	return foreignUrl(next.href);
}
