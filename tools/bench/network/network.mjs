#!/usr/bin/env node
// The latency table of `npm run bench` (tools/bench/bench.mjs calls measureNetwork), or alone:
//
//   node tools/bench/network/network.mjs [--no-build] [--rtts 20,80] [--pages 100] [--quick] [--sequential]
//                                        [--against <ref>]...
//
// A paged listing read over a real network's costs on 127.0.0.1: the mock API (pages of `{data,
// next}`), a TLS server in front of it (a certificate made with openssl for this run, trusted by the
// measuring child through NODE_EXTRA_CA_CERTS), and in front of that the latency proxy
// (tools/lib/latency-proxy.cjs: each direction half the round trip, one round trip for a new
// connection's handshake, slow-start flights), one proxy per variant. One child process
// (tools/bench/network/client.mjs) reads each listing at each round trip with: List (this node, its
// defaults), the peer (HTTP Request's own pagination + Split Out), the lower bound (one kept-alive
// TLS connection), and List@<ref> per --against; the variants of one listing at the same time
// (their time is round trips, not CPU; --sequential: one after the other). Listings: --pages pages
// of 1,000 services (default 100), and 10 pages of 100. Single runs of the large listing, median of
// 3 for the small. The connections each variant opened are counted at its proxy.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';

import { startLatencyProxy } from '../../lib/latency-proxy.cjs';
import { startMockApi } from '../../mock-platform/mock.mjs';
import { formatTable } from '../../lib/table.mjs';
import { fixed, median, root, runJsonChild, thousands } from '../common.mjs';

const clientScript = join(root, 'tools/bench/network/client.mjs');

/** A certificate for 127.0.0.1, its own issuer, in `dir` (the child trusts it as a CA). */
function makeCertificate(dir) {
	const files = { key: join(dir, 'key.pem'), cert: join(dir, 'cert.pem') };
	execFileSync(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			'ec',
			'-pkeyopt',
			'ec_paramgen_curve:prime256v1',
			'-nodes',
			'-keyout',
			files.key,
			'-out',
			files.cert,
			'-days',
			'2',
			'-subj',
			'/CN=127.0.0.1',
			'-addext',
			'subjectAltName=IP:127.0.0.1',
		],
		{ stdio: 'pipe' },
	);
	return { ...files, pem: { key: readFileSync(files.key), cert: readFileSync(files.cert) } };
}

