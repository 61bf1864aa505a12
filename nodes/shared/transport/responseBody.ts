/**
 * Reading a response body from a hostile server: bounded in bytes (after decompression) and in time,
 * decoded by its declared charset, parsed as JSON. Pure of n8n; the transport maps the errors.
 */

/** What axios gives for `encoding: 'stream'`: a Node readable, already decompressed. */
interface BodyStream extends AsyncIterable<Uint8Array | string> {
	destroy(error?: Error): void;
}

export class BodyTooLargeError extends Error {}
export class DeadlineReachedError extends Error {}
export class UndecodableTextError extends Error {
	constructor(
		readonly charset: string,
		readonly known: boolean,
	) {
		super(`Cannot decode the body as ${charset}`);
	}
}

function isBodyStream(value: unknown): value is BodyStream {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as BodyStream)[Symbol.asyncIterator] === 'function' &&
		typeof (value as BodyStream).destroy === 'function'
	);
}

/**
 * Reads the whole body, or fails: BodyTooLargeError once more than `maxBytes` arrived, or, with
 * `admit`, as soon as it refuses the size the body would grow to (then `maxBytes` only bounds what is
 * allocated ahead from a Content-Length); the stream is destroyed there, so memory stays at about the
 * cap. DeadlineReachedError when `deadline` fires (a trickling server), or the stream's own error
 * (reset, decompression).
 */
export async function readBody(
	body: unknown,
	{
		maxBytes,
		deadline,
		expectedBytes,
		admit = (bytes: number) => bytes <= maxBytes,
	}: { maxBytes: number; deadline: AbortSignal; expectedBytes?: number; admit?: (bytes: number) => boolean },
): Promise<Buffer> {
	const fits = admit;
	if (!isBodyStream(body)) {
		const buffer = body === undefined || body === null ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(String(body));
		if (!fits(buffer.length)) throw new BodyTooLargeError();
		return buffer;
	}
	// With a Content-Length (within the cap) the chunks are copied into one buffer as they come, so a
	// large body is never held twice (chunks + their concatenation). A body that outgrows it (the length
	// of a compressed body, or a lying one) continues as a list of chunks.
	let whole = expectedBytes !== undefined && expectedBytes > 0 && expectedBytes <= maxBytes ? Buffer.allocUnsafe(expectedBytes) : undefined;
	const chunks: Buffer[] = [];
	let size = 0;
	const onDeadline = () => body.destroy(new DeadlineReachedError());
	if (deadline.aborted) onDeadline();
	else deadline.addEventListener('abort', onDeadline, { once: true });
	try {
		for await (const chunk of body) {
			const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
			if (!fits(size + buffer.length)) {
				body.destroy();
				throw new BodyTooLargeError();
			}
			if (whole && size + buffer.length <= whole.length) {
				buffer.copy(whole, size);
			} else {
				if (whole) chunks.push(whole.subarray(0, size));
				whole = undefined;
				chunks.push(buffer);
			}
			size += buffer.length;
		}
	} finally {
		deadline.removeEventListener('abort', onDeadline);
	}
	if (deadline.aborted) throw new DeadlineReachedError();
	if (whole) return size === whole.length ? whole : whole.subarray(0, size);
	return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
}

/** Drops a body we do not need (redirects, retried statuses) without reading it. */
export function discardBody(body: unknown): void {
	if (isBodyStream(body)) body.destroy();
}

/**
 * Text of a body. JSON is UTF-8 (RFC 8259); a BOM or a `charset=` in the content type says otherwise.
 * Any charset the runtime's TextDecoder knows is honoured (latin-1 is decodable: it is read as
 * windows-1252, as browsers do); bytes invalid in that charset, and unknown charsets, are errors
 * rather than silently replaced characters.
 */
export function decodeText(buffer: Buffer, contentType: string | undefined): string {
	let charset = charsetOf(contentType) ?? 'utf-8';
	let start = 0;
	if (buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) [charset, start] = ['utf-8', 3];
	else if (buffer[0] === 0xff && buffer[1] === 0xfe) [charset, start] = ['utf-16le', 2];
	else if (buffer[0] === 0xfe && buffer[1] === 0xff) [charset, start] = ['utf-16be', 2];
	const bytes = start === 0 ? buffer : buffer.subarray(start);
	if (charset === 'utf-8' || charset === 'utf8') {
		// ASCII (most JSON) is the same text read as latin-1, and latin-1 is a plain copy: about 5x less
		// than UTF-8 decoding a large body (bench). Its UTF-8 length equals the byte count only when no
		// byte is 0x80 or above (each of those would count twice), so the check is exact.
		const ascii = bytes.toString('latin1');
		if (Buffer.byteLength(ascii, 'utf8') === bytes.length) return ascii;
		// Buffer's decoder makes a compact one-byte string where it can (TextDecoder may not, which
		// doubled the memory of a large listing). It replaces invalid bytes with U+FFFD, so only a text
		// holding U+FFFD is checked strictly below.
		const text = bytes.toString('utf8');
		if (!text.includes('\ufffd')) return text;
	}
	const decoder = decoderFor(charset);
	if (!decoder) throw new UndecodableTextError(charset, false);
	const text = decodeOrUndefined(decoder, bytes);
	if (text === undefined) throw new UndecodableTextError(decoder.encoding, true);
	return text;
}

interface Decoder {
	decode(input: Uint8Array): string;
	readonly encoding: string;
}

function decoderFor(charset: string): Decoder | undefined {
	try {
		return new TextDecoder(charset, { fatal: true, ignoreBOM: true });
	} catch {
		return undefined;
	}
}

function decodeOrUndefined(decoder: Decoder, bytes: Uint8Array): string | undefined {
	try {
		return decoder.decode(bytes);
	} catch {
		return undefined;
	}
}

function charsetOf(contentType: string | undefined): string | undefined {
	const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
	return match?.[1].toLowerCase();
}
