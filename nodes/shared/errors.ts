import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Redact } from './redact';
import { redactText } from './redact';

/**
 * Pure mapping from what went wrong to what a user reads: `message` says what happened,
 * `description` says how to fix it (every `describe*`, in httpErrors.ts and transportErrors.ts, is a
 * pure function, unit-tested), and the one `toNodeError` that turns such a text into an n8n error.
 */
export interface ErrorText {
	message: string;
	description: string;
}

/**
 * A failure the user can act on, raised by pure code (no n8n context there); `description` says how
 * to fix it. The node code turns it into a NodeApiError or NodeOperationError with the item index.
 */
export class DescribedError extends Error implements ErrorText {
	constructor(
		message: string,
		public description: string,
	) {
		super(message);
		this.name = new.target.name;
	}
}

export const RETRY_HINT = 'Try again later, or turn on "Retry On Fail" in the node settings (with a wait of a few seconds).';

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
 * The ONE way our errors become n8n errors (router, trigger and transport all use it):
 * - DescribedError -> NodeOperationError, or NodeApiError with `httpCode` when it has one;
 * - an n8n error passes through, redacted again (harmless: redaction is idempotent);
 * - anything else (a bug) -> NodeOperationError with its message.
 * The key is redacted in every form, `itemIndex` is set, and our text is put back after n8n's
 * constructor, which replaces a message containing a Node error code anywhere (e.g. "EPERM" in
 * "deepermind") with a generic one.
 */
export function toNodeError(
	node: INode,
	error: unknown,
	{ itemIndex, redact, httpCode }: { itemIndex: number; redact: Redact; httpCode?: number },
): NodeApiError | NodeOperationError {
	if (isNodeError(error)) {
		error.message = redact(error.message);
		if (typeof error.description === 'string') error.description = redact(error.description);
		if (error.context && error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	if (error instanceof DescribedError) {
		const text = redactText({ message: error.message, description: error.description }, redact);
		const status = httpCode ?? (error instanceof HttpStatusError ? error.httpCode : undefined);
		const nodeError =
			status === undefined
				? new NodeOperationError(node, text.message, { description: text.description, itemIndex })
				: // Built from our own text, never from a transport error: that one holds the request headers.
					new NodeApiError(node, { message: text.message, description: text.description } as JsonObject, {
						message: text.message,
						description: text.description,
						httpCode: String(status),
						itemIndex,
					});
		nodeError.message = text.message;
		nodeError.description = text.description;
		return nodeError;
	}
	const message = redact(error instanceof Error ? error.message : String(error));
	const nodeError = new NodeOperationError(node, message, { itemIndex });
	nodeError.message = message;
	return nodeError;
}

export function formatDuration(ms: number): string {
	if (ms < 1000) return `${Math.round(ms)} ms`;
	const seconds = ms / 1000;
	if (seconds < 120) return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
	if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
	return `${Math.round(seconds / 3600)} h`;
}

export function formatBytes(bytes: number): string {
	const mb = bytes / (1024 * 1024);
	if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
	return `${Math.ceil(bytes / 1024)} KB`;
}
