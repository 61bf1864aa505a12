/**
 * The one id rule: how an `id_service` identifies a service wherever ids are compared (List's
 * repeated-id check, Get, its "From List", the trigger's remembered list). White space at either end
 * is not part of the id (a platform or a copy-paste may add it), and Unicode forms that are the same
 * text are the same id (NFC: "é" written as one code point or as "e" and an accent). So two records
 * whose ids differ only so are one service listed twice. Output keeps each record as the API sent it.
 */

/** From U+0300 (the combining marks) on: only a text holding such a code unit can change under NFC. */
const FIRST_NFC_SENSITIVE = 0x300;

/** The id as compared: trimmed (String.prototype.trim's white space and line ends), then NFC. */
export function serviceIdKey(id: string): string {
	// Most ids: printable ASCII at both ends and nothing from U+0300 on, their own key (tools/bench/records.mjs).
	const first = id.charCodeAt(0);
	const last = id.charCodeAt(id.length - 1);
	const key = first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f ? id : id.trim();
	for (let index = 0; index < key.length; index++) if (key.charCodeAt(index) >= FIRST_NFC_SENSITIVE) return key.normalize('NFC');
	return key;
}
