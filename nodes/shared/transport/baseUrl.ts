import { DescribedError } from '../errors/described';
import { kindOf } from '../json/json';
import { MIN_KEY_LENGTH } from '../redaction/redact';
import type { Text } from '../text/text';
import { foreign, own, text } from '../text/text';

/** The API version is the first path segment after the base address (spec, "Versioning"). */
export const API_VERSION_SEGMENT = own('v2026');

/** A base URL the node must not use; carries a user-facing fix in `description`. */
export class BaseUrlError extends DescribedError {}

/**
 * The loopback hosts, as WHATWG URL parsing writes them (`new URL(...).hostname`): it has already
 * turned every other spelling into these (`127.1`, `2130706433`, `0x7f.1`, `127.0.0.1.` and
 * `%31%32%37.0.0.1` into `127.0.0.1`; `LOCALHOST` into `localhost`; `[0:0:0:0:0:0:0:1]` into `[::1]`;
 * `[::ffff:127.0.0.1]` into `[::ffff:7f00:1]`), so one pattern of canonical forms decides for all:
 * `localhost`, 127.0.0.0/8, `::1` and 127.0.0.0/8 mapped into IPv6 (`::ffff:7fxx:xxxx`, which the
 * system connects to over IPv4 loopback). Not loopback: `localhost.` (an absolute name, looked up in
 * DNS rather than the hosts file), names under localhost, `::127.0.0.1` (IPv4-compatible, not routed
 * to loopback), `0.0.0.0` and `::`.
 */
const LOOPBACK_HOSTNAME = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\])$/;

/**
 * The one loopback rule: loopback hosts may use plain http, since that traffic never leaves the machine
 * (local tests, tunnels). `hostname` is a WHATWG URL's `hostname`; any other spelling is not loopback.
 */
export function isLoopbackHostname(hostname: string): boolean {
	return LOOPBACK_HOSTNAME.test(hostname);
}

/**
 * Turns what a user pasted into the credential into the base address the API paths hang from:
 * `https://api.example.com/`, `https://api.example.com/v2026` and `https://api.example.com` all give
 * `https://api.example.com`. Refuses anything that would send the key in clear text or is not an
 * absolute http(s) URL, before any request is made; a value that is not text (an expression giving a
 * number or an object) is named by its kind only. A quoted address is foreign text, redacted where
 * the error is rendered.
 */
export function resolveApiBaseUrl(raw: unknown): string {
	const address = credentialText(raw, BASE_URL_FIELD);
	const url = URL.canParse(address) ? new URL(address) : undefined;
	if (!url) throw notAUrl(address);
	if (url.port === '0') throw badPort('0');
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		throw new BaseUrlError(
			text`The credential's Base URL uses "${foreign(url.protocol, 40)}", not https`,
			own('Enter an https:// address, e.g. https://api.example.com'),
		);
	}
	const base = `${url.origin}${trimPath(url.pathname)}`;
	if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname)) throw plainHttpRefused(url);
	if (url.username !== '' || url.password !== '') {
		throw new BaseUrlError(
			own("The credential's Base URL contains a user name or password"),
			own('Remove the "user:password@" part: the API key field is the only secret the API needs.'),
		);
	}
	if (url.search !== '' || url.hash !== '') {
		throw new BaseUrlError(
			own("The credential's Base URL contains a query string or fragment"),
			text`Use only the base address, e.g. ${foreign(base)}`,
		);
	}
	return base;
}

/** Plain http to a host that is not loopback, named as WHATWG URL reads it: what would be connected to. */
function plainHttpRefused(url: URL): BaseUrlError {
	const message = text`Refusing to send the API key over plain http to ${foreign(url.host, 120)}`;
	const withoutDot = url.hostname.replace(/\.$/, '');
	if (url.hostname.endsWith('.') && isLoopbackHostname(withoutDot)) {
		// An absolute name ("localhost.") is looked up in DNS, not in the hosts file.
		return new BaseUrlError(
			message,
			text`With its final dot, "${foreign(url.hostname, 40)}" is looked up in DNS and may not be this machine. Remove the final dot (${foreign(withoutDot, 40)} is this machine), or use https://.`,
		);
	}
	return new BaseUrlError(
		message,
		text`The API key would travel unencrypted. Change the credential's Base URL to https://${foreign(
			`${url.host}${trimPath(url.pathname)}`,
		)} (plain http is only allowed for this machine: localhost, 127.x.x.x and [::1]).`,
	);
}

/** Drops trailing slashes and a pasted version suffix such as `/v2026` or `/v2026/services`. */
function trimPath(pathname: string): string {
	return pathname
		.replace(/\/+$/, '')
		.replace(new RegExp(`/${API_VERSION_SEGMENT}(/services)?$`, 'i'), '')
		.replace(/\/+$/, '');
}

