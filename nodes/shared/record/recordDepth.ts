/**
 * How deep a record may nest, unknown fields included: the bound on what n8n must store.
 *
 * The record object is level 1; an object or array inside it is level 2, and so on. The documented
 * record nests 7 levels (record > values > values > service > customize > specifications > GB).
 * 64 is far above that and above any API record seen in practice (it is the default maximum depth
 * of .NET's System.Text.Json), and far below where n8n's own handling of run data runs out of stack
 * on Node 20: JSON.stringify fails from about 4,000 levels, n8n-workflow's deepCopy from about
 * 3,700 and structuredClone from about 2,000 (measured with nothing else on the stack; n8n's
 * frames lower that). Deeper, a record would pass the node and then fail n8n's saving of the run
 * with an engine error ("Maximum call stack size exceeded") instead of the node's own.
 */
export const MAX_RECORD_DEPTH = 64;

/**
 * Where `value`, an object or array at nesting `level` (the record itself is level 1), holds an
 * object or array deeper than MAX_RECORD_DEPTH: the keys from `value` down to it. `undefined` when
 * everything in it is within the bound; it allocates nothing then, so the generated fast check
 * (serviceRecord.fast.ts) can call it for each object or array it meets outside the documented ones. It never recurses more than MAX_RECORD_DEPTH calls deep.
 */
export function pathTooDeep(value: object, level: number): Array<string | number> | undefined {
	if (level > MAX_RECORD_DEPTH) return [];
	if (Array.isArray(value)) {
		for (let index = 0; index < value.length; index++) {
			const item: unknown = value[index];
			if (typeof item !== 'object' || item === null) continue;
			const below = pathTooDeep(item, level + 1);
			if (below !== undefined) return [index, ...below];
		}
		return undefined;
	}
	for (const key in value) {
		const item = (value as Record<string, unknown>)[key];
		if (typeof item !== 'object' || item === null) continue;
		const below = pathTooDeep(item, level + 1);
		if (below !== undefined) return [key, ...below];
	}
	return undefined;
}
