import type { ICredentialDataDecryptedObject, IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { DescribedError } from '../errors/described';
import { makeRedactor } from '../redaction/redact';
import type { Text } from '../text/text';
import { DESCRIPTION_MAX, foreign, MESSAGE_MAX, own, render, text } from '../text/text';
import { resolveApiBaseUrl, resolveApiKey } from '../transport/baseUrl';

/**
 * The credential's `authenticate`: n8n calls it for every request made with the credential (the
 * Services node and its trigger, the credential's Test, HTTP Request with "Predefined Credential
 * Type" and each of its pagination pages), so the key's rules live here once. The credential must
 * hold what the node accepts (baseUrl.ts: the key, the Base URL and its loopback rule); the key goes
 * only to the Base URL's origin, never along a redirect to another origin; whatever of the request's
 * address cannot be read is refused, never sent with the key. What is sent is the one absolute URL
 * checked here.
 */

/**
 * The three shapes n8n's callers hand over: the Test's `{ url: '/v2026/services', baseURL: <the Base
 * URL as typed> }`, HTTP Request's request-style options with `uri` (both n8n lines send `url` when
 * both are set), and the Services node's absolute `url`.
 */
type CallerOptions = IHttpRequestOptions & { uri?: unknown };

/**
 * Thrown instead of sending: the message says what happened and how to fix it in one text, because
 * the credential Test's dialog shows only an error's message. Rendered (the key redacted) here.
 */
export class KeyNotSentError extends Error {
	constructor(error: DescribedError, redact: (text: string) => string) {
		super(`${render(error.text.message, redact, MESSAGE_MAX)}. ${render(error.text.description, redact, DESCRIPTION_MAX)}`);
		this.name = 'KeyNotSentError';
	}
}

export async function authenticateRequest(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const checked = checkRequest(credentials, requestOptions as CallerOptions);
	if (checked instanceof DescribedError) throw new KeyNotSentError(checked, makeRedactor(credentials.apiKey));
	return checked;
}

/** The options to send, or why not: a refusal, or anything else that went wrong, which is never sent either. */
function checkRequest(credentials: ICredentialDataDecryptedObject, options: CallerOptions): CallerOptions | DescribedError {
	try {
		return keyedRequest(credentials, options);
	} catch (error) {
		return error instanceof DescribedError ? error : notChecked(error);
	}
}

function keyedRequest(credentials: ICredentialDataDecryptedObject, options: CallerOptions): CallerOptions {
	const key = resolveApiKey(credentials.apiKey);
	const base = resolveApiBaseUrl(credentials.baseUrl);
	const target = requestTarget(options, credentials.baseUrl, base);
	if (target.origin !== new URL(base).origin) throw otherOrigin(target, base);
	const sent: CallerOptions = {
		...options,
		url: target.href,
		headers: { ...withoutAuthorization(options.headers), Authorization: `Bearer ${key}` },
		// n8n's default forwards the header along a redirect to another origin (HTTP Request before 4.4).
		sendCredentialsOnCrossOriginRedirect: false,
	};
	delete sent.baseURL;
	if (options.uri !== undefined) sent.uri = target.href;
	return sent;
}

/** axios's test for an absolute URL: a scheme and `//`, or `//` alone. */
const ABSOLUTE = /^([a-z][a-z\d+\-.]*:)?\/\//i;

/** The absolute URL the request goes to, as axios would build it from `url` (or `uri`) and `baseURL`. */
function requestTarget(options: CallerOptions, typedBaseUrl: unknown, base: string): URL {
	const address = options.url ?? options.uri;
	if (typeof address !== 'string') throw unreadable(own('it has no address as text'), base);
	let full = address;
	if (options.baseURL !== undefined && !ABSOLUTE.test(address)) {
		if (typeof options.baseURL !== 'string') throw unreadable(own('its base address is not text'), base);
		// The Test's request hangs from the Base URL as typed: the node's reading of it (trimmed, the
		// /v2026 suffix dropped) replaces it, so the Test asks exactly what the node would.
		const prefix = options.baseURL === typedBaseUrl ? base : options.baseURL;
		full = address === '' ? prefix : `${prefix.replace(/\/?\/$/, '')}/${address.replace(/^\/+/, '')}`;
	}
	if (!URL.canParse(full)) throw unreadable(text`${foreign(full, 120)} is not an absolute URL`, base);
	return new URL(full);
}

function withoutAuthorization(headers: IDataObject | undefined): IDataObject {
	return Object.fromEntries(Object.entries(headers ?? {}).filter(([name]) => name.toLowerCase() !== 'authorization'));
}

function otherOrigin(target: URL, base: string): DescribedError {
	return new DescribedError(
		text`Not sending the Service Platform API key to ${foreign(target.origin, 120)}`,
		text`The credential sends its key only to its Base URL's address, ${foreign(new URL(base).origin)}. To call the platform, use a URL starting with ${foreign(base)}; for another service, use a credential of that service.`,
	);
}

function unreadable(why: Text, base: string): DescribedError {
	return new DescribedError(
		text`Not sending the Service Platform API key: the request's address cannot be read (${why})`,
		text`Enter a full URL starting with the credential's Base URL, e.g. ${foreign(base)}/v2026/services`,
	);
}

function notChecked(error: unknown): DescribedError {
	return new DescribedError(
		text`Not sending the Service Platform API key: the request could not be checked (${foreign(error instanceof Error ? error.message : String(error), 120)})`,
		own(
			"Nothing was sent. Check that the request's URL starts with the credential's Base URL; if it does, report this to the node's maintainers.",
		),
	);
}
