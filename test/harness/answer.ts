/** One parsed answer read by the answer stage as the walk reads it (test helper). */
import type { Answer } from '../../nodes/shared/answer/answer';
import { readAnswer } from '../../nodes/shared/answer/answer';
import { PROVIDER_HINT, SERVICES_PATH } from '../../nodes/shared/answer/answerTexts';
import { checkNothingLeft } from '../../nodes/shared/listing/completeness';
import { checkPageRecords } from '../../nodes/shared/record/pageRecords';
import type { ServiceRecord } from '../../nodes/shared/record/serviceRecord';

export const ANSWER_URL = 'https://api.example.com/v2026/services';

export function readOne(
	body: unknown,
	{
		headers = {},
		page = 1,
		resumed = false,
		status = 200,
		url = ANSWER_URL,
		text,
	}: { headers?: Record<string, string | undefined>; page?: number; resumed?: boolean; status?: number; url?: string; text?: string } = {},
): Answer {
	return readAnswer({ body, text: text ?? JSON.stringify(body) ?? '', headers, status, url }, { page, resumed });
}

/**
 * The checked records of one answer on its own (body as parsed, optional headers): what a one-page
 * listing gives, through the same stages.
 */
export function extractServiceRecords(body: unknown, headers: Record<string, string | undefined> = {}): ServiceRecord[] {
	const url = `https://api.invalid${SERVICES_PATH}`;
	let json: string;
	try {
		json = JSON.stringify(body) ?? '';
	} catch {
		json = '';
	}
	const answer = readAnswer({ body, text: json, headers, status: 200, url }, { page: 1, resumed: false });
	const seen = new Map<string, number>();
	const records = checkPageRecords(answer, { seen, pageNumber: 1, advice: PROVIDER_HINT });
	if (answer.next === undefined)
		checkNothingLeft({
			last: answer.signals,
			stated: answer.signals.total && { ...answer.signals.total, page: 1 },
			read: seen.size,
			pages: 1,
		});
	return records;
}
