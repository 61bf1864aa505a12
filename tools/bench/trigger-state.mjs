#!/usr/bin/env node
// The Services Trigger's stored state with at-least-once delivery (issue 27): how large the
// workflow's static data grows with the outbox (events emitted but not known to be delivered) and
// the tombstones (recent removals, kept for Resync), in a realistic steady state and in the worst
// cases, measured through n8n-core's poll executor over the built package (dist/: `npm run build`).
//
//   node tools/bench/trigger-state.mjs [--sizes 1000,100000] [--polls 20] [--changed 0.01]
//
// For each size, over the mock API (tools/bench/server.mjs, its own process on 127.0.0.1):
// - steady: a baseline, then --polls polls one minute apart (the node's clock is moved, not waited
//   for), each with --changed of the services changed in status (each an event); the state after
//   the last poll: the outbox holds the events of the last 15 minutes, at most 10,000;
// - every service changed at once: one more poll where every status flips (the last emission is
//   always kept whole);
// - with Resync (Every 24 hours) every service removed at once: confirmed by the next poll, the
//   outbox and the tombstones hold every service.
// Prints bytes of JSON (what n8n stores) and bytes per service, and the time to serialise it;
// one JSON line to stdout.
import http from 'node:http';

import { runMain } from '../lib/cleanup.mjs';
import { generateServices } from '../mock-platform/mock.mjs';
import { benchArgs, loadEngine, readLoadavg, startBenchServer, thousands } from './common.mjs';

const { values: args } = benchArgs(
	import.meta.url,
	{
		sizes: { type: 'string', default: '1000,100000' },
		polls: { type: 'string', default: '20' },
		changed: { type: 'string', default: '0.01' },
	},
	{ helpTo: process.stderr },
);
const sizes = args.sizes.split(',').map(Number);
const polls = Number(args.polls);
const changedShare = Number(args.changed);
if (!sizes.every((size) => Number.isInteger(size) && size > 0) || !(polls >= 1) || !(changedShare > 0 && changedShare <= 1)) {
	process.stderr.write('trigger-state.mjs: --sizes must be whole numbers > 0, --polls >= 1, --changed a share (0..1]\n');
	process.exit(2);
}

const { triggerWorkflow, pollTrigger } = loadEngine();

const progress = (line) => process.stderr.write(`trigger-state-bench: ${line}\n`);

// The node's clock: moved on a minute per poll instead of waited for (the outbox ages in time); it
// still runs between moves (sockets and timers rely on it).
const realNow = Date.now;
let clock = 0;
Date.now = () => realNow() + clock;

/** Serves `records` (a connection of its own each time: a kept-alive one may have timed out during a long poll). */
function serve(mock, records) {
	const body = JSON.stringify(records);
	return new Promise((resolve, reject) => {
		const request = http.request(
			`${mock.url}/__mock/services`,
			{ method: 'PUT', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
			(response) => {
				response.resume();
				response.on('end', () =>
					response.statusCode === 200 ? resolve() : reject(new Error(`mock PUT /__mock/services: HTTP ${response.statusCode}`)),
				);
			},
		);
		request.on('error', reject);
		request.end(body);
	});
}

function measure(workflow, size) {
	const started = performance.now();
	const json = JSON.stringify(workflow.staticData);
	const serialiseMs = Math.round((performance.now() - started) * 10) / 10;
	const state = workflow.staticData['node:Services Trigger'];
	return {
		bytes: Buffer.byteLength(json),
		bytesPerService: Math.round((Buffer.byteLength(json) / size) * 10) / 10,
		outbox: state.outbox.length,
		tombstones: state.tombstones.length,
		serialiseMs,
	};
}

const flip = (record) => {
	const data = record.values.values;
	data.status = data.status === 'active' ? 'suspended' : 'active';
};

async function stateAt(mock, size) {
	const credentials = { baseUrl: mock.url, apiKey: mock.apiKey };
	const records = generateServices(size, 1);
	await serve(mock, records);
	const workflow = triggerWorkflow(undefined);
	if ((await pollTrigger({ workflow, ...credentials })) !== null) throw new Error('the baseline emitted');
	const baseline = measure(workflow, size);
	const changed = Math.max(1, Math.round(size * changedShare));
	let events = 0;
	for (let poll = 0; poll < polls; poll++) {
		clock += 60_000;
		for (let k = 0; k < changed; k++) flip(records[(poll * changed + k) % size]);
		await serve(mock, records);
		events += (await pollTrigger({ workflow, ...credentials }))?.length ?? 0;
	}
	const steady = { ...measure(workflow, size), events };
	clock += 60_000;
	for (const record of records) flip(record);
	await serve(mock, records);
	if ((await pollTrigger({ workflow, ...credentials }))?.length !== size) throw new Error('every service changed: not every event came');
	const everyChanged = measure(workflow, size);

	// Resync every 24 hours: removals kept as tombstones; every service removed at once, confirmed by the next poll.
	const resync = triggerWorkflow(undefined, { parameters: { resync: { intervalHours: 24 } } });
	await serve(mock, records);
	await pollTrigger({ workflow: resync, ...credentials });
	await serve(mock, []);
	clock += 60_000;
	if ((await pollTrigger({ workflow: resync, ...credentials })) !== null) throw new Error('the mass removal was not held');
	clock += 60_000;
	if ((await pollTrigger({ workflow: resync, ...credentials }))?.length !== size) throw new Error('the mass removal was not confirmed');
	const everyRemoved = measure(resync, size);
	return { size, baseline, steady, everyChanged, everyRemoved };
}

await runMain(async () => {
	const loadavg = readLoadavg();
	const server = await startBenchServer([], 'trigger state bench mock');
	const results = [];
	try {
		for (const size of sizes) {
			progress(
				`${thousands(size)} services: a baseline, ${polls} polls a minute apart with ${changedShare * 100}% changed, every service changed, every service removed with Resync ...`,
			);
			const result = await stateAt({ url: server.urls.main, apiKey: server.apiKey }, size);
			results.push(result);
			const line = (label, m) =>
				progress(
					`  ${label}: ${thousands(m.bytes)} bytes (${m.bytesPerService} per service; outbox ${thousands(m.outbox)}, tombstones ${thousands(m.tombstones)}), serialised in ${m.serialiseMs} ms`,
				);
			line('baseline (after the first activation, with the activation copy)', result.baseline);
			line(`steady state (${result.steady.events} events in ${polls} polls)`, result.steady);
			line('every service changed at once', result.everyChanged);
			line('Resync on, every service removed at once', result.everyRemoved);
		}
	} finally {
		server.stop();
		Date.now = realNow;
	}
	process.stdout.write(`${JSON.stringify({ polls, changed: changedShare, results, loadavg: { start: loadavg, end: readLoadavg() } })}\n`);
});
