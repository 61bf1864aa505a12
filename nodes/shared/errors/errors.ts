import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Redact } from '../text/text';
import { DESCRIPTION_MAX, foreign, MESSAGE_MAX, render } from '../text/text';
import { DescribedError, HttpStatusError } from './described';

export type { ErrorText } from './described';
// DescribedError lives in described.ts (nothing of n8n there); the node code imports it from here.
export { DescribedError, HttpStatusError };

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
