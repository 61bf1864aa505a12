/**
 * Real HTTP(S) servers on 127.0.0.1 for the fault tests: each request is answered by a scripted
 * handler, and every request is recorded with the Authorization header it carried.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface SeenRequest {
	method: string;
	url: string;
	host: string | undefined;
	authorization: string | undefined;
}

export interface LocalServer {
	port: number;
	origin: string;
	/** Every request that reached the server, with the Authorization header it carried. */
	seen: SeenRequest[];
	/** Request n is answered by handlers[n] (the last one answers the rest). */
	script(...handlers: Handler[]): void;
	close(): Promise<void>;
}

const servers: LocalServer[] = [];

/**
 * `everyLoopbackAddress`: listen on every address of this machine's loopback (127.0.0.0/8, ::1 and
 * ::ffff:127.x.x.x, e.g. for every spelling of a loopback host), through one dual-stack socket that
 * drops at once any connection arriving on another address.
 */
export async function startLocalServer(options: {
	tls?: { key: string; cert: string };
	handler: Handler;
	everyLoopbackAddress?: boolean;
}): Promise<LocalServer> {
	let handlers: Handler[] = [options.handler];
	const seen: SeenRequest[] = [];
	const sockets = new Set<Socket>();
	const onRequest: http.RequestListener = (req, res) => {
		seen.push({
			method: req.method ?? '',
			url: req.url ?? '',
			host: req.headers.host,
			authorization: req.headers.authorization,
		});
		handlers[Math.min(seen.length - 1, handlers.length - 1)](req, res);
	};
	const server = options.tls ? https.createServer(options.tls, onRequest) : http.createServer(onRequest);
	server.on(options.tls ? 'secureConnection' : 'connection', (socket: Socket) => {
		if (options.everyLoopbackAddress && !/^(?:127\.|::1$|::ffff:127\.)/.test(socket.localAddress ?? '')) {
			socket.destroy();
			return;
		}
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	server.on('tlsClientError', () => {}); // the node refusing our certificate is the point of the test
	const address = options.everyLoopbackAddress ? { host: '::', ipv6Only: false } : { host: '127.0.0.1' };
	await new Promise<void>((resolve) => server.listen({ port: 0, ...address }, resolve));
	const { port } = server.address() as AddressInfo;
	const handle: LocalServer = {
		port,
		origin: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
		seen,
		script: (...next) => {
			handlers = next;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				for (const socket of sockets) socket.destroy();
				server.closeAllConnections?.();
			}),
	};
	servers.push(handle);
	return handle;
}

/** Closes every server started since the last call (afterEach). */
export async function closeLocalServers(): Promise<void> {
	await Promise.all(servers.splice(0).map((server) => server.close()));
}

/** A server answering every request with 200 and the JSON of what `answer()` gives at that moment (tests change it between polls). */
export function startJsonServer(answer: () => unknown): Promise<LocalServer> {
	return startLocalServer({
		handler: (_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(answer()));
		},
	});
}
