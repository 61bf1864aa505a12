import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as service from './service/Service.resource';

type Operation = (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;

const operations: Record<string, Record<string, Operation>> = {
	service: { get: service.get.execute, list: service.list.execute },
};

/**
 * Runs the chosen operation once per input item. With "On Error: Continue" a failing item becomes
 * one error item paired to it and the other items still run.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const resource = this.getNodeParameter('resource', itemIndex) as string;
			const operationName = this.getNodeParameter('operation', itemIndex) as string;
			const operation = operations[resource]?.[operationName];
			if (!operation) {
				throw new NodeOperationError(
					this.getNode(),
					`The operation "${operationName}" of "${resource}" is not supported`,
					{ itemIndex, description: 'Choose a resource and operation this version of the node offers.' },
				);
			}
			const results = await operation.call(this, itemIndex);
			for (const result of results) returnData.push(result);
		} catch (error) {
			const nodeError =
				error instanceof NodeOperationError || isNodeApiError(error)
					? error
					: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
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

/** NodeApiError from another copy of n8n-workflow fails `instanceof`; its name still tells. */
function isNodeApiError(error: unknown): error is NodeOperationError {
	return error instanceof Error && error.name === 'NodeApiError';
}
