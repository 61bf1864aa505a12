/**
 * The parameter table (issue 24): every parameter of both nodes and the credential, given the values
 * expressions produce, through n8n's real engine (its expression engine and its own parameter
 * validation) against a real local server. Each value is read as its obvious meaning or is a
 * parameter error naming the parameter, the value and its type; never a silent default.
 *
 * The rows are docs/parameters.md's table: the test fails when the page and the rows differ. After
 * changing rows, `WRITE_PARAMETER_TABLE=1 npx jest test/unit/parameters-table.test.ts` writes the page.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { expectedSimplified } from '../harness/fixtures';
import type { LocalServer } from '../harness/localServer';
import { closeLocalServers, startLocalServer } from '../harness/localServer';
import type { Case, Row } from '../harness/parameterTable';
import {
	activation,
	base,
	count,
	events,
	execute,
	get,
	ids,
	KEY,
	list,
	markdownTable,
	RECORDS,
	resynced,
	rows,
	scenarioHandler,
	serviceShape,
	shape,
	trigger,
} from '../harness/parameterTable';
import { runNode, servicesNode } from '../harness/workflow';

/** A switch: n8n's validateType reads text and numbers; the rest is refused naming the value. */
function switchCases(label: string, on: string, off: string): Case[] {
	const refused = (value: string) => `error: "${label}" must be true or false, not ${value}`;
	return [
		['true', 'true', on],
		['false', 'false', off],
		['"true"', 'true', on],
		['"false"', 'false', off],
		['"FALSE"', 'false', off],
		['1', 'true', on],
		['0', 'false', off],
		['"1"', 'true', on],
		['"0"', 'false', off],
		['2', 'error', refused('the number 2')],
		['"yes"', 'error', refused('the text "yes"')],
		['""', 'error', refused('the text ""')],
		['null', 'error', `error: "${label}" got no value: its expression gave null`],
		['[]', 'error', refused('the list []')],
		['[1]', 'error', refused('the list [1]')],
		['{}', 'error', refused('the object {}')],
	];
}

const ALL_IDS = 'srv-1, srv-2, 10014, srv-4, srv-5';
const ALL_EVENTS = 'specsChanged srv-2, statusChanged 10014, created srv-6, removed srv-4';
const ALL_REMOVED = 'removed srv-1, removed srv-2, removed 10014, removed srv-4, removed srv-5';
const RATE_LIMITED = 'error: The platform is rate limiting requests (HTTP 429)';
const TIMED_OUT = 'error: The platform did not answer within 50 ms';
const LISTING_TIMED_OUT = 'error: The listing did not finish within the Listing Time Limit (60 ms)';
const TOO_LARGE = 'error: The answer is larger than the Max Response Size of 2 KB';

const number = (label: string, kind: string) => (value: string) => `error: "${label}" must be ${kind}, not ${value}`;
const limitRefused = number('Limit', 'a whole number of 1 or more');
const timeoutRefused = number('Timeout', 'a number greater than 0');
const listingLimitRefused = number('Listing Time Limit', 'a number greater than 0');
const sizeRefused = number('Max Response Size', 'a number greater than 0');
const parallelRefused = number('Parallel Requests', 'a whole number of 1 or more');
const hoursRefused = number('Every (Hours)', 'a number greater than 0');
const statusRefused = (value: string) => `error: "Status" must be text or a list of texts, not ${value}`;
const searchRefused = (value: string) => `error: "Search" must be text, not ${value}`;
const serviceRefused = (value: string) => `error: "Service" must be an ID (text), not ${value}`;
const eventsRefused = (value: string) => `error: "Trigger On" must be a list of events, not ${value}`;
const noValue = (label: string) => `error: "${label}" got no value: its expression gave null`;

/** What a number option greater than 0 refuses alike, each naming it: no number, no value, a switch, a list (`list`), an object. */
function notPositiveNumbers(label: string, list: string): Case[] {
	const refused = number(label, 'a number greater than 0');
	return [
		['0', 'error', refused('the number 0')],
		['"abc"', 'error', refused('the text "abc"')],
		['""', 'error', refused('the text ""')],
		['null', 'error', noValue(label)],
		['true', 'error', refused('the boolean true')],
		[list, 'error', refused(`the list ${list}`)],
		['{}', 'error', refused('the object {}')],
	];
}

