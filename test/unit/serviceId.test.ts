/**
 * The one id rule (nodes/shared/record/serviceId.ts) with generated ids: ids that differ only by
 * white space at their ends or by Unicode form are one id, in List's repeated-id check, in Get (By ID
 * and as From List offers it) and in the trigger; any other difference keeps them apart.
 */
import fc from 'fast-check';

import { serviceIdKey } from '../../nodes/shared/record/serviceId';
import type { DiffOptions } from '../../nodes/ServicesTrigger/diff';
import { diffServices, SERVICE_EVENT_NAMES } from '../../nodes/ServicesTrigger/diff';
import { parseServiceFilters } from '../../nodes/shared/parameters/filters';
import { SERVICE_FIELDS } from '../../nodes/shared/record/serviceFields';
import { readSnapshot } from '../../nodes/ServicesTrigger/state/snapshot';
import { serviceRecord } from '../harness/fixtures';
import { closeLocalServers } from '../harness/localServer';
import type { LocalApi } from '../harness/pagedApi';
import { startLocalApi } from '../harness/pagedApi';
import { runNode, servicesNode } from '../harness/workflow';

const KEY = 'sk-live-IDRULE-3c7a9e1f5b2d8046';
const ALL: DiffOptions = { events: SERVICE_EVENT_NAMES, filters: parseServiceFilters({}) };
const SPACES = [' ', '\t', '\n', '\u00a0', '\u2003', '\ufeff', '\u3000'];

/** An id, and the same id as a platform or a user may write it: spaces at its ends, another Unicode form. */
const idArb = fc
	.oneof(
		fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }),
		fc.constantFrom('srv-1', 'café', 'cafe\u0301', 'Å', 'A\u030a', '\u212b', 'ﬁ', '한국', '\u1100\u1161\u11a8'),
	)
	.filter((id) => serviceIdKey(id) !== '');
const variantOf = (id: string) =>
	fc
		.tuple(fc.constantFrom(...SPACES, ''), fc.constantFrom(...SPACES, ''), fc.constantFrom<'NFC' | 'NFD'>('NFC', 'NFD'))
		.map(([before, after, form]) => `${before}${id.normalize(form)}${after}`);

test('the key is the id trimmed and in NFC, for any text; the fast path changes nothing', () => {
	fc.assert(
		fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ maxLength: 12 }), idArb), (id) => {
			expect(serviceIdKey(id)).toBe(id.trim().normalize('NFC'));
		}),
		{ numRuns: 1500 },
	);
});

describe('through the engine, against a real server', () => {
	let records: Array<Record<string, unknown>> = [];
	let api: LocalApi;
	beforeAll(async () => {
		api = await startLocalApi(() => () => ({ body: records }));
	});
	afterAll(closeLocalServers);
	const run = (parameters: Record<string, unknown>) =>
		runNode({ node: servicesNode({ simplify: false, returnAll: true, ...parameters }), credentials: { apiKey: KEY, baseUrl: api.origin } });

	test('Get finds a service by any writing of its id; List refuses two records whose ids are one', async () => {
		await fc.assert(
			fc.asyncProperty(
				idArb.chain((id) => fc.tuple(fc.constant(id), variantOf(id), variantOf(id))),
				async ([id, listed, asked]) => {
					records = [serviceRecord({ id: 'other-1' }), serviceRecord({ id: listed })];
					const got = await run({ operation: 'get', serviceId: { __rl: true, mode: 'id', value: asked } });
					expect(got.error).toBeUndefined();
					expect(got.items.map((item) => item.json.id_service)).toEqual([listed]);
					records = [serviceRecord({ id: listed }), serviceRecord({ id: asked })];
					const listedTwice = await run({ operation: 'list' });
					expect(listedTwice.error?.message).toMatch(/more than once$/);
					expect(serviceIdKey(id)).toBe(serviceIdKey(asked));
				},
			),
			{ numRuns: 40 },
		);
	});
});

test('the trigger remembers a service by its key: another writing of its id is no change; a state of 0.4.0 holding the id as sent is read under the rule', () => {
	fc.assert(
		fc.property(
			idArb.chain((id) => fc.tuple(fc.constant(id), variantOf(id))),
			([id, variant]) => {
				const first = diffServices(undefined, [serviceRecord({ id }) as never], ALL);
				const again = diffServices(first.snapshot, [serviceRecord({ id: variant }) as never], ALL);
				expect(again.events).toEqual([]);
				expect(again.removedCount).toBe(0);
				// A list remembered by 0.4.0 (state version 2) holds the id as it was sent then.
				const values = [...first.snapshot.values()][0];
				const fields = SERVICE_FIELDS.map((field) => field.key);
				const old = readSnapshot({ stateVersion: 2, credentialId: null, fields, services: { [variant]: values } }, null)!;
				expect(old.damage).toBeUndefined();
				expect(diffServices(old.snapshot, [serviceRecord({ id }) as never], ALL).events).toEqual([]);
				// Its removal says the id as the rule makes it (the API's own writing is gone with the record).
				const removed = diffServices(old.snapshot, [], ALL).events;
				expect(removed.map((event) => [event.event, event.id_service])).toEqual([['removed', serviceIdKey(id)]]);
			},
		),
		{ numRuns: 500 },
	);
});
