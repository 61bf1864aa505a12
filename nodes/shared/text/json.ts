/** Small pure helpers shared by the node modules. */

/** A JSON object (what JSON.parse makes): not null, not an array, a plain or null prototype. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const prototype = Object.getPrototypeOf(value);
	return prototype === Object.prototype || prototype === null;
}
