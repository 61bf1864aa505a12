import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { BaseUrlError, resolveApiBaseUrl } from './baseUrl';
import type { ErrorText } from './errors';
import {
	describeHttpStatus,
	describeRedirect,
	describeRedirectLoop,
	describeTransportFailure,
	describeUnusableBody,
	redactSecret,
} from './errors';
import { isJsonObject } from './json';
import { platformMessageOf, ServiceResponseError } from './serviceRecord';

export const CREDENTIAL_TYPE = 'servicePlatformApi';
export const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_SAME_ORIGIN_REDIRECTS = 5;

export type ApiContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

interface FullResponse {
	body: unknown;
	headers: Record<string, string | string[] | undefined>;
	statusCode: number;
}

/**
 * GETs `path` (e.g. `/v2026/services`) from the credential's base URL and returns the parsed JSON.
 * Every failure becomes a NodeApiError or NodeOperationError with `itemIndex`, a message saying what
 * happened and a description saying how to fix it; none carries the API key or the raw request.
 */
export async function servicePlatformApiGet<T>(
	this: ApiContext,
	path: string,
	{
		itemIndex,
		timeoutMs = DEFAULT_TIMEOUT_MS,
		interpret,
	}: {
		itemIndex: number;
		timeoutMs?: number;
		/** Turns the parsed JSON into the result; a ServiceResponseError it throws is reported like any API error. */
		interpret: (body: unknown) => T;
	},
): Promise<T> {
	const credentials = await this.getCredentials<ICredentialDataDecryptedObject>(CREDENTIAL_TYPE, itemIndex);
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : undefined;
	const raise = (text: ErrorText, httpCode?: number): never => {
		const safe = redactSecret(text, apiKey);
		// Built from our own text, never from the transport error: that one holds the request headers.
		const error = new NodeApiError(this.getNode(), { message: safe.message, description: safe.description } as JsonObject, {
			message: safe.message,
			description: safe.description,
			httpCode: httpCode === undefined ? undefined : String(httpCode),
			itemIndex,
		});
		throw keepText(error, safe);
	};

	let baseUrl: string;
	try {
		baseUrl = resolveApiBaseUrl(credentials.baseUrl);
	} catch (error) {
		if (!(error instanceof BaseUrlError)) throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		const safe = redactSecret({ message: error.message, description: error.description }, apiKey);
		throw keepText(new NodeOperationError(this.getNode(), safe.message, { description: safe.description, itemIndex }), safe);
	}

	let url = `${baseUrl}${path}`;
	for (let redirects = 0; ; redirects++) {
		const response = await sendGet.call(this, url, timeoutMs).catch((error: unknown) =>
			raise(
				describeTransportFailure(errorCode(error), {
					host: new URL(url).host,
					timeoutMs,
					detail: errorDetail(error),
				}),
			),
		);
		const { statusCode, headers } = response;
		const text = bodyText(response.body);

		if (statusCode >= 300 && statusCode < 400 && statusCode !== 304) {
			const location = header(headers, 'location');
			const target = location ? safeUrl(location, url) : undefined;
			// The key may only go where the user pointed it: same scheme, host and port.
			if (target && target.origin === new URL(url).origin) {
				if (redirects < MAX_SAME_ORIGIN_REDIRECTS) {
					url = target.href;
					continue;
				}
				return raise(describeRedirectLoop(statusCode, url, MAX_SAME_ORIGIN_REDIRECTS), statusCode);
			}
			return raise(describeRedirect(statusCode, url, target?.href ?? location), statusCode);
		}
		if (statusCode < 200 || statusCode >= 300) {
			return raise(
				describeHttpStatus(statusCode, {
					url,
					retryAfter: header(headers, 'retry-after'),
					serverMessage: serverMessageOf(text),
				}),
				statusCode,
			);
		}
		const body = parseJsonBody(text, header(headers, 'content-type'), statusCode, raise);
		try {
			return interpret(body);
		} catch (error) {
			if (error instanceof ServiceResponseError) return raise(error, statusCode);
			throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		}
	}
}

/**
 * n8n's NodeError replaces a message that contains a Node error code anywhere, case-insensitively
 * ("EPERM" in an id or host such as "deepermind"), with a generic text. Ours is already specific.
 */
function keepText<T extends NodeApiError | NodeOperationError>(error: T, text: ErrorText): T {
	error.message = text.message;
	error.description = text.description;
	return error;
}

async function sendGet(this: ApiContext, url: string, timeoutMs: number): Promise<FullResponse> {
	const options: IHttpRequestOptions = {
		method: 'GET',
		url,
		headers: { Accept: 'application/json' },
		// Text, parsed here: the node must tell HTML, empty and broken bodies apart, and redirects and
		// statuses are handled above so the key never follows a redirect to another host.
		encoding: 'text',
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: timeoutMs,
	};
	return (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, options)) as FullResponse;
}

function parseJsonBody(
	text: string,
	contentType: string | undefined,
	status: number,
	raise: (text: ErrorText, httpCode?: number) => never,
): unknown {
	// Sized only on failure: measuring a large body costs time on every successful listing.
	const context = () => ({ contentType, length: Buffer.byteLength(text), status });
	if (!/\S/.test(text)) return raise(describeUnusableBody('empty', context()), status);
	try {
		return JSON.parse(text);
	} catch {
		const looksHtml = /html/i.test(contentType ?? '') || /^\s*</.test(text);
		return raise(describeUnusableBody(looksHtml ? 'html' : 'not-json', context()), status);
	}
}

function bodyText(body: unknown): string {
	if (typeof body === 'string') return body;
	if (body === undefined || body === null) return '';
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	return JSON.stringify(body);
}

function header(headers: FullResponse['headers'] | undefined, name: string): string | undefined {
	const value = headers?.[name] ?? headers?.[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

function safeUrl(location: string, base: string): URL | undefined {
	try {
		return new URL(location, base);
	} catch {
		return undefined;
	}
}

/** A short human message from a JSON error body, if the platform sent one. */
function serverMessageOf(text: string): string | undefined {
	if (text.length === 0 || text.length > 100_000) return undefined;
	try {
		return platformMessageOf(JSON.parse(text));
	} catch {
		return undefined;
	}
}

/** n8n wraps transport errors (NodeApiError -> axios error -> system error); the first `code` found wins. */
function errorCode(error: unknown): string | undefined {
	for (let current = error, depth = 0; isPlainObjectOrError(current) && depth < 5; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && code !== '') return code;
		current = (current as { cause?: unknown }).cause;
	}
	const message = error instanceof Error ? error.message : '';
	return /timeout/i.test(message) ? 'ETIMEDOUT' : undefined;
}

function errorDetail(error: unknown): string | undefined {
	let innermost: unknown = error;
	for (let depth = 0; depth < 5; depth++) {
		const cause = (innermost as { cause?: unknown } | undefined)?.cause;
		if (!isPlainObjectOrError(cause)) break;
		innermost = cause;
	}
	// Only the message of a Node or axios error: it names the failure, never the request headers.
	return innermost instanceof Error ? innermost.message.slice(0, 200) : undefined;
}

function isPlainObjectOrError(value: unknown): boolean {
	return value instanceof Error || isJsonObject(value);
}
