#!/usr/bin/env node
// npm run demo: build and pack the package, install it into a real n8n 2.x (installed once into a
// cache outside the repo), run the example workflow examples/list-active-services.json
// (Manual Trigger -> List Services -> Filter status == active) with `n8n execute`, and print the
// services as a table. Against the embedded mock API, or a real platform when
// SERVICE_PLATFORM_BASE_URL and SERVICE_PLATFORM_API_KEY are set.
//
//   node tools/demo/demo.mjs [--n8n 2|1] [--skip-build] [--workflow examples/<file>.json]

import fs from 'node:fs';
import path from 'node:path';

import { runMain } from '../lib/cleanup.mjs';
import { platformOrMock } from '../mock-platform/mock.mjs';
import { N8N_LINES, ensureN8n } from '../lib/n8n-runtime.mjs';
import { CREDENTIAL_TYPE, N8nInstance, REPO_DIR, buildAndPack, nodeError, nodeItems, workflowError, tail } from '../lib/n8n-instance.mjs';
import { SERVICE_COLUMNS, formatTable } from '../lib/table.mjs';

const argv = process.argv.slice(2);
const arg = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const line = Number(arg('--n8n') ?? 2);
const workflowFile = path.resolve(REPO_DIR, arg('--workflow') ?? 'examples/list-active-services.json');
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

await runMain(async () => {
	const t0 = Date.now();
	if (!N8N_LINES[line]) throw new Error(`--n8n must be one of ${Object.keys(N8N_LINES).join(', ')}`);
	console.log(`Service Platform demo: the packed package inside real n8n ${N8N_LINES[line].version}\n`);

	// 1. n8n (one-time install into the cache) and the package tarball.
	const runtime = await ensureN8n(line);
	console.log(
		`n8n ${runtime.version} ready (${runtime.nodeBin === process.execPath ? `system Node ${process.versions.node}` : `Node from ${path.dirname(runtime.nodeBin)}`})`,
	);
	const { tarball } = await buildAndPack({ skipBuild: argv.includes('--skip-build') });

	// 2. The API: a real platform from the environment, or the embedded mock.
	const { baseUrl, apiKey, mock } = await platformOrMock();
	if (mock) console.log(`Mock platform API on ${mock.url} (set SERVICE_PLATFORM_BASE_URL and SERVICE_PLATFORM_API_KEY to use a real one)`);
	else console.log(`Using the platform at ${baseUrl} (from SERVICE_PLATFORM_BASE_URL)`);

	// 3. An isolated n8n user folder with the package where a user's n8n holds it.
	const inst = await N8nInstance.create({ runtime, tarball, install: 'extract' });
	console.log(`Installed the tarball into ${path.relative(inst.root, inst.packageDir)} of a fresh n8n user folder`);
	const workflow = JSON.parse(fs.readFileSync(workflowFile, 'utf8'));
	const credRef = workflow.nodes.map((n) => n.credentials?.[CREDENTIAL_TYPE]).find(Boolean);
	if (!credRef) throw new Error(`${workflowFile} has no node with a ${CREDENTIAL_TYPE} credential`);
	let t = Date.now();
	await inst.importCredentials([{ id: credRef.id, name: credRef.name, type: CREDENTIAL_TYPE, data: { apiKey, baseUrl } }]);
	await inst.importWorkflows([workflow]);
	console.log(`Imported credential "${credRef.name}" and workflow "${workflow.name}" (${secs(Date.now() - t)})`);

	// 4. Run it the way n8n runs a saved workflow.
	t = Date.now();
	console.log(`Executing with: n8n execute --id=${workflow.id} --rawOutput ...`);
	const r = await inst.execute(workflow.id, { timeoutMs: 180_000 });
	const outDir = path.join(REPO_DIR, '.tmp');
	fs.mkdirSync(outDir, { recursive: true });
	const outFile = path.join(outDir, 'demo-result.json');
	if (!r.result) {
		throw new Error(`n8n execute printed no result (exit ${r.signal ?? r.code}):\n${tail(r.stdout + r.stderr, 30)}`);
	}
	const runData = r.result.data?.resultData?.runData ?? {};
	const perNode = Object.fromEntries(Object.keys(runData).map((name) => [name, nodeItems(r.result, name)]));
	fs.writeFileSync(
		outFile,
		JSON.stringify(
			{
				workflow: workflow.name,
				n8n: runtime.version,
				finished: r.ok,
				items: perNode,
				error: workflowError(r.result) ?? null,
				execution: r.result,
			},
			null,
			2,
		),
	);

	const err = workflowError(r.result);
	if (!r.ok || err) {
		const failedNode = Object.keys(runData).find((n) => nodeError(r.result, n));
		const e = (failedNode && nodeError(r.result, failedNode)) || err || {};
		console.error(`\nThe workflow failed${failedNode ? ` in node "${failedNode}"` : ''}: ${e.message ?? 'unknown error'}`);
		if (e.description) console.error(`  ${e.description}`);
		console.error(`Full result: ${outFile}`);
		return 1;
	}
	console.log(`Workflow finished in ${secs(Date.now() - t)}\n`);

	// 5. The table: the last node's items, with counts for each node on the way.
	const order = workflow.nodes.map((n) => n.name).filter((n) => perNode[n]);
	for (const name of order) console.log(`  ${name}: ${perNode[name].length} item(s)`);
	const last = r.result.data?.resultData?.lastNodeExecuted ?? order[order.length - 1];
	const items = perNode[last] ?? [];
	console.log(`\nItems of "${last}":\n`);
	console.log(items.length ? formatTable(items, SERVICE_COLUMNS) : '(no items)');
	console.log(`\nFull JSON (every node's items and the raw execution): ${outFile}`);
	console.log(`Done in ${secs(Date.now() - t0)}.`);
	return 0;
});
