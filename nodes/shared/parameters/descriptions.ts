import type { INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_LISTING_TIME_LIMIT_MIN,
	DEFAULT_MAX_RESPONSE_MB,
	DEFAULT_PARALLEL_REQUESTS,
	DEFAULT_TIMEOUT_MS,
	MAX_PARALLEL_REQUESTS,
} from './limits';

/** Parameters the Services node's List and the Services Trigger share, so both read them the same way. */
export const serviceFiltersProperty: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			placeholder: 'e.g. web-01',
			description: 'Only services whose name or alias contains this text (case-insensitive)',
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'string',
			default: '',
			placeholder: 'e.g. active, suspended',
			description:
				'Only services with one of these statuses, comma-separated (case-insensitive). The platform does not document its status values; use the ones you see in the output.',
		},
	],
};

export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	// n8n reads "true"/"false" and 1/0 from an expression as the switch (parameters.ts).
	validateType: 'boolean',
	default: true,
	description:
		'Whether to return one flat object per service (ID, name, alias, status, OS, vCores, RAM, disk) instead of the record exactly as the API sent it',
};

export const requestOptionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Listing Time Limit',
			name: 'listingTimeLimit',
			type: 'number',
			typeOptions: { minValue: 0.01, numberPrecision: 2 },
			default: DEFAULT_LISTING_TIME_LIMIT_MIN,
			hint: 'In minutes, for the whole listing: every page, retry and wait',
			description:
				"How long reading the whole listing may take, in minutes: every page, retry and wait together. Without it, 30 minutes (or the Timeout, if longer). In the trigger it also stays within n8n's time for one poll.",
		},
		{
			displayName: 'Max Response Size',
			name: 'maxResponseSize',
			type: 'number',
			typeOptions: { minValue: 0.001, numberPrecision: 3 },
			default: DEFAULT_MAX_RESPONSE_MB,
			hint: 'In MB (after decompression), all pages of a listing together. 100,000 services are about 25 MB.',
			description:
				"Most data the node reads for one listing, in MB: all its pages together, counted after decompression; more fails instead of filling n8n's memory",
		},
		{
			displayName: 'Parallel Requests',
			name: 'parallelRequests',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS, numberPrecision: 0 },
			default: DEFAULT_PARALLEL_REQUESTS,
			hint: 'Pages of a listing requested at once, where the platform shows their sequence; 1 reads one after another',
			description:
				"How many pages of a listing the node may request at once. Only where the platform's own links show the sequence of its pages (a page number or offset) and it says where the listing ends; a page read ahead is kept only when the platform's link from the page before confirms it, so the result is the same as with 1. A 429 or 503 makes the rest of that listing one request at a time.",
		},
		{
			displayName: 'Retry on Rate Limit',
			name: 'retryOnRateLimit',
			type: 'boolean',
			validateType: 'boolean',
			default: true,
			description:
				'Whether to retry automatically when the platform answers 429 (rate limit), 502, 503 or 504: up to 3 times a page and 10 times a listing, waiting as the platform asks (Retry-After) or 0.5 to 4 s, never longer than the Timeout nor past the Listing Time Limit',
		},
		{
			displayName: 'Timeout',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_TIMEOUT_MS,
			hint: 'In milliseconds, for each request: 30000 is 30 seconds',
			description:
				'How long each request to the platform may take, in milliseconds: connecting, waiting and reading its answer (one page of a listing; a retry is a new request). The whole listing has Listing Time Limit.',
		},
	],
};
