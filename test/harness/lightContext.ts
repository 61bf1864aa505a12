/**
 * A light execution context for the listing walk alone (the read-ahead property's many listings):
 * what openApiSession uses of n8n's, with `httpRequestWithAuthentication` as a plain GET over a new
 * connection (as n8n's helper opens one per request) that answers with the body as a stream, as the
 * helper does for `encoding: 'stream'`. The walk, the transport and the errors are the package's own;
 * the property's share through n8n's real engine checks the rest (items, pairedItem).
 */
import http from 'node:http';

import type { IHttpRequestOptions, INode } from 'n8n-workflow';

import type { ApiContext } from '../../nodes/shared/transport/types';

export interface LightContext {
	context: ApiContext;
	/** Requests sent (every read, retry and redirect), counted as they leave. */
	sent: () => number;
	/** The debug lines logged. */
	debug: string[];
}

const NODE: INode = {
	id: 'services-node',
	name: 'Services',
	type: 'n8n-nodes-service-platform.services',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

export function lightContext(apiKey: string): LightContext {
	let sent = 0;
	const debug: string[] = [];
	const httpRequestWithAuthentication = (_type: string, options: IHttpRequestOptions) => {
		sent++;
		return new Promise((resolve, reject) => {
			const headers = { ...(options.headers as Record<string, string>), authorization: `Bearer ${apiKey}` };
			const request = http.request(
				options.url,
				{ method: 'GET', headers, agent: false, signal: options.abortSignal as AbortSignal | undefined },
				(response) => resolve({ body: response, headers: response.headers, statusCode: response.statusCode }),
			);
			request.on('error', reject);
			request.end();
		});
	};
	const context = {
		getNode: () => NODE,
		getCredentials: async () => ({ apiKey }),
		helpers: { httpRequestWithAuthentication },
		logger: { debug: (message: string) => debug.push(message), warn: () => undefined, info: () => undefined, error: () => undefined },
	};
	return { context: context as unknown as ApiContext, sent: () => sent, debug };
}
