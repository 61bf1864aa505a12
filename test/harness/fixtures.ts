/** Service records of the documented shape, for tests. */
export interface RecordSpec {
	id: string;
	name?: string;
	alias?: string;
	status?: string;
	osId?: string;
	osName?: string;
	vcores?: number;
	ram?: number;
	hd?: number;
}

export function serviceRecord(spec: RecordSpec): Record<string, unknown> {
	return {
		id_service: spec.id,
		values: {
			values: {
				name: spec.name ?? `server-${spec.id}`,
				alias: spec.alias ?? `alias-${spec.id}`,
				status: spec.status ?? 'active',
				service: {
					customize: {
						OS: { id: spec.osId ?? 'ubuntu-24.04', name: spec.osName ?? 'Ubuntu 24.04 LTS' },
						specifications: { vcores: spec.vcores ?? 2, GB: { ram: spec.ram ?? 4, hd: spec.hd ?? 80 } },
					},
				},
			},
		},
	};
}

export const sampleRecords = [
	serviceRecord({ id: 'srv-1', name: 'web-01.shop', alias: 'Shop web', status: 'active', vcores: 4, ram: 8, hd: 160 }),
	serviceRecord({ id: 'srv-2', name: 'db-01.shop', alias: 'Shop database', status: 'Suspended', osId: 'debian-12', osName: 'Debian 12' }),
	serviceRecord({ id: 'srv-3', name: 'mail.acme', alias: 'Mail', status: 'pending', vcores: 1, ram: 2, hd: 40 }),
	serviceRecord({ id: 'srv-4', name: 'ci-runner', alias: 'Build box', status: 'active', vcores: 8, ram: 32, hd: 500 }),
];

/** The simplified item of a record that has nothing but its id: every other field null. */
export const ALL_NULL = (id_service: string) => ({
	id_service,
	name: null,
	alias: null,
	status: null,
	os_id: null,
	os_name: null,
	vcores: null,
	ram_gb: null,
	hd_gb: null,
});

export const API_KEY = 'sk-test-4f9c2e7a1b3d5f60';
export const BASE_URL = 'https://api.example.com';
export const credentials = { apiKey: API_KEY, baseUrl: BASE_URL };

/**
 * What Simplify must give for a record: each documented value, or null when absent or null. Written
 * independently of the node's simplifyServiceRecord on purpose: it is the tests' oracle.
 */
export function expectedSimplified(record: Record<string, any>) {
	const data = record.values?.values;
	const customize = data?.service?.customize;
	const specifications = customize?.specifications;
	return {
		id_service: record.id_service,
		name: data?.name ?? null,
		alias: data?.alias ?? null,
		status: data?.status ?? null,
		os_id: customize?.OS?.id ?? null,
		os_name: customize?.OS?.name ?? null,
		vcores: specifications?.vcores ?? null,
		ram_gb: specifications?.GB?.ram ?? null,
		hd_gb: specifications?.GB?.hd ?? null,
	};
}

/** The simplified output items List gives for `records` when run for input item `itemIndex`. */
export function expectedItems(records: Array<Record<string, any>>, itemIndex: number) {
	return records.map((record) => ({ json: expectedSimplified(record), pairedItem: { item: itemIndex } }));
}
