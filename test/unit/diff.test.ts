/**
 * Unit tests of the Services Trigger's pure change detection (nodes/ServicesTrigger/diff.ts) and its
 * compact state (state/snapshot.ts). The n8n-core runs of poll() are in trigger.test.ts.
 */
import fc from 'fast-check';

import type { DescribedError } from '../../nodes/shared/errors/errors';
import { parseServiceFilters } from '../../nodes/shared/parameters/filters';
import type { Text } from '../../nodes/shared/text/text';
import { render } from '../../nodes/shared/text/text';
import type { ServiceRecord } from '../../nodes/shared/record/serviceRecord';
import type { DiffOptions, ServiceEventName } from '../../nodes/ServicesTrigger/diff';
import { changedSpecs, diffServices, parseEvents, SERVICE_EVENT_NAMES } from '../../nodes/ServicesTrigger/diff';
import { buildTestEvent, formatEvent } from '../../nodes/ServicesTrigger/events';
import type { ServiceSnapshot, TriggerStateError } from '../../nodes/ServicesTrigger/state/snapshot';
import { nestServiceRecord, simplifyServiceRecord } from '../../nodes/shared/record/serviceRecord';
import { readSnapshot, storedValuesOf, writeSnapshot } from '../../nodes/ServicesTrigger/state/snapshot';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { generateServices } = require('../../tools/mock-platform/data.cjs') as {
	generateServices: (count: number, seed: number) => ServiceRecord[];
};

interface Fields {
	name?: string | null;
	alias?: string | null;
	status?: string | null;
	osId?: string | null;
	osName?: string | null;
	vcores?: number | null;
	ram?: number | null;
	hd?: number | null;
}

function service(id: string, fields: Fields = {}): ServiceRecord {
	const f = {
		name: `${id}.example.net`,
		alias: `Alias of ${id}`,
		status: 'active',
		osId: 'ubuntu-24.04',
		osName: 'Ubuntu 24.04 LTS',
		vcores: 2,
		ram: 4,
		hd: 80,
		...fields,
	};
	return {
		id_service: id,
		values: {
			values: {
				name: f.name,
				alias: f.alias,
				status: f.status,
				service: {
					customize: {
						OS: { id: f.osId, name: f.osName },
						specifications: { vcores: f.vcores, GB: { ram: f.ram, hd: f.hd } },
					},
				},
			},
		},
	} as ServiceRecord;
}

const ALL: DiffOptions = { events: SERVICE_EVENT_NAMES, filters: parseServiceFilters({}) };

function only(...events: ServiceEventName[]): DiffOptions {
	return { ...ALL, events };
}

function withFilters(raw: object, events: readonly ServiceEventName[] = SERVICE_EVENT_NAMES): DiffOptions {
	return { events, filters: parseServiceFilters(raw) };
}

/** The snapshot a first poll of `records` leaves. */
function baseline(records: ServiceRecord[]): ServiceSnapshot {
	return diffServices(undefined, records, ALL).snapshot;
}

function summary(records: ServiceRecord[], previous: ServiceRecord[], options: DiffOptions = ALL) {
	return diffServices(baseline(previous), records, options).events.map((e) => [e.event, e.id_service, e.previous]);
}

describe('diffServices: first poll', () => {
	it('records every service as the baseline and emits nothing', () => {
		const records = [service('a'), service('b', { status: 'suspended' })];
		const result = diffServices(undefined, records, ALL);
		expect(result.baseline).toBe(true);
		expect(result.events).toEqual([]);
		expect(result.changed).toBe(true);
		expect([...result.snapshot.keys()]).toEqual(['a', 'b']);
		expect(result.snapshot.get('b')).toEqual(['b.example.net', 'Alias of b', 'suspended', 'ubuntu-24.04', 'Ubuntu 24.04 LTS', 2, 4, 80]);
	});

	it('takes an empty listing as a baseline too, so the first service after it is "created"', () => {
		const first = diffServices(undefined, [], ALL);
		expect(first).toMatchObject({ baseline: true, events: [] });
		expect(first.snapshot.size).toBe(0);
		const second = diffServices(first.snapshot, [service('a')], ALL);
		expect(second.baseline).toBe(false);
		expect(second.events.map((e) => [e.event, e.id_service])).toEqual([['created', 'a']]);
	});
});

