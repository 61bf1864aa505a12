import { extractServiceRecords, ServiceResponseError } from '../../nodes/shared/listing';
import { simplifyServiceRecord } from '../../nodes/shared/serviceRecord';
import { ALL_NULL, serviceRecord } from '../harness/fixtures';

function errorOf(body: unknown): ServiceResponseError {
	try {
		extractServiceRecords(body);
	} catch (error) {
		if (error instanceof ServiceResponseError) return error;
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
		[
			[{ id_service: '' }],
			'Service record #1 of 1 (id_service "") does not match the documented schema',
			'Field id_service: expected',
		],
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
		expect(simplifyServiceRecord(serviceRecord({ id: 'srv-1', name: 'n', alias: 'a', status: 's', vcores: 3, ram: 6, hd: 90 }) as never)).toEqual({
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

	test('missing or null parts become null', () => {
		expect(simplifyServiceRecord({ id_service: 'x', values: { values: { service: { customize: { OS: null } } } } })).toEqual(
			ALL_NULL('x'),
		);
	});
});
