import { extractServiceRecords } from '../harness/answer';
import { SERVICE_FIELDS } from '../../nodes/shared/record/serviceFields';
import {
	isValidServiceRecordFast,
	nestServiceRecord,
	parseServiceRecord,
	ServiceResponseError,
	simplifyServiceRecord,
} from '../../nodes/shared/record/serviceRecord';
import type { Text } from '../../nodes/shared/text/text';
import { own, render } from '../../nodes/shared/text/text';
import { ALL_NULL, expectedSimplified, sampleRecords, serviceRecord } from '../harness/fixtures';

/** The error's texts as a user reads them (foreign parts redacted by nothing here, bounded). */
const shown = (error: ServiceResponseError) => ({
	message: render(error.text.message as Text, (part) => part, Infinity),
	description: render(error.text.description as Text, (part) => part, Infinity),
});

function errorOf(body: unknown): { message: string; description: string } {
	try {
		extractServiceRecords(body);
	} catch (error) {
		if (error instanceof ServiceResponseError) return shown(error);
		throw error;
	}
	throw new Error('expected a ServiceResponseError');
}

describe('extractServiceRecords: schema', () => {
	test('unknown fields are kept; null counts as absent', () => {
		const record = { id_service: 'x', extra: { deep: [1, 2] }, values: { values: { alias: null, status: 'on' } } };
		expect(extractServiceRecords([record])).toEqual([record]);
	});

	test.each([
		[
			[serviceRecord({ id: 'a' }), { ...serviceRecord({ id: 'b' }), id_service: 7 }],
			'Service record #2 of 2 does not match the documented schema',
			'Field id_service: expected string, received number 7.',
		],
		[
			[{ values: {} }],
			'Service record #1 of 1 does not match the documented schema',
			'Field id_service: expected string, received nothing (missing).',
		],
		[[{ id_service: '' }], 'Service record #1 of 1 (id_service "") does not match the documented schema', 'Field id_service: expected'],
		[
			[
				serviceRecord({ id: 'srv-1' }),
				serviceRecord({ id: 'srv-2' }),
				(() => {
					const bad = serviceRecord({ id: 'srv-3' }) as any;
					bad.values.values.service.customize.specifications.vcores = '4';
					return bad;
				})(),
			],
			'Service record #3 of 3 (id_service "srv-3") does not match the documented schema',
			'Field values.values.service.customize.specifications.vcores: expected number, received string "4".',
		],
		[
			[
				(() => {
					const bad = serviceRecord({ id: 'srv-5' }) as any;
					bad.values.values.service.customize.specifications.GB.ram = 7.5;
					return bad;
				})(),
			],
			'Service record #1 of 1 (id_service "srv-5") does not match the documented schema',
			'Field values.values.service.customize.specifications.GB.ram: expected integer, received decimal number 7.5.',
		],
		[
			{ services: [serviceRecord({ id: 'ok' }), 'oops'] },
			'Service record #2 of 2 in "services" does not match the documented schema',
			'Field (the record itself): expected object, received string "oops".',
		],
		[
			{ 'srv-7': { id_service: 'srv-7', values: { values: { name: ['x'] } } } },
			'Service record "srv-7" (#1 of 1) (id_service "srv-7") does not match the documented schema',
			'Field values.values.name: expected string, received array of 1.',
		],
		[
			[{ id_service: 'srv-8', values: { values: { status: false } } }],
			'Service record #1 of 1 (id_service "srv-8") does not match the documented schema',
			'Field values.values.status: expected string, received boolean false.',
		],
	])('names position, id, path, expectation and what came (%#)', (body, message, description) => {
		const error = errorOf(body);
		expect(error.message).toBe(message);
		expect(error.description.startsWith(description)).toBe(true);
	});

	test('a map names the failing record by its key', () => {
		const error = errorOf({ first: serviceRecord({ id: 'a' }), second: { id_service: 'b', values: 3 } });
		expect(error.message).toBe('Service record "second" (#2 of 2) (id_service "b") does not match the documented schema');
	});

	test('duplicate ids are an error, not a silent overwrite', () => {
		const error = errorOf([serviceRecord({ id: 'a' }), serviceRecord({ id: 'b' }), serviceRecord({ id: 'a' })]);
		expect(error.message).toBe('The listing contains id_service "a" more than once');
		expect(error.description).toMatch(/^Record #3 of 3 repeats an id already listed/);
	});
});

describe('simplifyServiceRecord', () => {
	test('flattens every documented field', () => {
		expect(
			simplifyServiceRecord(serviceRecord({ id: 'srv-1', name: 'n', alias: 'a', status: 's', vcores: 3, ram: 6, hd: 90 }) as never),
		).toEqual({
			id_service: 'srv-1',
			name: 'n',
			alias: 'a',
			status: 's',
			os_id: 'ubuntu-24.04',
			os_name: 'Ubuntu 24.04 LTS',
			vcores: 3,
			ram_gb: 6,
			hd_gb: 90,
		});
	});

	test('keys in the documented order, whatever order the record has', () => {
		const reordered = JSON.parse(JSON.stringify(sampleRecords[0], Object.keys(sampleRecords[0]).reverse()));
		const simplified = simplifyServiceRecord({ ...reordered, id_service: 'srv-1' });
		expect(Object.keys(simplified)).toEqual(Object.keys(ALL_NULL('x')));
	});

	test('a part that is not an object (only zod-valid records get here, but never a crash) counts as absent', () => {
		expect(simplifyServiceRecord({ id_service: 'x', values: 'text' } as never)).toEqual(ALL_NULL('x'));
	});

	test('missing or null parts become null', () => {
		expect(simplifyServiceRecord({ id_service: 'x', values: { values: { service: { customize: { OS: null } } } } })).toEqual(ALL_NULL('x'));
	});
});

describe('parseServiceRecord (one record, for the listing code)', () => {
	test('gives back the very record; builds the label only for an error', () => {
		const label = jest.fn(() => own('#1 of 1'));
		expect(parseServiceRecord(sampleRecords[0], label)).toBe(sampleRecords[0]);
		expect(label).not.toHaveBeenCalled();
	});

	test('a wrong field is a ServiceResponseError naming the record and the field', () => {
		const bad = serviceRecord({ id: 'srv-9' }) as Record<string, any>;
		bad.values.values.service.customize.specifications.GB.ram = '8';
		let error: unknown;
		try {
			parseServiceRecord(bad, () => own('#2 of 5'));
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(ServiceResponseError);
		expect(shown(error as ServiceResponseError).message).toBe(
			'Service record #2 of 5 (id_service "srv-9") does not match the documented schema',
		);
		expect(shown(error as ServiceResponseError).description).toContain(
			'Field values.values.service.customize.specifications.GB.ram: expected number, received string "8".',
		);
	});

	test('zod accepts what the fast check defers (an object of another prototype) and the record is returned', () => {
		// Neither Object.prototype nor null, and no `constructor` Object to inherit.
		const record = Object.assign(Object.create(Object.create(null) as object) as object, { id_service: 'srv-1' });
		expect(isValidServiceRecordFast(record)).toBe(false);
		expect(parseServiceRecord(record, () => own('#1'))).toBe(record);
		// A `constructor` key (JSON may carry one) is not Object: the exact check decides, and passes it.
		const withKey = JSON.parse('{"id_service":"srv-2","constructor":{"x":1},"values":{"constructor":"Object"}}') as unknown;
		expect(isValidServiceRecordFast(withKey)).toBe(true);
		// An array is never a record, whatever its `constructor` says.
		expect(isValidServiceRecordFast(Object.assign([], { id_service: 'srv-3', constructor: Object }))).toBe(false);
	});
});

describe('the field declaration (SERVICE_FIELDS) drives validation, Simplify and the nested view', () => {
	const full = serviceRecord({ id: 'srv-1' }) as Record<string, unknown>;
	const setAt = (record: Record<string, unknown>, path: readonly string[], value: unknown) => {
		const copy = JSON.parse(JSON.stringify(record));
		let holder = copy;
		for (const key of path.slice(0, -1)) holder = holder[key];
		holder[path[path.length - 1]] = value;
		return copy;
	};

	test.each(SERVICE_FIELDS.map((field) => [field.key, field]))('%s: its type is checked at its path, null is absent', (_key, field) => {
		const wrong = field.type === 'integer' ? 'not a number' : 42;
		expect(() => parseServiceRecord(setAt(full, field.path, wrong), () => own('#1'))).toThrow(ServiceResponseError);
		const error = (() => {
			try {
				parseServiceRecord(setAt(full, field.path, wrong), () => own('#1'));
			} catch (caught) {
				return caught as ServiceResponseError;
			}
			return undefined;
		})();
		expect(error && shown(error).description).toContain(`Field ${field.path.join('.')}:`);
		if (field.type === 'integer') {
			expect(() => parseServiceRecord(setAt(full, field.path, 1.5), () => own('#1'))).toThrow(ServiceResponseError);
		}
		const absent = setAt(full, field.path, null);
		expect(parseServiceRecord(absent, () => own('#1'))).toBe(absent);
		expect(simplifyServiceRecord(absent)[field.key]).toBeNull();
	});

	test('the nested view of a simplified service puts every field back at its path', () => {
		for (const record of sampleRecords) {
			expect(nestServiceRecord(simplifyServiceRecord(record as never))).toEqual(record);
		}
		const nested = nestServiceRecord(ALL_NULL('x'));
		expect(simplifyServiceRecord(nested)).toEqual(ALL_NULL('x'));
		expect(isValidServiceRecordFast(nested)).toBe(true);
		expect(nested).toEqual({
			id_service: 'x',
			values: {
				values: {
					name: null,
					alias: null,
					status: null,
					service: { customize: { OS: { id: null, name: null }, specifications: { vcores: null, GB: { ram: null, hd: null } } } },
				},
			},
		});
	});

	test("Simplify agrees with the tests' independent oracle on the fixtures", () => {
		for (const record of sampleRecords) expect(simplifyServiceRecord(record as never)).toEqual(expectedSimplified(record));
	});
});
