/**
 * Bounds on a whole listing, not just a page (#17), against real servers on 127.0.0.1 that never
 * stop paging: Max Response Size counts the bytes of all pages together (so do the records built
 * from them), and the retries of all pages share one budget. List, Get and the Services Trigger read
 * the listing through the same session and so stop at the same bounds.
 *
 * The memory figures come from a child process of their own (test/harness/measuredRunChild.cjs), printed
 * for the README; the bounds asserted are generous (the machine is shared).
 */
import { own } from '../../nodes/shared/text/text';
import { shownText } from '../harness/text';
import type { INodeParameters } from 'n8n-workflow';

import { describeRetryBudgetSpent } from '../../nodes/shared/transport/httpErrors';
import { MAX_RETRIES, MAX_SESSION_RETRIES } from '../../nodes/shared/transport/retry';
import { describeBodyTooLarge } from '../../nodes/shared/transport/transportErrors';
import { startEndlessPages, startRateLimitedPages } from '../harness/hostilePages';
import type { LocalServer } from '../harness/localServer';
import { closeLocalServers } from '../harness/localServer';
import { measuredRun } from '../harness/measuredRun';
import { ActivePoller } from '../harness/poll';
import { runNode, servicesNode, servicesTriggerNode } from '../harness/workflow';

const KEY = 'sk-live-LISTING-7c1f93a0b2d84e65';
const MB = 1024 * 1024;
const PAGE_BYTES = 10 * MB;

afterEach(closeLocalServers);

const credentials = (server: LocalServer) => ({ apiKey: KEY, baseUrl: server.origin });
const list = (server: LocalServer, parameters: INodeParameters = {}) =>
	runNode({ node: servicesNode({ returnAll: true, ...parameters }), credentials: credentials(server) });
const getMissing = (server: LocalServer, parameters: INodeParameters = {}) =>
	runNode({
		node: servicesNode({ operation: 'get', serviceId: { __rl: true, mode: 'id', value: 'srv-missing' }, ...parameters }),
		credentials: credentials(server),
	});
async function poll(server: LocalServer, options: INodeParameters = {}) {
	const node = servicesTriggerNode({ events: ['created'], options });
	const tick = await new ActivePoller(node, credentials(server)).tick();
	const error = tick.error as (Error & { description?: string; context?: { itemIndex?: number } }) | undefined;
	return { error, serialized: JSON.stringify({ message: error?.message, description: error?.description, emitted: tick.emitted }) };
}

const sizeError = (cap: string) => `The listing is larger than the Max Response Size of ${cap} (all pages together)`;
const retryError = `The platform kept answering HTTP 429: the node used up its ${MAX_SESSION_RETRIES} retries for one listing`;

describe('Max Response Size bounds the whole listing', () => {
	test('endless 10 MB pages at the default 64 MB: the run ends quickly with the size error; memory stays near the cap', async () => {
		const server = await startEndlessPages(PAGE_BYTES);
		const run = await measuredRun({ returnAll: true }, credentials(server));
		console.info(
			`endless 10 MB pages, Max Response Size 64 MB (default), List: stopped after ${run.elapsedMs} ms and ${server.seen.length} requests; ` +
				`peak RSS growth ${run.rssPeakGrowthMb} MB, peak heap growth ${run.heapPeakGrowthMb} MB (child process, RSS before ${run.rssBeforeMb} MB)`,
		);
		expect(run.error).toMatchObject({ name: 'NodeApiError', message: sizeError('64 MB'), itemIndex: 0 });
		expect(run.error?.description).toMatch(
			/^The node read 6 page\(s\) whole \(60(\.\d)? MB\) and stopped partway through page 7, when the listing \(to list services\) reached 64 MB/,
		);
		expect(run.error?.description).toMatch(/raise "Max Response Size" under Options \(it counts all pages of a listing together\)/);
		expect(server.seen).toHaveLength(7);
		expect(run.serialized).not.toContain(KEY);
		// Without the bound: 10 MB more every page until the 30 s Timeout (the error above is not the
		// Timeout's). Time is printed, not asserted (a shared machine); the memory bound is generous.
		expect(run.rssPeakGrowthMb).toBeLessThan(64 * 6);
	}, 60_000);

	test('a smaller cap bounds memory in proportion (16 MB: page 1 whole, page 2 cut off)', async () => {
		const server = await startEndlessPages(PAGE_BYTES);
		const run = await measuredRun({ returnAll: true, options: { maxResponseSize: 16 } }, credentials(server));
		console.info(
			`endless 10 MB pages, Max Response Size 16 MB, List: stopped after ${run.elapsedMs} ms and ${server.seen.length} requests; ` +
				`peak RSS growth ${run.rssPeakGrowthMb} MB, peak heap growth ${run.heapPeakGrowthMb} MB`,
		);
		expect(run.error?.message).toBe(sizeError('16 MB'));
		expect(run.error?.description).toMatch(/^The node read 1 page\(s\) whole \(10(\.\d)? MB\) and stopped partway through page 2/);
		expect(server.seen).toHaveLength(2);
		expect(run.rssPeakGrowthMb).toBeLessThan(16 * 6);
	}, 60_000);

	test('Get, looking for an id that is on no page, stops at the same bound', async () => {
		const server = await startEndlessPages(PAGE_BYTES);
		const result = await getMissing(server, { options: { maxResponseSize: 16 } });
		expect(result.error).toMatchObject({ name: 'NodeApiError', message: sizeError('16 MB'), context: { itemIndex: 0 } });
		expect(server.seen).toHaveLength(2);
		expect(result.serialized).not.toContain(KEY);
	}, 30_000);

	test('the Services Trigger stops at the same bound and fails the poll', async () => {
		const server = await startEndlessPages(PAGE_BYTES);
		const { error, serialized } = await poll(server, { maxResponseSize: 16 });
		expect(error?.message).toBe(sizeError('16 MB'));
		expect(error?.description).toMatch(/stopped partway through page 2/);
		expect(server.seen).toHaveLength(2);
		expect(serialized).not.toContain(KEY);
	}, 30_000);

	test('a listing whose pages together fit is read whole (the cap is not per page times pages)', async () => {
		const server = await startEndlessPages(MB);
		// Page 3 would pass the cap of 2.5 MB: 2 pages whole, the third cut off.
		const result = await list(server, { options: { maxResponseSize: 2.5 } });
		expect(result.error?.message).toBe(sizeError('2.5 MB'));
		expect(result.error?.description).toMatch(/^The node read 2 page\(s\) whole \(2(\.\d)? MB\) and stopped partway through page 3/);
		expect(server.seen).toHaveLength(3);
	});
});

