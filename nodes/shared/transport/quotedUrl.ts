import type { Text } from '../text/text';
import { foreign, text } from '../text/text';

declare const quotedUrl: unique symbol;

/**
 * How a text quotes a URL the node requested (issue 28): what came from outside (the credential's
 * Base URL, a next link, a Location) as a foreign part, the path the node adds to the Base URL as the
 * node's own wording. So a key that starts like the node's path (`services-...`) cannot eat it: the
 * quote reads `https://api.example.com/v2026/services`, never `.../v2026/[redacted]`. Made only here;
 * the texts that quote a requested URL (httpErrors.ts) take this type, not a string.
 */
export type QuotedUrl = Text & { readonly [quotedUrl]: true };

/** A URL the node requests, and how its texts quote it. */
export interface RequestUrl {
	href: string;
	quoted: QuotedUrl;
}

/** The node's own path (its wording, e.g. SERVICES_PATH) joined to the credential's Base URL. */
export function ownPathUrl(baseUrl: string, path: Text): RequestUrl {
	return { href: `${baseUrl}${path}`, quoted: text`${foreign(baseUrl)}${path}` as QuotedUrl };
}

/** A URL the node did not build (a next link, a redirect's Location): foreign as a whole. */
export function foreignUrl(href: string): RequestUrl {
	return { href, quoted: foreign(href) as QuotedUrl };
}
