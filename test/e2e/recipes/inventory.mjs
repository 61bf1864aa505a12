// Recipe: a daily inventory of services to spreadsheet files (examples/daily-inventory-services.json).
// Schedule Trigger (every day at 6:00) -> Services: List (Return All, Simplify) -> Convert to File as
// CSV and as XLSX -> Read/Write Files from Disk, into the folder n8n 2.x lets nodes write to
// (N8N_RESTRICT_FILE_ACCESS_TO; the recipe ships the Docker image's default, /home/node/.n8n-files).
//
// The test sets what the docs tell a user to set (the credential, the folder, and that variable),
// runs the workflow as the editor's "Execute workflow" does (from its Schedule Trigger: `n8n
// execute` starts only from a Manual Trigger, so it cannot run this workflow), then reads the two
// files it wrote: the CSV parsed here, the XLSX with the spreadsheet library n8n itself ships.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { nodeError, workflowError } from '../../../tools/lib/n8n-instance.mjs';
import { simplify } from '../workflows.mjs';
import { setParameter } from './workflow.mjs';

const FILE = 'daily-inventory-services.json';
const SHIPPED_FOLDER = '/home/node/.n8n-files/';
const WRITE_NODE = 'Write file to disk';
const FILE_NAME = /^services-(\d{4}-\d{2}-\d{2})\.(csv|xlsx)$/;

/** Cells a spreadsheet export gets wrong when it quotes or encodes carelessly. */
function awkwardServices(services) {
	const s = structuredClone(services);
	s[1].values.values.alias = 'Billing, "legacy" box';
	delete s[2].values.values.alias; // a missing field: an empty cell
	s[3].values.values.alias = 'Zürich – ops\nsecond line';
	return s;
}

/** RFC 4180 CSV (quoted fields, doubled quotes, line breaks inside quotes); a leading BOM is reported. */
export function parseCsv(text) {
	const bom = text.charCodeAt(0) === 0xfeff;
	const rows = [];
	let row = [];
	let field = '';
	let quoted = false;
	const endField = () => {
		row.push(field);
		field = '';
	};
	const endRow = () => {
		endField();
		rows.push(row);
		row = [];
	};
	for (let i = bom ? 1 : 0; i < text.length; i++) {
		const c = text[i];
		if (quoted) {
			if (c !== '"') field += c;
			else if (text[i + 1] === '"') field += text[++i];
			else quoted = false;
		} else if (c === '"') quoted = true;
		else if (c === ',') endField();
		else if (c === '\n') endRow();
		else if (c === '\r') {
			if (text[i + 1] === '\n') i++;
			endRow();
		} else field += c;
	}
	if (field !== '' || row.length) endRow();
	return { bom, rows };
}

/** The spreadsheet library n8n's Convert to File uses (`xlsx`, or its `@e965/xlsx` fork), from n8n's own install. */
function n8nXlsx(runtime) {
	const nodesBase = path.join(runtime.dir, 'node_modules', 'n8n-nodes-base', 'package.json');
	const deps = JSON.parse(fs.readFileSync(nodesBase, 'utf8')).dependencies ?? {};
	const name = Object.keys(deps).find((d) => d === 'xlsx' || d.endsWith('/xlsx'));
	assert.ok(name, 'n8n-nodes-base depends on a spreadsheet library');
	return { name, version: deps[name], lib: createRequire(nodesBase)(name) };
}

