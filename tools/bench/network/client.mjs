// Child process of tools/bench/network/network.mjs: reads paged listings over TLS through the latency
// proxy and prints one JSON line. Started with NODE_EXTRA_CA_CERTS naming the bench's certificate
// (Node reads it only at start-up), so every client here trusts the bench's TLS server as a
// system CA would be trusted. The plan comes on stdin as JSON:
//   { key, warmUrl, warmServices, targets: [{ id, urls: {<variant>: url}, services, runs }],
//     variants: [...], concurrent, nodesBase, refs: {"<ref>": "<checkout>"} }
// Each variant reads through a proxy of its own (urls), so with `concurrent` the variants of one
// listing run at the same time without sharing a connection's window; they share this process's CPU,
// a few ms a page against hundreds of ms of round trips.
// Variants:
//   list        the Services node, List, Return All, every other option at its default, through n8n-core's engine
//   list@<ref>  the same with the dist/ of an earlier commit (tools/bench/refs.mjs)
//   peer        n8n's HTTP Request with its own pagination (page in the query, done when `next` is null) + Split Out
//   lower       the lower bound: one kept-alive TLS connection (node:https), JSON.parse, the `next` links followed
// Each run: its time, its items, or its error; the parent counts each variant's connections at its proxy.
import https from 'node:https';

import { loadEngine } from '../common.mjs';

const { runList, runPeer } = loadEngine();

const plan = JSON.parse(
	await new Promise((resolve) => {
		let input = '';
		process.stdin.on('data', (chunk) => (input += chunk));
		process.stdin.on('end', () => resolve(input));
	}),
);
const apiKey = plan.key;

/** GET `url` on `agent`, its body as JSON. */
function getJson(url, agent) {
	return new Promise((resolve, reject) => {
		const request = https.get(url, { agent, headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' } }, (response) => {
			const chunks = [];
			response.on('data', (chunk) => chunks.push(chunk));
			response.on('error', reject);
			response.on('end', () => {
				if (response.statusCode !== 200) return reject(new Error(`lower bound: HTTP ${response.statusCode}`));
				resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
			});
		});
		request.on('error', reject);
	});
}

/** The lower bound: every page over one kept-alive connection. */
async function lowerBound(baseUrl) {
	const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
	const items = [];
	try {
		for (let url = `${baseUrl}/v2026/services`; url;) {
			const body = await getJson(url, agent);
			for (const json of body.data) items.push({ json });
			url = body.next ? new URL(body.next, url).href : null;
		}
	} finally {
		agent.destroy();
	}
	return items;
}

function runVariant(variant, baseUrl) {
	const [name, ref] = variant.split('@');
	if (name === 'list') return runList({ baseUrl, apiKey, simplify: true, packageRoot: ref === undefined ? undefined : plan.refs[ref] });
	if (name === 'peer') return runPeer({ baseUrl, apiKey, nodesBaseDir: plan.nodesBase, paged: true });
	if (name === 'lower') return lowerBound(baseUrl);
	throw new Error(`client.mjs: unknown variant "${variant}"`);
}

/** One run: its time, and its items or its error (the message as the user reads it). */
async function measure(variant, baseUrl, services) {
	const started = performance.now();
	try {
		const items = await runVariant(variant, baseUrl);
		const ms = performance.now() - started;
		if (items.length !== services) throw new Error(`${variant}: expected ${services} items, got ${items.length}`);
		return { ms, items: items.length };
	} catch (error) {
		const message = (error.nodeError?.message ?? error.message).split('\n')[0];
		return { ms: performance.now() - started, error: message };
	}
}

// Warm-up on a small listing without the proxy: modules loaded, code paths compiled. Not counted.
const unavailable = {};
for (const variant of plan.variants) {
	const warm = await measure(variant, plan.warmUrl, plan.warmServices);
	if (warm.error) unavailable[variant] = warm.error;
}
const results = [];
const measured = plan.variants.filter((v) => !unavailable[v]);
for (const target of plan.targets) {
	const runsOf = async (variant) => {
		const runs = [];
		for (let run = 0; run < target.runs; run++) runs.push(await measure(variant, target.urls[variant], target.services));
		return { target: target.id, variant, runs };
	};
	if (plan.concurrent) results.push(...(await Promise.all(measured.map(runsOf))));
	else for (const variant of measured) results.push(await runsOf(variant));
}
process.stdout.write(`${JSON.stringify({ results, unavailable })}\n`);
process.exit(0);
