// The summary of a CPU profile (node --cpu-prof) of tools/bench/measure.mjs's `profile` mode, for
// `npm run bench`: self time by package and by function, and inclusive time of the package's code,
// counting only the samples taken during the timed runs (`windows`, in the profiler's clock).
import { readFileSync } from 'node:fs';

import { fixed } from './common.mjs';

/** `root`: the checkout, whose paths are shortened to dist/..., tools/bench/... */
export function summarizeProfile(file, windows, root) {
	const profile = JSON.parse(readFileSync(file, 'utf8'));
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const selfTime = new Map();
	// Only samples taken during the timed runs (not start-up, module loading or warm-up).
	let timestamp = profile.startTime;
	profile.samples.forEach((id, i) => {
		timestamp += profile.timeDeltas[i];
		const delta = profile.timeDeltas[i + 1] ?? 0;
		if (windows.some(([start, end]) => timestamp >= start && timestamp <= end)) {
			selfTime.set(id, (selfTime.get(id) ?? 0) + delta);
		}
	});
	const total = [...selfTime.values()].reduce((a, b) => a + b, 0);
	const short = (url) =>
		url
			.replace(/^file:\/\//, '')
			.replace(`${root}/`, '')
			.replace(/.*node_modules\//, '');
	const group = (url) => {
		const s = short(url);
		if (s === '') return '(V8/native)';
		if (s.startsWith('node:')) return 'node core';
		if (s.startsWith('dist/') || s.startsWith('tools/bench/') || s.startsWith('tools/mock-platform/')) return s;
		return s.replace(/^((@[^/]+\/)?[^/]+).*/, '$1');
	};
	const label = (frame) =>
		`${frame.functionName || '(anonymous)'}  ${short(frame.url) || ''}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
	const fn = new Map();
	const pkg = new Map();
	const inclusive = new Map();
	for (const [id, time] of selfTime) {
		const { callFrame } = byId.get(id);
		fn.set(label(callFrame), (fn.get(label(callFrame)) ?? 0) + time);
		const g = callFrame.functionName.startsWith('(') ? callFrame.functionName : group(callFrame.url);
		pkg.set(g, (pkg.get(g) ?? 0) + time);
		const seen = new Set();
		for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
			const key = label(byId.get(cur).callFrame);
			if (!seen.has(key)) {
				seen.add(key);
				inclusive.set(key, (inclusive.get(key) ?? 0) + time);
			}
		}
	}
	const top = (map, n, filter = () => true) =>
		[...map]
			.filter(([key]) => filter(key))
			.sort((a, b) => b[1] - a[1])
			.slice(0, n)
			.map(([key, time]) => `  ${fixed(time / 1000, 0).padStart(6)} ms ${fixed((100 * time) / total).padStart(5)}%  ${key}`)
			.join('\n');
	const wall = windows.reduce((sum, [start, end]) => sum + (end - start), 0);
	return [
		`  ${windows.length} timed runs, ${fixed(wall / 1000, 0)} ms wall, ${fixed(total / 1000, 0)} ms sampled (start-up and warm-up left out)`,
		'  self time by package:',
		top(pkg, 10),
		'  self time by function:',
		top(fn, 12),
		'  inclusive time, package code and validation:',
		top(inclusive, 10, (key) => /dist\/|safeParse|JSON|measure\.mjs|axios|handleStreamEnd/.test(key)),
	].join('\n');
}
