// The `mirror` e2e group (issue 27): the "Mirror services into PostgreSQL" recipe
// (examples/mirror-services-postgres.json) in real n8n 2.41.1 against a real PostgreSQL 15
// (scripts/lib/services.mjs). Its setup branch creates the tables; its apply node, fed hand-made
// event sequences (a Code node in front of it), applies each change once and in order whatever
// arrives twice or late; and the recipe as shipped, activated against the mock platform, ends with
// the table equal to the platform's services. The same apply node also runs inside the chaos runs.

import assert from 'node:assert/strict';
import crypto from 'node:crypto';

import { CREDENTIAL_TYPE, N8nInstance } from '../scripts/lib/n8n-instance.mjs';
import { ensureN8n } from '../scripts/lib/n8n-runtime.mjs';
import { ensureDebianPackages, startPostgres } from '../scripts/lib/services.mjs';
import { APPLY_NODE, SETUP_TRIGGER, loadMirrorRecipe, mirrorWorkflowWith, readMirror } from '../scripts/lib/chaos/mirror.mjs';
import { pollEvery15s } from '../scripts/lib/chaos/workflow.mjs';
import oracle from '../scripts/lib/chaos/oracle.cjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const svc = (id, over = {}) => ({ id_service: id, name: `host-${id}`, alias: 'Production web server', status: 'active', os_id: 'debian-12', os_name: 'Debian 12 (Bookworm)', vcores: 2, ram_gb: 4, hd_gb: 80, ...over });
const item = (event, service, seq, extra = {}) => ({
	event,
	id_service: service.id_service,
	service,
	previous: extra.previous ?? null,
	detectedAt: '2026-11-21T06:29:14.171Z',
	eventId: crypto.createHash('sha256').update(`${event} ${service.id_service} ${seq}`).digest('hex').slice(0, 24),
	seq,
	redelivered: extra.redelivered ?? false,
});

const A = svc('srv-a');
const B = svc('srv-b', { status: 'suspended' });
const W = svc('srv-w');
const Z = svc('srv-z', { os_id: 'almalinux-9', os_name: 'AlmaLinux 9' });

/**
 * Hand-made deliveries, one execution each, and the table after each (as simplified services). Each
 * is what a crash can make the trigger deliver: an emission again, an older event after a newer one,
 * a redelivered creation after the removal, a resync over a wrong row and the tombstone's removal.
 */
export const MIRROR_CASES = [
	{
		name: 'created, created, statusChanged: both rows, the status applied',
		items: [item('created', A, 1), item('created', B, 2), item('statusChanged', { ...A, status: 'suspended' }, 3, { previous: { status: 'active' } }), item('created', W, 4)],
		table: [{ ...A, status: 'suspended' }, B, W],
	},
	{
		name: 'the same emission again, marked redelivered: nothing changes',
		items: [item('created', A, 1, { redelivered: true }), item('statusChanged', { ...A, status: 'suspended' }, 3, { previous: { status: 'active' }, redelivered: true })],
		table: [{ ...A, status: 'suspended' }, B, W],
	},
	{
		name: "a removal, then the service's old creation redelivered: the row stays deleted",
		items: [item('removed', B, 5), item('created', B, 2, { redelivered: true })],
		table: [{ ...A, status: 'suspended' }, W],
	},
	{
		name: 'a newer specs change, then an older status change arriving late: the newer values stay',
		items: [item('specsChanged', { ...A, status: 'suspended', ram_gb: 8 }, 7, { previous: { ram_gb: 4 } }), item('statusChanged', { ...A, status: 'cancelled' }, 6, { previous: { status: 'suspended' }, redelivered: true })],
		table: [{ ...A, status: 'suspended', ram_gb: 8 }, W],
	},
	{
		name: "resync: a wrong row is set right, a missing one added, and a tombstone's removal (missed earlier) deletes its row",
		before: "update service_mirror set status = 'garbage', vcores = 99 where id_service = 'srv-a'",
		items: [item('removed', W, 8, { redelivered: true }), item('resync', { ...A, status: 'active', ram_gb: 8 }, 9), item('resync', Z, 10)],
		table: [{ ...A, status: 'active', ram_gb: 8 }, Z],
	},
];

