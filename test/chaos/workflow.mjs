// The chaos test's workflow: Services Trigger (every event, a poll every 15 s) -> HTTP Request, one
// POST per item to the sink; optionally a second branch from the trigger: the "Mirror services into
// PostgreSQL" recipe's nodes (examples/mirror-services-postgres.json).

import crypto from 'node:crypto';

import { CREDENTIAL_TYPE, TRIGGER_TYPE } from '../../tools/lib/n8n-instance.mjs';

export const TRIGGER_NAME = 'Services Trigger';
export const SINK_NAME = 'Post to sink';

/**
 * Poll Times for a poll every `seconds` (a divisor of 60) on n8n `line`. n8n 2.41 accepts only a
 * single number in the seconds field of a custom cron (isSubMinuteCron), so one entry per poll;
 * 1.123 takes one list.
 */
export function pollEvery(seconds, line) {
	const at = Array.from({ length: 60 / seconds }, (_, i) => i * seconds);
	const crons = line >= 2 ? at.map((s) => `${s} * * * * *`) : [`${at.join(',')} * * * * *`];
	return { item: crons.map((cronExpression) => ({ mode: 'custom', cronExpression })) };
}

/**
 * @param {{ line: number, cred: {id, name}, sinkUrl: string, triggerParams?: object, mirror?: { nodes: object[], connections: object, first: string } }} o
 * mirror: nodes after the trigger (their credentials already set), their connections, and the name of
 * the node the trigger feeds.
 */
export function chaosWorkflow({ line, cred, sinkUrl, triggerParams = {}, mirror }) {
	const trigger = {
		parameters: { pollTimes: pollEvery(15, line), events: ['created', 'statusChanged', 'specsChanged', 'removed'], ...triggerParams },
		id: crypto.randomUUID(),
		name: TRIGGER_NAME,
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		credentials: { [CREDENTIAL_TYPE]: { id: cred.id, name: cred.name } },
	};
	const sink = {
		parameters: {
			method: 'POST',
			url: sinkUrl,
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'x-execution-id', value: '={{ $execution.id }}' }] },
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={{ JSON.stringify($json) }}',
			options: { timeout: 60_000 },
		},
		id: crypto.randomUUID(),
		name: SINK_NAME,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [260, -100],
	};
	const targets = [{ node: SINK_NAME, type: 'main', index: 0 }];
	if (mirror) targets.push({ node: mirror.first, type: 'main', index: 0 });
	return {
		name: 'chaos: services trigger -> sink',
		nodes: [trigger, sink, ...(mirror?.nodes ?? [])],
		connections: { [TRIGGER_NAME]: { main: [targets] }, ...(mirror?.connections ?? {}) },
		settings: { executionOrder: 'v1' },
	};
}
