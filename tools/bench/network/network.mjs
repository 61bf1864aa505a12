#!/usr/bin/env node
// The latency table of `npm run bench` (tools/bench/bench.mjs calls measureNetwork), or alone:
//
//   node tools/bench/network/network.mjs [--no-build] [--rtts 20,80] [--pages 100] [--rounds 3] [--quick]
//                                        [--against <ref>]...
//
// A paged listing read over a real network's costs on 127.0.0.1: the mock API (pages of `{data,
// next, total}`), a TLS server in front of it (a certificate made with openssl for this run, trusted
// by the measuring child through NODE_EXTRA_CA_CERTS; tools/lib/tls-front.mjs), and in front of that
// the latency proxy (tools/lib/latency-proxy.cjs: each direction half the round trip, one round trip
// for a new connection's handshake, slow-start flights), one proxy per variant. One child process
// (tools/bench/network/client.mjs) reads each listing at each round trip with: List (this node, its
// defaults: Parallel Requests 5), Get of the last id, one trigger poll and the lower bound (one
// kept-alive TLS connection), one after another, in each of --rounds rounds; and, in the first round
// only, the peer (HTTP Request's own pagination + Split Out) and List@<ref> per --against (one page
// at a time: their time is round trips, and far from the targets). Listings: --pages pages of 1,000
// services (default 100), and 10 pages of 100 (median of 3 runs a round). The requests each
// variant sent are counted at its proxy (n8n opens a connection per request). Targets (issue 33),
// on the large listing at each round trip, paired per round, median of the rounds: List <= 1.5x the
// lower bound (stretch 1.0x), List <= 0.25x the peer (at least 4 times faster), Get of the last id
// and one trigger poll <= 1.5x List.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { startLatencyProxy } from '../../lib/latency-proxy.cjs';
import { makeCertificate, tlsInFront } from '../../lib/tls-front.mjs';
import { startMockApi } from '../../mock-platform/mock.mjs';
import { formatTable } from '../../lib/table.mjs';
import { fixed, formatTarget, median, root, runJsonChild, targetOf, thousands } from '../common.mjs';

const clientScript = join(root, 'tools/bench/network/client.mjs');

/** The targets of issue 33 (item 6). */
export const NETWORK_TARGETS = { lower: 1.5, lowerStretch: 1.0, peer: 0.25, getAndPoll: 1.5 };

/**
 * Measures every listing at every round trip. `refs`: [{ ref, dir }] built by tools/bench/refs.mjs;
 * `nodesBaseDir`: n8n-nodes-base/dist/nodes of the installed n8n (the peer), or null.
 * Resolves with { rows, targets, lines }: the measured rows, the targets (as bench.mjs's) and the
 * table as printed lines.
 */