const serviceCases: Case[] = [
	['"srv-1"', '"srv-1"', 'srv-1'],
	['" srv-1 "', '"srv-1"', 'srv-1'],
	['10014', '"10014"', '10014'],
	['"10014"', '"10014"', '10014'],
	['"true"', '"true"', 'error: No service with id_service "true"'],
	['""', 'error', 'error: No service chosen'],
	['null', 'error', noValue('Service')],
	['true', 'error', serviceRefused('the boolean true')],
	['["srv-1"]', 'error', serviceRefused('the list ["srv-1"]')],
	['{}', 'error', serviceRefused('the object {}')],
];

const PARAMETERS: Row[] = [
	// ---- Services: List ----
	...rows(
		'Services: List',
		'Return All (Limit 2)',
		switchCases('Return All', 'all 5 services', '2 services'),
		list((value) => ({ returnAll: value, limit: 2 }), count),
	),
	...rows(
		'Services: List',
		'Limit',
		[
			['3', '3', '3 services'],
			['"3"', '3', '3 services'],
			['" 3 "', '3', '3 services'],
			['"1e1"', '10', 'all 5 services'],
			['10014', '10014', 'all 5 services'],
			['0', 'error', limitRefused('the number 0')],
			['-1', 'error', limitRefused('the number -1')],
			['2.5', 'error', limitRefused('the number 2.5')],
			['"2.5"', 'error', limitRefused('the text "2.5"')],
			['"abc"', 'error', limitRefused('the text "abc"')],
			['"0x10"', 'error', limitRefused('the text "0x10"')],
			['""', 'error', limitRefused('the text ""')],
			['null', 'error', noValue('Limit')],
			['true', 'error', limitRefused('the boolean true')],
			['[3]', 'error', limitRefused('the list [3]')],
			['{}', 'error', limitRefused('the object {}')],
		],
		list((value) => ({ returnAll: false, limit: value }), count),
	),
	...rows(
		'Services: List',
		'Simplify',
		switchCases('Simplify', 'simplified items', 'raw records'),
		list((value) => ({ returnAll: true, simplify: value }), shape),
	),
	...rows(
		'Services: List',
		'Filters → Status',
		[
			['"active"', '"active"', 'srv-1, 10014'],
			['"ACTIVE, suspended"', '"active", "suspended"', 'srv-1, srv-2, 10014'],
			['["active", "suspended"]', '"active", "suspended"', 'srv-1, srv-2, 10014'],
			['1', '"1"', 'srv-4'],
			['"1"', '"1"', 'srv-4'],
			['[1, "pending"]', '"1", "pending"', 'srv-4, srv-5'],
			['"true"', '"true"', 'no services'],
			['""', 'no filter', ALL_IDS],
			['" , "', 'no filter', ALL_IDS],
			['[]', 'no filter', ALL_IDS],
			['null', 'error', noValue('Status')],
			['true', 'error', statusRefused('the boolean true')],
			['{}', 'error', statusRefused('the object {}')],
			['[null]', 'error', statusRefused('the list [null]')],
			['[["active"]]', 'error', statusRefused('the list [["active"]]')],
		],
		list((value) => ({ returnAll: true, filters: { status: value } }), ids),
	),
	...rows(
		'Services: List',
		'Filters → Search',
		[
			['"WEB"', '"web"', 'srv-1'],
			['10014', '"10014"', '10014'],
			['"10014"', '"10014"', '10014'],
			['"false"', '"false"', 'no services'],
			['""', 'no filter', ALL_IDS],
			['"  "', 'no filter', ALL_IDS],
			['null', 'error', noValue('Search')],
			['true', 'error', searchRefused('the boolean true')],
			['["web"]', 'error', searchRefused('the list ["web"]')],
			['{}', 'error', searchRefused('the object {}')],
		],
		list((value) => ({ returnAll: true, filters: { search: value } }), ids),
	),
	...rows(
		'Services: List',
		'Options → Timeout (a server that never answers)',
		[
			['50', '50 ms', TIMED_OUT],
			['"50"', '50 ms', TIMED_OUT],
			['86400001', 'error', 'error: "Timeout" must be at most 86,400,000 milliseconds (one day), not 86400001'],
			...notPositiveNumbers('Timeout', '[50]'),
		],
		list((value) => ({ options: { timeout: value } }), count, 'hang'),
	),
	...rows(
		'Services: List',
		'Options → Listing Time Limit (a server that never answers)',
		[
			['0.001', '0.001 min (60 ms)', LISTING_TIMED_OUT],
			['"0.001"', '0.001 min (60 ms)', LISTING_TIMED_OUT],
			['1441', 'error', 'error: "Listing Time Limit" must be at most 1,440 minutes (one day), not 1441'],
			...notPositiveNumbers('Listing Time Limit', '[1]'),
		],
		list((value) => ({ options: { listingTimeLimit: value } }), count, 'hang'),
	),
	...rows(
		'Services: List',
		'Options → Max Response Size (a 1.3 KB answer)',
		[
			['0.001', '0.001 MB', TOO_LARGE],
			['"0.001"', '0.001 MB', TOO_LARGE],
			['"64"', '64 MB', 'all 5 services'],
			['2000', 'error', 'error: "Max Response Size" must be at most 1,024 MB, not 2000'],
			...notPositiveNumbers('Max Response Size', '[1]'),
		],
		list((value) => ({ options: { maxResponseSize: value } }), count),
	),
	...rows(
		'Services: List',
		'Options → Parallel Requests',
		[
			['1', '1 (one by one)', 'all 5 services'],
			['"5"', '5', 'all 5 services'],
			['10', '10', 'all 5 services'],
			['11', 'error', 'error: "Parallel Requests" must be at most 10, not 11'],
			['2.5', 'error', parallelRefused('the number 2.5')],
			['0', 'error', parallelRefused('the number 0')],
			['"abc"', 'error', parallelRefused('the text "abc"')],
			['""', 'error', parallelRefused('the text ""')],
			['null', 'error', noValue('Parallel Requests')],
			['true', 'error', parallelRefused('the boolean true')],
			['[5]', 'error', parallelRefused('the list [5]')],
			['{}', 'error', parallelRefused('the object {}')],
		],
		list((value) => ({ returnAll: true, options: { parallelRequests: value } }), count),
	),
	...rows(
		'Services: List',
		'Options → Retry on Rate Limit (429 once)',
		switchCases('Retry on Rate Limit', 'all 5 services', RATE_LIMITED),
		list((value) => ({ options: { retryOnRateLimit: value } }), count, 'ratelimited'),
	),
	// ---- Services: Get ----
	...rows(
		'Services: Get',
		'Service (From List, its value an expression)',
		serviceCases,
		get((value) => ({ serviceId: { __rl: true, mode: 'list', value } }), ids),
	),
	...rows(
		'Services: Get',
		'Service (By ID, its value an expression)',
		serviceCases,
		get((value) => ({ serviceId: { __rl: true, mode: 'id', value } }), ids),
	),
	...rows(
		'Services: Get',
		'Service (the whole parameter an expression)',
		[...serviceCases, ['{ "mode": "id", "value": "srv-1" }', '"srv-1"', 'srv-1']],
		get((value) => ({ serviceId: value }), ids),
	),
	...rows(
		'Services: Get',
		'Simplify',
		switchCases('Simplify', 'simplified items', 'raw records'),
		get((value) => ({ serviceId: 'srv-1', simplify: value }), shape),
	),
	...rows(
		'Services: Get',
		'Options → Timeout (a server that never answers)',
		[
			['"50"', '50 ms', TIMED_OUT],
			['null', 'error', noValue('Timeout')],
		],
		get((value) => ({ serviceId: 'srv-1', options: { timeout: value } }), ids, 'hang'),
	),
	...rows(
		'Services: Get',
		'Options → Listing Time Limit (a server that never answers)',
		[
			['"0.001"', '0.001 min (60 ms)', LISTING_TIMED_OUT],
			['null', 'error', noValue('Listing Time Limit')],
		],
		get((value) => ({ serviceId: 'srv-1', options: { listingTimeLimit: value } }), ids, 'hang'),
	),
	...rows(
		'Services: Get',
		'Options → Max Response Size (a 1.3 KB answer)',
		[['"0.001"', '0.001 MB', TOO_LARGE]],
		get((value) => ({ serviceId: 'srv-1', options: { maxResponseSize: value } }), ids),
	),
	...rows(
		'Services: Get',
		'Options → Parallel Requests',
		[
			['"1"', '1 (one by one)', 'srv-1'],
			['0', 'error', parallelRefused('the number 0')],
		],
		get((value) => ({ serviceId: 'srv-1', options: { parallelRequests: value } }), ids),
	),
	...rows(
		'Services: Get',
		'Options → Retry on Rate Limit',
		[['"yes"', 'error', 'error: "Retry on Rate Limit" must be true or false, not the text "yes"']],
		get((value) => ({ serviceId: 'srv-1', options: { retryOnRateLimit: value } }), ids),
	),
	// ---- Services Trigger ----
	...rows(
		'Services Trigger',
		'Trigger On',
		[
			['["created", "removed"]', 'created, removed', 'created srv-6, removed srv-4'],
			['"statusChanged, specsChanged"', 'statusChanged, specsChanged', 'specsChanged srv-2, statusChanged 10014'],
			['"removed"', 'removed', 'removed srv-4'],
			['""', 'error', 'error: Choose at least one event to trigger on'],
			['[]', 'error', 'error: Choose at least one event to trigger on'],
			['null', 'error', noValue('Trigger On')],
			['"deleted"', 'error', 'error: Unknown event(s) in "Trigger On": "deleted"'],
			['"Created"', 'error', 'error: Unknown event(s) in "Trigger On": "Created"'],
			['5', 'error', eventsRefused('the number 5')],
			['["created", 5]', 'error', eventsRefused('the list ["created",5]')],
			['{}', 'error', eventsRefused('the object {}')],
		],
		trigger((value) => ({ events: value }), events),
	),
	...rows(
		'Services Trigger',
		'Simplify',
		switchCases('Simplify', 'simplified items', 'raw records'),
		trigger((value) => ({ simplify: value }), serviceShape),
	),
	...rows(
		'Services Trigger',
		'Filters → Status',
		[
			['"suspended"', '"suspended"', 'specsChanged srv-2, statusChanged 10014'],
			['1', '"1"', 'removed srv-4'],
			['""', 'no filter', ALL_EVENTS],
			['null', 'error', noValue('Status')],
			['{}', 'error', statusRefused('the object {}')],
		],
		trigger((value) => ({ filters: { status: value } }), events),
	),
	...rows(
		'Services Trigger',
		'Filters → Search',
		[
			['10014', '"10014"', 'statusChanged 10014'],
			['""', 'no filter', ALL_EVENTS],
			['null', 'error', noValue('Search')],
			['["db"]', 'error', searchRefused('the list ["db"]')],
		],
		trigger((value) => ({ filters: { search: value } }), events),
	),
	...rows(
		'Services Trigger',
		'Options → Timeout (a server that never answers)',
		[
			['"50"', '50 ms', TIMED_OUT],
			['""', 'error', timeoutRefused('the text ""')],
			['null', 'error', noValue('Timeout')],
		],
		trigger((value) => ({ options: { timeout: value } }), events, 'hang'),
	),
	...rows(
		'Services Trigger',
		'Options → Listing Time Limit (a server that never answers)',
		[
			['"0.001"', '0.001 min (60 ms)', LISTING_TIMED_OUT],
			['""', 'error', listingLimitRefused('the text ""')],
			['null', 'error', noValue('Listing Time Limit')],
		],
		trigger((value) => ({ options: { listingTimeLimit: value } }), events, 'hang'),
	),
	...rows(
		'Services Trigger',
		'Options → Max Response Size (a 1.3 KB answer)',
		[
			['"0.001"', '0.001 MB', TOO_LARGE],
			['[]', 'error', sizeRefused('the list []')],
		],
		trigger((value) => ({ options: { maxResponseSize: value } }), events),
	),
	...rows(
		'Services Trigger',
		'Options → Parallel Requests',
		[
			['"3"', '3', ALL_EVENTS],
			['null', 'error', noValue('Parallel Requests')],
		],
		trigger((value) => ({ options: { parallelRequests: value } }), events),
	),
	...rows(
		'Services Trigger',
		'Options → Retry on Rate Limit (429 once)',
		[
			['"true"', 'true', ALL_EVENTS],
			['"false"', 'false', RATE_LIMITED],
			['null', 'error', noValue('Retry on Rate Limit')],
		],
		trigger((value) => ({ options: { retryOnRateLimit: value } }), events, 'ratelimited'),
	),
	...rows(
		'Services Trigger',
		'Confirm Mass Removals (every service gone)',
		switchCases('Confirm Mass Removals', 'nothing reported', ALL_REMOVED),
		trigger((value) => ({ confirmMassRemoval: value }), events, 'emptied'),
	),
	...rows(
		'Services Trigger',
		'Resync → At Start (the first poll)',
		switchCases('At Start', 'resync of all 5 services', 'nothing reported'),
		activation((value) => ({ resync: { onStart: value } }), resynced),
	),
	...rows(
		'Services Trigger',
		'Resync → Every (Hours) (the second poll, right after the first)',
		[
			['24', '24 hours', `${ALL_EVENTS} (no resync yet)`],
			['"0.25"', '15 minutes', `${ALL_EVENTS} (no resync yet)`],
			['0.0167', 'one minute', `${ALL_EVENTS} (no resync yet)`],
			['0.01', 'error', 'error: "Every (Hours)" must be at least 0.0167 (one minute), not 0.01'],
			['0', 'error', hoursRefused('the number 0')],
			['-1', 'error', hoursRefused('the number -1')],
			['"daily"', 'error', hoursRefused('the text "daily"')],
			['9000', 'error', 'error: "Every (Hours)" must be at most 8,760 hours (a year), not 9000'],
			['null', 'error', noValue('Every (Hours)')],
		],
		trigger(
			(value) => ({ resync: { intervalHours: value } }),
			(items) => `${events(items)}${items.some((item) => item.event === 'resync') ? '' : ' (no resync yet)'}`,
		),
	),
];

