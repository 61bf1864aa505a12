// A recipe's workflow as a user imports it: the JSON of examples/<file>, with its credential
// references pointed at credentials of this n8n (by id and name, as the editor's import dialog does
// when the user picks them) and the settings the recipe's docs tell the user to set. Nothing else of
// the file is changed. An edit names a node and a parameter that must exist in the file, so a recipe
// renamed or restructured fails here, loudly, instead of being run half-configured.

import fs from 'node:fs';
import path from 'node:path';

import { REPO_DIR } from '../../../tools/lib/n8n-instance.mjs';

const EXAMPLES_DIR = path.join(REPO_DIR, 'examples');

export function readRecipe(file) {
	return JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8'));
}

export function nodeNamed(workflow, name) {
	const node = workflow.nodes.find((n) => n.name === name);
	if (!node) throw new Error(`the recipe has no node "${name}" (nodes: ${workflow.nodes.map((n) => n.name).join(', ')})`);
	return node;
}

/** The credential types the recipe's nodes refer to, each with the reference the file holds. */
export function credentialRefs(workflow) {
	const refs = {};
	for (const n of workflow.nodes) for (const [type, ref] of Object.entries(n.credentials ?? {})) refs[type] ??= ref;
	return refs;
}

/**
 * Sets one parameter of one node, as a user does in its panel. `key` is a top-level parameter the
 * node already has in the file; `value` a value or a function of the current one.
 */
export function setParameter(workflow, nodeName, key, value) {
	const node = nodeNamed(workflow, nodeName);
	if (!(key in node.parameters))
		throw new Error(`node "${nodeName}" of the recipe has no parameter "${key}" (has: ${Object.keys(node.parameters).join(', ')})`);
	node.parameters[key] = typeof value === 'function' ? value(node.parameters[key]) : value;
}

/**
 * The recipe's workflow with every credential reference replaced: `credentials` maps a credential
 * type to { id, name } of a credential of this n8n. A type the recipe uses but the map lacks is an
 * error. `edit(workflow)` applies the user's settings (setParameter).
 */
export function recipeWorkflow(file, { credentials = {}, edit } = {}) {
	const workflow = readRecipe(file);
	const missing = Object.keys(credentialRefs(workflow)).filter((type) => !credentials[type]);
	if (missing.length) throw new Error(`${file}: no test credential given for ${missing.join(', ')}`);
	for (const n of workflow.nodes) {
		for (const type of Object.keys(n.credentials ?? {})) n.credentials[type] = { id: credentials[type].id, name: credentials[type].name };
	}
	edit?.(workflow);
	return workflow;
}

/** Saves the recipe in n8n as the editor does after an import (POST /rest/workflows); returns it with its id. */
export function importRecipe(inst, file, options) {
	return inst.createWorkflow(recipeWorkflow(file, options));
}
