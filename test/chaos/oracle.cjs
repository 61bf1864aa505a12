'use strict';
// The chaos test's oracle: what a sink received, judged against the platform's ground truth. It
// knows the event vocabulary of the Services Trigger's items (created, statusChanged, specsChanged,
// removed, resync; `previous`; eventId, seq, redelivered) and nothing of the node's code: it folds the
// events per service the way a careful sink would and compares with what the platform really held.
// CommonJS so that jest (ts-jest, CommonJS) tests it directly; types in oracle.d.cts.

/** The fields a change event is about (the simplified names); os_name follows os_id. */
const TRACKED = ['status', 'os_id', 'vcores', 'ram_gb', 'hd_gb'];

/** A service's tracked values from a simplified service (an item's `service`) or a raw platform record. */
function trackedValues(service) {
	const s = service && typeof service === 'object' ? service : {};
	if (s.values && typeof s.values === 'object' && s.values.values) return trackedValues(simplifyRecord(s));
	const out = {};
	for (const key of TRACKED) out[key] = s[key] === undefined ? null : s[key];
	return out;
}

/** The simplified view of a raw platform record (the API's documented shape), written here, not imported from the node. */
function simplifyRecord(record) {
	const v = (record && record.values && record.values.values) || {};
	const c = (v.service && v.service.customize) || {};
	const spec = c.specifications || {};
	const nz = (x) => (x === undefined ? null : x);
	return {
		id_service: nz(record && record.id_service),
		status: nz(v.status),
		os_id: nz(c.OS && c.OS.id),
		vcores: nz(spec.vcores),
		ram_gb: nz(spec.GB && spec.GB.ram),
		hd_gb: nz(spec.GB && spec.GB.hd),
	};
}

/** id -> tracked values, from a list of records or simplified services. */
function stateOf(services) {
	const map = new Map();
	for (const s of services || []) {
		const id = s && s.id_service;
		if (typeof id === 'string') map.set(id, trackedValues(s));
	}
	return map;
}

function differingKeys(a, b, keys = TRACKED) {
	return keys.filter((k) => a[k] !== b[k]);
}

/** A change: the event, the service, its previous and new values (the same change may happen twice: A->B->A->B). */
function changeKey(ev) {
	return JSON.stringify([ev.event, ev.id_service, ev.previous ?? null, trackedValues(ev.service)]);
}

/** The identity of a delivery for a sink that has no eventId: the same poll's same change of the same service. */
function contentKey(ev) {
	return JSON.stringify([changeKey(ev), ev.detectedAt ?? null]);
}

const isSeq = (x) => typeof x === 'number' && Number.isFinite(x);

/**
 * Judges a sink's record.
 * @param {{ baseline: object[], final: object[], events: object[], maxProblems?: number }} input
 *   baseline: the platform's services when the trigger took its baseline (records or simplified);
 *   final: the platform's services after the quiet period;
 *   events: every item the sink received, in arrival order (the item JSON).
 * @returns see oracle.d.cts (ChaosVerdict)
 */
