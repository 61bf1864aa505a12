// Writes nodes/shared/record/serviceRecord.fast.ts from SERVICE_FIELDS: the per-record fast check (with the
// nesting bound of recordDepth.ts), the same check fused with Simplify, and Simplify alone, with
// every property name and every documented object's loop spelled out. Reads driven by the declaration at run time cost 2-4x more per
// record (bench), and n8n's package scanner forbids building code at run time, so the code is
// generated here and committed; test/unit/recordCode.test.ts fails while the file is stale.
//
//   npm run generate:record   (builds, then rewrites the file from dist's SERVICE_FIELDS)
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const TARGET = path.join(__dirname, '..', '..', 'nodes', 'shared', 'record', 'serviceRecord.fast.ts');

/** `obj.key` when key is an identifier, else `obj["key"]`. */
function read(holder, key) {
	return /^[A-Za-z_$][\w$]*$/.test(key) ? `${holder}.${key}` : `${holder}[${JSON.stringify(key)}]`;
}

/**
 * The objects holding fields, as a tree: { key, name, level, fields: [field], children: [node] };
 * `level` is the object's nesting level (the record is 1, as in recordDepth.ts).
 */
function containerTree(fields) {
	const root = { name: 'record', level: 1, fields: [], children: [] };
	let count = 0;
	for (const field of fields) {
		let node = root;
		for (const key of field.path.slice(0, -1)) {
			let child = node.children.find((c) => c.key === key);
			if (!child) {
				child = { key, name: `c${++count}`, level: node.level + 1, fields: [], children: [] };
				node.children.push(child);
			}
			node = child;
		}
		node.fields.push(field);
	}
	return root;
}

/** Every container, parents before children, each with its parent: [{ node, parent }]. */
function containers(root) {
	const list = [];
	const walk = (node, parent) => {
		list.push({ node, parent });
		for (const child of node.children) walk(child, node);
	};
	walk(root, undefined);
	return list;
}

const absent = (name) => `(${name} === undefined || ${name} === null)`;

/**
 * `isJsonObject(x)` written out at each object of the record: JSON.parse's objects answer through
 * `constructor` (one property load, monomorphic at each place), anything else goes to isJsonObject.
 * A shared helper's Object.getPrototypeOf sees every object shape of the record and cost about 3x the
 * whole check (bench). True also for an object of another prototype whose `constructor` is Object,
 * which zod accepts too; never for an array.
 */
function isObject(name) {
	return `(typeof ${name} === 'object' && ${name} !== null && (${name}.constructor === Object ? !Array.isArray(${name}) : isJsonObject(${name})))`;
}

/**
 * The nesting bound, after the field checks, at each documented object: a for...in over it, every
 * value that is an object or array (its documented child objects excepted: they are checked as
 * objects of their own) must stay within MAX_RECORD_DEPTH (pathTooDeep allocates nothing when it
 * does). Written out at each object, as isObject is: a shared helper's for...in and `container[key]`
 * see every object shape of the record (megamorphic) and cost about 3x (bench); here each loop sees
 * one shape.
 */
function renderNesting(root, refuse) {
	const lines = ['\t// Every other value within MAX_RECORD_DEPTH (recordDepth.ts).'];
	for (const { node, parent } of containers(root)) {
		const indent = parent === undefined ? '\t' : '\t\t';
		if (parent !== undefined) lines.push(`\tif (!${absent(node.name)}) {`);
		const skip = node.children.map((child) => ` || item === ${child.name}`).join('');
		lines.push(
			`${indent}for (const key in ${node.name}) {`,
			`${indent}\tconst item = ${node.name}[key];`,
			`${indent}\tif (typeof item !== 'object' || item === null${skip}) continue;`,
			`${indent}\tif (pathTooDeep(item, ${node.level + 1}) !== undefined) return ${refuse};`,
			`${indent}}`,
		);
		if (parent !== undefined) lines.push('\t}');
	}
	return lines;
}

/**
 * The fast check, flat: each container read once into `c<n>` (undefined or null when absent), its
 * type and its declared fields checked, then the nesting bound; `refuse` is what the function
 * returns for a record it leaves to the slow path.
 */
