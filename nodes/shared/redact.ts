/**
 * The one redaction of the API key, applied to every text a user can see (messages, descriptions,
 * error items, values quoted from the credential, the server or a Location header).
 *
 * It removes, case-insensitively, the key:
 * - as stored and trimmed, and with whitespace between any of its characters (an echo wrapped by a
 *   line break or a proxy);
 * - with any of its characters percent-encoded (a key inside a URL or query string);
 * - base64-encoded, alone or inside a longer base64 text at any alignment (so also `Bearer <key>`
 *   or `user:<key>` encoded), in standard and URL-safe alphabets;
 * - any prefix of 8 characters or more (a long echo that a server or we cut short).
 *
 * A key shorter than MIN_KEY_LENGTH is left alone: resolveApiKey refuses it before anything is sent,
 * so no answer can echo it, and matching 1 to 7 characters would wreck ordinary text (numbers, ids, words).
 */
export type Redact = (text: string) => string;

export const REDACTED = '[redacted]';

/** Shorter prefixes would also match ordinary words; 8 random characters do not. */
const MIN_PREFIX_LENGTH = 8;
/** The shortest key the node sends (resolveApiKey) and so the shortest it redacts. */
export const MIN_KEY_LENGTH = MIN_PREFIX_LENGTH;
/** Optional-suffix nesting per character; past this a long key's prefixes match by its first characters. */
const MAX_NESTED_LENGTH = 256;

export function makeRedactor(secret: unknown): Redact {
	const key = typeof secret === 'string' ? secret.trim() : '';
	if ([...key].length < MIN_KEY_LENGTH) return (text) => text;
	const forms = [keyPattern(key), ...base64Cores(key).map((core) => charsPattern([...core]))];
	const pattern = new RegExp(forms.join('|'), 'gi');
	return (text) => (typeof text === 'string' ? text.replace(pattern, REDACTED) : text);
}

/** Redacts every string of a plain error-text object; other values are kept. */
export function redactText<T extends { message: string; description: string }>(text: T, redact: Redact): T {
	return { ...text, message: redact(text.message), description: redact(text.description) };
}

/** One character: its UTF-8 percent-encoding (`%2B`), or itself, or `+` for a space (form encoding). */
function charUnit(char: string): string {
	const encoded = [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
	// Encoded first: for "%" the literal is a prefix of "%25", and an optional tail stops at the shorter match.
	const alternatives = [encoded, escapeRegExp(char)];
	if (char === ' ') alternatives.push('\\+');
	return `(?:${alternatives.join('|')})`;
}

const GAP = '\\s*';

function charsPattern(chars: string[]): string {
	return chars.map(charUnit).join(GAP);
}

/** The whole key, or any prefix of at least MIN_PREFIX_LENGTH characters of it. */
function keyPattern(key: string): string {
	const chars = [...key];
	if (chars.length <= MIN_PREFIX_LENGTH) return charsPattern(chars);
	const head = charsPattern(chars.slice(0, MIN_PREFIX_LENGTH));
	if (chars.length > MAX_NESTED_LENGTH) {
		return `${charsPattern(chars)}|${head}(?:${GAP}[^\\s"'<>]+)?`;
	}
	// a(?:b(?:c)?)? : each further character only counts when all before it matched.
	let tail = '';
	for (let index = chars.length - 1; index >= MIN_PREFIX_LENGTH; index--) {
		tail = `(?:${GAP}${charUnit(chars[index])}${tail})?`;
	}
	return head + tail;
}

/**
 * The part of base64(x + key + y) that depends on the key alone, for the three byte alignments the key
 * can start at; cores shorter than 8 characters would match unrelated text and are left out.
 */
function base64Cores(key: string): string[] {
	const bytes = Buffer.from(key, 'utf8');
	const cores = new Set<string>();
	for (let offset = 0; offset < 3; offset++) {
		const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
		const encoded = padded.toString('base64').replace(/=+$/, '');
		// Characters mixing in the unknown bytes before (offset 1: 2 chars, offset 2: 3 chars) ...
		const start = offset === 0 ? 0 : offset + 1;
		// ... and after the key: a final partial group depends on the next byte.
		const trailing = padded.length % 3 === 0 ? 0 : 1;
		const core = encoded.slice(start, encoded.length - trailing);
		if (core.length >= MIN_PREFIX_LENGTH) {
			cores.add(core);
			cores.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
		}
	}
	// The whole key encoded on its own, with its exact ending (e.g. a base64 key in a header).
	const whole = bytes.toString('base64').replace(/=+$/, '');
	if (whole.length >= MIN_PREFIX_LENGTH) cores.add(whole);
	return [...cores].sort((a, b) => b.length - a.length);
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
