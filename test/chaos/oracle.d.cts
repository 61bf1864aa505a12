// Types for oracle.cjs, so type-checked tests can import it.

export type Tracked = { status: unknown; os_id: unknown; vcores: unknown; ram_gb: unknown; hd_gb: unknown };

/** An item as the sink received it (the Services Trigger's item JSON). */
export interface SinkEvent {
	event: string;
	id_service: string;
	service?: Record<string, unknown> | null;
	previous?: Record<string, unknown> | null;
	detectedAt?: string;
	eventId?: string;
	seq?: number;
	redelivered?: boolean;
	[key: string]: unknown;
}

export interface ChaosProblem {
	kind:
		'unreadable' | 'unmarked duplicate' | 'eventId reused' | 'lost before this event' | 'repaired by resync' | 'unknown event' | 'diverged';
	id_service?: string;
	event?: string;
	detail: string;
}

export interface ChaosVerdict {
	/** Items the sink received. */
	events: number;
	/** Items folded (duplicates left out). */
	applied: number;
	/** How the fold ordered them: by `seq` when every event had one, else by `detectedAt`. */
	order: 'seq' | 'detectedAt';
	lost: {
		/** mismatched + neverReached. */
		total: number;
		/** Events whose `previous` (or presence) disagreed with the sink's last value: a change before it never arrived. */
		mismatched: number;
		/** Services whose final platform state the sink never reached (= diverged.length). */
		neverReached: number;
		byEvent: Record<string, number>;
	};
	duplicates: {
		total: number;
		/** Carrying `redelivered: true` (and, by eventId, an id the sink saw before). */
		marked: number;
		unmarked: number;
		/** Same eventId as an earlier item. */
		byEventId: number;
		/** Same change of the same poll (no or a new eventId). */
		byContent: number;
		/** A change the sink had applied, reported again by a later poll. */
		byRepeat: number;
	};
	/** Items marked redelivered whose first delivery the sink never saw (a redelivery that saved a change). */
	redeliveredFirstSeen: number;
	/** eventIds that named two different changes. */
	eventIdConflicts: number;
	/** Ids whose final state at the sink differs from the platform's. */
	diverged: string[];
	resync: { events: number; repaired: number };
	/** The first few findings, for the report. */
	problems: ChaosProblem[];
}

export const TRACKED: readonly string[];
export function judge(input: {
	baseline: readonly object[];
	final: readonly object[];
	events: readonly unknown[];
	maxProblems?: number;
}): ChaosVerdict;
export function compareServices(
	expected: readonly object[],
	actual: readonly object[],
): { missing: string[]; extra: string[]; different: string[]; equal: boolean };
export function summarize(verdict: ChaosVerdict): string;
export function trackedValues(service: unknown): Tracked;
export function simplifyRecord(record: unknown): Record<string, unknown>;
