// Plain-text table for terminal output.

const cell = (v) => (v === null || v === undefined ? '-' : String(v));

/** columns: [{ title, get(item), align?: 'right' }] */
export function formatTable(items, columns, { maxWidth = 40 } = {}) {
	const rows = items.map((it) => columns.map((c) => truncate(cell(c.get(it)), maxWidth)));
	const widths = columns.map((c, i) => Math.max(c.title.length, ...rows.map((r) => r[i].length)));
	const fmt = (r) =>
		r
			.map((v, i) => (columns[i].align === 'right' ? v.padStart(widths[i]) : v.padEnd(widths[i])))
			.join('  ')
			.trimEnd();
	return [fmt(columns.map((c) => c.title)), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

function truncate(s, n) {
	return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** The service table of the demo: works for simplified items and for raw records. */
export const SERVICE_COLUMNS = [
	{ title: 'ID', get: (i) => i.id_service },
	{ title: 'Name', get: (i) => i.name ?? i.values?.values?.name },
	{ title: 'Status', get: (i) => i.status ?? i.values?.values?.status },
	{ title: 'OS', get: (i) => i.os_name ?? i.values?.values?.service?.customize?.OS?.name },
	{ title: 'vCores', get: (i) => i.vcores ?? i.values?.values?.service?.customize?.specifications?.vcores, align: 'right' },
	{ title: 'RAM GB', get: (i) => i.ram_gb ?? i.values?.values?.service?.customize?.specifications?.GB?.ram, align: 'right' },
	{ title: 'Disk GB', get: (i) => i.hd_gb ?? i.values?.values?.service?.customize?.specifications?.GB?.hd, align: 'right' },
];