/**
 * Why a text is not a URL, without echoing it whole: it may be the API key pasted into the wrong
 * field. Only a text that looks like an address (has a dot or a slash and no long random run) is quoted.
 */
function notAUrl(address: string): BaseUrlError {
	const port = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(address)?.[1];
	if (port !== undefined && Number(port) > 65535) return badPort(port);
	if (!/[./:]/.test(address) || /[^\s./:]{24,}/.test(address)) {
		return new BaseUrlError(
			text`The credential's Base URL is not a URL (${address.length} characters without an address in them)`,
			own(
				'It looks like something else was pasted there, perhaps the API key: check that API Key and Base URL are not swapped. Enter the full address including https://, e.g. https://api.example.com',
			),
		);
	}
	return new BaseUrlError(
		text`The credential's Base URL "${foreign(address, 120)}" is not an absolute URL`,
		own('Enter the full address including https://, e.g. https://api.example.com'),
	);
}

/** A key that looks like an address: API Key and Base URL pasted into each other's fields. */
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\/|^www\./i;

/**
 * The key as it will be sent: trimmed. An empty key, one holding an address, or one with characters an
 * HTTP header cannot carry (controls, non-ASCII) is a credential error before anything is sent; the
 * error never quotes the key.
 */
export function resolveApiKey(raw: unknown): string {
	// Never a number: a long one has lost digits already (JavaScript keeps 15 to 17).
	const key = credentialText(raw, API_KEY_FIELD);
	if (URL_LIKE.test(key)) {
		throw new ApiKeyError(
			own("The credential's API Key holds a web address, not a key"),
			own(
				'API Key and Base URL seem swapped: put the address in Base URL (e.g. https://api.example.com) and the key from the account panel in API Key.',
			),
		);
	}
	const bad = [...key].findIndex((char) => char < ' ' || char > '~');
	if (bad !== -1) {
		// One character, named by its code: never the key itself.
		const code = `U+${key.codePointAt(bad)!.toString(16).toUpperCase().padStart(4, '0')}`;
		throw new ApiKeyError(
			text`The credential's API Key contains a character a request header cannot carry (${foreign(code)} at position ${bad + 1})`,
			own(
				'API keys are plain letters, digits and punctuation. Copy the key again from the account panel of the platform and paste it without line breaks, quotes or other characters around it.',
			),
		);
	}
	// A part of a key (a paste cut short) or a placeholder; also what lets redaction leave short texts alone.
	if (key.length < MIN_KEY_LENGTH) {
		throw new ApiKeyError(
			text`The credential's API Key is too short to be an API key (${key.length} ${
				key.length === 1 ? own('character') : own('characters')
			}; at least ${MIN_KEY_LENGTH} needed)`,
			own(
				'Platform API keys are long random texts. Copy the whole key again from the account panel of the platform: part of it may be missing.',
			),
		);
	}
	return key;
}

export class ApiKeyError extends DescribedError {}

/** What a credential field's errors say: its name, and how to fill it when it is not text or is empty. */
interface CredentialField {
	error: new (message: Text, description: Text) => DescribedError;
	name: Text;
	notText: Text;
	empty: Text;
}

const API_KEY_FIELD: CredentialField = {
	error: ApiKeyError,
	name: own('API Key'),
	notText: own(
		'Paste the API key from the account panel of the platform into the credential. If the field holds an expression, make it give the key as text.',
	),
	empty: own('Open the Service Platform API credential and paste the API key generated in the account panel of the platform.'),
};

const BASE_URL_FIELD: CredentialField = {
	error: BaseUrlError,
	name: own('Base URL'),
	notText: own(
		'Enter the base address your platform gives in the credential, e.g. https://api.example.com. If the field holds an expression, make it give the address as text.',
	),
	empty: own('Open the Service Platform API credential and enter the base address your platform gives, e.g. https://api.example.com'),
};

/**
 * A credential field's text, trimmed. Not text (an expression giving a number or an object) is named
 * by its kind only, never its value (it may be the key); empty is "The credential has no ...".
 */
function credentialText(raw: unknown, field: CredentialField): string {
	if (typeof raw !== 'string' && raw !== undefined && raw !== null) {
		throw new field.error(text`The credential's ${field.name} must be text, not ${kindOf(raw)}`, field.notText);
	}
	const value = typeof raw === 'string' ? raw.trim() : '';
	if (value === '') throw new field.error(text`The credential has no ${field.name}`, field.empty);
	return value;
}

function badPort(port: string): BaseUrlError {
	return new BaseUrlError(
		text`The credential's Base URL has port ${foreign(port, 7)}, which does not exist`,
		own('A port is a number from 1 to 65535, and most APIs need none. Remove the ":port" part or correct it, e.g. https://api.example.com'),
	);
}
