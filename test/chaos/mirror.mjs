// The "Mirror services into PostgreSQL" recipe (examples/mirror-services-postgres.json) as the chaos
// test and the e2e suite use it: its table DDL and its apply node exactly as shipped, with the
// credentials pointed at a throwaway database, and the table read back as simplified services.

import fs from 'node:fs';
import path from 'node:path';

import { REPO_DIR } from '../../tools/lib/n8n-instance.mjs';

export const MIRROR_FILE = path.join(REPO_DIR, 'examples', 'mirror-services-postgres.json');
export const APPLY_NODE = 'Apply to mirror';
export const SETUP_TRIGGER = 'Create the mirror tables';
export const SETUP_NODE = 'Create tables';
export const MIRROR_TABLE = 'service_mirror';

/**
 * A database `mirror` on a PostgreSQL server of tools/lib/services.mjs (startPostgres), beside
 * n8n's own: the same handle, its query() running in the new database.
 */
export function mirrorDatabase(pg) {
	pg.query('create database mirror');
	return { ...pg, database: 'mirror', query: (sql) => pg.queryIn('mirror', sql) };
}

/** A Postgres credential in `inst` for the mirror database (the throwaway server trusts local users: no password). */
export function mirrorCredential(inst, db) {
	return inst.createCredential({
		name: 'Mirror database',
		type: 'postgres',
		data: { host: db.host, port: db.port, database: db.database, user: db.user, password: 'unused-trust-auth', ssl: 'disable' },
	});
}

/**
 * The recipe: { workflow, ddl, applyNode, branch(pgCred) }. branch() gives the nodes after the
 * trigger, with the Postgres credential set, for chaosWorkflow's `mirror`.
 */
export function loadMirrorRecipe() {
	const workflow = JSON.parse(fs.readFileSync(MIRROR_FILE, 'utf8'));
	const node = (name) => {
		const n = workflow.nodes.find((x) => x.name === name);
		if (!n) throw new Error(`${path.basename(MIRROR_FILE)} has no node "${name}"`);
		return n;
	};
	const applyNode = node(APPLY_NODE);
	const ddl = node(SETUP_NODE).parameters.query;
	return {
		workflow,
		ddl,
		applyNode,
		branch(pgCred) {
			const apply = structuredClone(applyNode);
			apply.credentials = { postgres: { id: pgCred.id, name: pgCred.name } };
			apply.position = [260, 120];
			return { nodes: [apply], connections: {}, first: apply.name };
		},
	};
}

/** Runs the recipe's DDL (the "Create tables" node's query) in the mirror database. */
export function applyMirrorSchema(db, recipe = loadMirrorRecipe()) {
	db.query(recipe.ddl);
}

/**
 * Seeds the mirror with `services` (raw records) as last applied at seq 0, as the recipe's Resync at
 * the first activation does: the chaos runs keep Resync off, so that a change lost at the sink is not
 * repaired before the oracle sees it, and seed the table from the platform's services at activation.
 */
export function seedMirror(db, services) {
	const rows = services.map((r) => {
		const v = r.values.values;
		const c = v.service.customize;
		return {
			id_service: r.id_service,
			name: v.name,
			alias: v.alias,
			status: v.status,
			os_id: c.OS.id,
			os_name: c.OS.name,
			vcores: c.specifications.vcores,
			ram_gb: c.specifications.GB.ram,
			hd_gb: c.specifications.GB.hd,
		};
	});
	const json = JSON.stringify(rows).replace(/'/g, "''");
	db.query(
		`insert into ${MIRROR_TABLE} (id_service, name, alias, status, os_id, os_name, vcores, ram_gb, hd_gb, seq) select id_service, name, alias, status, os_id, os_name, vcores, ram_gb, hd_gb, 0 from json_populate_recordset(null::${MIRROR_TABLE}, '${json}');` +
			`insert into service_mirror_applied (id_service, last_seq) select id_service, 0 from ${MIRROR_TABLE};`,
	);
}

/** The mirror table as simplified services (what the oracle compares with the platform). */
export function readMirror(db) {
	const out = db.query(`select coalesce(json_agg(m order by id_service), '[]') from ${MIRROR_TABLE} m`);
	return JSON.parse(out || '[]');
}