function judge({ baseline, final, events, maxProblems = 20 }) {
	const problems = [];
	const note = (kind, ev, detail) => {
		if (problems.length < maxProblems)
			problems.push({ kind, id_service: ev ? ev.id_service : undefined, event: ev ? ev.event : undefined, detail });
	};
	const duplicates = { total: 0, marked: 0, unmarked: 0, byEventId: 0, byContent: 0, byRepeat: 0 };
	let redeliveredFirstSeen = 0;
	let eventIdConflicts = 0;
	const seenIds = new Map(); // eventId -> content key of its first delivery
	const seenContent = new Set();
	const seenChanges = new Set();
	const unique = [];
	events.forEach((ev, arrival) => {
		if (!ev || typeof ev !== 'object' || typeof ev.id_service !== 'string') {
			note('unreadable', null, `item ${arrival} is not an event: ${JSON.stringify(ev).slice(0, 200)}`);
			return;
		}
		const key = contentKey(ev);
		const hasId = typeof ev.eventId === 'string' && ev.eventId !== '';
		if (hasId && seenIds.has(ev.eventId)) {
			duplicates.total++;
			duplicates.byEventId++;
			if (ev.redelivered === true) duplicates.marked++;
			else {
				duplicates.unmarked++;
				note('unmarked duplicate', ev, `eventId ${ev.eventId} again without redelivered: true`);
			}
			if (seenIds.get(ev.eventId) !== changeKey(ev)) {
				eventIdConflicts++;
				note('eventId reused', ev, `eventId ${ev.eventId} names two different changes`);
			}
			return;
		}
		if (seenContent.has(key)) {
			// The same change of the same poll again, under a new eventId or none: a repeat no sink can recognise by id.
			duplicates.total++;
			duplicates.byContent++;
			duplicates.unmarked++;
			note(
				'unmarked duplicate',
				ev,
				hasId ? `the same change again under a new eventId ${ev.eventId}` : 'the same change of the same poll again',
			);
			return;
		}
		if (hasId) seenIds.set(ev.eventId, changeKey(ev));
		seenContent.add(key);
		if (ev.redelivered === true) redeliveredFirstSeen++;
		// Without eventIds, the same change reported again by a later poll is told apart from a real
		// A->B->A->B when folded (a repeat that is already the sink's state). With eventIds a new id is a new change.
		const repeat = !hasId && seenChanges.has(changeKey(ev));
		seenChanges.add(changeKey(ev));
		unique.push({ ev, arrival, repeat });
	});

	// A careful sink applies changes in the order they happened: by seq when every event has one,
	// else by the poll's detectedAt; arrival order breaks ties (stable sort).
	const bySeq = unique.length > 0 && unique.every(({ ev }) => isSeq(ev.seq));
	const order = bySeq ? 'seq' : 'detectedAt';
	unique.sort((a, b) => {
		if (bySeq) return a.ev.seq - b.ev.seq || a.arrival - b.arrival;
		const da = typeof a.ev.detectedAt === 'string' ? a.ev.detectedAt : '';
		const db = typeof b.ev.detectedAt === 'string' ? b.ev.detectedAt : '';
		return (da < db ? -1 : da > db ? 1 : 0) || a.arrival - b.arrival;
	});

	const sink = stateOf(baseline);
	const lostByEvent = {};
	let mismatched = 0;
	const resync = { events: 0, repaired: 0 };
	// One lost change per service and poll at most: a lost creation makes both the status and the specs
	// event of a later poll disagree, and counting both would count one loss twice.
	const counted = new Set();
	const mismatch = (ev, detail) => {
		const key = `${ev.id_service}\u0000${ev.detectedAt}`;
		if (counted.has(key)) return;
		counted.add(key);
		mismatched++;
		lostByEvent[ev.event] = (lostByEvent[ev.event] || 0) + 1;
		note('lost before this event', ev, detail);
	};
	for (const { ev, repeat } of unique) {
		const id = ev.id_service;
		const current = sink.get(id);
		const now = trackedValues(ev.service);
		const previous = ev.previous && typeof ev.previous === 'object' ? ev.previous : {};
		if (repeat && alreadyApplied(ev, current, now, previous)) {
			duplicates.total++;
			duplicates.byRepeat++;
			duplicates.unmarked++;
			note('unmarked duplicate', ev, 'a change the sink already applied, reported again by a later poll');
			continue;
		}
		switch (ev.event) {
			case 'created':
				if (current) mismatch(ev, 'created, but the sink holds the service (a removal was lost)');
				sink.set(id, now);
				break;
			case 'removed': {
				if (!current) mismatch(ev, 'removed, but the sink does not hold the service (its creation was lost)');
				else {
					const diff = differingKeys(current, now);
					if (diff.length)
						mismatch(
							ev,
							`removed as last seen with ${diff.map((k) => `${k} ${now[k]}`).join(', ')}; the sink has ${diff.map((k) => current[k]).join(', ')}`,
						);
				}
				sink.delete(id);
				break;
			}
			case 'statusChanged':
			case 'specsChanged': {
				const keys = Object.keys(previous).filter((k) => TRACKED.includes(k));
				if (!current) {
					mismatch(ev, `${ev.event}, but the sink does not hold the service`);
					sink.set(id, now);
					break;
				}
				const diff = keys.filter((k) => previous[k] !== current[k]);
				if (diff.length) {
					mismatch(
						ev,
						`previous ${diff.map((k) => `${k} ${previous[k]}`).join(', ')}; the sink has ${diff.map((k) => current[k]).join(', ')}`,
					);
					// The loss is counted: the sink takes the service as the event says it is now, so the
					// same loss is not counted again at a later event (a lost change of vCores and RAM, then RAM alone).
					sink.set(id, now);
					break;
				}
				// Only the event's own fields: a status and a specs change of one poll are two events.
				const next = { ...current };
				for (const k of keys) next[k] = now[k];
				sink.set(id, next);
				break;
			}
			case 'resync':
				resync.events++;
				if (!current || differingKeys(current, now).length) {
					resync.repaired++;
					note(
						'repaired by resync',
						ev,
						current
							? `the sink had ${differingKeys(current, now)
									.map((k) => `${k} ${current[k]}`)
									.join(', ')}`
							: 'the sink did not hold the service',
					);
				}
				sink.set(id, now);
				break;
			default:
				note('unknown event', ev, `event "${ev.event}"`);
		}
	}

	const truth = stateOf(final);
	const diverged = [];
	for (const id of new Set([...truth.keys(), ...sink.keys()])) {
		const want = truth.get(id);
		const have = sink.get(id);
		if (want && have && differingKeys(want, have).length === 0) continue;
		diverged.push(id);
		const what = !have
			? 'the platform has it, the sink does not'
			: !want
				? 'the sink has it, the platform removed it'
				: differingKeys(want, have)
						.map((k) => `${k}: platform ${want[k]}, sink ${have[k]}`)
						.join('; ');
		note('diverged', { id_service: id, event: 'final' }, what);
	}
	diverged.sort();
	return {
		events: events.length,
		applied: unique.length,
		order,
		lost: { total: mismatched + diverged.length, mismatched, neverReached: diverged.length, byEvent: lostByEvent },
		duplicates,
		redeliveredFirstSeen,
		eventIdConflicts,
		diverged,
		resync,
		problems,
	};
}

