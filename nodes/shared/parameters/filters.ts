import { option, requireCollection, requireText, wrongValue } from './parameters';
import type { SimplifiedService } from '../record/serviceFields';
import type { Text } from '../text/text';
import { own } from '../text/text';

/** What the user typed in the "Filters" collection, as search keys (searchKey). */
export interface ServiceFilters {
	/** Statuses; empty means any status. */
	statuses: string[];
	/** Text contained in the name or alias; empty means no search. */
	search: string;
}

/**
 * Text as a person reads it, for matching: full Unicode case folding and one normal form, the same on
 * both sides (Filters -> Search and Status, the editor's From List search, the AI tool's search all
 * come here). Lower, upper, lower again applies the full mappings JavaScript knows (ß and ẞ -> ss,
 * ﬁ -> fi, İ -> i̇); the final sigma folds as any sigma; decomposed first and composed last, so a text in
 * NFD finds its NFC twin and a letter with its mark is one letter (searching "e" does not find "é").
 */
export function searchKey(value: string): string {
	return value.normalize('NFD').toLowerCase().toUpperCase().toLowerCase().replace(/ς/g, 'σ').normalize('NFC');
}

/**
 * Reads the `filters` parameter (docs/parameters.md). Status: statuses separated by commas, or a list
 * of them (an expression may give one); a number is its text. Search: text; a number is its text
 * (10014 searches "10014"). "" (and an empty list) is no filter; null, undefined, a boolean, an object
 * or a list holding anything but text and numbers is a ParameterError.
 */
export function parseServiceFilters(raw: unknown): ServiceFilters {
	const filters = requireCollection(raw, own('Filters'));
	const status = option(filters, 'status', '');
	const statusFix = own(
		'Enter statuses separated by commas in "Status" (e.g. active, suspended), or leave it empty for any status. An expression may give text, a number, or a list of them.',
	);
	const statusList = Array.isArray(status)
		? status.map((entry) => requireStatus(entry, status, statusFix))
		: requireText(status, own('Status'), statusFix, own('text or a list of texts')).split(',');
	const search = requireText(
		option(filters, 'search', ''),
		own('Search'),
		own(
			'Enter the text to search for in "Search", or leave it empty for no search. An expression may give text or a number (10014 searches "10014").',
		),
	);
	return {
		statuses: statusList.map((entry) => searchKey(entry.trim())).filter((entry) => entry !== ''),
		search: searchKey(search.trim()),
	};
}

/** One status of a list: text or a number; anything else fails naming the whole list. */
function requireStatus(entry: unknown, list: unknown[], fix: Text): string {
	if (typeof entry === 'string') return entry;
	if (typeof entry === 'number' && Number.isFinite(entry)) return String(entry);
	throw wrongValue(own('Status'), own('text or a list of texts'), list, fix);
}

export function hasServiceFilters(filters: ServiceFilters): boolean {
	return filters.statuses.length > 0 || filters.search !== '';
}

/** Whether a service (its simplified view: the filters read status, name and alias) matches. */
export function matchesServiceFilters(service: Pick<SimplifiedService, 'status' | 'name' | 'alias'>, filters: ServiceFilters): boolean {
	if (filters.statuses.length > 0 && !filters.statuses.includes(searchKey(service.status ?? ''))) return false;
	if (filters.search !== '') {
		const name = searchKey(service.name ?? '');
		const alias = searchKey(service.alias ?? '');
		if (!name.includes(filters.search) && !alias.includes(filters.search)) return false;
	}
	return true;
}
