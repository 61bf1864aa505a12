/**
 * The Services Trigger's poll() run through n8n-core: manual "Fetch test event" through
 * WorkflowExecute, and sequences of scheduled polls through n8n-core's PollTriggerExecutor with the
 * workflow's static data kept between them (test/harness/poll.ts), against a nock'ed API.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import nock from 'nock';
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import type { ServiceRecord } from '../../nodes/shared/record/serviceRecord';
import { ServicesTrigger } from '../../nodes/ServicesTrigger/ServicesTrigger.node';
import { ActivePoller } from '../harness/poll';
import type { TestCredentials } from '../harness/workflow';
import { registerNodeType, runNode, SERVICES_TRIGGER_TYPE as TRIGGER_TYPE, servicesTriggerNode as triggerNode } from '../harness/workflow';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { generateServices } = require('../../tools/mock-platform/data.cjs') as {
	generateServices: (count: number, seed: number) => ServiceRecord[];
};

const BASE_URL = 'https://api.example.com';
const API_KEY = 'sp-test-key-7f3a9c';
const CREDENTIALS: TestCredentials = { apiKey: API_KEY, baseUrl: BASE_URL };

/** The API answers the next GET /v2026/services with `body` (and checks the key is sent). */
function listing(body: unknown, status = 200) {
	return nock(BASE_URL)
		.get('/v2026/services')
		.matchHeader('authorization', `Bearer ${API_KEY}`)
		.reply(status, typeof body === 'string' ? body : JSON.stringify(body), { 'Content-Type': 'application/json' });
}

/** A deep copy with changes applied to the inner `values.values` of one service. */
function withChange(records: ServiceRecord[], id: string, change: (data: Record<string, any>) => void): ServiceRecord[] {
	const copy = JSON.parse(JSON.stringify(records)) as ServiceRecord[];
	const target = copy.find((record) => record.id_service === id);
	if (!target) throw new Error(`no ${id}`);
	change(target.values!.values as Record<string, any>);
	return copy;
}

const services = generateServices(12, 42);
const [first, second, third] = services;

beforeAll(() => {
	nock.disableNetConnect();
});

afterEach(() => {
	const pending = nock.pendingMocks();
	nock.cleanAll();
	expect(pending).toEqual([]);
});

afterAll(() => {
	nock.cleanAll();
	nock.restore();
	nock.enableNetConnect();
});

describe('node description', () => {
	const { description } = new ServicesTrigger();

	it('is a polling trigger of the package with the shared credential, not usable as a tool', () => {
		expect(description).toMatchObject({
			name: 'servicesTrigger',
			displayName: 'Services Trigger',
			polling: true,
			inputs: [],
			group: ['trigger'],
			version: 1,
			credentials: [{ name: 'servicePlatformApi', required: true }],
			icon: { light: 'file:../../icons/servicePlatform.svg', dark: 'file:../../icons/servicePlatform.dark.svg' },
		});
		expect(description.usableAsTool).toBeUndefined();
		expect(new ServicesTrigger().poll).toBeInstanceOf(Function);
	});

	it('offers the four events, the shared filters and simplify, and the time limits', () => {
		const byName = Object.fromEntries(description.properties.map((p) => [p.name, p]));
		expect(byName.events).toMatchObject({ type: 'multiOptions', required: true });
		expect(byName.events.options?.map((o) => (o as { value: string }).value).sort()).toEqual([
			'created',
			'removed',
			'specsChanged',
			'statusChanged',
		]);
		expect(byName.filters.options?.map((o) => (o as { name: string }).name).sort()).toEqual(['search', 'status']);
		expect(byName.simplify).toMatchObject({ type: 'boolean', default: true });
		expect(byName.options.options?.map((o) => (o as { name: string }).name)).toEqual([
			'listingTimeLimit',
			'maxResponseSize',
			'parallelRequests',
			'retryOnRateLimit',
			'timeout',
		]);
	});

	it('has a codex file naming the node type', () => {
		const codex = JSON.parse(readFileSync(join(__dirname, '../../nodes/ServicesTrigger/ServicesTrigger.node.json'), 'utf8'));
		expect(codex).toMatchObject({ node: 'n8n-nodes-service-platform.servicesTrigger', categories: ['Development'] });
	});
});

