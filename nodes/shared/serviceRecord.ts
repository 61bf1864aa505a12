import { z } from 'zod';

import { DescribedError } from './errors';
import { clip, isJsonObject } from './json';
import type { ServiceFieldDeclaration, ServiceRecord, SimplifiedService } from './serviceFields';
import { SERVICE_FIELDS } from './serviceFields';
import { isValidServiceRecordFast } from './serviceRecord.fast';

// The per-record fast check and Simplify are generated from SERVICE_FIELDS (scripts/lib/record-code.cjs).
export { isValidServiceRecordFast, simplifyServiceRecord } from './serviceRecord.fast';

/**
 * The service record as the spec documents it, built from the field declaration (serviceFields.ts).
 * Every documented field is checked only when present (the spec does not say which are required,
 * except that a record is identified by `id_service`); `null` counts as absent. Unknown fields pass
 * through untouched: the spec says records may carry more than it lists.
 */
export const serviceRecordSchema = recordSchemaOf(SERVICE_FIELDS);

export type { ServiceRecord, SimplifiedService } from './serviceFields';

/**
 * For a record the fast check refused: zod decides (it accepts a little more, e.g. objects with another
 * prototype) and names the wrong field. zod on every record cost ~10 us and much garbage each (bench).
 * Returns the record itself, so raw output stays what the API sent.
 */
function validateServiceRecord(candidate: unknown, label: string, advice: string): ServiceRecord {
	const result = serviceRecordSchema.safeParse(candidate);
	if (result.success) return candidate as ServiceRecord;
	const issue = result.error.issues[0];
	const id =
		isJsonObject(candidate) && typeof candidate.id_service === 'string'
			? ` (id_service "${clip(candidate.id_service)}")`
			: '';
	const path = issue.path.length > 0 ? issue.path.join('.') : '(the record itself)';
	const expected =
		'expected' in issue
			? String(issue.expected)
			: issue.code === 'too_small' && issue.type === 'string'
				? 'a non-empty string'
				: issue.message;
	const received = describeValueAt(candidate, issue.path);
	return fail(
		`Service record ${label}${id} does not match the documented schema`,
		`Field ${path}: expected ${expected}, received ${received}.${advice ? ` ${advice}` : ''}`,
	);
}

/**
 * One record of a listing, validated: the fast check first, zod only when it refuses (zod then
 * decides and names the wrong field). `label` says which record it is (e.g. `#3 of 40`); it is only
 * called for the error message; `advice` ends its description (what the caller suggests). Returns the record itself, so raw output stays what the API sent.
 */
export function parseServiceRecord(candidate: unknown, label: () => string, advice = ''): ServiceRecord {
	return isValidServiceRecordFast(candidate) ? (candidate as ServiceRecord) : validateServiceRecord(candidate, label(), advice);
}

function recordSchemaOf(fields: readonly ServiceFieldDeclaration[]): z.ZodType<ServiceRecord, z.ZodTypeDef, unknown> {
	type Tree = Map<string, Tree | ServiceFieldDeclaration['type']>;
	const root: Tree = new Map();
	for (const field of fields) {
		let node = root;
		for (const key of field.path.slice(0, -1)) {
			const child = node.get(key);
			if (child instanceof Map) node = child;
			else node.set(key, (node = new Map()));
		}
		node.set(field.path[field.path.length - 1], field.type);
	}
	const shapeOf = (tree: Tree): z.ZodRawShape =>
		Object.fromEntries(
			[...tree].map(([key, value]) => [
				key,
				value instanceof Map
					? z.object(shapeOf(value)).passthrough().nullish()
					: value === 'integer'
						? z.number().int().nullish()
						: z.string().nullish(),
			]),
		);
	return z.object({ id_service: z.string().min(1), ...shapeOf(root) }).passthrough() as never;
}

/**
 * An answer the node cannot use (a record off the schema here, a listing shape in listing.ts);
 * `message` and `description` are safe to show (types and keys, never values).
 */
export class ServiceResponseError extends DescribedError {}

function fail(message: string, description: string): never {
	throw new ServiceResponseError(message, description);
}

/**
 * The record in the API's documented shape rebuilt from a simplified view, every declared path
 * present (a null field stays null). It is the `service` of a `removed` event when Simplify is off:
 * the record itself is gone, and the trigger keeps only the declared fields of it.
 */
export function nestServiceRecord(service: SimplifiedService): ServiceRecord {
	const record: ServiceRecord = { id_service: service.id_service };
	for (const field of SERVICE_FIELDS) {
		let holder: Record<string, unknown> = record;
		for (const key of field.path.slice(0, -1)) {
			if (!isJsonObject(holder[key])) holder[key] = {};
			holder = holder[key] as Record<string, unknown>;
		}
		holder[field.path[field.path.length - 1]] = service[field.key] ?? null;
	}
	return record;
}

export function describeType(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return `array of ${value.length}`;
	if (typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value)) return 'decimal number';
	return typeof value === 'object' ? 'object' : typeof value;
}

function describeValueAt(root: unknown, path: Array<string | number>): string {
	let value: unknown = root;
	for (const key of path) {
		value = isJsonObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
	}
	if (value === undefined) return 'nothing (missing)';
	if (typeof value === 'string') return `string "${clip(value, 40)}"`;
	if (typeof value === 'number' || typeof value === 'boolean') return `${describeType(value)} ${String(value)}`;
	return describeType(value);
}
