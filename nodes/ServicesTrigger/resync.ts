/**
 * Resync (issue 27): the current state of every watched service sent as one `resync` item each, at
 * start and/or every N hours, the way Kubernetes informers resync, with recent removals sent again.
 * A sink that mirrors the services (upsert by id_service, delete on `removed`) then converges
 * whatever happened to an execution, a worker killed in queue mode included.
 */
import type { INodeProperties } from 'n8n-workflow';

import type { ReadParameter } from '../shared/parameters/parameters';
import { option, ParameterError, requireCollection, requirePositiveNumber, requireSwitch } from '../shared/parameters/parameters';
import { foreign, own, text, thousands } from '../shared/text/text';
import { TOMBSTONE_WINDOW_MS } from './state/outbox';

const HOUR_MS = 60 * 60 * 1000;
/** The shortest interval: one minute (n8n polls at most once a minute). */
const MIN_INTERVAL_HOURS = 1 / 60;
/** The longest interval: a year. */
const MAX_INTERVAL_HOURS = 8760;

export const resyncProperty: INodeProperties = {
	displayName: 'Resync',
	name: 'resync',
	type: 'collection',
	placeholder: 'Add Resync Option',
	default: {},
	description:
		'Emit every watched service (matching the Filters) as a "resync" item, so a workflow that mirrors the services into a table converges whatever happened to an earlier execution; recent removals are sent again as "removed"',
	options: [
		{
			displayName: 'At Start',
			name: 'onStart',
			type: 'boolean',
			validateType: 'boolean',
			default: true,
			description:
				'Whether to resync at the first poll of each activation and each time n8n starts (or another main takes over polling), and when the trigger starts without a remembered list (the first activation seeds the mirror)',
		},
		{
			displayName: 'Every (Hours)',
			name: 'intervalHours',
			type: 'number',
			typeOptions: { minValue: MIN_INTERVAL_HOURS, numberPrecision: 4 },
			default: 24,
			hint: 'Decimals allowed, at least 0.0167 (one minute): 0.25 is 15 minutes',
			description: 'Also resync when this many hours have passed since the last resync',
		},
	],
};

export interface ResyncOptions {
	onStart: boolean;
	intervalMs?: number;
	/** Whether any resync is configured: removals are then kept for it (tombstones). */
	enabled: boolean;
}

/** The Resync collection: At Start a switch, Every (Hours) a number of at least one minute. */
export function readResync(read: ReadParameter): ResyncOptions {
	const resync = requireCollection(read('resync', {}, { skipValidation: true }), own('Resync'));
	const onStart = Object.hasOwn(resync, 'onStart')
		? requireSwitch(option(resync, 'onStart', false), own('At Start'), () =>
				option(requireCollection(read('resync', {}), own('Resync')), 'onStart', false),
			)
		: false;
	if (!Object.hasOwn(resync, 'intervalHours')) return { onStart, enabled: onStart };
	const hours = requirePositiveNumber(option(resync, 'intervalHours', undefined), {
		label: own('Every (Hours)'),
		example: own('24 (hours), or 0.25 for 15 minutes'),
		max: { value: MAX_INTERVAL_HOURS, text: text`${thousands(MAX_INTERVAL_HOURS)} hours (a year)` },
	});
	// A little below one minute (0.0166…) still counts as one minute: the hint says 0.0167.
	if (hours < MIN_INTERVAL_HOURS - 1e-4) {
		throw new ParameterError(
			text`"Every (Hours)" must be at least 0.0167 (one minute), not ${foreign(String(hours), 40)}`,
			own('Enter a number of hours of at least 0.0167 in "Every (Hours)" (n8n polls at most once a minute), e.g. 0.25 for 15 minutes.'),
		);
	}
	return { onStart, intervalMs: Math.max(hours, MIN_INTERVAL_HOURS) * HOUR_MS, enabled: true };
}

/**
 * Whether this poll resyncs: at start (the first poll of this process or of an activation, or a new
 * baseline) with At Start, or when the interval has passed since the last resync (or none is known).
 */
export function resyncDue(
	options: ResyncOptions,
	{ start, now, resyncAt }: { start: boolean; now: number; resyncAt: number | undefined },
): boolean {
	if (options.onStart && start) return true;
	if (options.intervalMs === undefined) return false;
	return resyncAt === undefined || now - resyncAt >= options.intervalMs;
}

/** How long removals are kept for a resync: a day, or two intervals when longer; undefined when no resync can send them. */
export function tombstoneWindow(options: ResyncOptions, removalsSelected: boolean): number | undefined {
	if (!options.enabled || !removalsSelected) return undefined;
	return Math.max(TOMBSTONE_WINDOW_MS, 2 * (options.intervalMs ?? 0));
}
