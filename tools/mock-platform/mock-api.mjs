#!/usr/bin/env node
// `npm run mock-api`: run the mock platform API on its own (for the editor, curl, or another process).
import { parseArgs } from 'node:util';
import { startMockApi, SHAPES, FAULT_KINDS, NEXT_FORMS, normalizeFault } from './mock.mjs';

const USAGE = `Usage: npm run mock-api -- [options]

Runs a mock of the service platform API on 127.0.0.1 until Ctrl-C.

Options:
  -p, --port <n>          Port (default: $MOCK_API_PORT, else a free port)
  -k, --key <key>         API key to accept (default: $MOCK_API_KEY, else a random "mock-..." key)
  -n, --count <n>         Number of generated services (default 36)
      --seed <seed>       Seed of the generated data (default 1; same seed, same data)
      --shape <shape>     Listing shape: ${SHAPES.join(', ')} (default array)
      --envelope-key <k>  Property name for --shape envelope, and of the records in pages (default data)
      --page-size <n>     Answer in pages of n records (?page=1, 2, ...; default: one answer)
      --next-form <f>     Where a page says where the next one is: ${NEXT_FORMS.join(', ')}
                          (default next; link-header: Link: <url>; rel="next", body in --shape)
      --next-url <u>      absolute (default) or relative next-page URLs
      --fault <fault>     Misbehave: status:<code> (or just <code>), ${FAULT_KINDS.filter((k) => !['status', 'redirect', 'raw'].includes(k)).join(', ')}
      --retry-after <s>   Retry-After header for --fault status:<code> (e.g. 429)
      --fault-times <n>   The fault answers n authorised listings, then the mock answers normally
      --fault-page <n>    The fault answers only requests for page n (with --page-size)
      --delay <ms>        Delay every API answer
      --json              Print one JSON line {url, apiKey, port, servicesUrl} instead of the banner
  -q, --quiet             Do not log requests
  -h, --help              Show this help

Change the running mock without restarting (no key needed):
  curl -s -X POST <url>/__mock/config -d '{"fault":{"status":503}}'     (fault null clears)
  curl -s -X POST <url>/__mock/config -d '{"fault":{"status":429,"retryAfter":1,"times":2}}'
  curl -s -X POST <url>/__mock/config -d '{"pageSize":25,"nextForm":"meta.next","nextUrl":"relative"}'
  (config keys: shape, envelopeKey, fault, delayMs, pageSize, nextForm, nextUrl)
  curl -s -X PATCH <url>/__mock/services/<id> -d '{"values":{"values":{"status":"suspended"}}}'
  curl -s -X POST <url>/__mock/reset
  Also: GET /__mock/config, GET|PUT|POST /__mock/services, DELETE /__mock/services/<id>,
        POST /__mock/generate {"count":1000,"seed":7}, GET|DELETE /__mock/requests

Examples:
  npm run mock-api -- --port 8787 --key my-test-key
  npm run mock-api -- --shape envelope --envelope-key services
  npm run mock-api -- --fault status:429 --retry-after 30
  npm run mock-api -- --fault status:503 --retry-after 1 --fault-times 2   (fails twice, then succeeds)
  npm run mock-api -- --count 250 --page-size 100 --next-form link-header --next-url relative
  npm run mock-api -- --fault html`;

function fail(message) {
	process.stderr.write(`mock-api: ${message}\n\n${USAGE}\n`);
	process.exit(2);
}

function integer(name, value, min, max) {
	if (value === undefined || value === '') return undefined;
	const n = Number(value);
	if (!Number.isInteger(n) || n < min || n > max) fail(`${name} must be an integer from ${min} to ${max}, got "${value}"`);
	return n;
}

let args;
try {
	({ values: args } = parseArgs({
		options: {
			port: { type: 'string', short: 'p' },
			key: { type: 'string', short: 'k' },
			count: { type: 'string', short: 'n' },
			seed: { type: 'string' },
			shape: { type: 'string' },
			'envelope-key': { type: 'string' },
			fault: { type: 'string' },
			'retry-after': { type: 'string' },
			'fault-times': { type: 'string' },
			'fault-page': { type: 'string' },
			'page-size': { type: 'string' },
			'next-form': { type: 'string' },
			'next-url': { type: 'string' },
			delay: { type: 'string' },
			json: { type: 'boolean', default: false },
			quiet: { type: 'boolean', short: 'q', default: false },
			help: { type: 'boolean', short: 'h', default: false },
		},
		strict: true,
		allowPositionals: false,
	}));
} catch (err) {
	fail(err.message);
}
if (args.help) {
	process.stdout.write(USAGE + '\n');
	process.exit(0);
}