export async function measureNetwork({
	rtts = [20, 80],
	pages = 100,
	rounds = 3,
	refs = [],
	nodesBaseDir,
	quick = false,
	progress = () => {},
}) {
	const dir = mkdtempSync(join(tmpdir(), 'sp-bench-network-'));
	const closers = [];
	try {
		const certificate = makeCertificate(dir);
		const listings = [
			{ id: `${pages} × 1,000`, pages, perPage: 1000, runs: 1, large: true },
			{ id: '10 × 100', pages: 10, perPage: 100, runs: quick ? 1 : 3 },
		];
		const apiKey = `bench-network-${Date.now().toString(36)}`;
		const serve = async ({ pages: count, perPage }) => {
			const mock = await startMockApi({
				apiKey,
				count: count * perPage,
				seed: 1,
				pageSize: perPage,
				nextForm: 'next',
				nextUrl: 'relative',
				shape: 'envelope',
				maxRequests: 10,
			});
			const front = await tlsInFront(mock.port, certificate.pem);
			closers.push(
				() => front.close(),
				() => mock.close(),
			);
			return { port: front.port, lastId: mock.getServices().at(-1).id_service };
		};
		const warm = await serve({ pages: 2, perPage: 5 });
		const variants = ['list', 'get', 'trigger', 'lower'];
		const once = [...(nodesBaseDir ? ['peer'] : []), ...refs.map((r) => `list@${r.ref}`)];
		const targets = [];
		for (const listing of listings) {
			const { port, lastId } = await serve(listing);
			for (const rttMs of rtts) {
				const proxies = {};
				for (const variant of [...variants, ...once]) {
					proxies[variant] = await startLatencyProxy({ target: port, rttMs });
					closers.push(() => proxies[variant].close());
				}
				targets.push({ id: `${rttMs}|${listing.id}`, rttMs, listing, proxies, direct: `https://127.0.0.1:${port}`, lastId });
			}
		}
		targets.sort((a, b) => a.rttMs - b.rttMs);
		progress(
			`network: ${targets.length} listings, ${variants.length} variants in ${rounds} round(s)${once.length ? ` and ${once.join(', ')} in the first` : ''}, over TLS through the latency proxy (round trips ${rtts.join(', ')} ms) ...`,
		);
		const plan = {
			key: apiKey,
			warmUrl: `https://127.0.0.1:${warm.port}`,
			warmServices: 10,
			warmLastId: warm.lastId,
			targets: targets.map(({ id, proxies, listing, direct, lastId }) => ({
				id,
				urls: Object.fromEntries(Object.entries(proxies).map(([variant, proxy]) => [variant, `https://127.0.0.1:${proxy.port}`])),
				direct,
				lastId,
				services: listing.pages * listing.perPage,
				runs: listing.runs,
			})),
			variants,
			once,
			rounds,
			nodesBase: nodesBaseDir,
			refs: Object.fromEntries(refs.map((r) => [r.ref, r.dir])),
		};
		const measured = await runJsonChild([clientScript], {
			input: JSON.stringify(plan),
			env: { NODE_EXTRA_CA_CERTS: certificate.cert },
			label: 'bench network client',
		});
		const rows = [];
		for (const { rttMs, listing, proxies, id } of targets) {
			for (const variant of [...variants, ...once]) {
				const measuredRounds = measured.results.filter((r) => r.target === id && r.variant === variant);
				if (measuredRounds.length === 0) continue;
				const runs = measuredRounds.flatMap((r) => r.runs);
				const failed = runs.find((r) => r.error);
				// A round's figure: the median of its runs (one run of the large listing).
				const perRound = measuredRounds.map((r) => (r.runs.some((run) => run.error) ? NaN : median(r.runs.map((run) => run.ms))));
				rows.push({
					once: once.includes(variant),
					rttMs,
					listing: listing.id,
					large: listing.large === true,
					pages: listing.pages,
					variant,
					perRound,
					ms: median(perRound.filter(Number.isFinite)),
					failedMs: failed?.ms,
					error: failed?.error,
					requests: proxies[variant].stats.connections / runs.length,
				});
			}
		}
		const networkTargets = targetsOf(rows, rtts);
		const lines = formatNetwork(rows, { unavailable: measured.unavailable, rounds });
		return { rows, targets: networkTargets, unavailable: measured.unavailable, lines };
	} finally {
		for (const close of closers.reverse()) await close();
		rmSync(dir, { recursive: true, force: true });
	}
}

const VARIANT_NAMES = {
	list: 'List (defaults)',
	get: 'Get of the last id (defaults)',
	trigger: 'one trigger poll (defaults)',
	peer: 'peer: HTTP Request pagination',
	lower: 'lower bound: one kept-alive connection',
};
const variantName = (variant) => VARIANT_NAMES[variant] ?? `List (defaults) of ${variant.split('@')[1]}`;

/** The targets of issue 33 on the large listing at each round trip: paired per round, median of the rounds. */
function targetsOf(rows, rtts) {
	const targets = [];
	for (const rttMs of rtts) {
		const of = (variant) => rows.find((r) => r.large && r.rttMs === rttMs && r.variant === variant);
		const [list, lower, peer, get, trigger] = ['list', 'lower', 'peer', 'get', 'trigger'].map(of);
		if (!list) continue;
		const paired = (row) => list.perRound.map((ms, i) => (row?.perRound[i] ?? NaN) / ms);
		const at = `${rttMs} ms, ${list.listing}`;
		if (lower) {
			targets.push(
				targetOf(
					`${at}: List <= ${NETWORK_TARGETS.lower}x one kept-alive connection`,
					list.perRound.map((ms, i) => ms / lower.perRound[i]),
					NETWORK_TARGETS.lower,
					NETWORK_TARGETS.lowerStretch,
				),
			);
		}
		// The peer reads in the first round only: List's median against its one run.
		if (peer)
			targets.push(
				targetOf(`${at}: List <= ${NETWORK_TARGETS.peer}x HTTP Request's pagination`, [list.ms / peer.ms], NETWORK_TARGETS.peer),
			);
		if (get)
			targets.push(targetOf(`${at}: Get of the last id <= ${NETWORK_TARGETS.getAndPoll}x List`, paired(get), NETWORK_TARGETS.getAndPoll));
		if (trigger)
			targets.push(targetOf(`${at}: one trigger poll <= ${NETWORK_TARGETS.getAndPoll}x List`, paired(trigger), NETWORK_TARGETS.getAndPoll));
	}
	return targets;
}

