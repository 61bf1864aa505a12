/**
 * An oracle for leaked keys, written independently of the redactor (nodes/shared/text/redact.ts): the
 * windows of 8 characters of each form the README promises never to show. A text leaks when it holds
 * any of them.
 */
const WINDOW = 8;

/** The base64 characters of `prefix + key` that depend on the key alone (standard and URL-safe). */
function base64Cores(key: string): string[] {
	const cores: string[] = [];
	for (const prefix of ['', 'x', 'xy', 'Bearer ', 'user:']) {
		const bytes = Buffer.concat([Buffer.from(prefix), Buffer.from(key)]);
		const encoded = bytes.toString('base64').replace(/=+$/, '');
		// The characters covering the prefix's bytes, and the last partial group, mix in other bytes.
		const p = prefix.length;
		const start = Math.floor(p / 3) * 4 + [0, 2, 3][p % 3];
		const end = bytes.length % 3 === 0 ? encoded.length : encoded.length - 1;
		const core = encoded.slice(start, end);
		cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return cores;
}

/** Every form of `key` whose 8-character windows must not appear anywhere. */
export function keyForms(key: string): string[] {
	return [key, encodeURIComponent(key), JSON.stringify(key).slice(1, -1), ...base64Cores(key)];
}

/** The windows of `key`'s forms found in `text` (empty: no leak). */
export function leakedWindows(text: string, key: string): string[] {
	const found = new Set<string>();
	for (const form of keyForms(key)) {
		for (let start = 0; start + WINDOW <= form.length; start++) {
			const window = form.slice(start, start + WINDOW);
			if (text.includes(window)) found.add(window);
		}
	}
	return [...found];
}
