import { hasServiceFilters, matchesServiceFilters, parseServiceFilters } from '../../nodes/shared/parameters/filters';
import { simplifyServiceRecord } from '../../nodes/shared/record/serviceRecord';
import { ALL_NULL, serviceRecord } from '../harness/fixtures';

describe('parseServiceFilters', () => {
	test('comma-separated statuses, arrays, blanks', () => {
		expect(parseServiceFilters({ status: ' Active,suspended ,, ' })).toEqual({ statuses: ['active', 'suspended'], search: '' });
		expect(parseServiceFilters({ status: ['A', ' b '] })).toEqual({ statuses: ['a', 'b'], search: '' });
		expect(parseServiceFilters({ search: '  Web ' })).toEqual({ statuses: [], search: 'web' });
		expect(parseServiceFilters(undefined)).toEqual({ statuses: [], search: '' });
		expect(parseServiceFilters({ search: 10014, status: [1, 'On'] })).toEqual({ statuses: ['1', 'on'], search: '10014' });
	});

	test('values of the wrong kind are parameter errors naming the filter (the whole table: parameters-table.test.ts)', () => {
		expect(() => parseServiceFilters({ search: null })).toThrow('"Search" got no value: its expression gave null');
		expect(() => parseServiceFilters({ search: true })).toThrow('"Search" must be text, not the boolean …');
		expect(() => parseServiceFilters({ status: [null] })).toThrow('"Status" must be text or a list of texts, not the list …');
		expect(() => parseServiceFilters('active')).toThrow('"Filters" must be a collection of options, not the text "…"');
	});

	test('hasServiceFilters', () => {
		expect(hasServiceFilters(parseServiceFilters({}))).toBe(false);
		expect(hasServiceFilters(parseServiceFilters({ search: 'x' }))).toBe(true);
		expect(hasServiceFilters(parseServiceFilters({ status: 'x' }))).toBe(true);
	});
});

describe('matchesServiceFilters', () => {
	const service = simplifyServiceRecord(serviceRecord({ id: 's', name: 'Web-01.Shop', alias: 'Front', status: 'Active' }) as never);
	test.each([
		[{}, true],
		[{ status: 'active' }, true],
		[{ status: 'ACTIVE' }, true],
		[{ status: 'suspended' }, false],
		[{ status: 'suspended, active' }, true],
		[{ search: 'shop' }, true],
		[{ search: 'FRONT' }, true],
		[{ search: 'back' }, false],
		[{ search: 'web', status: 'suspended' }, false],
	])('%p -> %p', (raw, expected) => {
		expect(matchesServiceFilters(service, parseServiceFilters(raw))).toBe(expected);
	});

	test('a service without status or names matches only when no filter asks for them', () => {
		const bare = ALL_NULL('x');
		expect(matchesServiceFilters(bare, parseServiceFilters({}))).toBe(true);
		expect(matchesServiceFilters(bare, parseServiceFilters({ status: 'active' }))).toBe(false);
		expect(matchesServiceFilters(bare, parseServiceFilters({ search: 'a' }))).toBe(false);
	});
});
