// Recipe: mirror services into PostgreSQL (examples/mirror-services-postgres.json), against a real
// PostgreSQL 15 (a throwaway server of tools/lib/services.mjs). Services Trigger (all four events,
// Resync at start and every 24 hours) -> "Apply to mirror" (Postgres, one query per event); a second
// branch, "Create the mirror tables" -> "Create tables", is run once by hand.
//
// The test sets what the docs tell a user to set: the two credentials; Poll Times every 15 s only to
// wait less. It runs the setup branch twice (tables made, the second run harmless); feeds the apply
// node, as shipped, hand-made deliveries a crash can produce (a Code node in front of it: an emission
// again, an older event late, a redelivered creation after the removal, a resync over a wrong row and
// a tombstone's removal) and checks the table after each; then publishes the recipe against the mock
// platform and checks the table equals the platform's services after the start (Resync seeds it) and
// after changes. The same apply node also runs inside the chaos runs (test/chaos/short-runs.mjs).

import assert from 'node:assert/strict';
import crypto from 'node:crypto';

import { ensureDebianPackages, startPostgres } from '../../../tools/lib/services.mjs';
import { APPLY_NODE, SETUP_TRIGGER, loadMirrorRecipe, mirrorCredential, mirrorDatabase, readMirror } from '../../chaos/mirror.mjs';
import oracle from '../../chaos/oracle.cjs';
import { pollEvery } from '../../chaos/workflow.mjs';
import { setParameter } from './workflow.mjs';