describe('manual mode: Fetch test event', () => {
	it('returns one realistic event built from a live record', async () => {
		listing(services);
		const { items, error } = await runNode({ node: triggerNode(), credentials: CREDENTIALS });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({
			event: 'created',
			id_service: first.id_service,
			service: {
				id_service: first.id_service,
				name: first.values?.values?.name,
				alias: first.values?.values?.alias,
				status: first.values?.values?.status,
				os_id: first.values?.values?.service?.customize?.OS?.id,
				os_name: first.values?.values?.service?.customize?.OS?.name,
				vcores: first.values?.values?.service?.customize?.specifications?.vcores,
				ram_gb: first.values?.values?.service?.customize?.specifications?.GB?.ram,
				hd_gb: first.values?.values?.service?.customize?.specifications?.GB?.hd,
			},
			previous: null,
			detectedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
			eventId: expect.stringMatching(/^[0-9a-f]{24}$/),
			seq: expect.any(Number),
			redelivered: false,
		});
	});

	it('with Simplify off and Status Changed, gives the raw record and a previous status', async () => {
		listing(services);
		const { items } = await runNode({
			node: triggerNode({ events: ['statusChanged'], simplify: false, filters: { status: 'suspended' } }),
			credentials: CREDENTIALS,
		});
		expect(items).toHaveLength(1);
		const json = items[0].json as IDataObject;
		const suspended = services.find((s) => s.values?.values?.status === 'suspended')!;
		expect(json.event).toBe('statusChanged');
		expect(json.service).toEqual(suspended);
		expect((json.previous as IDataObject).status).not.toBe('suspended');
	});

	it('an empty account is a clear error', async () => {
		listing([]);
		const { items, error } = await runNode({ node: triggerNode(), credentials: CREDENTIALS });
		expect(items).toEqual([]);
		expect(error).toMatchObject({
			name: 'NodeOperationError',
			message: 'There are no services in the account to build a test event from',
		});
		expect(error?.description).toContain('Create a service on the platform');
	});

	it('no service matching the filters is a clear error', async () => {
		listing(services);
		const { error } = await runNode({ node: triggerNode({ filters: { search: 'no-such-host' } }), credentials: CREDENTIALS });
		expect(error).toMatchObject({ message: expect.stringContaining('matches the Filters') });
	});

	it('shows the mapped API error of the List operation', async () => {
		listing({ message: 'invalid token' }, 401);
		const { error, serialized } = await runNode({ node: triggerNode(), credentials: CREDENTIALS });
		expect(error).toMatchObject({ name: 'NodeApiError', httpCode: '401', message: 'The platform rejected the API key (HTTP 401)' });
		expect(serialized).not.toContain(API_KEY);
	});

	it('no event selected: n8n refuses to run the node (the parameter is required)', async () => {
		await expect(runNode({ node: triggerNode({ events: [] }), credentials: CREDENTIALS })).rejects.toThrow(
			'Parameter "Trigger On" is required',
		);
	});

	it('does not touch the stored state of an active trigger', async () => {
		const poller = new ActivePoller(triggerNode(), CREDENTIALS);
		listing(services);
		await poller.tick({ activation: true });
		const stored = poller.staticData();

		// A real change is pending: the test event shows it, and the state does not move.
		const changed = withChange(services, second.id_service, (data) => (data.status = 'terminated'));
		listing(changed);
		const test = await poller.fetchTestEvent();
		expect(test.items.map((item) => [item.json.event, item.json.id_service])).toEqual([['statusChanged', second.id_service]]);
		expect(poller.staticData()).toEqual(stored);

		// So the next scheduled poll still reports the change.
		listing(changed);
		const tick = await poller.tick();
		expect(tick.emitted?.[0].map((item) => [item.json.event, item.json.id_service])).toEqual([['statusChanged', second.id_service]]);
	});
});

