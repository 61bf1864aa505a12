import type { Text } from '../text/text';
import { own, text } from '../text/text';

/** JSON values as the node reads and names them: a type guard, a value's type or kind in words, a platform's message. */

/** A JSON object (what JSON.parse makes): not null, not an array, a plain or null prototype. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const prototype = Object.getPrototypeOf(value);
	return prototype === Object.prototype || prototype === null;
}

const TYPE_NAMES: Record<string, Text> = {
	string: own('string'),
	number: own('number'),
	bigint: own('bigint'),
	boolean: own('boolean'),
	symbol: own('symbol'),
	undefined: own('undefined'),
	object: own('object'),
	function: own('function'),
};

/** A value's JSON type in the node's words (`array of 3`, `decimal number`), never the value. */
export function describeType(value: unknown): Text {
	if (value === null) return own('null');
	if (Array.isArray(value)) return text`array of ${value.length}`;
	if (typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value)) return own('decimal number');
	return TYPE_NAMES[typeof value];
}

/**
 * The platform's own words from a JSON error body, if it sent some: foreign text, whitespace runs
 * made one space; the caller quotes it with foreign(), which redacts and bounds it when shown.
 */
export function platformMessageOf(body: unknown): string | undefined {
	if (!isJsonObject(body)) return undefined;
	for (const key of ['message', 'error_description', 'detail', 'error', 'title']) {
		const value = body[key];
		if (typeof value === 'string' && value.trim() !== '') return value.replace(/\s+/g, ' ').trim();
		if (key === 'error' && isJsonObject(value)) return platformMessageOf(value);
	}
	// JSON:API and GraphQL style: `{ "errors": [{ "detail" | "message" | "title": "..." }] }`.
	if (Array.isArray(body.errors) && isJsonObject(body.errors[0])) return platformMessageOf(body.errors[0]);
	return undefined;
}

/** The kind of a value without the value (for the credential, whose values are never shown). */
export function kindOf(value: unknown): Text {
	if (value === null) return own('null');
	if (Array.isArray(value)) return own('a list');
	switch (typeof value) {
		case 'undefined':
			return own('undefined');
		case 'string':
			return own('text');
		case 'number':
			return own('a number');
		case 'boolean':
			return own('a boolean');
		case 'bigint':
			return own('a big integer');
		case 'object':
			return own('an object');
		default:
			return own('a function or symbol');
	}
}