/** Manual Trigger -> Code (the items) -> the recipe's apply node as shipped. */
function casesWorkflow(items, pgCred) {
	const apply = structuredClone(loadMirrorRecipe().applyNode);
	apply.credentials = { postgres: { id: pgCred.id, name: pgCred.name } };
	apply.position = [440, 0];
	return {
		name: 'mirror: hand-made deliveries',
		nodes: [
			{ parameters: {}, id: crypto.randomUUID(), name: 'Run', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] },
			{ parameters: { jsCode: `return ${JSON.stringify(items)}.map((json) => ({ json }));` }, id: crypto.randomUUID(), name: 'Deliveries', type: 'n8n-nodes-base.code', typeVersion: 2, position: [220, 0] },
			apply,
		],
		connections: { Run: { main: [[{ node: 'Deliveries', type: 'main', index: 0 }]] }, Deliveries: { main: [[{ node: APPLY_NODE, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

const rows = (db) => readMirror(db).map(({ id_service, name, alias, status, os_id, os_name, vcores, ram_gb, hd_gb }) => ({ id_service, name, alias, status, os_id, os_name, vcores, ram_gb, hd_gb }));

/**
 * @param {import('./harness.mjs').Suite} t
 */
export async function runMirrorGroup(t, { line, tarball, startMockApi, log = console.log }) {
	const started = Date.now();
	const runtime = await t.setup('install/locate n8n', () => ensureN8n(line));
	if (!runtime) return;
	const pg = await t.setup('PostgreSQL 15 (throwaway), database "mirror"', async () => {
		await ensureDebianPackages({ log });
		const p = await startPostgres({ log });
		p.query('create database mirror');
		return { ...p, database: 'mirror', query: (sql) => p.queryIn('mirror', sql) };
	});
	if (!pg) return;
	const mock = await startMockApi({ count: 12, seed: 27 });
	let inst;
	try {
		inst = await t.setup(`n8n ${runtime.version} with the package, owner, credentials (platform, PostgreSQL)`, async () => {
			const i = await N8nInstance.create({ runtime, tarball, label: `n8n ${runtime.version} (mirror)`, log });
			await i.start();
			await i.setupOwner();
			await i.login();
			const platform = await i.createCredential({ name: 'Service Platform account', type: CREDENTIAL_TYPE, data: { apiKey: mock.apiKey, baseUrl: mock.url } });
			const postgres = await i.createCredential({ name: 'Mirror database', type: 'postgres', data: { host: pg.host, port: pg.port, database: pg.database, user: pg.user, password: 'unused-trust-auth', ssl: 'disable' } });
			i.creds = { platform, postgres };
			return i;
		});
		if (!inst) return;
		const ref = (c) => ({ id: c.id, name: c.name });
		const recipe = await t.setup('the recipe imported as shipped, its credentials picked', () =>
			inst.createWorkflow(mirrorWorkflowWith({ [CREDENTIAL_TYPE]: ref(inst.creds.platform), postgres: ref(inst.creds.postgres) }, { edit: (wf) => (wf.nodes.find((n) => n.name === 'Services Trigger').parameters.pollTimes = pollEvery15s(line)) })),
		);
		if (!recipe) return;

		await t.test(`"${SETUP_TRIGGER}" creates the tables, and running it again changes nothing`, async () => {
			for (let i = 0; i < 2; i++) {
				const run = await inst.runWorkflow(recipe.id, { trigger: SETUP_TRIGGER });
				assert.equal(run.status, 'success', JSON.stringify(run.result?.data?.resultData?.error ?? {}).slice(0, 500));
			}
			assert.equal(pg.query("select string_agg(table_name, ',' order by table_name) from information_schema.tables where table_schema = 'public'"), 'service_mirror,service_mirror_applied');
		});

		for (const c of MIRROR_CASES) {
			await t.test(`"${APPLY_NODE}": ${c.name}`, async () => {
				if (c.before) pg.query(c.before);
				const wf = await inst.createWorkflow(casesWorkflow(c.items, inst.creds.postgres));
				const run = await inst.runWorkflow(wf.id);
				assert.equal(run.status, 'success', JSON.stringify(run.result?.data?.resultData?.error ?? {}).slice(0, 500));
				assert.deepEqual(rows(pg), c.table);
			});
		}

		await t.test('the recipe as shipped (Resync at start, Poll Times every 15 s here), activated against the mock platform: the table equals its services, after a start and after changes', async () => {
			pg.query('truncate service_mirror, service_mirror_applied');
			await inst.activateWorkflow(recipe.id);
			const equal = async (what) => {
				for (const until = Date.now() + 75_000; Date.now() < until; await sleep(1000)) if (oracle.compareServices(mock.getServices(), rows(pg)).equal) return;
				assert.deepEqual(oracle.compareServices(mock.getServices(), rows(pg)), { missing: [], extra: [], different: [], equal: true }, what);
			};
			await equal('seeded by the resync at activation');
			const services = mock.getServices();
			services[0].values.values.status = services[0].values.values.status === 'active' ? 'suspended' : 'active';
			services[1].values.values.service.customize.specifications.GB.ram += 2;
			const created = structuredClone(services[2]);
			created.id_service = 'srv-mirror-new';
			services.splice(3, 1);
			mock.setServices([...services, created]);
			await equal('after a status change, a specs change, a creation and a removal');
			await inst.deactivateWorkflow(recipe.id);
		});
		log(`    mirror group: ${Math.round((Date.now() - started) / 1000)} s`);
	} finally {
		await inst?.stop();
		await mock.close();
		await pg.stop();
	}
}