/** Credential fields hold what their expression resolved to: the values are given as they are. */
function credentialRows(
	parameter: 'API Key' | 'Base URL',
	cases: Array<[value: unknown, shown: string, reads: string, outcome: string]>,
): Row[] {
	return cases.map(([value, shown, reads, outcome]) => ({
		section: 'Credential',
		parameter,
		value: shown,
		reads,
		outcome,
		run: (server: LocalServer) =>
			parameter === 'API Key'
				? execute({ returnAll: true }, base(server, 'normal'), count, value)
				: execute({ returnAll: true }, value === 'LOCAL' ? base(server, 'normal') : (value as string), count),
	}));
}

const keyRefused = (kind: string) => `error: The credential's API Key must be text, not ${kind}`;
const urlRefused = (kind: string) => `error: The credential's Base URL must be text, not ${kind}`;

const CREDENTIAL: Row[] = [
	...credentialRows('API Key', [
		[KEY, '"sk-test-PARAMS-4f9c2e7a1b3d5f60"', 'the key', 'all 5 services'],
		[` ${KEY} `, '" sk-test-PARAMS-4f9c2e7a1b3d5f60 "', 'the key, trimmed', 'all 5 services'],
		['10014', '"10014"', 'error', "error: The credential's API Key is too short to be an API key (5 characters; at least 8 needed)"],
		[12345678901234567890, '12345678901234567890', 'error', keyRefused('a number')],
		[true, 'true', 'error', keyRefused('a boolean')],
		[[KEY], '["sk-test-…"]', 'error', keyRefused('a list')],
		[{}, '{}', 'error', keyRefused('an object')],
		['', '""', 'error', 'error: The credential has no API Key'],
		[null, 'null', 'error', 'error: The credential has no API Key'],
	]),
	...credentialRows('Base URL', [
		['LOCAL', '"http://127.0.0.1:<port>/…"', 'the address', 'all 5 services'],
		['127.0.0.1:8080', '"127.0.0.1:8080"', 'error', 'error: The credential\'s Base URL "127.0.0.1:8080" is not an absolute URL'],
		[8080, '8080', 'error', urlRefused('a number')],
		[true, 'true', 'error', urlRefused('a boolean')],
		[['https://api.example.com'], '["https://api.example.com"]', 'error', urlRefused('a list')],
		[{}, '{}', 'error', urlRefused('an object')],
		['', '""', 'error', 'error: The credential has no Base URL'],
		[null, 'null', 'error', 'error: The credential has no Base URL'],
	]),
];