/** Whether a repeated change is already the sink's state (so applying it again would be a false mismatch). */
function alreadyApplied(ev, current, now, previous) {
	if (ev.event === 'created') return Boolean(current) && differingKeys(current, now).length === 0;
	if (ev.event === 'removed') return !current;
	if (ev.event === 'statusChanged' || ev.event === 'specsChanged') {
		const keys = Object.keys(previous).filter((k) => TRACKED.includes(k));
		return Boolean(current) && keys.length > 0 && keys.every((k) => current[k] === now[k] && previous[k] !== current[k]);
	}
	return false;
}

/**
 * Services whose tracked values differ between two lists (records or simplified services), e.g. the
 * platform and a mirror table: { missing, extra, different } ids.
 */
function compareServices(expected, actual) {
	const want = stateOf(expected);
	const have = stateOf(actual);
	const missing = [...want.keys()].filter((id) => !have.has(id)).sort();
	const extra = [...have.keys()].filter((id) => !want.has(id)).sort();
	const different = [...want.keys()].filter((id) => have.has(id) && differingKeys(want.get(id), have.get(id)).length > 0).sort();
	return { missing, extra, different, equal: missing.length + extra.length + different.length === 0 };
}

/** One line: "N events, lost L (M before an event, F final states), D duplicates (K marked), V diverged". */
function summarize(v) {
	const dup = v.duplicates;
	return `${v.events} events, lost ${v.lost.total} (${v.lost.mismatched} seen at a later event, ${v.lost.neverReached} final states never reached), ${dup.total} duplicated (${dup.marked} marked redelivered), ${v.diverged.length} diverged${v.resync.events ? `, ${v.resync.events} resync events (${v.resync.repaired} repaired)` : ''}`;
}

module.exports = { TRACKED, judge, compareServices, summarize, trackedValues, simplifyRecord };
