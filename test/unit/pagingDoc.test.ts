/**
 * docs/paging.md's signal tables are generated from the one table the node reads answers with
 * (nodes/shared/answer/signalTable.ts): this test fails while the page is stale (run
 * `npm run generate:paging-doc`), and checks the table itself holds no contradiction.
 */
import { readFileSync } from 'node:fs';

import * as table from '../../nodes/shared/answer/signalTable';
import { byName, isPagingLike, isPagingLikeHeader, normalName } from '../../nodes/shared/answer/names';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { renderSignalTables, withSignalTables, TARGET } = require('../../tools/generate/paging-doc.cjs') as {
	renderSignalTables: (signals: typeof table) => string;
	withSignalTables: (page: string, signals: typeof table) => string;
	TARGET: string;
};

test('docs/paging.md holds the signal tables as the code has them (else run `npm run generate:paging-doc`)', () => {
	const page = readFileSync(TARGET, 'utf8');
	expect(page).toBe(withSignalTables(page, table));
	expect(page).toContain(renderSignalTables(table));
});

test('a change of the table changes the page', () => {
	const changed = {
		...table,
		FIELD_SIGNALS: [...table.FIELD_SIGNALS, { kind: 'cursor' as const, names: ['after_token'], conventions: 'Example' }],
	};
	expect(renderSignalTables(changed)).toContain('`after_token`');
	expect(renderSignalTables(changed)).not.toBe(renderSignalTables(table));
});

test('one name has one meaning, or two told apart by the value (page: holder or number; last: flag or link)', () => {
	const twice = [...byName(table.FIELD_SIGNALS)]
		.filter(([, kinds]) => kinds.length > 1)
		.map(([name, kinds]) => `${name}: ${kinds.join(', ')}`);
	expect(twice.sort()).toEqual(['last: lastFlag, lastLink', 'page: holder, page']);
	for (const signals of [table.LINK_RELATIONS, table.HEADER_SIGNALS])
		expect([...byName(signals)].filter(([, kinds]) => kinds.length > 1)).toEqual([]);
});

test('every paging name the table knows would be paging-like if it did not: nothing paging-like is harmless by omission', () => {
	const known = [...table.FIELD_SIGNALS, ...table.LINK_RELATIONS].filter(
		({ kind }) => !['records', 'status', 'holder', 'links', 'harmless', 'selfLink'].includes(kind),
	);
	// Spring's `number` and page sizes are words of their own: known, but not paging-like elsewhere (`rate_limit`, `size_gb`).
	const notPagingLike = known.flatMap(({ names }) => names).filter((name) => !isPagingLike(name));
	expect([...new Set(notPagingLike.map(normalName))].sort()).toEqual(['first', 'limit', 'number', 'size']);
	const headers = table.HEADER_SIGNALS.filter(({ kind }) => kind !== 'harmless' && kind !== 'links')
		.flatMap(({ names }) => names)
		.filter((name) => !isPagingLikeHeader(name));
	expect(headers).toEqual([]);
});

test.each([
	['scrollCursor', true],
	['grand_total', true],
	['NEXTPAGETOKEN', true],
	['@odata.nextLink', true],
	['IsTruncated', true],
	['remaining-pages', true],
	['account', false],
	['country', false],
	['homepage', false],
	['request_id', false],
	['api_version', false],
	['took', false],
])('%s is paging-like: %s', (name, expected) => {
	expect(isPagingLike(name)).toBe(expected);
});