/** TLS on `port`'s plain HTTP: each TLS connection one plain connection to the mock (keep-alive kept). */
async function tlsInFront(port, pem) {
	const server = tls.createServer(pem, (secure) => {
		const plain = net.connect(port, '127.0.0.1');
		secure.pipe(plain).pipe(secure);
		const end = () => {
			secure.destroy();
			plain.destroy();
		};
		secure.on('error', end);
		plain.on('error', end);
		secure.on('close', end);
		plain.on('close', end);
	});
	server.on('tlsClientError', () => {});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { port: server.address().port, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * Measures every listing at every round trip. `refs`: [{ ref, dir }] built by tools/bench/refs.mjs;
 * `nodesBaseDir`: n8n-nodes-base/dist/nodes of the installed n8n (the peer), or null.
 * Resolves with { rows, lines }: the measured rows and the table as printed lines.
 */
export async function measureNetwork({
	rtts = [20, 80],
	pages = 100,
	refs = [],
	nodesBaseDir,
	quick = false,
	sequential = false,
	progress = () => {},
}) {
	const dir = mkdtempSync(join(tmpdir(), 'sp-bench-network-'));
	const closers = [];
	try {
		const certificate = makeCertificate(dir);
		const listings = [
			{ id: `${pages} × 1,000`, pages, perPage: 1000, runs: 1 },
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
			return front.port;
		};
		const warm = await serve({ pages: 2, perPage: 5 });
		const variants = ['list', ...(nodesBaseDir ? ['peer'] : []), 'lower', ...refs.map((r) => `list@${r.ref}`)];
		const targets = [];
		for (const listing of listings) {
			const port = await serve(listing);
			for (const rttMs of rtts) {
				const proxies = {};
				for (const variant of variants) {
					proxies[variant] = await startLatencyProxy({ target: port, rttMs });
					closers.push(() => proxies[variant].close());
				}
				targets.push({ id: `${rttMs}|${listing.id}`, rttMs, listing, proxies, services: listing.pages * listing.perPage });
			}
		}
		targets.sort((a, b) => a.rttMs - b.rttMs);
		progress(
			`network: ${targets.length} listings × ${variants.length} variants over TLS through the latency proxy (round trips ${rtts.join(', ')} ms) ...`,
		);
		const plan = {
			key: apiKey,
			warmUrl: `https://127.0.0.1:${warm}`,
			warmServices: 10,
			targets: targets.map(({ id, proxies, services, listing }) => ({
				id,
				urls: Object.fromEntries(Object.entries(proxies).map(([variant, proxy]) => [variant, `https://127.0.0.1:${proxy.port}`])),
				services,
				runs: listing.runs,
			})),
			variants,
			concurrent: !sequential,
			nodesBase: nodesBaseDir,
			refs: Object.fromEntries(refs.map((r) => [r.ref, r.dir])),
		};
		const measured = await runJsonChild([clientScript], {
			input: JSON.stringify(plan),
			env: { NODE_EXTRA_CA_CERTS: certificate.cert },
			label: 'bench network client',
		});
		const rows = measured.results.map(({ target, variant, runs }) => {
			const { rttMs, listing, proxies } = targets.find((t) => t.id === target);
			const ok = runs.filter((r) => !r.error);
			const failed = runs.find((r) => r.error);
			const connections = proxies[variant].stats.connections / runs.length;
			return {
				rttMs,
				listing: listing.id,
				pages: listing.pages,
				variant,
				runs: runs.length,
				ms: median(ok.map((r) => r.ms)),
				failedMs: failed?.ms,
				error: failed?.error,
				connections,
			};
		});
		const lines = formatNetwork(rows, { unavailable: measured.unavailable, sequential });
		return { rows, unavailable: measured.unavailable, lines };
	} finally {
		for (const close of closers.reverse()) await close();
		rmSync(dir, { recursive: true, force: true });
	}
}

const VARIANT_NAMES = { list: 'List (defaults)', peer: 'peer: HTTP Request pagination', lower: 'lower bound: one kept-alive connection' };
const variantName = (variant) => VARIANT_NAMES[variant] ?? `List (defaults) of ${variant.split('@')[1]}`;

/** The latency table: per round trip and listing, each variant's time, its time per page, its connections, and against the lower bound. */
function formatNetwork(rows, { unavailable, sequential }) {
	const lower = (row) => rows.find((r) => r.variant === 'lower' && r.rttMs === row.rttMs && r.listing === row.listing);
	const outcome = (row) =>
		row.error ? `refused after ${fixed(row.failedMs / 1000)} s: ${row.error}` : row.runs > 1 ? `median of ${row.runs}` : '';
	const table = formatTable(
		rows,
		[
			{ title: 'round trip', get: (r) => `${r.rttMs} ms`, align: 'right' },
			{ title: 'pages × services', get: (r) => r.listing, align: 'right' },
			{ title: 'variant', get: (r) => variantName(r.variant) },
			{ title: 'time', get: (r) => (Number.isFinite(r.ms) ? `${fixed(r.ms / 1000)} s` : '-'), align: 'right' },
			{ title: 'per page', get: (r) => (Number.isFinite(r.ms) ? `${thousands(r.ms / r.pages)} ms` : '-'), align: 'right' },
			{ title: '× lower bound', get: (r) => fixed(r.ms / (lower(r)?.ms ?? NaN), 2), align: 'right' },
			{ title: 'connections', get: (r) => thousands(r.connections), align: 'right' },
			{ title: 'outcome', get: outcome },
		],
		{ maxWidth: 220 },
	);
	const lines = [
		'Latency: paged listings over TLS through a latency proxy (each direction half the round trip, a handshake per',
		`connection, slow start), one proxy per variant${sequential ? ', one variant after the other' : ', the variants of a listing at the same time'}; List with every option at its default.`,
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
		quick: { type: 'boolean', default: false },
		sequential: { type: 'boolean', default: false },
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
		const { lines } = await measureNetwork({
			rtts: args.rtts.split(',').map(Number),
			pages: Number(args.pages),
			refs,
			nodesBaseDir,
			quick: args.quick,
			sequential: args.sequential,
			progress,
		});
		process.stdout.write(
			`${lines.join('\n')}\nLoad average at the end: ${readLoadavg()}; took ${Math.round((performance.now() - started) / 1000)} s\n`,
		);
	});
}