export const inventoryRecipe = {
	name: 'inventory',
	title: 'daily inventory to CSV and XLSX',
	file: FILE,
	picture: 'recipe-inventory.png',
	env: (ctx) => ({ N8N_RESTRICT_FILE_ACCESS_TO: ctx.folder('inventory-files') }),

	async run(t, ctx) {
		const folder = ctx.folder('inventory-files');
		// More services than List's default Limit (50), on three pages: Return All must follow them all.
		const mock = await ctx.startMock({ count: 60, seed: 29, pageSize: 25 });
		mock.setServices(awkwardServices(mock.getServices()));
		const credential = await ctx.serviceCredential(mock, 'inventory');
		const toFolder = (dir) => (w) => setParameter(w, WRITE_NODE, 'fileName', (v) => v.replace(SHIPPED_FOLDER, `${dir}/`));
		return t.test(
			`inventory: imported with the folder in "${WRITE_NODE}" set to N8N_RESTRICT_FILE_ACCESS_TO, "Execute workflow" runs it from its Schedule Trigger`,
			async () => {
				const wf = await ctx.importRecipe(FILE, { credentials: { servicePlatformApi: credential }, edit: toFolder(folder) });
				const run = await ctx.inst.runWorkflow(wf.id);
				assert.ok(run.ok, `the run failed: ${workflowError(run.result)?.message ?? run.status}`);
				return { wf, run, folder, toFolder, credential, mock, expected: mock.getServices().map(simplify) };
			},
		);
	},

	async check(t, ctx, state) {
		const { folder, expected } = state;
		const header = Object.keys(expected[0]);
		const files = await t.test('inventory: it wrote exactly two files, services-<date>.csv and .xlsx, the same date', () => {
			const names = fs.readdirSync(folder).sort();
			assert.equal(names.length, 2, `files written: ${names.join(', ')}`);
			const [csv, xlsx] = names.map((n) => FILE_NAME.exec(n));
			assert.ok(csv?.[2] === 'csv' && xlsx?.[2] === 'xlsx', `file names: ${names.join(', ')}`);
			assert.equal(csv[1], xlsx[1], 'one date in both names');
			console.log(`      ${names.map((n) => `${n} (${fs.statSync(path.join(folder, n)).size} bytes)`).join(', ')}`);
			return { csv: path.join(folder, names[0]), xlsx: path.join(folder, names[1]) };
		});
		if (!files) return;

		await t.test(
			`inventory: the CSV parses to a header and one row per mock service (${expected.length}, on 3 pages), quotes, a comma, a line break, an empty cell and UTF-8 (with a byte order mark) intact`,
			() => {
				const { bom, rows } = parseCsv(fs.readFileSync(files.csv, 'utf8'));
				const cell = (v) => (v === null ? '' : String(v));
				assert.ok(bom, 'the CSV starts with a UTF-8 byte order mark');
				assert.deepEqual(rows, [header, ...expected.map((s) => header.map((k) => cell(s[k])))]);
				console.log(`      CSV: ${rows.length} lines after the byte order mark`);
			},
		);

		await t.test(
			'inventory: the XLSX opens with n8n\'s own spreadsheet library: one sheet "Services", the same rows, numbers as numbers',
			() => {
				const { name, version, lib } = n8nXlsx(ctx.inst.runtime);
				const book = lib.read(fs.readFileSync(files.xlsx), { type: 'buffer' });
				assert.deepEqual(book.SheetNames, ['Services']);
				const rows = lib.utils.sheet_to_json(book.Sheets.Services, { header: 1, defval: null, raw: true });
				assert.deepEqual(rows, [header, ...expected.map((s) => header.map((k) => s[k]))]);
				console.log(`      XLSX read with ${name} ${version}: ${rows.length - 1} rows`);
			},
		);

		await t.test('inventory: a second run the same day replaces both files (a service removed meanwhile is gone from them)', async () => {
			const before = state.mock.getServices();
			state.mock.setServices(before.slice(1));
			const run = await ctx.inst.runWorkflow(state.wf.id);
			assert.ok(run.ok, `the run failed: ${workflowError(run.result)?.message ?? run.status}`);
			assert.deepEqual(fs.readdirSync(folder).sort(), [path.basename(files.csv), path.basename(files.xlsx)], 'the same two files');
			const csvRows = parseCsv(fs.readFileSync(files.csv, 'utf8')).rows;
			const { lib } = n8nXlsx(ctx.inst.runtime);
			const xlsxRows = lib.utils.sheet_to_json(lib.read(fs.readFileSync(files.xlsx), { type: 'buffer' }).Sheets.Services, { header: 1 });
			for (const rows of [csvRows, xlsxRows]) {
				assert.equal(rows.length, expected.length, 'a header and one row fewer');
				assert.ok(!rows.some((r) => r[0] === before[0].id_service), 'the removed service is gone');
			}
		});

		const failedWrite = async (folder) => {
			const wf = await ctx.importRecipe(FILE, { credentials: { servicePlatformApi: state.credential }, edit: state.toFolder(folder) });
			const run = await ctx.inst.runWorkflow(wf.id);
			assert.equal(run.ok, false, 'the run must fail');
			return String(nodeError(run.result, WRITE_NODE)?.message ?? workflowError(run.result)?.message);
		};
		await t.test(
			'inventory: a folder outside N8N_RESTRICT_FILE_ACCESS_TO is refused ("Access to the file is not allowed."), nothing written',
			async () => {
				const outside = path.join(ctx.inst.root, 'outside');
				fs.mkdirSync(outside, { recursive: true });
				assert.match(await failedWrite(outside), /Access to the file is not allowed/);
				assert.deepEqual(fs.readdirSync(outside), [], 'nothing written there');
			},
		);
		await t.test(
			'inventory: a folder that does not exist fails the run ("The file or directory does not exist"); n8n does not create it',
			async () => {
				const missing = path.join(state.folder, 'not-created');
				assert.match(await failedWrite(missing), /The file or directory does not exist/);
				assert.ok(!fs.existsSync(missing), 'the folder was not created');
			},
		);

		await t.test('inventory: the imported workflow publishes (its daily schedule is accepted)', async () => {
			await ctx.inst.activateWorkflow(state.wf.id);
			await ctx.inst.deactivateWorkflow(state.wf.id);
		});
	},
};