describe('diffServices: each event alone', () => {
	it('created: an id not seen before, with the current record and previous null', () => {
		const added = service('c', { status: 'provisioning' });
		const result = diffServices(baseline([service('a')]), [service('a'), added], ALL);
		expect(result.events).toHaveLength(1);
		expect(result.events[0]).toMatchObject({
			event: 'created',
			id_service: 'c',
			previous: null,
			service: { id_service: 'c', status: 'provisioning', name: 'c.example.net' },
		});
		expect(result.events[0].record).toBe(added);
		expect(result.changed).toBe(true);
	});

	it('statusChanged: previous holds only the earlier status', () => {
		expect(summary([service('a', { status: 'suspended' })], [service('a')])).toEqual([['statusChanged', 'a', { status: 'active' }]]);
	});

	it('statusChanged: from or to a missing status (null)', () => {
		expect(summary([service('a', { status: null })], [service('a')])).toEqual([['statusChanged', 'a', { status: 'active' }]]);
		expect(summary([service('a')], [service('a', { status: null })])).toEqual([['statusChanged', 'a', { status: null }]]);
	});

	it('specsChanged: vCores, RAM and disk, each reported with its earlier value only', () => {
		expect(summary([service('a', { vcores: 4 })], [service('a')])).toEqual([['specsChanged', 'a', { vcores: 2 }]]);
		expect(summary([service('a', { ram: 8 })], [service('a')])).toEqual([['specsChanged', 'a', { ram_gb: 4 }]]);
		expect(summary([service('a', { hd: 160 })], [service('a')])).toEqual([['specsChanged', 'a', { hd_gb: 80 }]]);
		expect(summary([service('a', { vcores: 8, ram: 16, hd: 320 })], [service('a')])).toEqual([
			['specsChanged', 'a', { vcores: 2, ram_gb: 4, hd_gb: 80 }],
		]);
	});

	it('specsChanged: a new OS gives both its earlier id and name', () => {
		expect(summary([service('a', { osId: 'debian-12', osName: 'Debian 12 (Bookworm)' })], [service('a')])).toEqual([
			['specsChanged', 'a', { os_id: 'ubuntu-24.04', os_name: 'Ubuntu 24.04 LTS' }],
		]);
	});

	it('a new display name of the same OS id is no event, but the stored name follows it', () => {
		const before = baseline([service('a')]);
		const result = diffServices(before, [service('a', { osName: 'Ubuntu 24.04.1 LTS' })], ALL);
		expect(result.events).toEqual([]);
		expect(result.changed).toBe(true);
		expect(result.snapshot.get('a')?.[4]).toBe('Ubuntu 24.04.1 LTS');
	});

	it('without OS ids, the OS is compared by name', () => {
		expect(summary([service('a', { osId: null, osName: 'Debian 12' })], [service('a', { osId: null, osName: 'Debian 11' })])).toEqual([
			['specsChanged', 'a', { os_id: null, os_name: 'Debian 11' }],
		]);
	});

	it('specs that appear or disappear count as changes (null <-> number)', () => {
		expect(summary([service('a', { vcores: null })], [service('a')])).toEqual([['specsChanged', 'a', { vcores: 2 }]]);
		expect(summary([service('a')], [service('a', { ram: null })])).toEqual([['specsChanged', 'a', { ram_gb: null }]]);
	});

	it('removed: the last known service, no record, previous null, and pruned from the state', () => {
		const result = diffServices(baseline([service('a'), service('gone', { status: 'suspended', vcores: 8 })]), [service('a')], ALL);
		expect(result.events).toEqual([
			{
				event: 'removed',
				id_service: 'gone',
				previous: null,
				service: {
					id_service: 'gone',
					name: 'gone.example.net',
					alias: 'Alias of gone',
					status: 'suspended',
					os_id: 'ubuntu-24.04',
					os_name: 'Ubuntu 24.04 LTS',
					vcores: 8,
					ram_gb: 4,
					hd_gb: 80,
				},
			},
		]);
		expect([...result.snapshot.keys()]).toEqual(['a']);
	});

	it('a rename alone is no event, but a later removed event names the service by its latest name', () => {
		const first = baseline([service('a', { name: 'old-name' })]);
		const renamed = diffServices(first, [service('a', { name: 'new-name' })], ALL);
		expect(renamed.events).toEqual([]);
		expect(renamed.changed).toBe(true);
		const removed = diffServices(renamed.snapshot, [], ALL);
		expect(removed.events[0]).toMatchObject({ event: 'removed', service: { name: 'new-name' } });
	});
});

describe('diffServices: several changes in one poll', () => {
	it('reports each change once: created, status and specs of one service as two events, removed last', () => {
		const before = [service('a'), service('b'), service('c'), service('d')];
		const now = [
			service('new-1'),
			service('a', { status: 'suspended', ram: 8 }),
			service('b'),
			service('c', { hd: 100 }),
			service('new-2', { status: 'pending' }),
		];
		expect(summary(now, before)).toEqual([
			['created', 'new-1', null],
			['statusChanged', 'a', { status: 'active' }],
			['specsChanged', 'a', { ram_gb: 4 }],
			['specsChanged', 'c', { hd_gb: 80 }],
			['created', 'new-2', null],
			['removed', 'd', null],
		]);
	});

	it('an id that is removed and another created in the same poll are not confused', () => {
		expect(summary([service('b')], [service('a')])).toEqual([
			['created', 'b', null],
			['removed', 'a', null],
		]);
	});

	it('all services removed at once (empty listing)', () => {
		const result = diffServices(baseline([service('a'), service('b')]), [], ALL);
		expect(result.events.map((e) => [e.event, e.id_service])).toEqual([
			['removed', 'a'],
			['removed', 'b'],
		]);
		expect(result.snapshot.size).toBe(0);
	});

	it('only the selected events are emitted, but every change is recorded', () => {
		const before = baseline([service('a'), service('b')]);
		const now = [service('a', { status: 'suspended', vcores: 4 }), service('c')];
		const result = diffServices(before, now, only('statusChanged'));
		expect(result.events.map((e) => [e.event, e.id_service])).toEqual([['statusChanged', 'a']]);
		// Selecting more events later does not replay what was recorded meanwhile.
		expect(diffServices(result.snapshot, now, ALL).events).toEqual([]);
		expect([...result.snapshot.keys()]).toEqual(['a', 'c']);
	});
});

