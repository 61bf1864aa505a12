#!/usr/bin/env node
// npm run dev: the n8n editor, ready to click. Builds and packs the package, installs it into a
// fresh n8n 2.x user folder (as a community package), starts the mock API, imports the credential
// and the example workflow(s), starts `n8n start` on 127.0.0.1, creates the owner account and
// prints the URL and login. Ctrl-C stops n8n and the mock and removes the temporary folder.
//
//   node tools/dev-editor/dev-editor.mjs [--n8n 2|1] [--port 5678] [--skip-build]
//   env: SERVICE_PLATFORM_BASE_URL + SERVICE_PLATFORM_API_KEY to use a real platform;
//        N8N_DEV_PORT (default 5678, or a free port when 5678 is taken)

import fs from 'node:fs';
import path from 'node:path';

import { runMain } from '../lib/cleanup.mjs';
import { platformOrMock } from '../mock-platform/mock.mjs';
import { N8N_LINES, ensureN8n } from '../lib/n8n-runtime.mjs';
import { CREDENTIAL_TYPE, DEFAULT_OWNER, N8nInstance, REPO_DIR, buildAndPack } from '../lib/n8n-instance.mjs';
import { freePort, portIsFree } from '../lib/process.mjs';

const argv = process.argv.slice(2);
const arg = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const line = Number(arg('--n8n') ?? 2);

await runMain(async () => {
	if (!N8N_LINES[line]) throw new Error(`--n8n must be one of ${Object.keys(N8N_LINES).join(', ')}`);
	const runtime = await ensureN8n(line);
	const { tarball } = await buildAndPack({ skipBuild: argv.includes('--skip-build') });

	const { baseUrl, apiKey, mock } = await platformOrMock();

	const inst = await N8nInstance.create({
		runtime,
		tarball,
		install: 'extract',
		label: `n8n ${runtime.version} (dev)`,
		extraEnv: { N8N_LOG_FORMAT: 'text' },
	});
	// Credentials and workflows from examples/, with the ids their credential references use.
	const examples = fs
		.readdirSync(path.join(REPO_DIR, 'examples'))
		.filter((f) => f.endsWith('.json'))
		.map((f) => JSON.parse(fs.readFileSync(path.join(REPO_DIR, 'examples', f), 'utf8')))
		.filter((wf) => Array.isArray(wf.nodes));
	const credRefs = new Map();
	for (const wf of examples)
		for (const n of wf.nodes)
			if (n.credentials?.[CREDENTIAL_TYPE]) credRefs.set(n.credentials[CREDENTIAL_TYPE].id, n.credentials[CREDENTIAL_TYPE].name);
	console.log(`Importing ${credRefs.size} credential(s) and ${examples.length} example workflow(s) ...`);
	await inst.importCredentials([...credRefs].map(([id, name]) => ({ id, name, type: CREDENTIAL_TYPE, data: { apiKey, baseUrl } })));
	await inst.importWorkflows(examples);

	const wanted = Number(arg('--port') ?? process.env.N8N_DEV_PORT ?? 5678);
	const port = (await portIsFree(wanted)) ? wanted : await freePort();
	console.log(`Starting n8n ${runtime.version} on 127.0.0.1:${port} ...`);
	const logFile = path.join(REPO_DIR, '.tmp', 'dev-n8n.log');
	fs.mkdirSync(path.dirname(logFile), { recursive: true });
	await inst.start({ port, timeoutMs: 180_000 });
	await inst.setupOwner();
	await inst.login();

	// Keep n8n's log in a file (it is long); say where.
	const log = fs.createWriteStream(logFile);
	log.write(inst.serverLog);
	inst.server.stdout.on('data', (d) => log.write(d));
	inst.server.stderr.on('data', (d) => log.write(d));

	const wf = examples[0];
	console.log(`
n8n ${runtime.version} is running with n8n-nodes-service-platform loaded.

  Editor:    ${inst.baseUrl}/
  Login:     ${DEFAULT_OWNER.email}   password: ${DEFAULT_OWNER.password}
  Workflow:  ${inst.baseUrl}/workflow/${wf.id}   ("${wf.name}": press "Execute workflow")
  Credential "${[...credRefs.values()][0]}" -> ${baseUrl}${mock ? ` (mock API, key ${apiKey})` : ''}
             open it under Overview > Credentials and press "Test"/"Retry".
  n8n log:   ${path.relative(process.cwd(), logFile)}
${
	mock
		? `  Mock API:  ${mock.servicesUrl}; change its answers with e.g.
             curl -X POST ${mock.url}/__mock/config -d '{"shape":"envelope"}'
             curl -X POST ${mock.url}/__mock/config -d '{"fault":"status:503"}'  (reset: POST ${mock.url}/__mock/reset)\n`
		: ''
}
Press Ctrl-C to stop n8n${mock ? ' and the mock' : ''} (the temporary n8n folder is removed).`);

	const exit = await inst.serverExit;
	if (inst.stopRequested) return 0; // Ctrl-C: the clean-up is already under way
	console.error(`n8n exited unexpectedly (${exit.signal ?? `exit ${exit.code}`}); see ${logFile}`);
	return 1;
});
