import type { SimplifiedService } from './serviceFields';

/** What the user typed in the "Filters" collection, normalised for matching. */
export interface ServiceFilters {
	/** Lower-cased statuses; empty means any status. */
	statuses: string[];
	/** Lower-cased substring of name or alias; empty means no search. */
	search: string;
}

/**
 * Reads the raw `filters` parameter. `status` is a comma-separated list in the UI, but an
 * expression may also hand over an array.
 */
export function parseServiceFilters(raw: unknown): ServiceFilters {
	const filters = (typeof raw === 'object' && raw !== null ? raw : {}) as { status?: unknown; search?: unknown };
	const statusList = Array.isArray(filters.status) ? filters.status : String(filters.status ?? '').split(',');
	return {
		statuses: statusList.map((status) => String(status).trim().toLowerCase()).filter((status) => status !== ''),
		search: typeof filters.search === 'string' ? filters.search.trim().toLowerCase() : '',
	};
}

export function hasServiceFilters(filters: ServiceFilters): boolean {
	return filters.statuses.length > 0 || filters.search !== '';
}

/** Whether a service (its simplified view: the filters read status, name and alias) matches. */
export function matchesServiceFilters(
	service: Pick<SimplifiedService, 'status' | 'name' | 'alias'>,
	filters: ServiceFilters,
): boolean {
	if (filters.statuses.length > 0 && !filters.statuses.includes((service.status ?? '').toLowerCase())) return false;
	if (filters.search !== '') {
		const name = (service.name ?? '').toLowerCase();
		const alias = (service.alias ?? '').toLowerCase();
		if (!name.includes(filters.search) && !alias.includes(filters.search)) return false;
	}
	return true;
}
