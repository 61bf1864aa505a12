/**
 * Parameters that may come from expressions (issue 24). An expression can give any value: a number,
 * text ("25", "false", ""), null, a list, an object. Each parameter reads every such value as its
 * obvious meaning or fails with a ParameterError naming the parameter, the value and its type; never a
 * silent default. The whole table of meanings is docs/parameters.md, checked by
 * test/unit/parameters-table.test.ts through n8n's real expression engine.
 *
 * n8n's own validation is used where it does the job: a property's `validateType: 'boolean'`, which
 * getNodeParameter applies on n8n 1.x and 2.x alike (executions and polls), reads a switch given as
 * text or a number ("false", "TRUE", 0, 1). It is not enough alone, so the node first looks at the
 * value as the expression gave it (`skipValidation`): n8n turns a list into a switch (`[]` is false,
 * `[1]` true) and lets null through. For numbers n8n's `validateType: 'number'` is not used: it reads
 * "" as 0, true as 1 and [5] as 5. For texts it does nothing (a number stays a number).
 */
import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

import { DescribedError } from '../errors/errors';
import type { Text } from '../text/text';
import { foreign, own, text } from '../text/text';

/** A parameter value the user must change: becomes a NodeOperationError with the item index. */
export class ParameterError extends DescribedError {}

interface ReadOptions {
	/** The value as the expression gave it, before n8n's `validateType` converts it. */
	skipValidation?: boolean;
	/** A resource locator's value instead of the locator. */
	extractValue?: boolean;
}

/** getNodeParameter of one item, whatever the context: `fallback` when the parameter is not set at all. */
export type ReadParameter = (name: string, fallback: unknown, options?: ReadOptions) => unknown;

/** The parameters of item `itemIndex` of an execution; of the poll or loadOptions call otherwise. */
export function parameterReader(context: IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions, itemIndex: number): ReadParameter {
	if ('getInputData' in context) {
		return (name, fallback, options) => context.getNodeParameter(name, itemIndex, fallback as never, options);
	}
	return (name, fallback, options) => context.getNodeParameter(name, fallback as never, options);
}

/** How a value is named in an error: its type, and the value itself as foreign text. */
export function describeValue(value: unknown): Text {
	if (value === null) return own('null');
	switch (typeof value) {
		case 'undefined':
			return own('undefined');
		case 'string':
			return text`the text "${foreign(value, 80)}"`;
		case 'number':
			return text`the number ${foreign(String(value), 40)}`;
		case 'boolean':
			return text`the boolean ${foreign(String(value))}`;
		case 'bigint':
			return text`the big integer ${foreign(String(value), 40)}`;
		case 'object':
			return Array.isArray(value) ? text`the list ${foreign(printed(value), 80)}` : text`the object ${foreign(printed(value), 80)}`;
		default:
			return own('a function or symbol');
	}
}

function printed(value: object): string {
	try {
		return JSON.stringify(value) ?? String(value);
	} catch {
		return Array.isArray(value) ? '[…]' : '{…}';
	}
}

/**
 * The error for a value of the wrong kind: `"Limit" must be a whole number of 1 or more, not the text
 * "ten"`. Null and undefined get their own words: the expression gave no value (usually a field the
 * input item does not have), which is worth saying rather than "must be ..., not null".
 */
export function wrongValue(label: Text, expected: Text, value: unknown, fix: Text): ParameterError {
	if (value === null || value === undefined) {
		return new ParameterError(
			text`"${label}" got no value: its expression gave ${describeValue(value)}`,
			text`${fix} An expression gives null or undefined when the field it reads is missing or empty: check the field's name, or give a value for that case with the ?? operator.`,
		);
	}
	return new ParameterError(text`"${label}" must be ${expected}, not ${describeValue(value)}`, fix);
}