describe('diffServices: no change', () => {
	it('the same listing again gives no events and no state write', () => {
		const records = [service('a'), service('b')];
		const result = diffServices(baseline(records), records, ALL);
		expect(result).toMatchObject({ events: [], baseline: false, changed: false });
	});

	it('reordering gives no events and no state write', () => {
		const records = generateServices(50, 7);
		const reversed = [...records].reverse();
		const shuffled = [...records.slice(25), ...records.slice(0, 25)];
		for (const order of [reversed, shuffled]) {
			const result = diffServices(baseline(records), order, ALL);
			expect(result.events).toEqual([]);
			expect(result.changed).toBe(false);
		}
	});

	it('fields outside the documented ones do not cause events', () => {
		const extended = service('a') as ServiceRecord & { billing?: unknown };
		extended.billing = { next_invoice: '2026-12-01' };
		expect(summary([extended], [service('a')])).toEqual([]);
	});
});

describe('diffServices: filters', () => {
	const before = [
		service('web-1', { name: 'web-01.acme', status: 'active' }),
		service('db-1', { name: 'db-01.acme', status: 'active' }),
		service('old-1', { name: 'web-09.acme', status: 'suspended' }),
	];

	it('created and specsChanged are only reported for services that match', () => {
		const now = [
			service('web-1', { name: 'web-01.acme', vcores: 4 }),
			service('db-1', { name: 'db-01.acme', vcores: 4 }),
			service('old-1', { name: 'web-09.acme', status: 'suspended' }),
			service('web-2', { name: 'web-02.acme' }),
			service('db-2', { name: 'db-02.acme' }),
		];
		expect(summary(now, before, withFilters({ search: 'WEB' }))).toEqual([
			['specsChanged', 'web-1', { vcores: 2 }],
			['created', 'web-2', null],
		]);
	});

	it('status filter is case-insensitive and accepts several statuses', () => {
		const now = [
			service('web-1', { name: 'web-01.acme', status: 'Pending' }),
			service('db-1', { name: 'db-01.acme' }),
			service('old-1', { name: 'web-09.acme', status: 'suspended' }),
			service('x', { status: 'PENDING' }),
			service('y', { status: 'cancelled' }),
		];
		expect(summary(now, before, withFilters({ status: 'pending, cancelled' }, ['created']))).toEqual([
			['created', 'x', null],
			['created', 'y', null],
		]);
	});

	it('a service leaving the filter is reported once by the change that moved it out, then is silent', () => {
		const options = withFilters({ status: 'active' });
		// active -> suspended: leaves the "active" filter; reported because it matched before.
		const left = diffServices(
			baseline(before),
			[before[0], service('db-1', { name: 'db-01.acme', status: 'suspended' }), before[2]],
			options,
		);
		expect(left.events.map((e) => [e.event, e.id_service, e.previous])).toEqual([['statusChanged', 'db-1', { status: 'active' }]]);
		// It stays in the state: outside the filter its spec changes and its removal are not reported...
		expect(left.snapshot.has('db-1')).toBe(true);
		const resized = diffServices(
			left.snapshot,
			[before[0], service('db-1', { name: 'db-01.acme', status: 'suspended', ram: 64 }), before[2]],
			options,
		);
		expect(resized.events).toEqual([]);
		expect(resized.changed).toBe(true);
		const gone = diffServices(resized.snapshot, [before[0], before[2]], options);
		expect(gone.events).toEqual([]);
		expect(gone.snapshot.has('db-1')).toBe(false);
	});

	it('a service coming back into the filter is a statusChanged, never a false "created"', () => {
		const options = withFilters({ status: 'active' });
		const suspended = [service('a', { status: 'suspended' })];
		const result = diffServices(baseline(suspended), [service('a', { status: 'active' })], options);
		expect(result.events.map((e) => [e.event, e.id_service, e.previous])).toEqual([['statusChanged', 'a', { status: 'suspended' }]]);
	});

	it('"notify when a service becomes suspended": Status filter "suspended" + Status Changed', () => {
		const options = withFilters({ status: 'suspended' }, ['statusChanged']);
		const result = diffServices(
			baseline([service('a'), service('b'), service('c', { status: 'pending' })]),
			[service('a', { status: 'suspended' }), service('b'), service('c', { status: 'active' })],
			options,
		);
		expect(result.events.map((e) => [e.id_service, e.previous, e.service.status])).toEqual([['a', { status: 'active' }, 'suspended']]);
	});

	it('a removed service is matched as it was last seen', () => {
		const options = withFilters({ status: 'suspended' }, ['removed']);
		const result = diffServices(baseline(before), [before[0]], options);
		expect(result.events.map((e) => [e.event, e.id_service])).toEqual([['removed', 'old-1']]);
	});

	it('changing the filters between polls never produces a burst of events', () => {
		const snapshot = diffServices(baseline(before), before, withFilters({ status: 'active' })).snapshot;
		expect(diffServices(snapshot, before, withFilters({ status: 'suspended' })).events).toEqual([]);
		expect(diffServices(snapshot, before, withFilters({})).events).toEqual([]);
	});
});

