import { DescribedError } from './errors';
import { clip } from './json';

/** The API version is the first path segment after the base address (spec, "Versioning"). */
export const API_VERSION_SEGMENT = 'v2026';

/** A base URL the node must not use; carries a user-facing fix in `description`. */
export class BaseUrlError extends DescribedError {}

const LOOPBACK_HOSTNAME = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Loopback hosts may use plain http: traffic never leaves the machine (local tests, tunnels). */
export function isLoopbackHostname(hostname: string): boolean {
	return LOOPBACK_HOSTNAME.test(hostname);
}

/**
 * Turns what a user pasted into the credential into the base address the API paths hang from:
 * `https://api.example.com/`, `https://api.example.com/v2026` and `https://api.example.com` all give
 * `https://api.example.com`. Refuses anything that would send the key in clear text or is not an
 * absolute http(s) URL, before any request is made.
 */
export function resolveApiBaseUrl(raw: unknown): string {
	const text = typeof raw === 'string' ? raw.trim() : '';
	if (text === '') {
		throw new BaseUrlError(
			'The credential has no Base URL',
			'Open the Service Platform API credential and enter the base address your platform gives, e.g. https://api.example.com',
		);
	}
	const url = URL.canParse(text) ? new URL(text) : undefined;
	if (!url) {
		throw new BaseUrlError(
			`The credential's Base URL "${clip(text)}" is not an absolute URL`,
			'Enter the full address including https://, e.g. https://api.example.com',
		);
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		throw new BaseUrlError(
			`The credential's Base URL uses "${url.protocol}", not https`,
			'Enter an https:// address, e.g. https://api.example.com',
		);
	}
	if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname)) {
		throw new BaseUrlError(
			`Refusing to send the API key over plain http to ${url.host}`,
			'The API key would travel unencrypted. Change the credential\'s Base URL to https://' +
				`${url.host}${trimPath(url.pathname)} (plain http is only allowed for localhost and 127.0.0.1).`,
		);
	}
	if (url.username !== '' || url.password !== '') {
		throw new BaseUrlError(
			"The credential's Base URL contains a user name or password",
			'Remove the "user:password@" part: the API key field is the only secret the API needs.',
		);
	}
	if (url.search !== '' || url.hash !== '') {
		throw new BaseUrlError(
			"The credential's Base URL contains a query string or fragment",
			`Use only the base address, e.g. ${url.origin}${trimPath(url.pathname)}`,
		);
	}
	return `${url.origin}${trimPath(url.pathname)}`;
}

/** Drops trailing slashes and a pasted version suffix such as `/v2026` or `/v2026/services`. */
function trimPath(pathname: string): string {
	return pathname
		.replace(/\/+$/, '')
		.replace(new RegExp(`/${API_VERSION_SEGMENT}(/services)?$`, 'i'), '')
		.replace(/\/+$/, '');
}