const TABLE = [...PARAMETERS, ...CREDENTIAL];

let server: LocalServer;
beforeAll(async () => {
	server = await startLocalServer({ handler: scenarioHandler() });
});
afterAll(async () => {
	await closeLocalServers();
});

describe.each(['Services: List', 'Services: Get', 'Services Trigger', 'Credential'] as const)('%s', (section) => {
	test.each(TABLE.filter((row) => row.section === section).map((row) => [row.parameter, row.value, row]))(
		'%s given %s',
		async (_parameter, _value, row) => {
			expect(await row.run(server)).toBe(row.outcome);
		},
	);
});

describe("issue 24's three wrong answers, against a real server (each returned a plausible listing before)", () => {
	const run = async (parameters: INodeParameters) => {
		const { items, error } = await runNode({
			node: servicesNode(parameters),
			credentials: { apiKey: KEY, baseUrl: base(server, 'normal') },
		});
		expect(error).toBeUndefined();
		return items.map((item) => item.json);
	};

	test('Search given the number 10014 searches "10014" (it was dropped: every service came back)', async () => {
		expect(await run({ returnAll: true, filters: { search: '={{ 10014 }}' } })).toEqual([expectedSimplified(RECORDS[2])]);
	});

	test('Simplify given "false" returns the records as the API sent them (it still simplified)', async () => {
		expect(await run({ returnAll: true, simplify: '={{ "false" }}' })).toEqual(RECORDS);
	});

	test('Return All given "false" applies the Limit (it returned all)', async () => {
		expect(await run({ returnAll: '={{ "false" }}', limit: 2 })).toEqual(RECORDS.slice(0, 2).map(expectedSimplified));
	});
});

