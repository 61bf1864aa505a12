import type { Text } from '../text/text';
import { elide, text } from '../text/text';

/**
 * Pure mapping from what went wrong to what a user reads: `message` says what happened,
 * `description` says how to fix it (every `describe*`, in httpErrors.ts and transportErrors.ts, is a
 * pure function, unit-tested); errors.ts's one `toNodeError` turns such a text into an n8n error.
 * Both are Text (text.ts): the node's own wording with marked foreign parts, rendered only there.
 * Apart from errors.ts so that what the credential loads needs nothing of n8n (tools read the packed
 * credential outside n8n, where n8n-workflow is not installed).
 */
export interface ErrorText {
	message: Text;
	description: Text;
}

/**
 * A failure the user can act on, raised by pure code (no n8n context there); `description` says how
 * to fix it. The node code turns it into a NodeApiError or NodeOperationError with the item index.
 * The Error's own `message` leaves the foreign parts out (…): whatever shows it, no foreign text can
 * escape through it unredacted. `text` keeps them, marked, for toNodeError to render.
 */
export class DescribedError extends Error {
	readonly text: ErrorText;

	constructor(message: Text, description: Text) {
		super(elide(message));
		this.name = new.target.name;
		this.text = { message, description };
	}

	/** The fix, with foreign parts left out (as `message`). */
	get description(): string {
		return elide(this.text.description);
	}

	/** Adds to the fix (e.g. how often the request was retried). */
	addToDescription(more: Text): void {
		(this as { text: ErrorText }).text = { ...this.text, description: text`${this.text.description}${more}` };
	}
}

/** A failure carrying the HTTP status it came with: becomes a NodeApiError with `httpCode`. */
export class HttpStatusError extends DescribedError {
	constructor(
		text: ErrorText,
		readonly httpCode: number,
	) {
		super(text.message, text.description);
	}
}
