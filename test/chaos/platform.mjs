// The chaos driver's platform: changes the in-process mock's services on a schedule (status, specs,
// services created and removed) and records the ground truth. Changes are chosen so that no change
// repeats for a service: a status never takes the same step (A -> B) twice, and every specs change
// gives RAM a new, higher value. Without eventIds, a sink could not tell a change reported twice from
// the same change made twice (test/chaos/oracle.cjs).

import { generateServices } from '../../tools/mock-platform/mock.mjs';

const STATUSES = ['active', 'suspended', 'pending', 'cancelled', 'terminated', 'provisioning'];
const OPERATING_SYSTEMS = [
	['ubuntu-24.04', 'Ubuntu 24.04 LTS'],
	['debian-12', 'Debian 12 (Bookworm)'],
	['almalinux-9', 'AlmaLinux 9'],
	['rockylinux-9', 'Rocky Linux 9'],
];
const KINDS = [
	['status', 40],
	['specs', 30],
	['create', 15],
	['remove', 15],
];

/** A seeded random source (mulberry32), so a run can be repeated with --seed. */
export function seededRandom(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/**
 * @param {object} mock the mock's handle (startMockApi)
 * @param {{ random: () => number, everyMs?: [number, number], minServices?: number, maxServices?: number }} o
 * Returns { start(), stop(), history }.
 */
export function platformDriver(mock, { random, everyMs = [1500, 4000], minServices = 20, maxServices = 40 }) {
	const history = [];
	const statusSteps = new Set();
	let created = 0;
	let timer = null;
	const pick = (list) => list[Math.floor(random() * list.length)];
	const values = (r) => r.values.values;
	const specs = (r) => values(r).service.customize;

	function kindNow(count) {
		let roll = random() * 100;
		for (const [kind, weight] of KINDS) {
			if ((roll -= weight) < 0) {
				if (kind === 'create' && count >= maxServices) return 'remove';
				if (kind === 'remove' && count <= minServices) return 'create';
				return kind;
			}
		}
		return 'status';
	}

	/** One change of the platform; returns its history entry. */
	function change() {
		const services = mock.getServices();
		const kind = kindNow(services.length);
		const at = Date.now();
		let entry;
		if (kind === 'create') {
			const [record] = generateServices(1, Math.floor(random() * 1e9));
			record.id_service = `srv-${30000 + ++created}`;
			values(record).name = `chaos-${created}.example`;
			services.push(record);
			entry = { at, kind, id: record.id_service };
		} else if (kind === 'remove') {
			const i = Math.floor(random() * services.length);
			entry = { at, kind, id: services[i].id_service };
			services.splice(i, 1);
		} else if (kind === 'status') {
			// A status step not taken before by this service; one with none left gets a specs change instead.
			const candidates = services.flatMap((r) =>
				STATUSES.filter((s) => s !== values(r).status && !statusSteps.has(`${r.id_service} ${values(r).status} ${s}`)).map((s) => [r, s]),
			);
			if (!candidates.length) return specsChange(services, at);
			const [r, status] = pick(candidates);
			statusSteps.add(`${r.id_service} ${values(r).status} ${status}`);
			entry = { at, kind, id: r.id_service, from: values(r).status, to: status };
			values(r).status = status;
		} else return specsChange(services, at);
		mock.setServices(services);
		history.push(entry);
		return entry;
	}

	function specsChange(services, at) {
		const r = pick(services);
		const c = specs(r);
		const before = { ram: c.specifications.GB.ram, vcores: c.specifications.vcores, os: c.OS.id };
		c.specifications.GB.ram += 1 + Math.floor(random() * 4);
		if (random() < 0.3) c.specifications.vcores += 1;
		if (random() < 0.2) c.specifications.GB.hd += 10;
		if (random() < 0.15) {
			const [id, name] = pick(OPERATING_SYSTEMS.filter(([id]) => id !== c.OS.id));
			c.OS = { id, name };
		}
		mock.setServices(services);
		const entry = {
			at,
			kind: 'specs',
			id: r.id_service,
			from: before,
			to: { ram: c.specifications.GB.ram, vcores: c.specifications.vcores, os: c.OS.id },
		};
		history.push(entry);
		return entry;
	}

	const schedule = () => {
		timer = setTimeout(
			() => {
				change();
				schedule();
			},
			everyMs[0] + random() * (everyMs[1] - everyMs[0]),
		);
	};

	return {
		history,
		start() {
			if (!timer) schedule();
		},
		stop() {
			clearTimeout(timer);
			timer = null;
		},
	};
}
