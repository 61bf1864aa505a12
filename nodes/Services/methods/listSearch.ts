import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { matchesServiceFilters, parseServiceFilters } from '../../shared/parameters/filters';
import type { ServicePage } from '../../shared/listing/listing';
import { listServicePages } from '../../shared/listing/listing';
import { simplifyServiceRecord } from '../../shared/record/serviceRecord';
import { DescribedError } from '../../shared/errors/errors';
import { DEFAULT_LIMITS } from '../../shared/parameters/limits';
import { foreign, NAME_MAX, own, QUOTE_MAX, text } from '../../shared/text/text';
import { openApiSession } from '../../shared/transport/transport';
import { CREDENTIAL_TYPE } from '../../shared/transport/types';

/** Enough entries to fill the editor's list and scroll; the rest comes page by page as the user scrolls. */
const ENTRIES_PER_CALL = 100;

/**
 * Where the next call resumes, kept in this process: the token the editor receives names an entry
 * here, never the platform's next-page link (which may carry the key, e.g. `?api_key=...`). Bounded:
 * the oldest entries go first; a token whose entry is gone (another n8n process, or evicted) resumes by
 * reading the listing again from its first page and skipping the pages already shown.
 */
const resumePoints = new Map<string, { owner: string; next: string }>();
const MAX_RESUME_POINTS = 1000;
let resumeCounter = 0;

/** The editor's token: pages already read and an id of our own; nothing from the platform or the credential. */
const TOKEN = /^(\d{1,6})\.([a-z0-9]{1,40})$/;

function remember(owner: string, next: string, pagesRead: number): string {
	const id = `${(++resumeCounter).toString(36)}${Math.floor(Math.random() * 2 ** 40).toString(36)}`;
	resumePoints.set(id, { owner, next });
	if (resumePoints.size > MAX_RESUME_POINTS) resumePoints.delete(resumePoints.keys().next().value!);
	return `${pagesRead}.${id}`;
}

/**
 * The "From List" mode of Get's Service field: services whose name or alias contains the typed text.
 * Reads the platform's pages until about ENTRIES_PER_CALL entries are found; when more pages remain,
 * returns an opaque pagination token that n8n hands back when the user scrolls to the end of the list.
 * What the editor receives: entry names (name and alias, as foreign text: redacted and bounded),
 * values (the id_service, redacted if it holds a form of the key) and that token.
 */
export async function searchServices(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const filters = parseServiceFilters({ search: filter ?? '' });
	// The editor's search uses the default limits: the node's Options are the run's, not the search's.
	const session = await openApiSession.call(this, { itemIndex: 0, limits: DEFAULT_LIMITS });
	// Resume points are only used for the same credential and base address (ids, not secrets).
	const owner = JSON.stringify([this.getNode().credentials?.[CREDENTIAL_TYPE]?.id ?? null, session.baseUrl]);
	const token = TOKEN.exec(paginationToken ?? '');
	if (paginationToken && !token) {
		throw session.toNodeError(
			new DescribedError(
				own('The list of services could not be continued: its position is not one this node gave'),
				own('Search again or reopen the list of services; the list then starts from its first page.'),
			),
		);
	}
	const resume = token ? resumePoints.get(token[2]) : undefined;
	const from = resume?.owner === owner ? resume.next : undefined;
	let pagesRead = token ? Number(token[1]) : 0;
	// Without its resume point, the pages already shown are read again and skipped.
	let skip = token && from === undefined ? pagesRead : 0;
	if (skip > 0) pagesRead = 0;
	const results: INodeListSearchItems[] = [];
	// Each page's entries are found when the walk hands it over, before it is yielded: no page after the
	// one that completes this call is read ahead (pagesWanted).
	const pagesWanted = ({ records }: ServicePage): number => {
		pagesRead++;
		if (skip > 0) {
			skip--;
			return Infinity;
		}
		for (const record of records) {
			const { id_service, name, alias, status } = simplifyServiceRecord(record);
			if (!matchesServiceFilters({ name, alias, status }, filters)) continue;
			const label = text`${foreign(name || id_service, NAME_MAX)}${alias ? text` (${foreign(alias, NAME_MAX)})` : own('')}`;
			results.push({ name: session.show(label, 2 * NAME_MAX + 3), value: session.show(foreign(id_service, 5 * QUOTE_MAX), 5 * QUOTE_MAX) });
		}
		return results.length >= ENTRIES_PER_CALL ? 0 : Infinity;
	};
	for await (const { next } of listServicePages(session, { from, pagesWanted })) {
		if (results.length >= ENTRIES_PER_CALL && next !== undefined) return { results, paginationToken: remember(owner, next, pagesRead) };
	}
	return { results };
}