const FILE = 'mirror-services-postgres.json';
const TRIGGER_NODE = 'Services Trigger';
const WAIT_MS = 75_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const svc = (id, over = {}) => ({
	id_service: id,
	name: `host-${id}`,
	alias: 'Production web server',
	status: 'active',
	os_id: 'debian-12',
	os_name: 'Debian 12 (Bookworm)',
	vcores: 2,
	ram_gb: 4,
	hd_gb: 80,
	...over,
});
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
		items: [
			item('created', A, 1),
			item('created', B, 2),
			item('statusChanged', { ...A, status: 'suspended' }, 3, { previous: { status: 'active' } }),
			item('created', W, 4),
		],
		table: [{ ...A, status: 'suspended' }, B, W],
	},
	{
		name: 'the same emission again, marked redelivered: nothing changes',
		items: [
			item('created', A, 1, { redelivered: true }),
			item('statusChanged', { ...A, status: 'suspended' }, 3, { previous: { status: 'active' }, redelivered: true }),
		],
		table: [{ ...A, status: 'suspended' }, B, W],
	},
	{
		name: "a removal, then the service's old creation redelivered: the row stays deleted",
		items: [item('removed', B, 5), item('created', B, 2, { redelivered: true })],
		table: [{ ...A, status: 'suspended' }, W],
	},
	{
		name: 'a newer specs change, then an older status change arriving late: the newer values stay',
		items: [
			item('specsChanged', { ...A, status: 'suspended', ram_gb: 8 }, 7, { previous: { ram_gb: 4 } }),
			item('statusChanged', { ...A, status: 'cancelled' }, 6, { previous: { status: 'suspended' }, redelivered: true }),
		],
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
	const [apply] = loadMirrorRecipe().branch(pgCred).nodes;
	apply.position = [440, 0];
	return {
		name: 'mirror: hand-made deliveries',
		nodes: [
			{ parameters: {}, id: crypto.randomUUID(), name: 'Run', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] },
			{
				parameters: { jsCode: `return ${JSON.stringify(items)}.map((json) => ({ json }));` },
				id: crypto.randomUUID(),
				name: 'Deliveries',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
			},
			apply,
		],
		connections: {
			Run: { main: [[{ node: 'Deliveries', type: 'main', index: 0 }]] },
			Deliveries: { main: [[{ node: APPLY_NODE, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The table as simplified services (the columns the recipe fills), by id_service. */
const rows = (db) =>
	readMirror(db).map(({ id_service, name, alias, status, os_id, os_name, vcores, ram_gb, hd_gb }) => ({
		id_service,
		name,
		alias,
		status,
		os_id,
		os_name,
		vcores,
		ram_gb,
		hd_gb,
	}));

async function startMirrorDatabase(ctx) {
	await ensureDebianPackages();
	return mirrorDatabase(await ctx.track(startPostgres(), (p) => p.stop()));
}

export const mirrorRecipe = {
	name: 'mirror',
	title: 'PostgreSQL mirror of the services',
	file: FILE,
	picture: 'recipe-postgres-mirror.png',

	async run(t, ctx) {
		const { inst } = ctx;
		const pg = await startMirrorDatabase(ctx);
		const mock = await ctx.startMock({ count: 12, seed: 27 });
		const platform = await ctx.serviceCredential(mock, 'mirror');
		const postgres = await mirrorCredential(inst, pg);
		const wf = await ctx.importRecipe(FILE, {
			credentials: { servicePlatformApi: platform, postgres },
			edit: (w) => setParameter(w, TRIGGER_NODE, 'pollTimes', pollEvery(15, 2)),
		});

		const tables = await t.test(`mirror: "${SETUP_TRIGGER}" creates the tables, and running it again changes nothing`, async () => {
			for (let i = 0; i < 2; i++) {
				const run = await inst.runWorkflow(wf.id, { trigger: SETUP_TRIGGER });
				assert.equal(run.status, 'success', JSON.stringify(run.result?.data?.resultData?.error ?? {}).slice(0, 500));
			}
			assert.equal(
				pg.query("select string_agg(table_name, ',' order by table_name) from information_schema.tables where table_schema = 'public'"),
				'service_mirror,service_mirror_applied',
			);
			return true;
		});
		if (!tables) return undefined;
		for (const c of MIRROR_CASES) {
			await t.test(`mirror: "${APPLY_NODE}" as shipped: ${c.name}`, async () => {
				if (c.before) pg.query(c.before);
				const cases = await inst.createWorkflow(casesWorkflow(c.items, postgres));
				const run = await inst.runWorkflow(cases.id);
				assert.equal(run.status, 'success', JSON.stringify(run.result?.data?.resultData?.error ?? {}).slice(0, 500));
				assert.deepEqual(rows(pg), c.table);
			});
		}
		return t.test('mirror: the recipe published against the mock platform (tables empty)', async () => {
			pg.query('truncate service_mirror, service_mirror_applied');
			await inst.activateWorkflow(wf.id);
			return { wf, pg, mock, publishedAt: Date.now() };
		});
	},

	async check(t, ctx, state) {
		const { wf, pg, mock } = state;
		const equal = async (what) => {
			const started = Date.now();
			while (!oracle.compareServices(mock.getServices(), rows(pg)).equal) {
				if (Date.now() - started > WAIT_MS)
					assert.deepEqual(
						oracle.compareServices(mock.getServices(), rows(pg)),
						{ missing: [], extra: [], different: [], equal: true },
						what,
					);
				await sleep(1000);
			}
			console.log(`      ${what}: equal after ${((Date.now() - started) / 1000).toFixed(1)} s`);
		};
		await t.test("mirror: after the start, the table equals the platform's services (Resync at start seeds it)", () => equal('seeded'));
		await t.test(
			"mirror: after a status change, a specs change, a creation and a removal, the table equals the platform's services again",
			async () => {
				const services = mock.getServices();
				services[0].values.values.status = services[0].values.values.status === 'active' ? 'suspended' : 'active';
				services[1].values.values.service.customize.specifications.GB.ram += 2;
				const created = structuredClone(services[2]);
				created.id_service = 'srv-mirror-new';
				services.splice(3, 1);
				mock.setServices([...services, created]);
				await equal('changed');
			},
		);
		await ctx.inst.deactivateWorkflow(wf.id).catch(() => {});
	},
};