describe('state: compact format in static data', () => {
	it('round-trips through JSON, the way n8n stores static data', () => {
		const records = generateServices(20, 3);
		const staticData: Record<string, unknown> = {};
		writeSnapshot(staticData as never, baseline(records), 'cred-1');
		const stored = JSON.parse(JSON.stringify(staticData));
		expect(stored.stateVersion).toBe(3);
		expect(stored.credentialId).toBe('cred-1');
		expect(stored.fields).toEqual(['name', 'alias', 'status', 'os_id', 'os_name', 'vcores', 'ram_gb', 'hd_gb']);
		expect(Object.keys(stored.services)).toEqual(records.map((r) => r.id_service));
		const read = readSnapshot(stored, 'cred-1');
		expect(read?.snapshot).toStrictEqual(baseline(records));
		expect(read?.dropped.size).toBe(0);
		expect(read?.damage).toBeUndefined();
	});

	it('reads back the services object this process wrote or checked without a copy; a reloaded one is checked in full', () => {
		const records = generateServices(5, 3);
		const staticData: Record<string, unknown> = {};
		const snapshot = baseline(records);
		writeSnapshot(staticData as never, snapshot, 'cred-1');
		expect(readSnapshot(staticData as never, 'cred-1')?.snapshot).toBe(snapshot);
		// As n8n reloads static data from its database: another object, read and checked again.
		const reloaded = JSON.parse(JSON.stringify(staticData));
		const read = readSnapshot(reloaded, 'cred-1')?.snapshot;
		expect(read).not.toBe(snapshot);
		expect(read).toStrictEqual(snapshot);
		// Checked once, that very object is not checked again.
		expect(readSnapshot(reloaded, 'cred-1')?.snapshot).toBe(read);
		// A damaged entry: dropped, the others read; that very object read again gives the same answer.
		const damaged = JSON.parse(JSON.stringify(staticData));
		damaged.services[records[0].id_service] = 'active';
		const salvaged = readSnapshot(damaged, 'cred-1');
		expect([...(salvaged?.dropped ?? [])]).toEqual([records[0].id_service]);
		expect(salvaged?.snapshot.size).toBe(4);
		expect(readSnapshot(damaged, 'cred-1')?.snapshot).toBe(salvaged?.snapshot);
		expect(readSnapshot(damaged, 'cred-1')?.damage).toBe(salvaged?.damage);
		// Another credential still means a new baseline, whoever wrote the state.
		expect(readSnapshot(staticData as never, 'cred-2')).toBeUndefined();
	});

	it('keeps ids such as "__proto__" and "constructor" as data', () => {
		const records = [service('__proto__'), service('constructor'), service('toString')];
		const staticData: Record<string, unknown> = {};
		writeSnapshot(staticData as never, baseline(records), null);
		const read = readSnapshot(JSON.parse(JSON.stringify(staticData)), null)?.snapshot;
		expect([...(read?.keys() ?? [])]).toEqual(['__proto__', 'constructor', 'toString']);
		const result = diffServices(read, [service('constructor', { status: 'suspended' }), service('new')], ALL);
		expect(result.events.map((e) => [e.event, e.id_service])).toEqual([
			['statusChanged', 'constructor'],
			['created', 'new'],
			['removed', '__proto__'],
			['removed', 'toString'],
		]);
	});

	it('no state or another credential means a new baseline; another version or a state damaged as a whole is an error saying which', () => {
		const staticData: Record<string, unknown> = {};
		expect(readSnapshot(staticData as never, null)).toBeUndefined();
		writeSnapshot(staticData as never, baseline([service('a')]), 'cred-1');
		expect(readSnapshot(staticData as never, 'cred-1')?.snapshot.size).toBe(1);
		expect(readSnapshot(staticData as never, 'cred-2')).toBeUndefined();
		const kind = (state: unknown) => {
			try {
				return readSnapshot(state, 'cred-1')?.dropped.size ? 'entries dropped' : 'read';
			} catch (error) {
				return (error as TriggerStateError).kind;
			}
		};
		expect(kind({ ...staticData, stateVersion: 2 })).toBe('read');
		expect(kind({ ...staticData, stateVersion: 4 })).toBe('future');
		expect(kind({ ...staticData, fields: undefined })).toBe('damaged');
		expect(kind({ ...staticData, fields: ['name', 'name'] })).toBe('damaged');
		expect(kind({ ...staticData, services: [] })).toBe('damaged');
		expect(kind({ ...staticData, services: { a: ['active'] } })).toBe('entries dropped');
		expect(kind({ ...staticData, services: { a: [null, null, 'active', null, null, '2', null, null] } })).toBe('entries dropped');
		expect(kind('text')).toBe('unwritable');
	});

	it('stores only the compared fields plus name and alias: size per 1,000 realistic services', () => {
		const records = generateServices(1000, 1);
		const staticData: Record<string, unknown> = {};
		writeSnapshot(staticData as never, baseline(records), 'abcdefghijklmnop');
		const size = JSON.stringify(staticData).length;
		const rawSize = JSON.stringify(records).length;
		// Measured: 109,933 characters (about 110 bytes per service) for the mock's realistic data
		// (seed 1), against 259,790 for the raw records. The README quotes this number.
		expect(size).toBeLessThan(120_000);
		expect(size).toBeLessThan(rawSize / 2);
		expect(Object.keys(staticData.services as object)).toHaveLength(1000);
	});

	it('stores every declared field in declaration order; missing fields become null', () => {
		const stored = (record: ServiceRecord) => storedValuesOf(simplifyServiceRecord(record));
		expect(stored({ id_service: 'x' })).toEqual([null, null, null, null, null, null, null, null]);
		expect(stored(service('x'))).toEqual(['x.example.net', 'Alias of x', 'active', 'ubuntu-24.04', 'Ubuntu 24.04 LTS', 2, 4, 80]);
	});

	it('reads the state of version 0.1.0 (stateVersion 1, 8-slot tuples) without a new baseline', () => {
		const v1 = {
			stateVersion: 1,
			credentialId: 'cred-1',
			services: {
				a: ['active', 'ubuntu-24.04', 'Ubuntu 24.04 LTS', 2, 4, 80, 'a.example.net', 'Alias of a'],
				b: ['active', 'ubuntu-24.04', 'Ubuntu 24.04 LTS', 2, 4, 80, 'b.example.net', 'Alias of b'],
			},
		};
		const read = readSnapshot(JSON.parse(JSON.stringify(v1)), 'cred-1')?.snapshot;
		expect(read).toStrictEqual(baseline([service('a'), service('b')]));
		const result = diffServices(read, [service('a', { status: 'suspended', hd: 100 }), service('c')], ALL);
		expect(result.baseline).toBe(false);
		expect(result.events.map((e) => [e.event, e.id_service, e.previous])).toEqual([
			['statusChanged', 'a', { status: 'active' }],
			['specsChanged', 'a', { hd_gb: 80 }],
			['created', 'c', null],
			['removed', 'b', null],
		]);
		expect(result.events[3].service).toEqual(simplifyServiceRecord(service('b')));
		// The next write upgrades the state to the current format.
		const staticData: Record<string, unknown> = JSON.parse(JSON.stringify(v1));
		writeSnapshot(staticData as never, result.snapshot, 'cred-1');
		expect(staticData.stateVersion).toBe(3);
		expect(readSnapshot(staticData as never, 'cred-1')?.snapshot.get('a')).toEqual(
			storedValuesOf(simplifyServiceRecord(service('a', { status: 'suspended', hd: 100 }))),
		);
	});

	it('a field the state does not know (stored by an older version) is unknown: never a change, null in a removed service', () => {
		const staticData: Record<string, unknown> = {};
		writeSnapshot(staticData as never, baseline([service('a'), service('b', { osId: null, osName: 'Linux' })]), 'cred-1');
		const olderState = JSON.parse(JSON.stringify(staticData));
		// As written by a version that did not declare hd_gb and os_name yet (fields stored by name).
		const drop = ['hd_gb', 'os_name'];
		const keep = olderState.fields.map((key: string) => !drop.includes(key));
		olderState.fields = olderState.fields.filter((_: string, index: number) => keep[index]);
		for (const id of Object.keys(olderState.services)) {
			olderState.services[id] = olderState.services[id].filter((_: unknown, index: number) => keep[index]);
		}
		const read = readSnapshot(olderState, 'cred-1')?.snapshot;
		expect(read).toBeDefined();
		const result = diffServices(read, [service('a', { hd: 999 }), service('b', { osId: null, osName: 'Other' })], ALL);
		expect(result.events).toEqual([]);
		expect(result.changed).toBe(true);
		const removed = diffServices(read, [], ALL).events;
		expect(removed.map((e) => [e.id_service, e.service.hd_gb, e.service.os_name, e.service.ram_gb])).toEqual([
			['a', null, null, 4],
			['b', null, null, 4],
		]);
		// A field stored by a newer version and not declared here is ignored.
		const newerState = JSON.parse(JSON.stringify(staticData));
		newerState.fields.push('bandwidth_gb');
		for (const id of Object.keys(newerState.services)) newerState.services[id].push(1000);
		const newer = readSnapshot(newerState, 'cred-1')?.snapshot;
		expect(newer).toStrictEqual(baseline([service('a'), service('b', { osId: null, osName: 'Linux' })]));
	});
});