/**
 * A switch (Return All, Simplify, Confirm Mass Removals, Retry on Rate Limit): a boolean, or text or a
 * number as n8n's own `validateType: 'boolean'` reads them ("true"/"false" in any case, 1/0, "1"/"0");
 * `validated` is the value after n8n's validation, read only then. Anything else is an error.
 */
export function requireSwitch(raw: unknown, label: Text, validated: () => unknown): boolean {
	if (typeof raw === 'boolean') return raw;
	if (typeof raw === 'string' || (typeof raw === 'number' && Number.isFinite(raw))) {
		let value: unknown;
		try {
			value = validated();
		} catch {
			// n8n refused it ("expects a boolean"): our error below names the value and its type.
			value = undefined;
		}
		if (typeof value === 'boolean') return value;
	}
	throw wrongValue(
		label,
		own('true or false'),
		raw,
		text`Switch "${label}" on or off, or make its expression give true or false (n8n also reads the texts "true" and "false", and 1 or 0).`,
	);
}

/** A top-level switch parameter, read as requireSwitch says. */
export function readSwitch(read: ReadParameter, name: string, label: Text, fallback: boolean): boolean {
	return requireSwitch(read(name, fallback, { skipValidation: true }), label, () => read(name, fallback));
}

/** Simplify, the same for List, Get and the trigger. */
export function readSimplify(read: ReadParameter): boolean {
	return readSwitch(read, 'simplify', own('Simplify'), true);
}

/** A number as the user would write it: digits, a sign, a decimal point, an exponent; no hex, no "Infinity", no "1,000". */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

interface NumberSpec {
	label: Text;
	/** Shown in the fix, e.g. own('50'). */
	example: Text;
	integer?: boolean;
	/** The largest value, and how the error says it (e.g. "86,400,000 milliseconds (one day)"). */
	max?: { value: number; text: Text };
}

/**
 * A positive number (Limit, Timeout, Max Response Size): a number, or a number written as text ("25",
 * " 25 ", "1e3"). Zero, negative, too large, non-numeric, (with `integer`) fractional values, "", null,
 * lists and objects are errors saying what to enter.
 */
export function requirePositiveNumber(value: unknown, { label, example, integer = false, max }: NumberSpec): number {
	const number = typeof value === 'number' ? value : typeof value === 'string' && DECIMAL.test(value.trim()) ? Number(value) : NaN;
	const kind = integer ? own('a whole number of 1 or more') : own('a number greater than 0');
	if (!Number.isFinite(number) || number <= 0 || (integer && !Number.isInteger(number))) {
		throw wrongValue(
			label,
			kind,
			value,
			text`Enter ${kind} in "${label}", e.g. ${example}. An expression may give a number or a number as text ("25").`,
		);
	}
	if (max !== undefined && number > max.value) {
		throw new ParameterError(
			text`"${label}" must be at most ${max.text}, not ${foreign(String(number), 40)}`,
			text`Enter a value up to ${max.text} in "${label}", e.g. ${example}.`,
		);
	}
	return number;
}

/**
 * Text of an optional parameter (Search, a Status): "" is no value to filter by, a number is its text
 * (10014 searches "10014"). A boolean, null, a list or an object is an error.
 */
export function requireText(value: unknown, label: Text, fix: Text, expected: Text = own('text')): string {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	throw wrongValue(label, expected, value, fix);
}

/**
 * A collection parameter (Filters, Options): an object of its options; not set is empty. Its options
 * are read with `option`.
 */
export function requireCollection(value: unknown, label: Text): IDataObject {
	if (value === undefined) return {};
	if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as IDataObject;
	throw wrongValue(label, own('a collection of options'), value, text`Set the options of "${label}" one by one in the node.`);
}

/**
 * An option of a collection: `fallback` when the user did not add it. An option added whose expression
 * gave nothing is kept as undefined (n8n keeps the key), so the reader reports it instead of using the
 * fallback.
 */
export function option(collection: IDataObject, key: string, fallback: unknown): unknown {
	return Object.hasOwn(collection, key) ? collection[key] : fallback;
}
