import { z } from 'zod';

import { DescribedError } from '../errors/errors';
import { describeType, isJsonObject } from '../json/json';
import { MAX_RECORD_DEPTH, pathTooDeep } from './recordDepth';
import type { ServiceFieldDeclaration, ServiceRecord, SimplifiedService } from './serviceFields';
import { SERVICE_FIELDS } from './serviceFields';
import { isValidServiceRecordFast, simplifyServiceRecord, simplifyServiceRecordFast } from './serviceRecord.fast';
import type { Text } from '../text/text';
import { foreign, join, own, text } from '../text/text';

// The per-record fast check and Simplify are generated from SERVICE_FIELDS (tools/generate/record-code.cjs).
export { isValidServiceRecordFast, simplifyServiceRecord, simplifyServiceRecordFast } from './serviceRecord.fast';
export { MAX_RECORD_DEPTH } from './recordDepth';

/**
 * The service record as the spec documents it, built from the field declaration (serviceFields.ts).
 * Every documented field is checked only when present (the spec does not say which are required,
 * except that a record is identified by `id_service`); `null` counts as absent. Unknown fields pass
 * through untouched: the spec says records may carry more than it lists.
 */
export const serviceRecordSchema = recordSchemaOf(SERVICE_FIELDS);

export type { ServiceRecord, SimplifiedService } from './serviceFields';

/** How deep the documented record nests (its deepest object, counted as in recordDepth.ts). */
const DOCUMENTED_DEPTH = Math.max(...SERVICE_FIELDS.map((field) => field.path.length));

/**
 * For a record the fast check refused: zod decides (it accepts a little more, e.g. objects with another
 * prototype) and names the wrong field; then the nesting bound, which names the field too deep. zod
 * on every record cost ~10 us and much garbage each (bench). Returns the record itself, so raw
 * output stays what the API sent. `advice` ends the description (what the caller suggests).
 */
function validateServiceRecord(candidate: unknown, label: Text, advice: Text | undefined): ServiceRecord {
	const id =
		isJsonObject(candidate) && typeof candidate.id_service === 'string'
			? text` (id_service "${foreign(candidate.id_service, 80)}")`
			: own('');
	const result = serviceRecordSchema.safeParse(candidate);
	if (!result.success) {
		const issue = result.error.issues[0];
		const expected =
			'expected' in issue
				? foreign(String(issue.expected), 40)
				: issue.code === 'too_small' && issue.type === 'string'
					? own('a non-empty string')
					: foreign(issue.message, 120);
		throw new ServiceResponseError(
			text`Service record ${label}${id} does not match the documented schema`,
			withAdvice(text`Field ${fieldPath(issue.path)}: expected ${expected}, received ${describeValueAt(candidate, issue.path)}.`, advice),
		);
	}
	const tooDeep = pathTooDeep(candidate as object, 1);
	if (tooDeep !== undefined) {
		throw new ServiceResponseError(
			text`Service record ${label}${id} is nested more than ${MAX_RECORD_DEPTH} levels deep`,
			withAdvice(
				join(
					[
						text`The field at ${fieldPath(tooDeep)} goes deeper; the documented record is ${DOCUMENTED_DEPTH} levels deep.`,
						own(
							'The node refuses records nested deeper than that bound because n8n cannot store data nested a few thousand levels deep: ' +
								'saving the run would fail with "Maximum call stack size exceeded".',
						),
					],
					own(' '),
				),
				advice,
			),
		);
	}
	return candidate as ServiceRecord;
}

/**
 * One record of a listing, validated: the fast check first (schema and nesting bound, in one pass),
 * the slow path only when it refuses (it then decides and names the wrong field). `label` says which
 * record it is (e.g. `#3 of 40`); it is only called for the error message; `advice` ends its
 * description (what the caller suggests). Returns the record itself, so raw output stays what the API sent.
 */
export function parseServiceRecord(candidate: unknown, label: () => Text, advice?: Text): ServiceRecord {
	return isValidServiceRecordFast(candidate) ? (candidate as ServiceRecord) : validateServiceRecord(candidate, label(), advice);
}

/**
 * parseServiceRecord and Simplify in the same pass: the record's Simplify view when it is valid (the
 * record itself is `candidate`, unchanged), the same error when it is not. Each record is read once
 * (docs/performance.md).
 */
export function parseSimplifiedServiceRecord(candidate: unknown, label: () => Text, advice?: Text): SimplifiedService {
	return simplifyServiceRecordFast(candidate) ?? simplifyServiceRecord(validateServiceRecord(candidate, label(), advice));
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
 * An answer the node cannot use (a record off the schema or nested too deep here, a listing shape in
 * answer/answerTexts.ts); what it quotes from the answer is foreign text (text.ts).
 */
export class ServiceResponseError extends DescribedError {}

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

/** The value at `path` in a record: its type, and a short quote of a string, number or boolean. */
function describeValueAt(root: unknown, path: ReadonlyArray<string | number>): Text {
	let value: unknown = root;
	for (const key of path) {
		value = isJsonObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
	}
	if (value === undefined) return own('nothing (missing)');
	if (typeof value === 'string') return text`string "${foreign(value, 40)}"`;
	if (typeof value === 'number' || typeof value === 'boolean') return text`${describeType(value)} ${foreign(value, 40)}`;
	return describeType(value);
}

/** A field's place in a record as the platform named it (`values.values.name`, `extra.list[2].x`). */
function fieldPath(path: ReadonlyArray<string | number>): Text {
	if (path.length === 0) return own('(the record itself)');
	const written = path.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? key : `.${key}`)).join('');
	return foreign(written, 200);
}

function withAdvice(description: Text, advice: Text | undefined): Text {
	return advice === undefined ? description : join([description, advice], own(' '));
}
