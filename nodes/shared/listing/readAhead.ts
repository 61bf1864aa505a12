import type { Answer } from '../answer/answer';
import type { Text } from '../text/text';
import { foreign, join, own, text, thousands } from '../text/text';
import type { AheadRead, ApiResponse, ApiSession } from '../transport/transport';
import type { PageSequence } from './pageSequence';
import { addressAt, findSequence, lastPosition } from './pageSequence';

/**
 * Reading ahead along the platform's own page sequence (issue 33). The one-by-one walk
 * (listing.ts) stays the specification: this only ever asks for pages early. Where the links show
 * a sequence (pageSequence.ts) and the platform says where the listing ends, the pages after the
 * next one are requested before the walk reaches them, up to Parallel Requests under way. The walk
 * takes a read only when the page before it named exactly its address as next; at the first
 * disagreement every read ahead is dropped, unread, and the walk goes on one page after another.
 * A 429 or 503 (the session's oneAtATime) starts no further read. So the pages the walk takes, and
 * what it makes of them, are those of the one-by-one walk, and at most Parallel Requests - 1 reads
 * of a listing are wasted (past its end, or on a wrong guess).
 */
export class ReadAhead {
	/** Reads under way for the pages after the last one taken, in order. */
	private readonly reads: AheadRead[] = [];

	private sequence?: PageSequence;

	/** No read ahead starts any more. */
	private stopped = false;

	/** Why the walk reads (or went on to read) one page after another. */
	private why?: Text;

	private taken = 0;

	private dropped = 0;

	private mostAtOnce = 0;

	constructor(
		private readonly session: ApiSession,
		private readonly options: { action: Text; resumed: boolean; maxPages: number },
	) {
		if (session.parallelRequests <= 1) this.stop(own('Parallel Requests is 1'));
	}

	/** The answer at `target`, the next page the chain confirmed (or the first page): the read ahead for it, or asked now. */
	async fetch(target: string | { path: Text }): Promise<ApiResponse> {
		const read = this.reads[0];
		if (read !== undefined && read.url === target) {
			this.reads.shift();
			this.taken++;
			return await read.take();
		}
		// follow() keeps only reads the chain confirms: none is left here but by a caller's mistake.
		this.dropAll();
		return await this.session.get(target, { action: this.options.action });
	}

	/**
	 * After the walk joined the page at `position` (`next`: its next link, checked): the reads ahead
	 * are checked against it, and more are started, up to Parallel Requests under way, within the end
	 * the platform states and the pages the caller still `wanted`.
	 */
	follow(answer: Answer, { position, records, next, wanted }: { position: number; records: number; next?: string; wanted: number }): void {
		const guess = this.reads[0]?.url;
		if (guess !== undefined && guess !== next) {
			this.dropAll();
			const how = next === undefined ? own('was the last, before the end the platform stated') : own('named another next page');
			return this.stop(text`page ${position} ${how}; ${this.dropped} read(s) ahead dropped`);
		}
		if (this.stopped || next === undefined) return;
		const slowDown = this.session.oneAtATime;
		if (slowDown !== undefined) return this.stop(text`${slowDown} (by page ${position})`);
		if (this.sequence === undefined) {
			this.sequence = findSequence(answer.url, next, { records, position });
			// A later page's links may still show one.
			if (this.sequence === undefined) {
				this.why = own('the next links carry no page number or offset that moves on by a page (a cursor, say)');
				return;
			}
		} else if (addressAt(this.sequence, position + 1) !== next) {
			return this.stop(text`page ${position} named another next page than the sequence`);
		}
		const last = lastPosition(this.sequence, { extent: answer.extent, position, records, resumed: this.options.resumed });
		if (last === undefined) {
			this.why = own('the platform does not say where the listing ends (no last link, page count, or total)');
			return;
		}
		const { parallelRequests } = this.session;
		const until = Math.min(position + parallelRequests, last, position + wanted, this.options.maxPages);
		for (let at = position + 1 + this.reads.length; at <= until; at++) {
			this.reads.push(this.session.readAhead(addressAt(this.sequence, at), { action: this.options.action }));
		}
		this.mostAtOnce = Math.max(this.mostAtOnce, this.reads.length);
		if (this.reads.length > 0) this.why = undefined;
	}

	/** The walk ended (its last page, an early stop, an error): what is still under way is dropped. */
	close(): void {
		this.dropAll();
	}

	/** What the walk did, for the listing's log line. */
	summary(): Text {
		if (this.mostAtOnce === 0) return text`one at a time: ${this.why ?? own('one page')}`;
		const { name, kind, step } = this.sequence!;
		const moves = kind === 'page number' ? own('a page number') : text`an offset, by ${thousands(step)}`;
		const parts = [
			text`up to ${this.mostAtOnce} at a time (${this.taken} read ahead): the next links move "${foreign(name, 60)}" on (${moves}) and the platform says where the listing ends`,
		];
		const why = this.why ?? this.session.oneAtATime;
		if (why !== undefined) parts.push(text`then one at a time: ${why}`);
		if (this.why === undefined && this.dropped > 0) parts.push(text`${this.dropped} read(s) ahead not used`);
		return join(parts, own('; '));
	}

	private stop(why: Text): void {
		this.stopped = true;
		this.why ??= why;
	}

	private dropAll(): void {
		for (const read of this.reads.splice(0)) {
			read.drop();
			this.dropped++;
		}
	}
}
