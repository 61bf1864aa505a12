// The "Mirror services into PostgreSQL" recipe (examples/mirror-services-postgres.json) as the chaos
// test and the e2e suite use it: its table DDL and its apply node exactly as shipped, with the
// credentials pointed at a throwaway database, and the table read back as simplified services.

import fs from 'node:fs';
import path from 'node:path';

import { REPO_DIR } from '../n8n-instance.mjs';

export const MIRROR_FILE = path.join(REPO_DIR, 'examples', 'mirror-services-postgres.json');
export const APPLY_NODE = 'Apply to mirror';
export const SETUP_TRIGGER = 'Create the mirror tables';
export const SETUP_NODE = 'Create tables';
export const MIRROR_TABLE = 'service_mirror';

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

/** The mirror table as simplified services (what the oracle compares with the platform). */
export function readMirror(db) {
	const out = db.query(`select coalesce(json_agg(m order by id_service), '[]') from ${MIRROR_TABLE} m`);
	return JSON.parse(out || '[]');
}

/** The recipe with its credential references pointed at `credentials` ({ type: {id, name} }), for importing. */
export function mirrorWorkflowWith(credentials, { edit } = {}) {
	const workflow = loadMirrorRecipe().workflow;
	for (const n of workflow.nodes) for (const type of Object.keys(n.credentials ?? {})) if (credentials[type]) n.credentials[type] = credentials[type];
	edit?.(workflow);
	return workflow;
}
