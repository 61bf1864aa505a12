/**
 * The one id rule: how an `id_service` identifies a service wherever ids are compared (List's
 * repeated-id check, Get, its "From List", the trigger's remembered list). Spaces at either end are
 * not part of the id (a platform or a copy-paste may add them), and Unicode forms that are the same
 * text are the same id (NFC: "é" written as one code point or as "e" and an accent). So two records
 * whose ids differ only so are one service listed twice. Output keeps each record as the API sent it.
 */

/** Anything beyond ASCII: only such an id can have another Unicode form. */
const NON_ASCII = /[^\x00-\x7f]/;

/** The id as compared: trimmed (String.prototype.trim's white space and line ends), then NFC. */
export function serviceIdKey(id: string): string {
	const trimmed = id.trim();
	// Most ids are short ASCII: normalize() is skipped for them (bench/records.mjs).
	return NON_ASCII.test(trimmed) ? trimmed.normalize('NFC') : trimmed;
}
