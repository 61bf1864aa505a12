/**
 * The parameter readers (nodes/shared/parameters/parameters.ts) on generated values: every value an expression
 * can give has one meaning or is a ParameterError, never a crash, and the error's text stays bounded
 * whatever the value. The engine runs of every parameter are in parameters-table.test.ts.
 */
import fc from 'fast-check';

import type { DescribedError } from '../../nodes/shared/errors/errors';
import {
	describeValue,
	ParameterError,
	requireCollection,
	requirePositiveNumber,
	requireSwitch,
	requireText,
} from '../../nodes/shared/parameters/parameters';
import type { Text } from '../../nodes/shared/text/text';
import { MESSAGE_MAX, own, render } from '../../nodes/shared/text/text';

const shown = (value: Text) => render(value, (t) => t, Infinity);
const LIMIT = { label: own('Limit'), example: own('50'), integer: true };

/** Anything an expression (JSON-like, plus the odd values JavaScript gives) can produce. */
const anyValue = fc.oneof(
	fc.jsonValue(),
	fc.constantFrom(undefined, Number.NaN, Infinity, -Infinity, -0, 10n),
	fc.string({ size: 'large' }),
	fc.array(fc.anything(), { maxLength: 5 }),
	fc.dictionary(fc.string(), fc.anything(), { maxKeys: 5 }),
);

/** The outcome of a reader: its value, or the ParameterError's rendered message; anything else fails the test. */
function outcome<T>(read: () => T): { value: T } | { error: string } {
	try {
		return { value: read() };
	} catch (error) {
		expect(error).toBeInstanceOf(ParameterError);
		return { error: render((error as DescribedError).text.message as Text, (t) => t, MESSAGE_MAX) };
	}
}

describe('describeValue names the type and shows the value', () => {
	test.each([
		['yes', 'the text "yes"'],
		['', 'the text ""'],
		[10014, 'the number 10014'],
		[Number.NaN, 'the number NaN'],
		[true, 'the boolean true'],
		[10n, 'the big integer 10'],
		[null, 'null'],
		[undefined, 'undefined'],
		[[1, 'a'], 'the list [1,"a"]'],
		[{ a: 1 }, 'the object {"a":1}'],
	])('%p: %s', (value, expected) => {
		expect(shown(describeValue(value))).toBe(expected);
	});

	test('a value JSON cannot print is still named', () => {
		const cyclic: Record<string, unknown> = {};
		cyclic.self = cyclic;
		expect(shown(describeValue(cyclic))).toBe('the object {…}');
		const unprintable = {
			toJSON() {
				throw new Error('no');
			},
		};
		expect(shown(describeValue([unprintable]))).toBe('the list […]');
	});

	test('a long value is bounded where it is shown, never cut before', () => {
		const rendered = render(describeValue('x'.repeat(10_000)), (t) => t, MESSAGE_MAX);
		expect(rendered).toBe(`the text "${'x'.repeat(79)}…"`);
	});
});

describe('requireSwitch', () => {
	test("a boolean is itself; n8n's validation is not asked", () => {
		const validated = jest.fn();
		expect(requireSwitch(false, own('Simplify'), validated)).toBe(false);
		expect(requireSwitch(true, own('Simplify'), validated)).toBe(true);
		expect(validated).not.toHaveBeenCalled();
	});

	test("text and numbers are what n8n's validation makes of them, or refused when it refuses them", () => {
		expect(requireSwitch('false', own('Simplify'), () => false)).toBe(false);
		expect(requireSwitch(1, own('Simplify'), () => true)).toBe(true);
		const refuse = () => {
			throw new Error("'simplify' expects a boolean but we got 'yes'");
		};
		expect(() => requireSwitch('yes', own('Simplify'), refuse)).toThrow('"Simplify" must be true or false, not the text "…"');
		// Where n8n did not validate (the value came back as it was), the node refuses it too.
		expect(() => requireSwitch('false', own('Simplify'), () => 'false')).toThrow(ParameterError);
	});

	test("a list, an object, null and the odd numbers never reach n8n's validation, which would make [] false", () => {
		fc.assert(
			fc.property(anyValue, (value) => {
				fc.pre(typeof value !== 'boolean' && typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value)));
				const validated = jest.fn(() => false);
				expect(outcome(() => requireSwitch(value, own('Simplify'), validated))).toHaveProperty('error');
				expect(validated).not.toHaveBeenCalled();
			}),
			{ numRuns: 300 },
		);
	});
});

describe('requirePositiveNumber', () => {
	test('a whole number, and the same number written as text (with spaces, a sign, an exponent), is that number', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.constantFrom('', ' ', '\t'), (number, space) => {
				expect(requirePositiveNumber(number, LIMIT)).toBe(number);
				expect(requirePositiveNumber(`${space}${number}${space}`, LIMIT)).toBe(number);
				expect(requirePositiveNumber(`+${number}`, LIMIT)).toBe(number);
			}),
			{ numRuns: 300 },
		);
		expect(requirePositiveNumber('2.5e1', LIMIT)).toBe(25);
	});

	test('anything else is a parameter error that names the value, bounded, never a number made up', () => {
		fc.assert(
			fc.property(anyValue, (value) => {
				const result = outcome(() => requirePositiveNumber(value, LIMIT));
				if ('value' in result) {
					expect(Number.isInteger(result.value) && result.value >= 1).toBe(true);
					expect(typeof value === 'number' ? value : Number(String(value).trim())).toBe(result.value);
				} else {
					expect(result.error).toMatch(/^"Limit" (must be a whole number of 1 or more, not |got no value)/);
					expect(result.error.length).toBeLessThanOrEqual(MESSAGE_MAX);
				}
			}),
			{ numRuns: 1000 },
		);
	});

	test('"", hex, "Infinity" and "1,000" are not numbers here (Number() would read the first three)', () => {
		for (const value of ['', '  ', '0x10', '0b1', 'Infinity', '1,000', '1_000', '5px']) {
			expect(() => requirePositiveNumber(value, LIMIT)).toThrow(ParameterError);
		}
	});
});

describe('requireText and requireCollection', () => {
	test('text is itself, a finite number its text; anything else is refused', () => {
		fc.assert(
			fc.property(anyValue, (value) => {
				const result = outcome(() => requireText(value, own('Search'), own('Enter text.')));
				if (typeof value === 'string') expect(result).toEqual({ value });
				else if (typeof value === 'number' && Number.isFinite(value)) expect(result).toEqual({ value: String(value) });
				else expect(result).toHaveProperty('error');
			}),
			{ numRuns: 1000 },
		);
	});

	test('a collection is an object, or nothing (not set); anything else is refused', () => {
		expect(requireCollection(undefined, own('Filters'))).toEqual({});
		expect(requireCollection({ search: 'x' }, own('Filters'))).toEqual({ search: 'x' });
		for (const value of [null, 'x', 5, [], [{}]]) expect(() => requireCollection(value, own('Filters'))).toThrow(ParameterError);
	});
});
