/**
 * The latency proxy's network model (tools/lib/latency-proxy.cjs), which the latency table of
 * docs/performance.md and test/unit/network.test.ts stand on: "a 250 KB answer costs 7 round trips on
 * a new connection, 1 on a warm one" (with TLS's one; warm: once the window holds a whole answer). The slow-start rounds are counted on the model
 * itself (no clock); through a real socket only floors are asserted (load only makes a run slower).
 */
import { request, Agent } from 'node:http';

import { Flights, INITIAL_WINDOW_BYTES, startLatencyProxy } from '../../tools/lib/latency-proxy.cjs';
import type { LatencyProxy } from '../../tools/lib/latency-proxy.cjs';
import { closeLocalServers, startLocalServer } from '../harness/localServer';

const ANSWER_BYTES = 250 * 1024;
/** The round in which the last slice of `bytes` leaves, counted from the first (0). */
const lastRound = (flights: InstanceType<typeof Flights>, bytes: number, now: number, rttMs: number) => {
	const slices = flights.send(Buffer.alloc(bytes), now);
	expect(Buffer.concat(slices.map(([slice]) => slice)).length).toBe(bytes);
	return (slices[slices.length - 1][1] - now) / rttMs;
};

test('slow start: 250 KB leave in 5 rounds on a new connection (10 segments, doubling), in 1 on a warm one', () => {
	const flights = new Flights(100, INITIAL_WINDOW_BYTES);
	// 14.6 + 29.2 + 58.4 + 116.8 KB = 219 KB after 4 rounds: the 5th carries the rest.
	expect(lastRound(flights, ANSWER_BYTES, 0, 100)).toBe(4);
	// The connection kept its window: 233.6 KB, so the next answer takes 2 rounds and doubles it ...
	expect(lastRound(flights, ANSWER_BYTES, 10_000, 100)).toBe(1);
	// ... and from then on each answer leaves in one.
	expect(lastRound(flights, ANSWER_BYTES, 20_000, 100)).toBe(0);
	expect(lastRound(flights, ANSWER_BYTES, 30_000, 100)).toBe(0);
	// Within one round's window nothing waits.
	expect(lastRound(new Flights(100, INITIAL_WINDOW_BYTES), INITIAL_WINDOW_BYTES, 0, 100)).toBe(0);
});

describe('through a real socket', () => {
	let proxy: LatencyProxy | undefined;
	afterEach(async () => {
		await proxy?.close();
		proxy = undefined;
		await closeLocalServers();
	});

	test('a new connection pays the handshake, the request and the slow-start rounds; a kept-alive one only the request', async () => {
		const rttMs = 100;
		const server = await startLocalServer({
			handler: (_req, res) => {
				res.writeHead(200, { 'content-type': 'application/octet-stream' });
				res.end(Buffer.alloc(ANSWER_BYTES));
			},
		});
		proxy = await startLatencyProxy({ target: server.port, rttMs });
		const agent = new Agent({ keepAlive: true, maxSockets: 1 });
		const get = () =>
			new Promise<number>((resolve, reject) => {
				const started = performance.now();
				request({ host: '127.0.0.1', port: proxy!.port, path: '/', agent }, (res) => {
					let bytes = 0;
					res.on('data', (chunk: Buffer) => (bytes += chunk.length));
					res.on('end', () => (bytes === ANSWER_BYTES ? resolve(performance.now() - started) : reject(new Error(`${bytes} bytes`))));
				})
					.on('error', reject)
					.end();
			});
		try {
			const cold = await get();
			await get(); // the window grows to hold a whole answer
			const warm = await get();
			console.info(`250 KB at a ${rttMs} ms round trip: new connection ${Math.round(cold)} ms, kept alive ${Math.round(warm)} ms`);
			// Handshake 1 + request 1 + 4 more slow-start rounds (plain HTTP: TLS would add its 1). Timers may fire 1 ms early.
			expect(cold).toBeGreaterThanOrEqual(6 * rttMs - 5);
			expect(warm).toBeGreaterThanOrEqual(rttMs - 5);
			expect(proxy.stats.connections).toBe(1);
		} finally {
			agent.destroy();
		}
	});
});
