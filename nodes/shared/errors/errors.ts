import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Redact, Text } from '../text/text';
import { DESCRIPTION_MAX, elide, foreign, MESSAGE_MAX, render, text } from '../text/text';

/**
 * Pure mapping from what went wrong to what a user reads: `message` says what happened,
 * `description` says how to fix it (every `describe*`, in httpErrors.ts and transportErrors.ts, is a
 * pure function, unit-tested), and the one `toNodeError` that turns such a text into an n8n error.
 * Both are Text (text.ts): the node's own wording with marked foreign parts, rendered only there.
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

/** n8n's own error classes, recognised by name too: another copy of n8n-workflow fails `instanceof`. */
function isNodeError(error: unknown): error is NodeApiError | NodeOperationError {
	return (
		error instanceof NodeApiError ||
		error instanceof NodeOperationError ||
		(error instanceof Error && (error.name === 'NodeApiError' || error.name === 'NodeOperationError'))
	);
}

/**
 * Set on the n8n errors toNodeError built: their texts are final. A property (not a WeakSet) so that
 * a copy of the error (listingCache gives each item its own) is still known as rendered.
 */
const RENDERED = Symbol.for('n8n-nodes-service-platform.rendered');

function isRendered(error: object): boolean {
	return (error as { [RENDERED]?: boolean })[RENDERED] === true;
}

function markRendered<T extends object>(error: T): T {
	Object.defineProperty(error, RENDERED, { value: true, enumerable: false });
	return error;
}

/** The whole text came from outside (n8n, a library, a bug's message): one foreign part. */
function renderForeign(value: unknown, redact: Redact, max: number): string {
	return render(foreign(value, max), redact, max);
}

/**
 * The ONE way our errors become n8n errors (router, trigger, listSearch and transport all use it):
 * - DescribedError -> NodeOperationError, or NodeApiError with `httpCode` when it has one; its texts
 *   rendered (foreign parts redacted, then bounded; the node's wording untouched);
 * - an n8n error this function built passes through as it is;
 * - any other n8n error (n8n's own, e.g. a parameter it could not resolve) keeps its class, its
 *   texts rendered as foreign text;
 * - anything else (a bug) -> NodeOperationError with its message as foreign text.
 * `itemIndex` is set, and our text is put back after n8n's constructor, which replaces a message
 * containing a Node error code anywhere (e.g. "EPERM" in "deepermind") with a generic one.
 */
export function toNodeError(
	node: INode,
	error: unknown,
	{ itemIndex, redact, httpCode }: { itemIndex: number; redact: Redact; httpCode?: number },
): NodeApiError | NodeOperationError {
	if (isNodeError(error)) {
		if (!isRendered(error)) {
			error.message = renderForeign(error.message, redact, MESSAGE_MAX);
			if (typeof error.description === 'string') error.description = renderForeign(error.description, redact, DESCRIPTION_MAX);
			markRendered(error);
		}
		if (error.context && error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	if (error instanceof DescribedError) {
		const message = render(error.text.message, redact, MESSAGE_MAX);
		const description = render(error.text.description, redact, DESCRIPTION_MAX);
		const status = httpCode ?? (error instanceof HttpStatusError ? error.httpCode : undefined);
		const nodeError =
			status === undefined
				? new NodeOperationError(node, message, { description, itemIndex })
				: // Built from our own text, never from a transport error: that one holds the request headers.
					new NodeApiError(node, { message, description } as JsonObject, {
						message,
						description,
						httpCode: String(status),
						itemIndex,
					});
		nodeError.message = message;
		nodeError.description = description;
		return markRendered(nodeError);
	}
	const message = renderForeign(error instanceof Error ? error.message : String(error), redact, MESSAGE_MAX);
	const nodeError = new NodeOperationError(node, message, { itemIndex });
	nodeError.message = message;
	return markRendered(nodeError);
}
