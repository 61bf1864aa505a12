/** One parsed answer read by the answer stage as the walk reads it (test helper). */
import type { Answer } from '../../nodes/shared/answer/answer';
import { readAnswer } from '../../nodes/shared/answer/answer';

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
