#!/usr/bin/env node
// npm run demo:queue: the package in n8n 2.41.1 queue mode on this machine. Starts throwaway Redis
// and PostgreSQL 15 (Debian packages installed when missing), one main and two workers, each with the
// packed package in its own ~/.n8n/nodes; fires a webhook workflow (Webhook -> Services: List, a
// 1,000-service listing) and shows which worker ran which execution and the throughput; then stops
// the cluster and measures the same workflow on one regular-mode n8n (same machine, same mock) for
// comparison. Everything is stopped at the end, on failure and on Ctrl-C.
//
//   node tools/demo/demo-queue.mjs [--skip-build] [--services 1000] [--requests 60] [--in-flight 10]

import { runMain } from '../lib/cleanup.mjs';
import { ensureN8n } from '../lib/n8n-runtime.mjs';
import { CREDENTIAL_TYPE, N8nInstance, buildAndPack } from '../lib/n8n-instance.mjs';
import { startMockApi } from '../mock-platform/mock.mjs';
import { startQueueCluster, webhookListWorkflow } from '../lib/queue-cluster.mjs';

const argv = process.argv.slice(2);
const num = (name, dflt) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : dflt);
const SERVICES = num('--services', 1000);
const REQUESTS = num('--requests', 60);
const IN_FLIGHT = num('--in-flight', 10);

/** Owner, credential and the active webhook workflow on a started n8n; returns the webhook URL. */
async function prepare(inst, mock) {
	await inst.setupOwner();
	await inst.login();
	const cred = await inst.createCredential({
		name: 'Service Platform (mock)',
		type: CREDENTIAL_TYPE,
		data: { apiKey: mock.apiKey, baseUrl: mock.url },
	});
	const wf = await inst.createWorkflow(webhookListWorkflow('demo: webhook -> list services', { path: 'demo-list', cred }));
	await inst.activateWorkflow(wf.id);
	return `${inst.baseUrl}/webhook/demo-list`;
}

/** `total` GET requests, `inFlight` at a time; every answer must hold all services. */
async function load(url, { total, inFlight, expectItems }) {
	let next = 0;
	let failed = 0;
	const started = Date.now();
	const lane = async () => {
		while (next < total) {
			next++;
			const res = await fetch(url, { signal: AbortSignal.timeout(300_000) });
			const body = await res.text();
			if (res.status !== 200 || JSON.parse(body).length !== expectItems) failed++;
		}
	};
	await Promise.all(Array.from({ length: inFlight }, lane));
	const seconds = (Date.now() - started) / 1000;
	return { total, failed, seconds, perMinute: (total / seconds) * 60 };
}

await runMain(async () => {
	console.log(
		`Queue-mode demo: n8n 2.41.1, a main and two workers on Redis and PostgreSQL 15; Webhook -> Services: List over ${SERVICES} services\n`,
	);
	const runtime = await ensureN8n(2);
	const { tarball } = await buildAndPack({ skipBuild: argv.includes('--skip-build') });
	const mock = await startMockApi({ count: SERVICES, seed: 21 });

	console.log('\n1. Starting the cluster ...');
	const cluster = await startQueueCluster({ runtime, tarball });
	for (const w of cluster.workers)
		console.log(
			`   ${w.label}: ${/Loaded all credentials and nodes from n8n-nodes-service-platform/.test(w.log) ? 'loaded the package' : 'did NOT load the package'}`,
		);
	const url = await prepare(cluster.main, mock);

	console.log(`\n2. ${REQUESTS} webhook calls, ${IN_FLIGHT} at a time (warm-up of ${IN_FLIGHT} first) ...`);
	await load(url, { total: IN_FLIGHT, inFlight: IN_FLIGHT, expectItems: SERVICES });
	const before = cluster.workers.map((w) => w.startedExecutions().length);
	const queued = await load(url, { total: REQUESTS, inFlight: IN_FLIGHT, expectItems: SERVICES });
	cluster.workers.forEach((w, i) =>
		console.log(`   ${w.label} ran ${w.startedExecutions().length - before[i]} of them (its log: "Worker started execution <id>")`),
	);
	console.log(
		`   queue mode, 2 workers x 5: ${queued.perMinute.toFixed(0)} executions/min (${queued.seconds.toFixed(1)} s, ${queued.failed} failed)`,
	);
	await cluster.stop();

	console.log('\n3. The same on one regular-mode n8n (SQLite, no workers) ...');
	const single = await N8nInstance.create({ runtime, tarball, label: 'n8n 2.41.1 regular' });
	await single.start();
	const url1 = await prepare(single, mock);
	await load(url1, { total: IN_FLIGHT, inFlight: IN_FLIGHT, expectItems: SERVICES });
	const regular = await load(url1, { total: REQUESTS, inFlight: IN_FLIGHT, expectItems: SERVICES });
	console.log(
		`   regular mode, 1 process: ${regular.perMinute.toFixed(0)} executions/min (${regular.seconds.toFixed(1)} s, ${regular.failed} failed)`,
	);
	await single.stop();
	await mock.close();

	console.log(`\nResult (${SERVICES}-service listing, ${REQUESTS} executions, ${IN_FLIGHT} in flight, this machine):`);
	console.log(`   queue mode, main + 2 workers: ${queued.perMinute.toFixed(0)} executions/min`);
	console.log(
		`   regular mode, 1 process:      ${regular.perMinute.toFixed(0)} executions/min   (ratio ${(queued.perMinute / regular.perMinute).toFixed(2)}x)`,
	);
	console.log('Everything this demo started is stopped now.');
	return queued.failed || regular.failed ? 1 : 0;
});
