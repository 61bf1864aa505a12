/**
 * Texts as a user would read them, for tests of the pure functions that build them: their Text
 * (text.ts) rendered with no key to redact and no bound, so assertions read the words and values.
 */
import type { Text } from '../../nodes/shared/text/text';
import { render } from '../../nodes/shared/text/text';

const noKey = (value: string) => value;

/** A Text (or a plain string) as shown, with nothing redacted or cut. */
export function shown(value: Text | string | undefined): string | undefined {
	return value === undefined ? undefined : render(value as Text, noKey, Infinity);
}

/** A `{ message, description }` text (a describe* result, or a DescribedError's `text`) as shown. */
export function shownText<T extends { message: unknown; description: unknown }>(value: T): { message: string; description: string } {
	return { message: shown(value.message as Text)!, description: shown(value.description as Text)! };
}

/**
 * A character no text a user sees may hold raw (nodes/shared/text/controls.ts, written apart here):
 * C0 and C1 controls, DEL, U+2028/U+2029, bidi controls, a lone surrogate.
 */
export const RAW_CONTROL =
	/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
