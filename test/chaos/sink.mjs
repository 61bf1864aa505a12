// The chaos test's sink: a loopback HTTP server the workflow's HTTP Request node posts each event to.
// Every body is appended to a file and fsync'd before anything else happens, so the record survives
// whatever n8n does; then the answer is held for a while (hundreds of ms), so executions spend time
// running and n8n can be killed while the sink holds a request. Stopped on clean-up.

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { onCleanup } from '../../tools/lib/cleanup.mjs';

const MAX_BODY = 1024 * 1024;

/**
 * @param {{ dir: string, holdMs?: [number, number], random?: () => number }} o
 * Returns { url, file, received, inFlight, lastAt, onRequest(fn) -> off, events(), close() }.
 * onRequest(fn): fn({ execution, body }) for each request as it arrives (after the fsync).
 */
export async function startSink({ dir, holdMs = [300, 700], random = Math.random }) {
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, 'sink.jsonl');
	const fd = fs.openSync(file, 'a');
	const listeners = new Set();
	const held = new Set();
	const stats = { received: 0, inFlight: 0, lastAt: 0 };
	const server = http.createServer((req, res) => {
		if (req.method !== 'POST') {
			res.writeHead(405).end();
			return;
		}
		const chunks = [];
		let size = 0;
		req.on('data', (c) => {
			size += c.length;
			if (size <= MAX_BODY) chunks.push(c);
		});
		req.on('end', () => {
			let body;
			try {
				body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
			} catch {
				body = { unreadable: Buffer.concat(chunks).toString('utf8').slice(0, 2000) };
			}
			const execution = String(req.headers['x-execution-id'] ?? '');
			fs.writeSync(fd, `${JSON.stringify({ at: Date.now(), execution, body })}\n`);
			fs.fsyncSync(fd);
			stats.received++;
			stats.inFlight++;
			stats.lastAt = Date.now();
			for (const fn of listeners) fn({ execution, body });
			const ms = holdMs[0] + random() * (holdMs[1] - holdMs[0]);
			const timer = setTimeout(() => {
				held.delete(timer);
				stats.inFlight--;
				stats.lastAt = Date.now();
				if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
			}, ms);
			held.add(timer);
		});
	});
	server.on('clientError', (_e, socket) => socket.destroy());
	// A killed n8n leaves its sockets half-open: a held answer then writes into nothing, which is fine.
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen({ host: '127.0.0.1', port: 0 }, resolve);
	});
	const url = `http://127.0.0.1:${server.address().port}/events`;
	let closed = false;
	const close = async () => {
		if (closed) return;
		closed = true;
		for (const t of held) clearTimeout(t);
		server.closeAllConnections();
		await new Promise((r) => server.close(r));
		fs.closeSync(fd);
	};
	const unregister = onCleanup('chaos sink', close);
	return {
		url,
		file,
		get received() {
			return stats.received;
		},
		get inFlight() {
			return stats.inFlight;
		},
		get lastAt() {
			return stats.lastAt;
		},
		onRequest(fn) {
			listeners.add(fn);
			return () => listeners.delete(fn);
		},
		/** Every record in arrival order: { at, execution, body }. */
		records() {
			return readRecords(file);
		},
		async close() {
			unregister();
			await close();
		},
	};
}

/** The sink file's records; a torn last line (cannot happen with fsync per line, but the file is input) is skipped. */
export function readRecords(file) {
	return fs
		.readFileSync(file, 'utf8')
		.split('\n')
		.filter(Boolean)
		.flatMap((line) => {
			try {
				return [JSON.parse(line)];
			} catch {
				return [];
			}
		});
}