describe('retries share one budget per listing', () => {
	test(`429 once on every page after the first: the run ends after ${MAX_SESSION_RETRIES} retries in all, not retries x pages`, async () => {
		const server = await startRateLimitedPages();
		const started = Date.now();
		const result = await list(server);
		const elapsed = Date.now() - started;
		console.info(`429 once on every page after the first, List: stopped after ${elapsed} ms and ${server.seen.length} requests`);
		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '429', message: retryError, context: { itemIndex: 0 } });
		expect(result.error?.description).toMatch(
			new RegExp(
				`^While trying to list services, the node retried ${MAX_SESSION_RETRIES} times in \\d+ ms and read ${MAX_SESSION_RETRIES + 1} page\\(s\\); it retries at most ${MAX_RETRIES} times a page and ${MAX_SESSION_RETRIES} times a listing`,
			),
		);
		expect(result.error?.description).toMatch(
			/The platform said: "Too many requests, slow down"\. This bound is fixed: wait and run again/,
		);
		// Page 1; pages 2 to 11 twice each (429, then the records); page 12's 429 ends the run.
		expect(server.seen).toHaveLength(1 + 2 * MAX_SESSION_RETRIES + 1);
		expect(result.serialized).not.toContain(KEY);
	});

	test('a few rate-limited pages within the budget: the whole listing is returned', async () => {
		const server = await startRateLimitedPages(5);
		const result = await list(server);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(5 * 3);
		expect(server.seen).toHaveLength(1 + 2 * 4);
	});

	test('Get stops at the same retry budget', async () => {
		const server = await startRateLimitedPages();
		const result = await getMissing(server);
		expect(result.error).toMatchObject({ httpCode: '429', message: retryError, context: { itemIndex: 0 } });
		expect(server.seen).toHaveLength(1 + 2 * MAX_SESSION_RETRIES + 1);
	});

	test('the Services Trigger stops at the same retry budget', async () => {
		const server = await startRateLimitedPages();
		const { error, serialized } = await poll(server);
		expect(error?.message).toBe(retryError);
		expect(server.seen).toHaveLength(1 + 2 * MAX_SESSION_RETRIES + 1);
		expect(serialized).not.toContain(KEY);
	});
});

describe('texts', () => {
	test('the size error names the answer when the first page is too large, the listing when later pages are', () => {
		const first = shownText(describeBodyTooLarge({ maxBytes: 8 * MB, action: own('list services'), bytesRead: 0, pagesRead: 0 }));
		expect(first.message).toBe('The answer is larger than the Max Response Size of 8 MB');
		const later = shownText(describeBodyTooLarge({ maxBytes: 8 * MB, action: own('list services'), bytesRead: 6.5 * MB, pagesRead: 13 }));
		expect(later).toEqual({
			message: 'The listing is larger than the Max Response Size of 8 MB (all pages together)',
			description: expect.stringMatching(
				/^The node read 13 page\(s\) whole \(6\.5 MB\) and stopped partway through page 14, when the listing \(to list services\) reached 8 MB/,
			),
		});
		expect(later.description).toMatch(/raise "Max Response Size" under Options/);
	});

	test('the retry-budget error says how many retries, how long, how many pages, and quotes the platform only when it spoke', () => {
		const context = {
			status: 503,
			retries: 10,
			maxPerRequest: 3,
			maxPerListing: 10,
			pagesRead: 4,
			elapsedMs: 12_500,
			action: own('list services'),
		};
		const silent = shownText(describeRetryBudgetSpent(context));
		expect(silent.message).toBe('The platform kept answering HTTP 503: the node used up its 10 retries for one listing');
		expect(silent.description).toMatch(
			/^While trying to list services, the node retried 10 times in 12\.5 s and read 4 page\(s\); it retries at most 3 times a page and 10 times a listing/,
		);
		expect(silent.description).not.toContain('The platform said');
		expect(shownText(describeRetryBudgetSpent({ ...context, serverMessage: 'maintenance' })).description).toContain(
			'The platform said: "maintenance".',
		);
	});
});