const options = {
	port: integer('--port', args.port ?? process.env.MOCK_API_PORT, 0, 65535) ?? 0,
	apiKey: args.key ?? (process.env.MOCK_API_KEY || undefined),
	count: integer('--count', args.count, 0, 10_000_000) ?? 36,
	seed: args.seed ?? 1,
	delayMs: integer('--delay', args.delay, 0, 3_600_000) ?? 0,
	pageSize: integer('--page-size', args['page-size'], 1, 10_000_000) ?? 0,
};
if (args['next-form'] !== undefined) {
	if (!NEXT_FORMS.includes(args['next-form'])) fail(`--next-form must be one of ${NEXT_FORMS.join(', ')}`);
	options.nextForm = args['next-form'];
}
if (args['next-url'] !== undefined) {
	if (!['absolute', 'relative'].includes(args['next-url'])) fail('--next-url must be absolute or relative');
	options.nextUrl = args['next-url'];
}
if (options.apiKey !== undefined && !/^\S+$/.test(options.apiKey)) fail('--key must not be empty or contain spaces');
if (args.shape !== undefined) {
	if (!SHAPES.includes(args.shape)) fail(`--shape must be one of ${SHAPES.join(', ')}`);
	options.shape = args.shape;
}
if (args['envelope-key'] !== undefined) options.envelopeKey = args['envelope-key'];
if (args.fault !== undefined) {
	try {
		options.fault = normalizeFault(args.fault);
	} catch (err) {
		fail(`--fault: ${err.message}`);
	}
	if (args['retry-after'] !== undefined) {
		if (options.fault?.kind !== 'status') fail('--retry-after needs --fault status:<code>');
		options.fault.retryAfter = args['retry-after'];
	}
	const times = integer('--fault-times', args['fault-times'], 1, 1_000_000);
	if (times !== undefined) options.fault = { ...options.fault, times };
	const page = integer('--fault-page', args['fault-page'], 1, 1_000_000);
	if (page !== undefined) options.fault = { ...options.fault, page };
} else {
	for (const flag of ['retry-after', 'fault-times', 'fault-page']) {
		if (args[flag] !== undefined) fail(`--${flag} needs --fault`);
	}
}

let mock;
try {
	mock = await startMockApi(options);
} catch (err) {
	const why = err.code === 'EADDRINUSE' ? `port ${options.port} is already in use (try --port 0 for a free one)` : err.message;
	process.stderr.write(`mock-api: cannot start: ${why}\n`);
	process.exit(1);
}

if (!args.quiet) {
	mock.server.on('request', (req, res) => {
		if (req.url.startsWith('/__mock/')) return;
		const started = Date.now();
		const log = (outcome) => {
			const auth = req.headers.authorization === undefined ? 'no key' : 'key sent';
			process.stderr.write(`${new Date().toISOString()} ${req.method} ${req.url} -> ${outcome} (${auth}, ${Date.now() - started} ms)\n`);
		};
		res.on('finish', () => log(res.statusCode));
		res.on('close', () => {
			if (!res.writableFinished) log('connection closed without a complete answer');
		});
	});
}

if (args.json) {
	process.stdout.write(JSON.stringify({ url: mock.url, apiKey: mock.apiKey, port: mock.port, servicesUrl: mock.servicesUrl }) + '\n');
} else {
	const config = mock.getConfig();
	const fault = config.fault ? JSON.stringify(config.fault) : 'none';
	const shape = config.shape === 'envelope' ? `envelope (key "${config.envelopeKey}")` : config.shape;
	process.stdout.write(
		[
			'Mock service platform API (listening on 127.0.0.1 only)',
			'',
			`  Base URL : ${mock.url}`,
			`  API key  : ${mock.apiKey}`,
			`  Data     : ${options.count} services, seed ${options.seed}, shape ${shape}, fault ${fault}` +
				(config.delayMs ? `, delay ${config.delayMs} ms` : '') +
				(config.pageSize ? `, pages of ${config.pageSize} (next page: ${config.nextForm}, ${config.nextUrl} URL)` : ''),
			'',
			'Try it:',
			`  curl -s -H "Authorization: Bearer ${mock.apiKey}" ${mock.servicesUrl}`,
			'',
			'In n8n, create a "Service Platform API" credential with the Base URL and API key above.',
			`Admin (no key): ${mock.url}/__mock/config, /__mock/services, /__mock/requests (see --help)`,
			'Press Ctrl-C to stop.',
			'',
		].join('\n'),
	);
}

let stopping = false;
async function stop(signal) {
	if (stopping) process.exit(130); // a second Ctrl-C: do not wait any longer
	stopping = true;
	if (!args.json) process.stderr.write(`\n${signal}: stopping the mock API...\n`);
	await mock.close();
	process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