describe('state: a damaged entry is dropped, the others kept (issue 24)', () => {
	const FIELDS = ['name', 'alias', 'status', 'os_id', 'os_name', 'vcores', 'ram_gb', 'hd_gb'];
	const shown = (value: Text | undefined) => (value === undefined ? undefined : render(value, (part) => part, Infinity));
	/** The static data a poll of `records` leaves, as JSON, with `damaged` entries put in after (or instead). */
	function stateWith(records: ServiceRecord[], damaged: Record<string, unknown>): Record<string, unknown> {
		const staticData: Record<string, unknown> = {};
		writeSnapshot(staticData as never, baseline(records), 'cred-1');
		const state = JSON.parse(JSON.stringify(staticData));
		Object.assign(state.services, damaged);
		return state;
	}

	it('names the entry and what is wrong with it; the other entries are read as they were', () => {
		const read = readSnapshot(stateWith([service('a'), service('b')], { c: 'active' }), 'cred-1');
		expect(read?.snapshot).toStrictEqual(baseline([service('a'), service('b')]));
		expect([...(read?.dropped ?? [])]).toEqual(['c']);
		expect(shown(read?.damage?.message)).toBe(
			`The trigger's saved state is damaged: 1 of its 3 entries cannot be read (the entry of "c" is the text "active", not a list of 8 values); the trigger dropped it and kept the rest`,
		);
		expect(shown(read?.damage?.description)).toMatch(
			/^The changes of the other services are reported as usual\. A dropped entry's service that is still listed is remembered again from this poll with its current values, without an event: a change or removal of it since the last good poll is not reported\. Nothing needs doing/,
		);
	});

	it('many damaged: the first three named, then the count of the others, thousands separated', () => {
		const damaged = Object.fromEntries(
			Array.from({ length: 1234 }, (_, i) => [`d${i}`, i % 2 === 0 ? null : [null, null, null, null, null, true, null, null]]),
		);
		const read = readSnapshot(stateWith([service('a'), service('b')], damaged), 'cred-1');
		expect(read?.dropped.size).toBe(1234);
		expect(shown(read?.damage?.message)).toBe(
			`The trigger's saved state is damaged: 1,234 of its 1,236 entries cannot be read (the entry of "d0" is null, not a list of 8 values; the vcores of "d1" is boolean true, not a number; the entry of "d2" is null, not a list of 8 values; and 1,231 more); the trigger dropped them and kept the rest`,
		);
	});

	it('in a state of version 0.1.0 too, the value named by its field', () => {
		const v1 = {
			stateVersion: 1,
			credentialId: 'cred-1',
			services: { a: ['active', null, null, 2, 4, 80, 'a', 'A'], b: ['active', null, null, '2', 4, 80, 'b', 'B'] },
		};
		const read = readSnapshot(v1, 'cred-1');
		expect([...(read?.snapshot.keys() ?? [])]).toEqual(['a']);
		expect(shown(read?.damage?.message)).toMatch(/\(the vcores of "b" is the text "2", not a number\)/);
	});

	it('diffServices: a dropped service listed now is remembered with its values and no event; one no longer listed is no removal', () => {
		const read = readSnapshot(stateWith([service('a'), service('b')], { c: null, d: null }), 'cred-1');
		const now = [service('a', { status: 'suspended' }), service('c', { ram: 64 }), service('e')];
		const result = diffServices(read?.snapshot, now, { ...ALL, dropped: read?.dropped });
		expect(result.events.map((e) => [e.event, e.id_service])).toEqual([
			['statusChanged', 'a'],
			['created', 'e'],
			['removed', 'b'],
		]);
		expect(result.removedCount).toBe(1);
		expect(result.snapshot).toStrictEqual(baseline(now));
		// Nothing else changed: still written, so the damaged entries leave the state.
		const quiet = diffServices(read?.snapshot, [service('a'), service('b')], { ...ALL, dropped: read?.dropped });
		expect(quiet).toMatchObject({ events: [], changed: true, removedCount: 0 });
		expect(diffServices(read?.snapshot, [service('a'), service('b')], ALL).changed).toBe(false);
	});

	it('Fetch test event: a dropped service listed now is no pending "created"', () => {
		const read = readSnapshot(stateWith([service('a')], { b: 'x' }), 'cred-1');
		const event = buildTestEvent(read?.snapshot, [service('b'), service('a', { hd: 160 })], { ...ALL, dropped: read?.dropped });
		expect([event.event, event.id_service, event.previous]).toEqual(['specsChanged', 'a', { hd_gb: 80 }]);
	});

	it('property: the events are those of the state without the damaged entries, over the listing without their services', () => {
		const ids = ['a', 'b', 'c', 'd', 'e', 'f', '__proto__', 'constructor'];
		const fields = fc.record({
			status: fc.constantFrom('active', 'suspended'),
			ram: fc.constantFrom(4, 8),
			name: fc.constantFrom('x', 'y'),
		});
		const wrongFor = (index: number) =>
			FIELDS[index].endsWith('_gb') || FIELDS[index] === 'vcores'
				? fc.oneof(fc.string(), fc.boolean(), fc.constant({}))
				: fc.oneof(fc.integer(), fc.boolean(), fc.constant([]));
		const damage = fc.oneof(
			fc.oneof(fc.constant(null), fc.string(), fc.integer(), fc.boolean(), fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 })),
			fc.array(fc.jsonValue(), { maxLength: 12 }).filter((list) => list.length !== FIELDS.length),
			fc.integer({ min: 0, max: FIELDS.length - 1 }).chain((index) => wrongFor(index).map((wrong) => ({ index, wrong }))),
		);
		const entry = fc.record({
			before: fc.oneof(
				fc.constant(undefined),
				fields,
				damage.map((value) => ({ damage: value })),
			),
			now: fc.option(fields, { nil: undefined }),
		});
		fc.assert(
			fc.property(
				fc.array(entry, { minLength: ids.length, maxLength: ids.length }),
				fc.shuffledSubarray(ids, { minLength: ids.length }),
				(entries, order) => {
					const valid: ServiceRecord[] = [];
					const damagedIds = new Set<string>();
					const services: Array<[string, unknown]> = [];
					order.forEach((id, i) => {
						const before = entries[i].before;
						if (before === undefined) return;
						if (!('damage' in before)) {
							valid.push(service(id, before));
							services.push([id, storedValuesOf(simplifyServiceRecord(service(id, before)))]);
							return;
						}
						damagedIds.add(id);
						const value = before.damage as { index?: number; wrong?: unknown };
						if (typeof value === 'object' && value !== null && typeof value.index === 'number' && 'wrong' in value) {
							const list: unknown[] = [...storedValuesOf(simplifyServiceRecord(service(id)))];
							list[value.index] = value.wrong;
							services.push([id, list]);
						} else {
							services.push([id, before.damage]);
						}
					});
					// As n8n loads it from its database (an id such as "__proto__" is an own key there).
					const state = JSON.parse(
						JSON.stringify({ stateVersion: 2, credentialId: 'cred-1', fields: FIELDS, services: Object.fromEntries(services) }),
					);
					const now = order.flatMap((id, i) => (entries[i].now === undefined ? [] : [service(id, entries[i].now)]));
					const read = readSnapshot(state, 'cred-1');
					expect(new Set(read?.dropped)).toEqual(damagedIds);
					const result = diffServices(read?.snapshot, now, { ...ALL, dropped: read?.dropped });
					const clean = diffServices(
						baseline(valid),
						now.filter((record) => !damagedIds.has(record.id_service)),
						ALL,
					);
					expect(result.events).toEqual(clean.events);
					expect(result.removedCount).toBe(clean.removedCount);
					expect(result.changed).toBe(clean.changed || damagedIds.size > 0);
					expect(result.snapshot).toStrictEqual(baseline(now));
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe('changedSpecs', () => {
	const view = {
		id_service: 'a',
		name: 'a',
		alias: null,
		status: 'active',
		os_id: 'debian-12',
		os_name: 'Debian 12',
		vcores: 2,
		ram_gb: 4,
		hd_gb: 80,
	};

	it('is undefined when no compared field changed (status, name and alias are not specs)', () => {
		expect(changedSpecs(view, { ...view })).toBeUndefined();
		expect(changedSpecs(view, { ...view, status: 'suspended', name: 'b', alias: 'B' })).toBeUndefined();
	});

	it('lists only the changed fields', () => {
		expect(changedSpecs(view, { ...view, hd_gb: 100 })).toEqual({ hd_gb: 80 });
	});
});

describe('formatEvent', () => {
	const detectedAt = '2026-11-21T10:00:00.000Z';
	const delivery = { eventId: '0123456789abcdef01234567', seq: 7, detectedAt: Date.parse(detectedAt), redelivered: false };

	it('gives { event, id_service, service, previous, detectedAt, eventId, seq, redelivered } with the simplified service', () => {
		const [event] = diffServices(baseline([service('a')]), [service('a', { status: 'suspended' })], ALL).events;
		expect(formatEvent(event, delivery, true)).toEqual({
			event: 'statusChanged',
			id_service: 'a',
			service: {
				id_service: 'a',
				name: 'a.example.net',
				alias: 'Alias of a',
				status: 'suspended',
				os_id: 'ubuntu-24.04',
				os_name: 'Ubuntu 24.04 LTS',
				vcores: 2,
				ram_gb: 4,
				hd_gb: 80,
			},
			previous: { status: 'active' },
			detectedAt,
			eventId: '0123456789abcdef01234567',
			seq: 7,
			redelivered: false,
		});
		// Keys in this order: the documented item (docs/trigger.md).
		expect(Object.keys(formatEvent(event, { ...delivery, redelivered: true }, true))).toEqual([
			'event',
			'id_service',
			'service',
			'previous',
			'detectedAt',
			'eventId',
			'seq',
			'redelivered',
		]);
	});

	it('with Simplify off, the record exactly as the API sent it', () => {
		const now = service('a', { status: 'suspended' }) as ServiceRecord & { extra?: string };
		now.extra = 'kept';
		const [event] = diffServices(baseline([service('a')]), [now], ALL).events;
		expect(formatEvent(event, delivery, false).service).toBe(now);
	});

	it('with Simplify off, a removed service is rebuilt in the API shape from the last known fields', () => {
		const gone = service('gone', { status: 'suspended' });
		const [event] = diffServices(baseline([gone]), [], ALL).events;
		expect(formatEvent(event, delivery, false).service).toEqual(gone);
		expect(nestServiceRecord(event.service)).toEqual(gone);
	});
});

describe('parseEvents', () => {
	it('accepts a list in any order and returns it in the fixed order', () => {
		expect(parseEvents(['removed', 'created'])).toEqual(['created', 'removed']);
		expect(parseEvents('statusChanged, specsChanged')).toEqual(['statusChanged', 'specsChanged']);
	});

	it('needs at least one event', () => {
		for (const empty of [[], '', ' , ', ['  ']]) {
			expect(() => parseEvents(empty)).toThrow('Choose at least one event to trigger on');
		}
		expect(() => parseEvents(null)).toThrow('"Trigger On" got no value: its expression gave null');
		expect(() => parseEvents(undefined)).toThrow('"Trigger On" got no value: its expression gave undefined');
	});

	it('names an unknown event', () => {
		let error: DescribedError | undefined;
		try {
			parseEvents(['created', 'deleted', 'Removed']);
		} catch (caught) {
			error = caught as DescribedError;
		}
		expect(render(error!.text.message as Text, (t) => t, Infinity)).toBe('Unknown event(s) in "Trigger On": "deleted", "Removed"');
	});

	it('a value of another kind is a parameter error naming it', () => {
		expect(() => parseEvents(5)).toThrow('"Trigger On" must be a list of events, not the number …');
		expect(() => parseEvents(['created', 5])).toThrow('"Trigger On" must be a list of events, not the list …');
	});
});

describe('buildTestEvent (Fetch test event)', () => {
	const records = [
		service('a', { status: 'active', vcores: 2 }),
		service('b', { status: 'suspended', vcores: 4, osId: 'debian-12', osName: 'Debian 12' }),
	];

	it('an empty listing is a clear error', () => {
		expect(() => buildTestEvent(undefined, [], ALL)).toThrow('There are no services in the account to build a test event from');
	});

	it('no service matching the filters is a clear error', () => {
		expect(() => buildTestEvent(undefined, records, withFilters({ status: 'cancelled' }))).toThrow(
			'None of the 2 listed service(s) matches the Filters',
		);
	});

	it('builds the first selected kind of event from the first matching real service', () => {
		expect(buildTestEvent(undefined, records, ALL)).toMatchObject({
			event: 'created',
			id_service: 'a',
			previous: null,
			record: records[0],
		});
		expect(buildTestEvent(undefined, records, withFilters({ status: 'suspended' }))).toMatchObject({
			event: 'created',
			id_service: 'b',
		});
		expect(buildTestEvent(undefined, records, only('statusChanged'))).toMatchObject({
			event: 'statusChanged',
			id_service: 'a',
			previous: { status: 'suspended' },
			service: { status: 'active' },
		});
		expect(buildTestEvent(undefined, records, only('specsChanged'))).toMatchObject({
			event: 'specsChanged',
			previous: { os_id: 'debian-12', os_name: 'Debian 12', vcores: 4 },
		});
		const removed = buildTestEvent(undefined, records, only('removed'));
		expect(removed).toMatchObject({ event: 'removed', id_service: 'a', previous: null });
		expect(removed.record).toBeUndefined();
	});

	it('with a single service, previous values that cannot be borrowed are null', () => {
		expect(buildTestEvent(undefined, [records[0]], only('statusChanged')).previous).toEqual({ status: null });
		expect(buildTestEvent(undefined, [records[0]], only('specsChanged')).previous).toEqual({
			os_id: null,
			os_name: null,
			vcores: null,
			ram_gb: null,
			hd_gb: null,
		});
	});

	it('prefers a real pending change over a built one, and never changes the snapshot it is given', () => {
		const snapshot = baseline(records);
		const copy = new Map(snapshot);
		const changed = [records[0], service('b', { status: 'active', vcores: 4, osId: 'debian-12', osName: 'Debian 12' })];
		expect(buildTestEvent(snapshot, changed, ALL)).toMatchObject({
			event: 'statusChanged',
			id_service: 'b',
			previous: { status: 'suspended' },
		});
		expect(snapshot).toStrictEqual(copy);
		// Nothing pending: a built event from the live list.
		expect(buildTestEvent(snapshot, records, ALL)).toMatchObject({ event: 'created', id_service: 'a' });
	});
});
