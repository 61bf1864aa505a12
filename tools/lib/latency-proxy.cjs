'use strict';
// A TCP proxy on 127.0.0.1 that puts a network between a client and a loopback server: what the
// bench (tools/bench/network/) and the jest tests use to see what a round trip costs. TCP level, so TLS
// passes through it untouched (its handshake pays the round trips too). Per connection:
//  - one round trip before the client's first byte leaves (the TCP handshake), plus `connectDelayMs`;
//  - each direction delayed by half the round trip, bytes kept in order;
//  - what each side sends goes out in slow-start flights, as on a new TCP connection: 10 segments
//    (RFC 6928) in the first round trip, then twice as many each round trip while the flights are
//    full. A connection kept alive keeps its window; a new one starts small again.
// Plain CommonJS so that jest requires it too (types: latency-proxy.d.cts).

const net = require('node:net');
const { performance } = require('node:perf_hooks');

const SEGMENT_BYTES = 1460;
const INITIAL_WINDOW_BYTES = 10 * SEGMENT_BYTES;
const MAX_WINDOW_BYTES = 64 * 1024 * 1024;
const END = Symbol('end');

/** One direction's bytes, each handed on at its time and never before an earlier one. */
class Lane {
	constructor(to) {
		this.to = to;
		this.queue = [];
		this.last = 0;
		this.timer = undefined;
	}

	push(data, at) {
		this.last = Math.max(at, this.last);
		this.queue.push({ data, at: this.last });
		this.arm();
	}

	arm() {
		if (this.timer !== undefined || this.queue.length === 0) return;
		this.timer = setTimeout(() => this.flush(), Math.max(0, this.queue[0].at - performance.now()));
	}

	flush() {
		this.timer = undefined;
		// Timers may fire a fraction of a millisecond early.
		const now = performance.now() + 1;
		while (this.queue.length > 0 && this.queue[0].at <= now) {
			const { data } = this.queue.shift();
			if (this.to.destroyed) continue;
			if (data === END) this.to.end();
			else this.to.write(data);
		}
		this.arm();
	}

	stop() {
		clearTimeout(this.timer);
		this.timer = undefined;
		this.queue.length = 0;
	}
}

/**
 * The sender's slow start: a round trip carries `window` bytes; the next round starts one round trip
 * after the last began, with a doubled window if the last was full. Returns when each slice leaves.
 */
class Flights {
	constructor(rttMs, initialWindowBytes) {
		this.rttMs = rttMs;
		this.window = initialWindowBytes;
		this.roundStart = -Infinity;
		this.roundSent = 0;
		this.cursor = 0;
	}

	send(chunk, now) {
		const slices = [];
		let at = Math.max(now, this.cursor);
		let offset = 0;
		while (offset < chunk.length) {
			if (at >= this.roundStart + this.rttMs) {
				if (this.roundSent >= this.window) this.window = Math.min(this.window * 2, MAX_WINDOW_BYTES);
				this.roundStart = at;
				this.roundSent = 0;
			}
			const room = this.window - this.roundSent;
			if (room <= 0) {
				at = this.roundStart + this.rttMs;
				continue;
			}
			const take = Math.min(room, chunk.length - offset);
			slices.push([chunk.subarray(offset, offset + take), at]);
			this.roundSent += take;
			offset += take;
		}
		this.cursor = at;
		return slices;
	}
}

/** `from` -> `to` with the link's delays; `firstAt`: no byte leaves before it (the handshake). */
function direction(from, to, { rttMs, firstAt, slowStart, initialWindowBytes, counted }) {
	const lane = new Lane(to);
	const flights = slowStart && rttMs > 0 ? new Flights(rttMs, initialWindowBytes) : undefined;
	from.on('data', (chunk) => {
		counted(chunk.length);
		const now = Math.max(performance.now(), firstAt);
		const slices = flights ? flights.send(chunk, now) : [[chunk, now]];
		for (const [slice, at] of slices) lane.push(slice, at + rttMs / 2);
	});
	from.on('end', () => lane.push(END, performance.now() + rttMs / 2));
	return lane;
}

/**
 * Starts the proxy in front of `target` (a port on 127.0.0.1, or { host, port }). Resolves with its
 * port, its counters (connections accepted, bytes each way) and close(), which ends every connection.
 */
async function startLatencyProxy({ target, rttMs, connectDelayMs = 0, slowStart = true, initialWindowBytes = INITIAL_WINDOW_BYTES }) {
	const upstream = typeof target === 'number' ? { host: '127.0.0.1', port: target } : target;
	const stats = { connections: 0, bytesUp: 0, bytesDown: 0 };
	const open = new Set();
	const server = net.createServer({ allowHalfOpen: true }, (client) => {
		stats.connections++;
		const firstAt = performance.now() + rttMs + connectDelayMs;
		const server = net.connect({ ...upstream, allowHalfOpen: true });
		const options = { rttMs, slowStart, initialWindowBytes };
		const lanes = [
			direction(client, server, { ...options, firstAt, counted: (n) => (stats.bytesUp += n) }),
			direction(server, client, { ...options, firstAt: 0, counted: (n) => (stats.bytesDown += n) }),
		];
		const pair = { client, server, lanes };
		open.add(pair);
		// A reset or an abort on either side ends both at once; a clean end travels through its lane.
		const destroy = () => {
			for (const lane of lanes) lane.stop();
			client.destroy();
			server.destroy();
			open.delete(pair);
		};
		client.on('error', destroy);
		server.on('error', destroy);
		client.on('close', destroy);
		server.on('close', () => {
			if (lanes[1].queue.length === 0) destroy();
			else lanes[1].push(END, lanes[1].last);
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	return {
		port: server.address().port,
		stats,
		close() {
			for (const { client, server: upstreamSocket, lanes } of open) {
				for (const lane of lanes) lane.stop();
				client.destroy();
				upstreamSocket.destroy();
			}
			open.clear();
			return new Promise((resolve) => server.close(() => resolve()));
		},
	};
}

module.exports = { startLatencyProxy, Flights, INITIAL_WINDOW_BYTES };
