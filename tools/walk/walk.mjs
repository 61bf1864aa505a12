#!/usr/bin/env node
// A poll's way through the Services Trigger's files (issue 35): one scheduled poll of the built
// trigger (dist/, `npm run build` first) through n8n-core's poll executor, single-stepped by the V8
// inspector from a worker thread with every file but dist/nodes/ServicesTrigger/ blackboxed. Prints
// the files in the order the steps enter them, the stays (runs of steps in one file), the returns
// to a file left before, and the files entered. The poll: two remembered services, one changed,
// one removed (two events).
//
//   node tools/walk/walk.mjs [package root, default this checkout]
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

import { runMain } from '../lib/cleanup.mjs';
import { makeTempDir } from '../lib/process.mjs';

runMain(async () => {
	const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../..'));
	const require = createRequire(path.join(root, 'package.json'));
	process.env.N8N_USER_FOLDER = makeTempDir('walk-n8n-');
	const { createEngine } = require(path.join(root, 'tools/lib/engine.cjs'));
	const own = path.join(root, 'dist/nodes/ServicesTrigger');
	const { ServicesTrigger } = require(path.join(own, 'ServicesTrigger.node.js'));
	const { ServicePlatformApi } = require(path.join(root, 'dist/credentials/ServicePlatformApi.credentials.js'));
	const type = 'n8n-nodes-service-platform.servicesTrigger';
	const engine = createEngine({
		nodeTypes: { [type]: new ServicesTrigger() },
		credentialTypes: { servicePlatformApi: new ServicePlatformApi() },
	});

	const record = (id, status) => ({
		id_service: id,
		values: {
			values: {
				name: `server-${id}`,
				alias: `alias-${id}`,
				status,
				service: {
					customize: { OS: { id: 'ubuntu-24.04', name: 'Ubuntu 24.04 LTS' }, specifications: { vcores: 2, GB: { ram: 4, hd: 80 } } },
				},
			},
		},
	});
	let listing = [record('srv-1', 'active'), record('srv-2', 'active')];
	const server = http.createServer((_req, res) => {
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify(listing));
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const credentials = { apiKey: 'sk-walk-0123456789', baseUrl: `http://127.0.0.1:${server.address().port}` };
	const node = {
		id: 'walk',
		name: 'Services Trigger',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters: { events: ['created', 'statusChanged', 'specsChanged', 'removed'] },
		credentials: { servicePlatformApi: { id: 'cred-1', name: 'account' } },
	};
	const workflow = engine.createWorkflow([node]);
	await engine.poll({ workflow, node, credentials, activation: true });
	listing = [record('srv-1', 'suspended')];

	const worker = new Worker(
		`
		const { parentPort } = require('node:worker_threads');
		const { Session } = require('node:inspector');
		const session = new Session();
		session.connectToMainThread();
		const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
		const urls = new Map();
		const steps = [];
		session.on('Debugger.scriptParsed', ({ params }) => urls.set(params.scriptId, params.url));
		session.on('Debugger.paused', ({ params }) => {
			steps.push(urls.get(params.callFrames[0].location.scriptId) ?? params.callFrames[0].url);
			session.post('Debugger.stepInto');
		});
		parentPort.on('message', async (message) => {
			if (message === 'done') return parentPort.postMessage(steps);
			await post('Debugger.enable');
			await post('Debugger.setBlackboxPatterns', { patterns: ['^(?!.*/dist/nodes/ServicesTrigger/).*$'] });
			await post('Debugger.setBreakpointByUrl', { urlRegex: 'ServicesTrigger\\\\.node\\\\.js$', lineNumber: message.line });
			parentPort.postMessage('ready');
		});
		`,
		{ eval: true },
	);
	const line = readFileSync(path.join(own, 'ServicesTrigger.node.js'), 'utf8')
		.split('\n')
		.findIndex((text) => /^\s*async poll\(/.test(text));
	const reply = () => new Promise((resolve) => worker.once('message', resolve));
	worker.postMessage({ line: line + 1 });
	await reply();
	const { emitted, error } = await engine.poll({ workflow, node, credentials });
	worker.postMessage('done');
	const steps = await reply();
	await worker.terminate();
	server.close();
	if (error) throw error;

	const files = steps
		.map((url) => url.replace(/^file:\/\//, ''))
		.filter((file) => file.startsWith(own + path.sep))
		.map((file) => path.relative(own, file));
	const stays = files.filter((file, index) => index === 0 || file !== files[index - 1]);
	const seen = new Set();
	let returns = 0;
	for (const file of stays) {
		if (seen.has(file)) returns++;
		seen.add(file);
	}
	console.log(stays.join(' -> '));
	console.log(
		`${emitted?.[0]?.length ?? 0} events; ${files.length} steps; ${stays.length} stays; ${returns} returns to a file left before; ${seen.size} files entered`,
	);
});
