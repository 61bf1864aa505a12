import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { DescribedError, toNodeError } from '../../shared/errors/errors';
import type { Redact } from '../../shared/redaction/redact';
import { foreign, own, text } from '../../shared/text/text';
import { credentialRedactor } from '../../shared/transport/transport';
import type { ServicesNodeType } from './node.type';
import * as service from './service/Service.resource';

type Operation = (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;
type Resource = ServicesNodeType['resource'];
type OperationOf<R extends Resource> = Extract<ServicesNodeType, { resource: R }>['operation'];

/** Typed dispatch (as n8n's Airtable v2): a resource or operation missing here fails type-checking. */
const operations: { [R in Resource]: Record<OperationOf<R>, Operation> } = {
	service: { get: service.get.execute, list: service.list.execute },
};

function operationFor(resource: string, operation: string): Operation | undefined {
	const table = (operations as Record<string, Record<string, Operation> | undefined>)[resource];
	return table !== undefined && Object.hasOwn(table, operation) ? table[operation] : undefined;
}

/**
 * The value of the "Custom API Call" choice n8n adds to Resource and Operation of a node whose
 * credential has `authenticate` (n8n's CUSTOM_API_CALL_KEY); n8n runs nothing for it.
 */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

/** n8n's convention: a custom call is an HTTP Request node with this node's credential. */
function customApiCall(): DescribedError {
	return new DescribedError(
		own('Custom API Call runs in an HTTP Request node, not in this node'),
		own(
			"This node lists and gets services. For the platform's other actions (creating, changing or deleting services, server actions), add an HTTP Request node, set Authentication to 'Predefined Credential Type' and Credential Type to 'Service Platform API', choose this credential, and enter a URL starting with the credential's Base URL, e.g. https://api.example.com/v2026/services. The API key is sent only to the Base URL's address.",
		),
	);
}

/**
 * Runs the chosen operation once per input item. With "On Error: Continue" a failing item becomes
 * one error item paired to it and the other items still run.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];
	// Built at the first failure, then reused: reading the credential once per failed item costs each time.
	let redact: Redact | undefined;
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const resource = this.getNodeParameter('resource', itemIndex) as string;
			// With Resource "Custom API Call" the editor hides Operation, so it is not saved.
			const operationName = this.getNodeParameter('operation', itemIndex, '') as string;
			if (resource === CUSTOM_API_CALL || operationName === CUSTOM_API_CALL) throw customApiCall();
			const operation = operationFor(resource, operationName);
			if (!operation) {
				throw new DescribedError(
					text`The operation "${foreign(operationName, 60)}" of "${foreign(resource, 60)}" is not supported`,
					own('Choose a resource and operation this version of the node offers.'),
				);
			}
			const results = await operation.call(this, itemIndex);
			for (const result of results) returnData.push(result);
		} catch (error) {
			redact ??= await credentialRedactor.call(this, itemIndex);
			const nodeError = toNodeError(this.getNode(), error, { itemIndex, redact });
			if (this.continueOnFail()) {
				// No `error` on the item: n8n-core would replace the JSON with `{ error }` and drop the fix.
				// `error` + `details` are keys n8n's error output recognises as an error item.
				returnData.push({
					json: { error: nodeError.message, details: nodeError.description ?? null },
					pairedItem: { item: itemIndex },
				});
				continue;
			}
			throw nodeError;
		}
	}
	return [returnData];
}