/** The latency table: per round trip and listing, each variant's time, per page, against the lower bound, its requests. */
function formatNetwork(rows, { unavailable, rounds }) {
	const lower = (row) => rows.find((r) => r.variant === 'lower' && r.rttMs === row.rttMs && r.listing === row.listing);
	const pairedLower = (row) => median(row.perRound.map((ms, i) => ms / (lower(row)?.perRound[i] ?? NaN)).filter(Number.isFinite));
	const outcome = (row) =>
		row.error
			? `refused after ${fixed(row.failedMs / 1000)} s: ${row.error}`
			: row.once
				? 'first round only'
				: row.perRound.length > 1
					? `rounds ${row.perRound.map((ms) => fixed(ms / 1000)).join(' ')} s`
					: '';
	const table = formatTable(
		rows,
		[
			{ title: 'round trip', get: (r) => `${r.rttMs} ms`, align: 'right' },
			{ title: 'pages × services', get: (r) => r.listing, align: 'right' },
			{ title: 'variant', get: (r) => variantName(r.variant) },
			{ title: 'time', get: (r) => (Number.isFinite(r.ms) ? `${fixed(r.ms / 1000)} s` : '-'), align: 'right' },
			{ title: 'per page', get: (r) => (Number.isFinite(r.ms) ? `${thousands(r.ms / r.pages)} ms` : '-'), align: 'right' },
			{ title: '× lower bound', get: (r) => fixed(pairedLower(r), 2), align: 'right' },
			{ title: 'requests a listing', get: (r) => fixed(r.requests, r.requests % 1 === 0 ? 0 : 1), align: 'right' },
			{ title: 'outcome', get: outcome },
		],
		{ maxWidth: 220 },
	);
	const lines = [
		'Latency: paged listings over TLS through a latency proxy (each direction half the round trip, a handshake per',
		`connection, slow start), one proxy per variant, one variant after another; median of ${rounds} round(s) (the peer and earlier`,
		'commits: the first round only); List, Get and the trigger with every option at their defaults (Parallel Requests 5).',
		...table.split('\n'),
	];
	for (const [variant, error] of Object.entries(unavailable)) lines.push(`  ${variantName(variant)}: not measured (${error})`);
	return lines;
}

// ---- alone: node tools/bench/network/network.mjs ----------------------------------------------------------

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const { benchArgs, readLoadavg } = await import('../common.mjs');
	const { runMain } = await import('../../lib/cleanup.mjs');
	const { makeTempDir, runNpm } = await import('../../lib/process.mjs');
	const { ensureN8n } = await import('../../lib/n8n-runtime.mjs');
	const { prepareRef } = await import('../refs.mjs');
	const { values: args } = benchArgs(import.meta.url, {
		'no-build': { type: 'boolean', default: false },
		rtts: { type: 'string', default: '20,80' },
		pages: { type: 'string', default: '100' },
		rounds: { type: 'string', default: '3' },
		quick: { type: 'boolean', default: false },
		against: { type: 'string', multiple: true, default: [] },
	});
	await runMain(async () => {
		process.env.TMPDIR = makeTempDir('sp-bench-network-');
		const progress = (line) => process.stderr.write(`bench: ${line}\n`);
		const started = performance.now();
		if (!args['no-build'] && (await runNpm(['run', 'build'], { cwd: root })).code !== 0) throw new Error('npm run build failed');
		const refs = [];
		for (const ref of args.against) refs.push(await prepareRef(root, ref, progress));
		const runtime = await ensureN8n(2).catch(() => null);
		const nodesBaseDir = runtime && join(runtime.dir, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes');
		process.stdout.write(`Load average at start: ${readLoadavg()}\n`);
		const { lines, targets } = await measureNetwork({
			rtts: args.rtts.split(',').map(Number),
			pages: Number(args.pages),
			rounds: Number(args.rounds),
			refs,
			nodesBaseDir,
			quick: args.quick,
			progress,
		});
		const said = targets.map((t) => formatTarget(t));
		process.stdout.write(
			`${lines.join('\n')}\nTargets (issue 33): paired per round, median of the rounds:\n${said.join('\n')}\nLoad average at the end: ${readLoadavg()}; took ${Math.round((performance.now() - started) / 1000)} s\n`,
		);
	});
}
