// Child process of tools/bench/bench.mjs: the mock platform API on 127.0.0.1, in its own process so the
// measured process does only client work (the 2-core machine gives each process a core).
// Prints one JSON line and runs until stdin closes or it is killed. One mock per listing kind, each
// with a 20-record twin (`small`) for warming up code paths cheaply; all accept the same key:
//  - main:     the listing as one JSON array (the documented shape);
//  - paged:    the same records in pages (of argv[2] records, default 1,000; `next` link in the envelope);
//  - envelope: the same records as {"data": [...]}, for the peer (HTTP Request + Split Out on data).
// Sizes are set with POST <url>/__mock/generate {count, seed} on each.
import { randomBytes } from 'node:crypto';

import { startMockApi } from '../mock-platform/mock.mjs';

const PAGE_SIZE = Number(process.argv[2] ?? 1000);
const KINDS = {
	main: {},
	paged: { pageSize: PAGE_SIZE, nextForm: 'next' },
	envelope: { shape: 'envelope', envelopeKey: 'data' },
};

const apiKey = `bench-${randomBytes(12).toString('hex')}`;
const mocks = [];
const urls = {};
const smallUrls = {};
for (const [kind, config] of Object.entries(KINDS)) {
	const big = await startMockApi({ apiKey, count: 1, seed: 1, maxRequests: 10, ...config });
	// The small twin pages too (8 per page), so warming up runs the paging path.
	const small = await startMockApi({ apiKey, count: 20, seed: 2, maxRequests: 10, ...config, ...(config.pageSize && { pageSize: 8 }) });
	mocks.push(big, small);
	urls[kind] = big.url;
	smallUrls[kind] = small.url;
}

process.stdout.write(`${JSON.stringify({ url: urls.main, smallUrl: smallUrls.main, urls, smallUrls, apiKey })}\n`);

const stop = async () => {
	await Promise.all(mocks.map((m) => m.close()));
	process.exit(0);
};
process.stdin.on('end', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
