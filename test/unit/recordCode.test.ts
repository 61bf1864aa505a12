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

	test('every documented object gets the nesting bound at its level, its documented children left to their own line', () => {
		const code = renderRecordCode(SERVICE_FIELDS);
		expect(code).toContain('if (!othersNestWithin(record, 1, c1)) return false;');
		expect(code).toContain('if (!(c4 === undefined || c4 === null) && !othersNestWithin(c4, 5, c5, c6)) return false;');
		expect(code).toContain('if (!(c7 === undefined || c7 === null) && !othersNestWithin(c7, 7)) return false;');
		const billing = [...SERVICE_FIELDS, { key: 'plan', path: ['values', 'values', 'billing', 'plan'], type: 'string' }] as unknown as typeof SERVICE_FIELDS;
		const withBilling = renderRecordCode(billing);
		expect(withBilling).toContain('!othersNestWithin(c2, 3, c3, c8)) return false;');
		expect(withBilling).toContain('!othersNestWithin(c8, 4)) return false;');
		const crowded = [...SERVICE_FIELDS, ...['a', 'b', 'c'].map((key) => ({ key, path: ['values', key, 'x'], type: 'string' }))] as unknown as typeof SERVICE_FIELDS;
		expect(() => renderRecordCode(crowded)).toThrow(/4 documented child objects/);
	});

	test('Simplify gives every declared key, in declaration order, after id_service', () => {
		const simplified = simplifyServiceRecord(serviceRecord({ id: 'srv-1' }) as never);
		expect(Object.keys(simplified)).toEqual(['id_service', ...SERVICE_FIELDS.map((field) => field.key)]);
		expect(isValidServiceRecordFast(serviceRecord({ id: 'srv-1' }))).toBe(true);
	});
});