describe('docs/parameters.md', () => {
	const path = join(__dirname, '..', '..', 'docs', 'parameters.md');
	const START = '<!-- parameter table: generated from test/unit/parameters-table.test.ts -->';
	const END = '<!-- end of parameter table -->';

	test('its table is these rows, word for word', () => {
		const page = readFileSync(path, 'utf8');
		const generated = `${START}\n${markdownTable(TABLE)}${END}`;
		const current = page.slice(page.indexOf(START), page.indexOf(END) + END.length);
		if (process.env.WRITE_PARAMETER_TABLE === '1') writeFileSync(path, page.replace(current, generated));
		else expect(current).toBe(generated);
	});

	test('every parameter of both nodes and the credential has rows', () => {
		const parameters = new Set(TABLE.map((row) => `${row.section}: ${row.parameter.replace(/ \([^()]*\)$/, '')}`));
		expect([...parameters]).toEqual([
			'Services: List: Return All',
			'Services: List: Limit',
			'Services: List: Simplify',
			'Services: List: Filters → Status',
			'Services: List: Filters → Search',
			'Services: List: Options → Timeout',
			'Services: List: Options → Listing Time Limit',
			'Services: List: Options → Max Response Size',
			'Services: List: Options → Parallel Requests',
			'Services: List: Options → Retry on Rate Limit',
			'Services: Get: Service',
			'Services: Get: Simplify',
			'Services: Get: Options → Timeout',
			'Services: Get: Options → Listing Time Limit',
			'Services: Get: Options → Max Response Size',
			'Services: Get: Options → Parallel Requests',
			'Services: Get: Options → Retry on Rate Limit',
			'Services Trigger: Trigger On',
			'Services Trigger: Simplify',
			'Services Trigger: Filters → Status',
			'Services Trigger: Filters → Search',
			'Services Trigger: Options → Timeout',
			'Services Trigger: Options → Listing Time Limit',
			'Services Trigger: Options → Max Response Size',
			'Services Trigger: Options → Parallel Requests',
			'Services Trigger: Options → Retry on Rate Limit',
			'Services Trigger: Confirm Mass Removals',
			'Services Trigger: Resync → At Start',
			'Services Trigger: Resync → Every (Hours)',
			'Credential: API Key',
			'Credential: Base URL',
		]);
	});
});
