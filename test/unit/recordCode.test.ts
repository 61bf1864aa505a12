import { readFileSync } from 'node:fs';

import { SERVICE_FIELDS } from '../../nodes/shared/serviceFields';
import { isValidServiceRecordFast, simplifyServiceRecord } from '../../nodes/shared/serviceRecord';
import { serviceRecord } from '../harness/fixtures';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { renderRecordCode, TARGET } = require('../../scripts/lib/record-code.cjs') as {
	renderRecordCode: (fields: typeof SERVICE_FIELDS) => string;
	TARGET: string;
};

describe('serviceRecord.fast.ts, generated from SERVICE_FIELDS', () => {
	test('is up to date with the declaration (else run `npm run generate:record`)', () => {
		expect(readFileSync(TARGET, 'utf8')).toBe(renderRecordCode(SERVICE_FIELDS));
	});

	test('a declaration change changes the generated check and Simplify', () => {
		const extra = [
			...SERVICE_FIELDS,
			{ key: 'bandwidth_gb', path: ['values', 'values', 'service', 'customize', 'specifications', 'GB', 'bandwidth'], type: 'integer' },
		] as unknown as typeof SERVICE_FIELDS;
		const code = renderRecordCode(extra);
		expect(code).toContain('if (!isIntegerOrAbsent(c7.bandwidth)) return false;');
		expect(code).toContain('bandwidth_gb: c7 === undefined ? null : (c7.bandwidth as number | null | undefined) ?? null,');
	});

	test('Simplify gives every declared key, in declaration order, after id_service', () => {
		const simplified = simplifyServiceRecord(serviceRecord({ id: 'srv-1' }) as never);
		expect(Object.keys(simplified)).toEqual(['id_service', ...SERVICE_FIELDS.map((field) => field.key)]);
		expect(isValidServiceRecordFast(serviceRecord({ id: 'srv-1' }))).toBe(true);
	});
});
