// TLS in front of a plain loopback server, with a certificate made for the run: what the latency
// table (tools/bench/network/) and the e2e check of a poll over a real network's costs
// (test/e2e/delivery.mjs) put between a client and the mock API. The client trusts the certificate
// as a CA through NODE_EXTRA_CA_CERTS (Node reads it only at start-up).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import tls from 'node:tls';

/** A certificate for 127.0.0.1, its own issuer, in `dir` (the client trusts it as a CA). */
export function makeCertificate(dir) {
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

/** TLS on `port`'s plain HTTP: each TLS connection one plain connection to it (keep-alive kept). Resolves with { port, close }. */
export async function tlsInFront(port, pem) {
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
