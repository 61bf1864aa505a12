import { SERVICES_PATH } from './baseUrl';
import type { ServiceRecord } from './serviceRecord';
import { extractServiceRecords } from './serviceRecord';
import type { ApiContext } from './transport';
import { servicePlatformApiGet } from './transport';

/**
 * GET /v2026/services, validated: every record of the answer, in the API's order. Used by the
 * Services node's List operation and by the Services Trigger.
 */
export async function fetchServiceRecords(
	this: ApiContext,
	{ itemIndex, timeoutMs }: { itemIndex: number; timeoutMs?: number },
): Promise<ServiceRecord[]> {
	return await (servicePlatformApiGet<ServiceRecord[]>).call(this, SERVICES_PATH, {
		itemIndex,
		timeoutMs,
		interpret: extractServiceRecords,
	});
}