describe('scheduled polls with state kept between them', () => {
	it('activation records a baseline without events; later polls emit each change once', async () => {
		const poller = new ActivePoller(triggerNode(), CREDENTIALS);

		listing(services);
		const activation = await poller.tick({ activation: true });
		expect(activation.emitted).toBeNull();
		expect(activation.error).toBeUndefined();
		expect(activation.staticData['node:Services Trigger']).toMatchObject({ stateVersion: 3, credentialId: 'cred-1' });
		expect(Object.keys((activation.staticData['node:Services Trigger'] as IDataObject).services as object)).toEqual(
			services.map((s) => s.id_service),
		);

		listing(services);
		expect((await poller.tick()).emitted).toBeNull();

		// Suspend one, resize another, remove a third and add a new one, all between two polls.
		let next = withChange(services, first.id_service, (data) => (data.status = 'suspended'));
		next = withChange(next, second.id_service, (data) => (data.service.customize.specifications.GB.ram = 256));
		next = next.filter((s) => s.id_service !== third.id_service);
		const added = generateServices(1, 99)[0];
		added.id_service = 'srv-new-1';
		next.push(added);
		listing(next);
		const changes = await poller.tick();
		expect(changes.error).toBeUndefined();
		const items = changes.emitted?.[0] ?? [];
		expect(items.map((item) => [item.json.event, item.json.id_service, item.json.previous])).toEqual([
			['statusChanged', first.id_service, { status: first.values?.values?.status }],
			['specsChanged', second.id_service, { ram_gb: second.values?.values?.service?.customize?.specifications?.GB?.ram }],
			['created', 'srv-new-1', null],
			['removed', third.id_service, null],
		]);
		const detectedAt = new Set(items.map((item) => item.json.detectedAt));
		expect(detectedAt.size).toBe(1);
		expect(items[3].json.service).toMatchObject({ id_service: third.id_service, name: third.values?.values?.name });
		// The items become the trigger node's output of a real execution.
		expect(changes.executionItems.map((item) => item.json)).toEqual(items.map((item) => item.json));
		// The state follows the listing and is pruned of the removed service.
		const state = changes.staticData['node:Services Trigger'] as { services: Record<string, unknown[]> };
		expect(Object.keys(state.services)).toHaveLength(services.length);
		expect(state.services[third.id_service]).toBeUndefined();
		expect(state.services[first.id_service][2]).toBe('suspended');

		// The same listing again (even reordered) emits nothing and does not rewrite the state.
		listing([...next].reverse());
		const quiet = await poller.tick();
		expect(quiet.emitted).toBeNull();
		expect(quiet.staticData).toEqual(changes.staticData);
	});

	it('a failed poll reports the mapped error, keeps the state, and the next good poll neither misses nor repeats', async () => {
		// Retries off: one answer per poll (retries are tested in faults-retry.test.ts).
		const poller = new ActivePoller(triggerNode({ options: { retryOnRateLimit: false } }), CREDENTIALS);
		listing(services);
		await poller.tick({ activation: true });
		const baseline = poller.staticData();

		const changed = withChange(services, first.id_service, (data) => (data.status = 'cancelled'));
		listing({ message: 'maintenance' }, 503);
		const failed = await poller.tick();
		expect(failed.emitted).toBeNull();
		expect(failed.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '503',
			message: 'The platform is unavailable (HTTP 503)',
		});
		expect(failed.staticData).toEqual(baseline);

		listing('<html><body>Bad gateway</body></html>');
		const html = await poller.tick();
		expect(html.error?.message).toBe('The platform answered with an HTML page instead of JSON');
		expect(html.staticData).toEqual(baseline);

		nock(BASE_URL)
			.get('/v2026/services')
			.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
		const reset = await poller.tick();
		expect(reset.error?.message).toContain('was closed before the answer was complete');
		expect(reset.staticData).toEqual(baseline);

		listing(changed);
		const recovered = await poller.tick();
		expect(recovered.error).toBeUndefined();
		expect(recovered.emitted?.[0].map((item) => [item.json.event, item.json.id_service])).toEqual([['statusChanged', first.id_service]]);

		listing(changed);
		expect((await poller.tick()).emitted).toBeNull();
	});

	it('no event selected (e.g. an expression giving an empty list) is an error before any request', async () => {
		const poller = new ActivePoller(triggerNode({ events: '={{ [] }}' }), CREDENTIALS);
		const tick = await poller.tick();
		expect(tick.error).toMatchObject({ name: 'NodeOperationError', message: 'Choose at least one event to trigger on' });
		expect(tick.staticData).toEqual({});
	});

	it('the Timeout option applies, and never exceeds the poll budget n8n gives', async () => {
		const slow = () =>
			nock(BASE_URL).get('/v2026/services').delay(400).reply(200, JSON.stringify(services), { 'Content-Type': 'application/json' });
		const withTimeout = new ActivePoller(triggerNode({ options: { timeout: 100 } }), CREDENTIALS);
		slow();
		expect((await withTimeout.tick()).error?.message).toBe('The platform did not answer within 100 ms');

		const budgeted = new ActivePoller(triggerNode(), CREDENTIALS);
		slow();
		// The node's own timeout error comes a little before n8n abandons the poll at its budget.
		expect((await budgeted.tick({ pollBudgetMs: 150 })).error?.message).toBe(
			"The platform did not answer within n8n's poll budget (135 ms of 150 ms used)",
		);
		expect(budgeted.staticData()).toEqual({});
		// Let the delayed replies finish before nock is cleaned up.
		await new Promise((resolve) => setTimeout(resolve, 500));
	});

	it('a listing with a duplicate id_service is an error and leaves the state unchanged', async () => {
		const poller = new ActivePoller(triggerNode(), CREDENTIALS);
		listing(services);
		await poller.tick({ activation: true });
		const baseline = poller.staticData();

		const duplicated = [...services, { ...services[4], values: { values: { status: 'suspended' } } }];
		listing(duplicated);
		const tick = await poller.tick();
		expect(tick.emitted).toBeNull();
		expect(tick.error).toMatchObject({
			name: 'NodeApiError',
			message: `The listing contains id_service "${services[4].id_service}" more than once`,
		});
		expect(tick.staticData).toEqual(baseline);
	});

	it('a record that breaks the schema is an error and leaves the state unchanged', async () => {
		const poller = new ActivePoller(triggerNode(), CREDENTIALS);
		listing(services);
		await poller.tick({ activation: true });
		const baseline = poller.staticData();

		const broken = withChange(services, first.id_service, (data) => (data.service.customize.specifications.vcores = 'four'));
		listing(broken);
		const tick = await poller.tick();
		expect(tick.error?.message).toContain('does not match the documented schema');
		expect(tick.staticData).toEqual(baseline);
	});

	it('a failure while activating is thrown to the user, and no baseline is stored', async () => {
		const poller = new ActivePoller(triggerNode(), CREDENTIALS);
		listing({}, 404);
		await expect(poller.tick({ activation: true })).rejects.toMatchObject({
			name: 'NodeApiError',
			message: 'The platform found nothing at the address used to list services (HTTP 404)',
		});
		expect(poller.staticData()).toEqual({});
	});

	it('the state survives a restart (static data saved as JSON and loaded into a new workflow)', async () => {
		const before = new ActivePoller(triggerNode(), CREDENTIALS);
		listing(services);
		await before.tick({ activation: true });

		const after = new ActivePoller(triggerNode(), CREDENTIALS, before.staticData());
		const changed = withChange(services, third.id_service, (data) => (data.service.customize.specifications.vcores = 64));
		listing(changed);
		const tick = await after.tick({ activation: true });
		expect(tick.emitted?.[0].map((item) => [item.json.event, item.json.id_service, item.json.previous])).toEqual([
			['specsChanged', third.id_service, { vcores: third.values?.values?.service?.customize?.specifications?.vcores }],
		]);
	});

	it('another credential starts a new baseline instead of reporting every service as removed and created', async () => {
		const poller = new ActivePoller(triggerNode(), CREDENTIALS);
		listing(services);
		await poller.tick({ activation: true });

		const otherAccount = generateServices(5, 7);
		const switched = new ActivePoller(
			triggerNode({}, { credentials: { servicePlatformApi: { id: 'cred-2', name: 'Other account' } } }),
			CREDENTIALS,
			poller.staticData(),
		);
		listing(otherAccount);
		const tick = await switched.tick();
		expect(tick.emitted).toBeNull();
		expect(tick.staticData['node:Services Trigger']).toMatchObject({ credentialId: 'cred-2' });
	});

	it('filters and selected events: "notify when a service is suspended"', async () => {
		const poller = new ActivePoller(
			triggerNode({ events: ['statusChanged'], filters: { status: 'suspended' }, simplify: true }),
			CREDENTIALS,
		);
		const active = services.filter((s) => s.values?.values?.status === 'active');
		expect(active.length).toBeGreaterThanOrEqual(2);
		listing(services);
		await poller.tick({ activation: true });

		let next = withChange(services, active[0].id_service, (data) => (data.status = 'suspended'));
		next = withChange(next, active[1].id_service, (data) => (data.status = 'pending'));
		const added = { ...generateServices(1, 5)[0], id_service: 'srv-suspended-new' };
		added.values!.values!.status = 'suspended';
		next.push(added);
		listing(next);
		const tick = await poller.tick();
		expect(tick.emitted?.[0].map((item) => item.json)).toEqual([
			{
				event: 'statusChanged',
				id_service: active[0].id_service,
				service: expect.objectContaining({ id_service: active[0].id_service, status: 'suspended' }),
				previous: { status: 'active' },
				detectedAt: expect.any(String),
				eventId: expect.stringMatching(/^[0-9a-f]{24}$/),
				seq: expect.any(Number),
				redelivered: false,
			},
		]);
		// The pending change of the other service and the new one were recorded, not emitted later.
		listing(next);
		expect((await poller.tick()).emitted).toBeNull();
	});

	it('an empty account is a valid baseline; the first service after it is created', async () => {
		const poller = new ActivePoller(triggerNode(), CREDENTIALS);
		listing({ data: [] });
		const activation = await poller.tick({ activation: true });
		expect(activation.emitted).toBeNull();
		expect(activation.staticData['node:Services Trigger']).toMatchObject({ services: {} });

		listing({ data: [first] });
		const tick = await poller.tick();
		expect(tick.emitted?.[0].map((item) => [item.json.event, item.json.id_service])).toEqual([['created', first.id_service]]);
	});
});

