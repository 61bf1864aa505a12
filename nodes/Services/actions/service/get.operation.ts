import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requestOptionsProperty, simplifyProperty } from '../../../shared/parameters/descriptions';
import type { ServicePage } from '../../../shared/listing/listing';
import { listServicePages, ServiceNotFoundError } from '../../../shared/listing/listing';
import { ParameterError, parameterReader, readSimplify, requireText } from '../../../shared/parameters/parameters';
import { serviceIdKey } from '../../../shared/record/serviceId';
import type { ServiceRecord } from '../../../shared/record/serviceRecord';
import { simplifyServiceRecord } from '../../../shared/record/serviceRecord';
import { foreign, own, text } from '../../../shared/text/text';
import { readRequestLimits } from '../../../shared/parameters/limits';
import { openApiSession } from '../../../shared/transport/transport';
import { GET_TOOL_DESCRIPTION, isToolUse, toolDescriptionProperty } from '../toolUse';

const showForGet = { show: { resource: ['service'], operation: ['get'] } };

export const description: INodeProperties[] = [
	{
		displayName: 'Service',
		name: 'serviceId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The service to get: pick it from the list, or give its ID (the id_service field of a List result, e.g. srv-10014)',
		displayOptions: showForGet,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a service...',
				typeOptions: { searchListMethod: 'searchServices', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. srv-10014',
				hint: 'The id_service of the service, as List returns it',
			},
		],
	},
	{ ...simplifyProperty, displayOptions: showForGet },
	{ ...requestOptionsProperty, displayOptions: showForGet },
	toolDescriptionProperty('get', GET_TOOL_DESCRIPTION),
];

/**
 * Get: the one service with the given id_service. The API documents no single-service endpoint, so
 * this reads the listing page by page and stops at the page that holds the id.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	// Every value an expression may give has one meaning or is a parameter error (docs/parameters.md).
	const read = parameterReader(this, itemIndex);
	const serviceId = readServiceId(read('serviceId', '', { extractValue: true }));
	const simplify = readSimplify(read);

	const session = await openApiSession.call(this, { itemIndex, limits: readRequestLimits.call(this, itemIndex) });
	let found: ServiceRecord | undefined;
	let listed = 0;
	// Ids are compared by the one id rule (record/serviceId.ts); one that differs only in case is worth naming in the error.
	const key = serviceIdKey(serviceId);
	let otherCase: string | undefined;
	const lowerCaseKey = key.toLowerCase();
	// No page after the one that holds the id is read ahead: the hint finds it before the page is yielded.
	const pagesWanted = ({ records }: ServicePage) =>
		(found = records.find((record) => serviceIdKey(record.id_service) === key)) ? 0 : Infinity;
	for await (const { records } of listServicePages(session, { pagesWanted })) {
		if (found) break;
		listed += records.length;
		otherCase ??= records.find((record) => serviceIdKey(record.id_service).toLowerCase() === lowerCaseKey)?.id_service;
	}
	if (!found) {
		throw session.toNodeError(
			new ServiceNotFoundError(
				text`No service with id_service "${foreign(serviceId, 80)}"`,
				text`The platform lists ${listed} service(s) and none has this id${
					otherCase === undefined ? own('. ') : text`; "${foreign(otherCase, 80)}" differs only in upper/lower case. `
				}Check the ID (it is the id_service field of a List result, e.g. srv-10014, compared exactly but for spaces at its ends), ${
					isToolUse(this)
						? own('or call List (search by name or alias) to find it, ')
						: own('or choose "From List" to pick the service by name, ')
				}and check the credential is for the account that owns it.`,
			),
		);
	}
	const json = simplify ? simplifyServiceRecord(found) : found;
	return [{ json: json as IDataObject, pairedItem: { item: itemIndex } }];
}

/**
 * The id from the resource locator (From List, By ID), or a plain value (an expression or an AI tool
 * may give one instead of the locator): text, or a number as its text (10014 is "10014"). Surrounding
 * spaces are dropped: pasted or typed text often has them. "" is no service chosen; null, a boolean, a
 * list or an object is a parameter error naming it.
 */
function readServiceId(value: unknown): string {
	const fix = own(
		'Pick a service from the list under "Service", or choose "By ID" and enter its id_service (e.g. srv-10014). An expression must give the id as text (or a number).',
	);
	const id = requireText(value, own('Service'), fix, own('an ID (text)')).trim();
	if (id === '') throw new ParameterError(own('No service chosen'), fix);
	return id;
}
