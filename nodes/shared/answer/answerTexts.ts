import { API_VERSION_SEGMENT } from '../transport/baseUrl';
import { ServiceResponseError } from '../record/serviceRecord';
import { describeType, isJsonObject } from '../json/json';
import type { Text } from '../text/text';
import { EXCERPT_MAX, foreign, join, own, text } from '../text/text';

/** What the answer stage says when an answer cannot be used: the node's words, the answer's parts quoted as foreign text. */

/**
 * The one endpoint the spec documents: GET {base}/v2026/services. The only place its path is written;
 * the node's own wording, also where a text quotes the URL (transport/quotedUrl.ts).
 */
export const SERVICES_PATH = text`/${API_VERSION_SEGMENT}/services`;

/** Ends the description of every answer the node cannot use. Its path is SERVICES_PATH (a test checks). */
export const PROVIDER_HINT = own(
	'The platform answered with data the node cannot use. If the platform changed its API, report it to the provider; to look at the raw answer, call GET /v2026/services with the HTTP Request node and this credential.',
);

const CLOSED_WORLD = own(
	"The node reads a listing only when it understands every part of the answer besides the records (the package's docs/paging.md lists what it knows), so that it never returns part of a listing as if it were all of it. If the platform's answers look like this, report the field to the package maintainers. ",
);

/** A field's place in the answer as the platform wrote it, quoted: `"meta.pagination.total"`, `"links[1]"`. */
export const fieldText = (path: string): Text => text`"${foreign(path, 120)}"`;

/** A value of the answer as JSON writes it (`"true"`, `1`, `{}`). */
export const quoted = (value: unknown): Text => foreign(JSON.stringify(value) ?? String(value), 40);

export function unknownPagingField(where: Text): ServiceResponseError {
	return new ServiceResponseError(
		text`The answer holds paging metadata the node does not know: ${where}`,
		text`${CLOSED_WORLD}${PROVIDER_HINT}`,
	);
}

export function unknownField(where: Text): ServiceResponseError {
	return new ServiceResponseError(
		text`The answer holds ${where} next to the records, which the node does not know`,
		text`${CLOSED_WORLD}${PROVIDER_HINT}`,
	);
}

export function unknownLink(where: Text, link: string): ServiceResponseError {
	return new ServiceResponseError(
		text`The answer holds a link to the listing in ${where}, which the node does not know ("${foreign(link, 120)}")`,
		text`${CLOSED_WORLD}${PROVIDER_HINT}`,
	);
}

/**
 * A number or true/false under a name the table does not know, in the paging metadata: it may be a
 * total (Solr's `numFound`, Algolia's `nbHits`) or say whether the listing is finished (`done`,
 * `remaining`), and the node cannot tell which.
 */
export function unknownValue(where: Text, value: unknown): ServiceResponseError {
	return new ServiceResponseError(
		text`The answer holds ${where} (${typeof value === 'boolean' ? own('true or false') : own('a number')}: ${quoted(value)}) in its paging metadata, which the node does not know`,
		text`A number or true/false among the paging fields may say how many services the listing has or whether more follow, so the node does not return the listing as if it were whole. ${CLOSED_WORLD}${PROVIDER_HINT}`,
	);
}

/** A known field whose value the node cannot read as what it means there (`as a count`, `as true or false`). */
export function unreadable(where: Text, value: unknown, as: Text): ServiceResponseError {
	return new ServiceResponseError(
		text`The answer's ${where} is ${quoted(value)}, which the node cannot read ${as}`,
		text`${CLOSED_WORLD}${PROVIDER_HINT}`,
	);
}

export function nextNotALink(where: Text, value: unknown): ServiceResponseError {
	return new ServiceResponseError(
		text`The listing gives its next page in ${where} as ${describeType(value)}, not as a link`,
		text`The node follows only next-page links the platform gives (a URL, absolute or relative); it does not invent page addresses. ${PROVIDER_HINT}`,
	);
}

export function disagreeingNextLinks(a: { link: string; foundIn: Text }, b: { link: string; foundIn: Text }): ServiceResponseError {
	return new ServiceResponseError(
		text`The answer gives two different next pages: ${a.foundIn} ("${foreign(a.link, 100)}") and ${b.foundIn} ("${foreign(b.link, 100)}")`,
		text`The node cannot tell which one the listing goes on at. ${PROVIDER_HINT}`,
	);
}

export function unknownStatus(status: number): ServiceResponseError {
	return new ServiceResponseError(
		text`The platform answered HTTP ${status}, which the node does not read as a listing`,
		text`The node reads a listing from an answer with HTTP 200 (or 203, or 206 with a Content-Range that reaches the end). ${PROVIDER_HINT}`,
	);
}

/** A JSON error object answered with HTTP 200, with the platform's own words when it gave some. */
export function platformError(said: string | undefined): ServiceResponseError {
	return new ServiceResponseError(
		own('The platform answered with an error instead of the services'),
		text`${said === undefined ? own('It gave no message. ') : text`The platform said: "${foreign(said, EXCERPT_MAX)}". `}Try again later; if it persists, check the key and the Base URL in the credential. ${PROVIDER_HINT}`,
	);
}

/** A key named twice in one object: `path` is where (the key alone at the top of the answer, `links.next` deeper). */
export function repeatedKey(key: string, path = key): ServiceResponseError {
	return new ServiceResponseError(
		path === key
			? text`The answer names the key "${foreign(key, 80)}" twice in one object`
			: text`The answer names the key "${foreign(key, 80)}" twice in one object, at ${fieldText(path)}`,
		text`A JSON object holds each key once; with two, the node cannot tell which record or value the platform meant (it would keep only the last). ${PROVIDER_HINT}`,
	);
}

/**
 * The answer is none of the shapes the node reads. `paginated`: it looks like a page (an array next to
 * other fields), with `field` the first whose name looks like paging, if one does.
 */
export function unknownShape(answer: unknown, paginated?: { field?: string }, keys?: readonly string[]): ServiceResponseError {
	const named = paginated?.field === undefined ? own('') : text` (${fieldText(paginated.field)})`;
	return new ServiceResponseError(
		text`The API answered with ${describeShape(answer, keys)}, not a list of services`,
		text`Expected an array of service records, a single record, a map of records keyed by id, or an object with one property holding the array. ${
			paginated === undefined
				? own('')
				: text`The answer looks paginated in a way the node does not know${named}: it reads pages whose records are under data, items, results, services or content next to the paging fields of docs/paging.md; report this to the package maintainers. `
		}${PROVIDER_HINT}`,
	);
}

/** Names a JSON value's shape without its content: types, sizes and at most ten top-level keys (`keys`, when listed already). */
export function describeShape(value: unknown, keys?: readonly string[]): Text {
	if (value === null) return own('null');
	if (Array.isArray(value)) return text`an array of ${value.length} item(s)`;
	if (isJsonObject(value)) {
		keys ??= Object.keys(value);
		if (keys.length === 0) return own('an empty object');
		const listed = join(
			keys.slice(0, 10).map((key) => text`${foreign(key, 40)} (${describeType(value[key])})`),
			own(', '),
		);
		return text`an object with key(s) ${listed}${keys.length > 10 ? text`, and ${keys.length - 10} more` : own('')}`;
	}
	return text`a ${describeType(value)}`;
}