function renderCheck(root, refuse) {
	const lines = [
		'\tconst record = value as JsonObjectOrOther;',
		`\tif (!${isObject('record')} || typeof record.id_service !== 'string' || record.id_service.length === 0) return ${refuse};`,
	];
	for (const { node, parent } of containers(root)) {
		let indent = '\t';
		if (parent !== undefined) {
			const source = read(parent.name, node.key);
			const value = parent === root ? source : `(${absent(parent.name)} ? undefined : ${source})`;
			lines.push(`\tconst ${node.name} = ${value} as JsonObjectOrOther;`);
			lines.push(`\tif (!${absent(node.name)}) {`);
			lines.push(`\t\tif (!${isObject(node.name)}) return ${refuse};`);
			indent = '\t\t';
		}
		for (const field of node.fields) {
			const leaf = read(node.name, field.path[field.path.length - 1]);
			const test = field.type === 'integer' ? `isIntegerOrAbsent(${leaf})` : `isStringOrAbsent(${leaf})`;
			lines.push(`${indent}if (!${test}) return ${refuse};`);
		}
		if (parent !== undefined) lines.push('\t}');
	}
	return [...lines, ...renderNesting(root, refuse)];
}

/** The Simplify object from the containers' locals; `isAbsent(name)` tests a container local. */
function renderSimplified(root, fields, isAbsent) {
	const holderOf = new Map();
	for (const { node } of containers(root)) for (const field of node.fields) holderOf.set(field, node);
	const lines = ['\treturn {', '\t\tid_service: record.id_service,'];
	for (const field of fields) {
		const holder = holderOf.get(field);
		const leaf = read(holder.name, field.path[field.path.length - 1]);
		const type = field.type === 'integer' ? 'number' : 'string';
		const value = `(${leaf} as ${type} | null | undefined) ?? null`;
		lines.push(`\t\t${field.key}: ${holder === root ? value : `${isAbsent(holder.name)} ? null : ${value}`},`);
	}
	lines.push('\t} as SimplifiedService;');
	return lines;
}

/** Simplify of a record already validated: a container that is not an object counts as absent. */
function renderSimplify(root, fields) {
	const lines = [];
	for (const { node, parent } of containers(root)) {
		if (parent === undefined) continue;
		const source = `objectOrUndefined(${read(parent.name, node.key)})`;
		lines.push(`\tconst ${node.name} = ${parent === root ? source : `${parent.name} === undefined ? undefined : ${source}`};`);
	}
	return [...lines, ...renderSimplified(root, fields, (name) => `${name} === undefined`)];
}

/** The TypeScript source of serviceRecord.fast.ts for these field declarations. */
function renderRecordCode(fields) {
	const root = containerTree(fields);
	return [
		'// Generated by tools/generate/record-code.cjs from SERVICE_FIELDS (serviceFields.ts): do not edit.',
		'// After changing SERVICE_FIELDS run `npm run generate:record` (a unit test fails while this is stale).',
		"import { isJsonObject } from '../json/json';",
		"import { pathTooDeep } from './recordDepth';",
		"import type { ServiceRecord, SimplifiedService } from './serviceFields';",
		'',
		"const isStringOrAbsent = (value: unknown): boolean => value === undefined || value === null || typeof value === 'string';",
		'const isIntegerOrAbsent = (value: unknown): boolean => value === undefined || value === null || Number.isInteger(value);',
		'/** What a value is read as, for the type checker only: each is checked before use. */',
		'type JsonObjectOrOther = Record<string, unknown> | null | undefined;',
		'const objectOrUndefined = (value: unknown): Record<string, unknown> | undefined =>',
		"\ttypeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;",
		'',
		'/**',
		' * True only for records `serviceRecordSchema` accepts that nest within MAX_RECORD_DEPTH, and for',
		' * every such JSON value (checked by a property test); false sends the record to the slow path,',
		' * which then decides and names the wrong field. Allocates nothing.',
		' */',
		'export function isValidServiceRecordFast(value: unknown): boolean {',
		...renderCheck(root, 'false'),
		'\treturn true;',
		'}',
		'',
		'/**',
		' * The same check and Simplify in one pass (each record read once): the Simplify view of a record',
		' * isValidServiceRecordFast accepts, undefined for one it refuses.',
		' */',
		'export function simplifyServiceRecordFast(value: unknown): SimplifiedService | undefined {',
		...renderCheck(root, 'undefined'),
		...renderSimplified(root, fields, absent),
		'}',
		'',
		'/** Simplify: one flat object per service, fields in declaration order; a field the record lacks is null. */',
		'export function simplifyServiceRecord(record: ServiceRecord): SimplifiedService {',
		...renderSimplify(root, fields),
		'}',
		'',
	].join('\n');
}

module.exports = { renderRecordCode, TARGET };

if (require.main === module) {
	const { SERVICE_FIELDS } = require(path.join(__dirname, '..', '..', 'dist', 'nodes', 'shared', 'record', 'serviceFields.js'));
	fs.writeFileSync(TARGET, renderRecordCode(SERVICE_FIELDS));
	console.log(`wrote ${path.relative(process.cwd(), TARGET)} from ${SERVICE_FIELDS.length} declared fields`);
}
