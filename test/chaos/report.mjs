// The chaos runs' figures as one table (npm run chaos, docs/chaos.md).

import { formatTable } from '../../tools/lib/table.mjs';

const minutes = (s) => (s === undefined ? undefined : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`);

/** reports: what runChaos returned (or { setting, label, failed }). */
export function chaosTable(reports) {
	return formatTable(
		reports,
		[
			{ title: 'setting', get: (r) => r.setting },
			{ title: 'n8n', get: (r) => r.n8n },
			{ title: 'kills', get: (r) => r.kills?.length, align: 'right' },
			{ title: 'changes', get: (r) => r.changes, align: 'right' },
			{ title: 'events', get: (r) => r.verdict?.events, align: 'right' },
			{ title: 'lost', get: (r) => r.verdict?.lost.total, align: 'right' },
			{
				title: 'duplicated (marked)',
				get: (r) => (r.verdict ? `${r.verdict.duplicates.total} (${r.verdict.duplicates.marked})` : undefined),
				align: 'right',
			},
			{ title: 'diverged', get: (r) => r.verdict?.diverged.length, align: 'right' },
			{ title: 'resync repaired', get: (r) => r.verdict?.resync.repaired, align: 'right' },
			{ title: 'starts failed', get: (r) => r.failedStarts?.length, align: 'right' },
			{
				title: 'mirror',
				get: (r) =>
					r.mirror
						? r.mirror.equal
							? 'equal'
							: `${r.mirror.missing.length + r.mirror.extra.length + r.mirror.different.length} differ`
						: undefined,
			},
			{ title: 'time', get: (r) => (r.failed ? `failed: ${r.failed}` : minutes(r.seconds)) },
		],
		{ maxWidth: 60 },
	);
}
