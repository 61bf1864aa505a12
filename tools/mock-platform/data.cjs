'use strict';
// Deterministic, realistic service records of the documented shape (see the team contract).
// CommonJS so that ts-jest (CommonJS) tests can require it; tools/mock-platform/mock.mjs re-exports it for ESM.

const STATUSES = ['active', 'suspended', 'pending', 'cancelled', 'terminated', 'provisioning'];
// Most services of a real account are active; the rest are spread over the other states.
const STATUS_WEIGHTS = [70, 8, 6, 6, 5, 5];

const OPERATING_SYSTEMS = [
	['ubuntu-24.04', 'Ubuntu 24.04 LTS'],
	['ubuntu-22.04', 'Ubuntu 22.04 LTS'],
	['debian-12', 'Debian 12 (Bookworm)'],
	['debian-11', 'Debian 11 (Bullseye)'],
	['almalinux-9', 'AlmaLinux 9'],
	['rockylinux-9', 'Rocky Linux 9'],
	['windows-server-2022', 'Windows Server 2022 Standard'],
	['windows-server-2019', 'Windows Server 2019 Standard'],
];
const OS_WEIGHTS = [30, 18, 16, 6, 8, 6, 10, 6];

// [vcores, ram GB, disk GB] of typical plans.
const PLANS = [
	[1, 1, 25],
	[1, 2, 50],
	[2, 2, 60],
	[2, 4, 80],
	[4, 8, 160],
	[4, 16, 200],
	[8, 16, 320],
	[8, 32, 480],
	[16, 64, 960],
	[32, 128, 1920],
];
const PLAN_WEIGHTS = [8, 14, 10, 20, 18, 8, 10, 6, 4, 2];

const ROLES = [
	['web', 'web server'],
	['db', 'database'],
	['app', 'application server'],
	['api', 'API backend'],
	['mail', 'mail server'],
	['cache', 'Redis cache'],
	['proxy', 'reverse proxy'],
	['vpn', 'VPN gateway'],
	['backup', 'backup target'],
	['ci', 'CI runner'],
	['git', 'Git server'],
	['monitor', 'monitoring'],
	['dns', 'DNS resolver'],
	['files', 'file share'],
];
const ENVIRONMENTS = ['Production', 'Production', 'Production', 'Staging', 'Development', 'Test'];
const PROJECTS = [
	'acme-shop',
	'northwind',
	'globex',
	'initech',
	'umbrella-labs',
	'hooli',
	'stark-ind',
	'wayne-ent',
	'cyberdyne',
	'soylent',
	'vandelay',
	'blue-sun',
	'tyrell',
	'oscorp',
	'aperture',
	'massive-dynamic',
];

/** mulberry32: tiny, fast, good enough for test data; same seed -> same sequence. */
function prng(seed) {
	let a = seed >>> 0;
	return function next() {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Strings and non-integers become a 32-bit seed, so `--seed demo` works too. */
function normalizeSeed(seed) {
	if (seed === undefined || seed === null || seed === '') return 1;
	if (typeof seed === 'number' && Number.isFinite(seed)) return Math.trunc(seed) >>> 0;
	const s = String(seed);
	if (/^\d+$/.test(s)) return Number(s) >>> 0;
	let h = 2166136261;
	for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
	return h >>> 0;
}

function weightedPicker(weights) {
	const total = weights.reduce((a, b) => a + b, 0);
	const cumulative = [];
	let acc = 0;
	for (const w of weights) cumulative.push((acc += w) / total);
	return (r) => {
		for (let i = 0; i < cumulative.length; i++) if (r < cumulative[i]) return i;
		return cumulative.length - 1;
	};
}
const pickStatus = weightedPicker(STATUS_WEIGHTS);
const pickOs = weightedPicker(OS_WEIGHTS);
const pickPlan = weightedPicker(PLAN_WEIGHTS);

function shuffled(length, rnd) {
	const order = Array.from({ length }, (_, i) => i);
	for (let i = length - 1; i > 0; i--) {
		const j = Math.floor(rnd() * (i + 1));
		[order[i], order[j]] = [order[j], order[i]];
	}
	return order;
}

function makeRecord(id, name, alias, status, osIndex, plan) {
	const [osId, osName] = OPERATING_SYSTEMS[osIndex];
	return {
		id_service: id,
		values: {
			values: {
				name,
				alias,
				status,
				service: {
					customize: {
						OS: { id: osId, name: osName },
						specifications: { vcores: plan[0], GB: { ram: plan[1], hd: plan[2] } },
					},
				},
			},
		},
	};
}

/**
 * Pure: `count` records, the same for the same (count, seed). Every status and OS appears within the
 * first 12 records, so even the default 36 exercise filters. Fresh objects per record, so
 * mutating one record never changes another.
 */
function generateServices(count = 36, seed = 1) {
	const n = Math.max(0, Math.trunc(Number(count)) || 0);
	const rnd = prng(normalizeSeed(seed));
	const statusOrder = shuffled(STATUSES.length, rnd);
	const osOrder = shuffled(OPERATING_SYSTEMS.length, rnd);
	const hostCounters = new Map();
	const records = new Array(n);
	let idNumber = 10000 + Math.floor(rnd() * 100);
	for (let i = 0; i < n; i++) {
		// Ids grow with small gaps, like ids of an account whose other services were deleted.
		idNumber += rnd() < 0.2 ? 2 + Math.floor(rnd() * 5) : 1;
		const role = ROLES[Math.floor(rnd() * ROLES.length)];
		const project = PROJECTS[Math.floor(rnd() * PROJECTS.length)];
		const hostKey = role[0] + '.' + project;
		const hostNumber = (hostCounters.get(hostKey) || 0) + 1;
		hostCounters.set(hostKey, hostNumber);
		const name = role[0] + '-' + (hostNumber < 10 ? '0' + hostNumber : hostNumber) + '.' + project;
		const envRoll = rnd();
		// Some services have no alias set.
		const alias = envRoll < 0.08 ? '' : ENVIRONMENTS[Math.floor(envRoll * ENVIRONMENTS.length)] + ' ' + role[1];
		// Odd slots 1, 3, 5, ... cover every status once; the first record and the rest are weighted.
		const slot = (i - 1) / 2;
		const status = i % 2 === 1 && slot < statusOrder.length ? STATUSES[statusOrder[slot]] : STATUSES[pickStatus(rnd())];
		const osIndex = i < osOrder.length ? osOrder[i] : pickOs(rnd());
		let plan = PLANS[pickPlan(rnd())];
		// Windows Server does not run on the smallest plans.
		if (OPERATING_SYSTEMS[osIndex][0].startsWith('windows') && (plan[0] < 2 || plan[1] < 4)) plan = PLANS[3];
		records[i] = makeRecord(`srv-${idNumber}`, name, alias, status, osIndex, plan);
	}
	return records;
}

module.exports = { generateServices };
