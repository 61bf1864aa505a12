/** Small pure helpers shared by the node modules. */

/** A JSON object (what JSON.parse makes): not null, not an array, a plain or null prototype. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const prototype = Object.getPrototypeOf(value);
	return prototype === Object.prototype || prototype === null;
}

/** Shortens a text for a message: at most `max` characters, with "..." when cut. */
export function clip(text: string, max = 60): string {
	return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
