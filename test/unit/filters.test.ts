import { hasServiceFilters, matchesServiceFilters, parseServiceFilters } from '../../nodes/shared/filters';
import { simplifyServiceRecord } from '../../nodes/shared/serviceRecord';
import { ALL_NULL, serviceRecord } from '../harness/fixtures';

describe('parseServiceFilters', () => {
	test('comma-separated statuses, arrays, blanks', () => {
		expect(parseServiceFilters({ status: ' Active,suspended ,, ' })).toEqual({ statuses: ['active', 'suspended'], search: '' });
		expect(parseServiceFilters({ status: ['A', ' b '] })).toEqual({ statuses: ['a', 'b'], search: '' });
		expect(parseServiceFilters({ search: '  Web ' })).toEqual({ statuses: [], search: 'web' });
		expect(parseServiceFilters(undefined)).toEqual({ statuses: [], search: '' });
		expect(parseServiceFilters({ search: 5 })).toEqual({ statuses: [], search: '' });
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
