// ESM entry of the embedded mock platform API (tools/mock-platform/). The implementation is
// CommonJS because the project's ts-jest runs tests as CommonJS, where importing an .mjs file fails.
import { onCleanup } from '../lib/cleanup.mjs';
import mockApi from './server.cjs';

export const { startMockApi, generateServices, normalizeFault, SHAPES, FAULT_KINDS, NEXT_FORMS } = mockApi;

/**
 * The API a tool talks to: a real platform when SERVICE_PLATFORM_BASE_URL and
 * SERVICE_PLATFORM_API_KEY are set, else the embedded mock (stopped on clean-up).
 * Returns { baseUrl, apiKey, mock } where mock is the mock's handle or null.
 */
export async function platformOrMock(mockOptions = {}) {
	const baseUrl = process.env.SERVICE_PLATFORM_BASE_URL;
	const apiKey = process.env.SERVICE_PLATFORM_API_KEY;
	if (baseUrl || apiKey) {
		if (!baseUrl || !apiKey)
			throw new Error('set both SERVICE_PLATFORM_BASE_URL and SERVICE_PLATFORM_API_KEY (or neither, to use the mock)');
		return { baseUrl, apiKey, mock: null };
	}
	const mock = await startMockApi(mockOptions);
	onCleanup('mock API', () => mock.close());
	return { baseUrl: mock.url, apiKey: mock.apiKey, mock };
}
