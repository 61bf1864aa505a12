// Child process of tools/bench/network/network.mjs: reads paged listings over TLS through the latency
// proxy and prints one JSON line. Started with NODE_EXTRA_CA_CERTS naming the bench's certificate
// (Node reads it only at start-up), so every client here trusts the bench's TLS server as a
// system CA would be trusted. The plan comes on stdin as JSON:
//   { key, warmUrl, warmServices, targets: [{ id, urls: {<variant>: url}, direct, services, lastId, runs }],
//     variants: [...], once: [...], rounds, nodesBase, refs: {"<ref>": "<checkout>"} }
// Each variant reads through a proxy of its own (urls). In each of `rounds` rounds, every listing
// is read by each of `variants`, one after another; `once` (the peer, earlier commits: one page at
// a time, their time is round trips) are read in the first round only, at the same time as each other.
// Variants:
//   list        the Services node, List, Return All, every other option at its default (Parallel Requests 5)
//   list@<ref>  the same with the dist/ of an earlier commit (tools/bench/refs.mjs)
//   get         Get of the listing's last id (on its last page), every option at its default
//   trigger     one poll of the Services Trigger with its defaults, nothing changed since the poll before
//               (the first poll, its baseline, reads the listing without the proxy: `direct`, not timed)
//   peer        n8n's HTTP Request with its own pagination (page in the query, done when `next` is null) + Split Out
//   lower       the lower bound: one kept-alive TLS connection (node:https), JSON.parse, the `next` links followed
// Each run: its time, or its error; the parent counts each variant's connections at its proxy.
import https from 'node:https';

import { loadEngine } from '../common.mjs';

const { runList, runGet, runPeer, triggerWorkflow, pollTrigger } = loadEngine();

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

/** The trigger's workflow per listing, its baseline taken without the proxy. */
const triggerWorkflows = new Map();
async function triggerPoll(target, baseUrl) {
	let workflow = triggerWorkflows.get(target.id);
	if (workflow === undefined) {
		workflow = triggerWorkflow(undefined);
		await pollTrigger({ workflow, baseUrl: target.direct, apiKey });
		triggerWorkflows.set(target.id, workflow);
	}
	return { timed: () => pollTrigger({ workflow, baseUrl, apiKey }) };
}

/** The variant's run on `target` as a function to time, and what it must give. */
async function prepare(variant, target) {
	const baseUrl = target.urls[variant];
	const [name, ref] = variant.split('@');
	const many = (items) => items.length === target.services || `expected ${target.services} items, got ${items.length}`;
	if (name === 'list') {
		const packageRoot = ref === undefined ? undefined : plan.refs[ref];
		return { timed: () => runList({ baseUrl, apiKey, simplify: true, packageRoot }), check: many };
	}
	if (name === 'get') {
		const check = (items) => items[0]?.json?.id_service === target.lastId || `expected ${target.lastId}, got ${items[0]?.json?.id_service}`;
		return { timed: () => runGet({ baseUrl, apiKey, id: target.lastId }), check };
	}
	if (name === 'trigger')
		return { ...(await triggerPoll(target, baseUrl)), check: (emitted) => emitted === null || 'the poll emitted events' };
	if (name === 'peer') return { timed: () => runPeer({ baseUrl, apiKey, nodesBaseDir: plan.nodesBase, paged: true }), check: many };
	if (name === 'lower') return { timed: () => lowerBound(baseUrl), check: many };
	throw new Error(`client.mjs: unknown variant "${variant}"`);
}

/** One run: its time, or its error (the message as the user reads it). */
async function measure(variant, target) {
	const started = performance.now();
	try {
		const { timed, check } = await prepare(variant, target);
		const runStarted = performance.now();
		const said = check(await timed());
		const ms = performance.now() - runStarted;
		if (said !== true) throw new Error(`${variant}: ${said}`);
		return { ms };
	} catch (error) {
		const message = (error.nodeError?.message ?? error.message).split('\n')[0];
		return { ms: performance.now() - started, error: message };
	}
}

// Warm-up on a small listing without the proxy: modules loaded, code paths compiled. Not counted.
const unavailable = {};
const warmTarget = { id: 'warm', urls: {}, direct: plan.warmUrl, services: plan.warmServices, lastId: plan.warmLastId };
for (const variant of [...plan.variants, ...plan.once]) {
	const warm = await measure(variant, { ...warmTarget, urls: { [variant]: plan.warmUrl } });
	if (warm.error) unavailable[variant] = warm.error;
}
const results = [];
const runsOf = async (round, target, variant) => {
	const runs = [];
	for (let run = 0; run < target.runs; run++) runs.push(await measure(variant, target));
	results.push({ round, target: target.id, variant, runs });
};
for (let round = 1; round <= plan.rounds; round++) {
	for (const target of plan.targets) {
		for (const variant of plan.variants.filter((v) => !unavailable[v])) await runsOf(round, target, variant);
		if (round === 1) await Promise.all(plan.once.filter((v) => !unavailable[v]).map((variant) => runsOf(round, target, variant)));
	}
	process.stderr.write(`bench: network round ${round} of ${plan.rounds} done\n`);
}
process.stdout.write(`${JSON.stringify({ results, unavailable })}\n`);
process.exit(0);
