import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { matchesServiceFilters, parseServiceFilters } from '../../shared/filters';
import { listServicePages } from '../../shared/listing';
import { simplifyServiceRecord } from '../../shared/serviceRecord';
import { DEFAULT_LIMITS } from '../../shared/limits';
import { openApiSession } from '../../shared/transport';

/** Enough entries to fill the editor's list and scroll; the rest comes page by page as the user scrolls. */
const ENTRIES_PER_CALL = 100;

/**
 * The "From List" mode of Get's Service field: services whose name or alias contains the typed text.
 * Reads the platform's pages until about ENTRIES_PER_CALL entries are found; the next page's URL is
 * the pagination token n8n hands back when the user scrolls to the end of the list.
 */
export async function searchServices(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const filters = parseServiceFilters({ search: filter ?? '' });
	// The editor's search uses the default limits: the node's Options are the run's, not the search's.
	const session = await openApiSession.call(this, { itemIndex: 0, limits: DEFAULT_LIMITS });
	const results: INodeListSearchItems[] = [];
	for await (const { records, next } of listServicePages(session, { from: paginationToken || undefined })) {
		for (const record of records) {
			const { id_service, name, alias, status } = simplifyServiceRecord(record);
			if (!matchesServiceFilters({ name, alias, status }, filters)) continue;
			results.push({ name: `${name || id_service}${alias ? ` (${alias})` : ''}`, value: id_service });
		}
		if (results.length >= ENTRIES_PER_CALL) return { results, paginationToken: next };
	}
	return { results };
}
