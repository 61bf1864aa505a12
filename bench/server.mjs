// Child process of bench/run.mjs: the mock platform API on 127.0.0.1, in its own process so the
// measured process does only client work (the 2-core machine gives each process a core).
// Prints one JSON line { url, smallUrl, apiKey } and runs until stdin closes or it is killed.
//  - `url`: the benchmark listing; its size is set with POST <url>/__mock/generate {count, seed}.
//  - `smallUrl`: a 20-record listing with the same key, for warming up code paths cheaply.
import { randomBytes } from 'node:crypto';

import { startMockApi } from '../scripts/lib/mock.mjs';

const apiKey = `bench-${randomBytes(12).toString('hex')}`;
const main = await startMockApi({ apiKey, count: 1, seed: 1, maxRequests: 10 });
const small = await startMockApi({ apiKey, count: 20, seed: 2, maxRequests: 10 });

process.stdout.write(`${JSON.stringify({ url: main.url, smallUrl: small.url, apiKey })}\n`);

const stop = async () => {
	await Promise.all([main.close(), small.close()]);
	process.exit(0);
};
process.stdin.on('end', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
