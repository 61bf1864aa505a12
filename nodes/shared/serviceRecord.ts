import { z } from 'zod';

import { clip, isJsonObject } from './json';
import { PROVIDER_HINT, ServiceResponseError } from './listing';

/**
 * The service record as the spec documents it. Every documented field is checked only when present
 * (the spec does not say which are required, except that a record is identified by `id_service`);
 * `null` counts as absent. Unknown fields pass through untouched: the spec says records may carry
 * more than it lists.
 */
const optionalString = z.string().nullish();
const optionalInteger = z.number().int().nullish();

export const serviceRecordSchema = z
	.object({
		id_service: z.string().min(1),
		values: z
			.object({
				values: z
					.object({
						name: optionalString,
						alias: optionalString,
						status: optionalString,
						service: z
							.object({
								customize: z
									.object({
										OS: z.object({ id: optionalString, name: optionalString }).passthrough().nullish(),
										specifications: z
											.object({
												vcores: optionalInteger,
												GB: z
													.object({ ram: optionalInteger, hd: optionalInteger })
													.passthrough()
													.nullish(),
											})
											.passthrough()
											.nullish(),
									})
									.passthrough()
									.nullish(),
							})
							.passthrough()
							.nullish(),
					})
					.passthrough()
					.nullish(),
			})
			.passthrough()
			.nullish(),
	})
	.passthrough();

export type ServiceRecord = z.infer<typeof serviceRecordSchema>;

/** The flat view most workflows want (the node's "Simplify" output). */
export interface SimplifiedService {
	id_service: string;
	name: string | null;
	alias: string | null;
	status: string | null;
	os_id: string | null;
	os_name: string | null;
	vcores: number | null;
	ram_gb: number | null;
	hd_gb: number | null;
	[key: string]: string | number | null;
}

/**
 * For a record the fast check refused: zod decides (it accepts a little more, e.g. objects with another
 * prototype) and names the wrong field. zod on every record cost ~10 us and much garbage each (bench).
 * Returns the record itself, so raw output stays what the API sent.
 */
export function validateServiceRecord(candidate: unknown, label: string): ServiceRecord {
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
		`Field ${path}: expected ${expected}, received ${received}. ${PROVIDER_HINT}`,
	);
}

const isStringOrNullish = (value: unknown) => value === undefined || value === null || typeof value === 'string';
const isIntegerOrNullish = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'number' && Number.isInteger(value));
const isNullish = (value: unknown) => value === undefined || value === null;

/**
 * True only for records `serviceRecordSchema` accepts (checked by a property test); false sends the
 * record to zod, which then decides and names the wrong field.
 */
export function isValidServiceRecordFast(record: unknown): boolean {
	if (!isJsonObject(record) || typeof record.id_service !== 'string' || record.id_service.length === 0) return false;
	const outer = record.values;
	if (isNullish(outer)) return true;
	if (!isJsonObject(outer)) return false;
	const data = outer.values;
	if (isNullish(data)) return true;
	if (!isJsonObject(data) || !isStringOrNullish(data.name) || !isStringOrNullish(data.alias) || !isStringOrNullish(data.status)) return false;
	const service = data.service;
	if (isNullish(service)) return true;
	if (!isJsonObject(service)) return false;
	const customize = service.customize;
	if (isNullish(customize)) return true;
	if (!isJsonObject(customize)) return false;
	const os = customize.OS;
	if (!isNullish(os) && (!isJsonObject(os) || !isStringOrNullish(os.id) || !isStringOrNullish(os.name))) return false;
	const specifications = customize.specifications;
	if (isNullish(specifications)) return true;
	if (!isJsonObject(specifications) || !isIntegerOrNullish(specifications.vcores)) return false;
	const gb = specifications.GB;
	return isNullish(gb) || (isJsonObject(gb) && isIntegerOrNullish(gb.ram) && isIntegerOrNullish(gb.hd));
}

function fail(message: string, description: string): never {
	throw new ServiceResponseError(message, description);
}

/** Simplify: one flat object per service; a field the record lacks becomes null, never a crash. */
export function simplifyServiceRecord(record: ServiceRecord): SimplifiedService {
	const data = record.values?.values;
	const customize = data?.service?.customize;
	const specifications = customize?.specifications;
	return {
		id_service: record.id_service,
		name: data?.name ?? null,
		alias: data?.alias ?? null,
		status: data?.status ?? null,
		os_id: customize?.OS?.id ?? null,
		os_name: customize?.OS?.name ?? null,
		vcores: specifications?.vcores ?? null,
		ram_gb: specifications?.GB?.ram ?? null,
		hd_gb: specifications?.GB?.hd ?? null,
	};
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