describe('no removal storm: a mass removal is confirmed by the next poll before it is reported', () => {
	const STATE_KEY = 'node:Services Trigger';
	// Each test uses its own node id: the unconfirmed mark lives in process memory by workflow + node.
	const stormNode = (id: string, parameters: INodeParameters = {}) => triggerNode(parameters, { id });
	const removedIds = (tick: { emitted: Array<Array<{ json: IDataObject }>> | null }) =>
		(tick.emitted?.[0] ?? []).filter((item) => item.json.event === 'removed').map((item) => item.json.id_service);

	async function activated(node: INode): Promise<ActivePoller> {
		const poller = new ActivePoller(node, CREDENTIALS);
		listing(services);
		await poller.tick({ activation: true });
		return poller;
	}

	it('a platform briefly listing nothing reports nothing; the changes made meanwhile still come', async () => {
		const poller = await activated(stormNode('storm-blip'));
		const baseline = poller.staticData();

		listing([]);
		const empty = await poller.tick();
		expect(empty.emitted).toBeNull();
		expect(empty.error).toBeUndefined();
		expect((empty.staticData[STATE_KEY] as IDataObject).services).toEqual((baseline[STATE_KEY] as IDataObject).services);

		const back = withChange(services, first.id_service, (data) => (data.status = 'suspended'));
		listing(back);
		const recovered = await poller.tick();
		expect(recovered.emitted?.[0].map((item) => [item.json.event, item.json.id_service])).toEqual([['statusChanged', first.id_service]]);
		expect(recovered.staticData[STATE_KEY]).not.toHaveProperty('massRemovalUnconfirmed');
	});

	it('a real removal of every service is reported once, one poll later', async () => {
		const poller = await activated(stormNode('storm-real'));
		listing([]);
		expect((await poller.tick()).emitted).toBeNull();
		listing([]);
		const confirmed = await poller.tick();
		expect(removedIds(confirmed)).toEqual(services.map((s) => s.id_service));
		expect(confirmed.staticData[STATE_KEY]).toMatchObject({ services: {} });
		expect(confirmed.staticData[STATE_KEY]).not.toHaveProperty('massRemovalUnconfirmed');
		listing([]);
		expect((await poller.tick()).emitted).toBeNull();
	});

	it('more than half is a mass removal; half or fewer is reported at once', async () => {
		const poller = await activated(stormNode('storm-half'));
		const half = services.length / 2;
		listing(services.slice(half));
		expect(removedIds(await poller.tick())).toEqual(services.slice(0, half).map((s) => s.id_service));

		// 4 of the 6 left is more than half.
		listing(services.slice(half + 4));
		expect((await poller.tick()).emitted).toBeNull();
		listing(services.slice(half + 4));
		expect(removedIds(await poller.tick())).toEqual(services.slice(half, half + 4).map((s) => s.id_service));
	});

	it('Confirm Mass Removals off reports the removal at the first poll', async () => {
		const poller = await activated(stormNode('storm-off', { confirmMassRemoval: false }));
		listing([]);
		expect(removedIds(await poller.tick())).toEqual(services.map((s) => s.id_service));
	});

	it('holds even when only Created is selected (else the return of every service would be a storm of created)', async () => {
		const poller = await activated(stormNode('storm-created', { events: ['created'] }));
		listing([]);
		expect((await poller.tick()).emitted).toBeNull();
		listing(services);
		expect((await poller.tick()).emitted).toBeNull();
	});

	it('works when n8n does not save the static data of the poll that held back (it emitted nothing)', async () => {
		const node = stormNode('storm-unsaved');
		const poller = await activated(node);
		const saved = poller.staticData();
		listing([]);
		expect((await poller.tick()).emitted).toBeNull();

		// The next poll runs on the static data as last saved, without the mark: the process remembers it.
		const reloaded = new ActivePoller(node, CREDENTIALS, saved);
		listing([]);
		expect(removedIds(await reloaded.tick())).toEqual(services.map((s) => s.id_service));
	});

	it('after a restart that lost the mark, it asks for one more confirming poll: never lost, never twice', async () => {
		const node = stormNode('storm-restart');
		const poller = await activated(node);
		const saved = poller.staticData();
		listing([]);
		expect((await poller.tick()).emitted).toBeNull();

		// A new n8n process: a fresh copy of the node's modules, and the static data as last saved.
		jest.isolateModules(() => {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const fresh = require('../../nodes/ServicesTrigger/ServicesTrigger.node') as { ServicesTrigger: new () => ServicesTrigger };
			registerNodeType(TRIGGER_TYPE, new fresh.ServicesTrigger());
		});
		try {
			const restarted = new ActivePoller(node, CREDENTIALS, saved);
			listing([]);
			const held = await restarted.tick({ activation: true });
			expect(held.emitted).toBeNull();
			listing([]);
			const confirmed = await restarted.tick();
			expect(removedIds(confirmed)).toEqual(services.map((s) => s.id_service));
			listing([]);
			expect((await restarted.tick()).emitted).toBeNull();

			// The mark kept in the static data is enough when that copy was saved (memory lost).
			const other = stormNode('storm-saved-mark');
			const second = await activated(other);
			listing([]);
			const marked = await second.tick();
			expect(marked.staticData[STATE_KEY]).toMatchObject({
				massRemovalUnconfirmed: { count: services.length, hash: expect.stringMatching(/^[0-9a-f]{32}$/) },
			});
			jest.isolateModules(() => {
				// eslint-disable-next-line @typescript-eslint/no-require-imports
				const fresh = require('../../nodes/ServicesTrigger/ServicesTrigger.node') as { ServicesTrigger: new () => ServicesTrigger };
				registerNodeType(TRIGGER_TYPE, new fresh.ServicesTrigger());
			});
			const again = new ActivePoller(other, CREDENTIALS, marked.staticData);
			listing([]);
			expect(removedIds(await again.tick())).toEqual(services.map((s) => s.id_service));
		} finally {
			registerNodeType(TRIGGER_TYPE, new ServicesTrigger());
		}
	});
});
