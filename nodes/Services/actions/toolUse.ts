import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { SERVICE_FIELDS } from '../../shared/record/serviceFields';

/**
 * The Services node used as an AI tool (n8n's "Services Tool": an AI Agent's tool or a tool of the
 * MCP Server Trigger). n8n names the tool variant of a node `<node>Tool`; n8n 1.x has no
 * `isToolExecution()`, so the type name is the test that works on both lines (as n8n's own `@tool`
 * display option does).
 */
export function isToolUse(context: IExecuteFunctions): boolean {
	return context.getNode().type.endsWith('Tool');
}

/** A tool answer (the JSON a model reads) stays under 32 KB: List stops adding services past this. */
export const TOOL_ANSWER_MAX_BYTES = 30_000;

const SIMPLIFIED_FIELDS = ['id_service', ...SERVICE_FIELDS.map((field) => field.key)].join(', ');

/**
 * What the model reads about each operation. Declaring `toolDescription` ourselves replaces n8n's
 * automatic one ("List services in Services"), which tells a model neither what comes back nor how
 * to ask for less. Shown only on the tool variant (`@tool`); the user can still edit it.
 */
export function toolDescriptionProperty(operation: 'list' | 'get', text: string): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: text,
		description: 'What the AI model reads about this tool: what it returns and which inputs it takes',
		displayOptions: { show: { '@tool': [true], resource: ['service'], operation: [operation] } },
	};
}

export const LIST_TOOL_DESCRIPTION =
	'List the services (virtual servers and other products) of the hosting platform account. ' +
	`Returns a JSON array with one object per service: ${SIMPLIFIED_FIELDS}. ` +
	'To narrow the list, fill the inputs this tool offers: status (only services with this status, e.g. "suspended"; ' +
	'several comma-separated), search (text in the name or alias) and limit (at most this many services, default 50). ' +
	'When more services match than are returned, the last element is {"note": ...} with how many match and how to narrow.';

export const GET_TOOL_DESCRIPTION =
	'Get one service of the hosting platform account by its id_service (e.g. "srv-10014", as List returns it). ' +
	'The id_service is required; upper and lower case matter, spaces at its ends do not. ' +
	`Returns a JSON array holding that one service: ${SIMPLIFIED_FIELDS}. ` +
	'Fails with an error naming the ID when no service has it; use List to find IDs.';

/**
 * The last element of a List answer that was cut short, so a model does not take a partial list for
 * the whole account.
 */
export function cutShortNote(listed: number, matching: number, reason: 'limit' | 'size'): { note: string } {
	const why =
		reason === 'limit' ? 'the limit' : `the answer is kept under ${Math.round(TOOL_ANSWER_MAX_BYTES / 1000)} KB for the model's context`;
	return {
		note:
			`Only ${listed} of the ${matching} matching services are listed (${why}). ` +
			'To see others, narrow the search: filter by status (e.g. "suspended") or by text in the name or alias (search)' +
			(reason === 'limit' ? ', or ask for a higher limit.' : '.'),
	};
}
