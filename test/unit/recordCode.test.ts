import { readFileSync } from 'node:fs';

import { SERVICE_FIELDS } from '../../nodes/shared/record/serviceFields';
import { isValidServiceRecordFast, simplifyServiceRecord } from '../../nodes/shared/record/serviceRecord';
import { serviceRecord } from '../harness/fixtures';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { renderRecordCode, TARGET } = require('../../tools/generate/record-code.cjs') as {
	renderRecordCode: (fields: typeof SERVICE_FIELDS) => string;
	TARGET: string;
};

describe('serviceRecord.fast.ts, generated from SERVICE_FIELDS', () => {
	test('is up to date with the declaration (else run `npm run generate:record`)', () => {
		expect(readFileSync(TARGET, 'utf8')).toBe(renderRecordCode(SERVICE_FIELDS));
	});

	test('a declaration change changes the generated check, the check fused with Simplify, and Simplify', () => {
		const extra = [
			...SERVICE_FIELDS,
			{ key: 'bandwidth_gb', path: ['values', 'values', 'service', 'customize', 'specifications', 'GB', 'bandwidth'], type: 'integer' },
		] as unknown as typeof SERVICE_FIELDS;
		const code = renderRecordCode(extra);
		expect(code).toContain('if (!isIntegerOrAbsent(c7.bandwidth)) return false;');
		expect(code).toContain('if (!isIntegerOrAbsent(c7.bandwidth)) return undefined;');
		expect(code).toContain('bandwidth_gb: (c7 === undefined || c7 === null) ? null : (c7.bandwidth as number | null | undefined) ?? null,');
		expect(code).toContain('bandwidth_gb: c7 === undefined ? null : (c7.bandwidth as number | null | undefined) ?? null,');
	});

	test('every documented object gets the nesting bound at its level, its documented children left to their own check', () => {
		const code = renderRecordCode(SERVICE_FIELDS);
		expect(code).toContain(
			"\tfor (const key in record) {\n\t\tconst item = record[key];\n\t\tif (typeof item !== 'object' || item === null || item === c1) continue;\n\t\tif (pathTooDeep(item, 2) !== undefined) return false;",
		);
		expect(code).toContain(
			"if (typeof item !== 'object' || item === null || item === c5 || item === c6) continue;\n\t\t\tif (pathTooDeep(item, 6) !== undefined) return false;",
		);
		expect(code).toContain(
			"\tif (!(c7 === undefined || c7 === null)) {\n\t\tfor (const key in c7) {\n\t\t\tconst item = c7[key];\n\t\t\tif (typeof item !== 'object' || item === null) continue;\n\t\t\tif (pathTooDeep(item, 8) !== undefined) return false;",
		);
		const billing = [
			...SERVICE_FIELDS,
			{ key: 'plan', path: ['values', 'values', 'billing', 'plan'], type: 'string' },
		] as unknown as typeof SERVICE_FIELDS;
		const withBilling = renderRecordCode(billing);
		expect(withBilling).toContain(
			"if (typeof item !== 'object' || item === null || item === c3 || item === c8) continue;\n\t\t\tif (pathTooDeep(item, 4) !== undefined) return false;",
		);
		expect(withBilling).toContain('\t\tfor (const key in c8) {');
	});

	test('Simplify gives every declared key, in declaration order, after id_service', () => {
		const simplified = simplifyServiceRecord(serviceRecord({ id: 'srv-1' }) as never);
		expect(Object.keys(simplified)).toEqual(['id_service', ...SERVICE_FIELDS.map((field) => field.key)]);
		expect(isValidServiceRecordFast(serviceRecord({ id: 'srv-1' }))).toBe(true);
	});
});
