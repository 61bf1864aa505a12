#!/usr/bin/env node
// The redaction of the API key over hostile texts (issue 23): the time to redact 1 MB worst-case
// texts with the redactor of this checkout, against 0.4.0's (one decoding, no layers: --baseline) in the
// same rounds, and with the first one (regular expressions) for scale.
//
//   node tools/bench/redact.mjs [--rounds 7] [--size 1048576] [--baseline 6e66959] [--compare main] [--old b6998ae] [--cap 1000] [--json]
//
// 1. Loads nodes/shared/redaction/redact.ts of this checkout (with the modules it imports), and the
//    redactors of --old, --baseline and --compare (each its redact.ts and the modules it imports, read
//    from git at that commit), each transpiled with the typescript package (transpileModule) and run in
//    this process: no build.
// 2. New: each case at --size characters, one warm-up run, then --rounds runs, each followed by a run of
//    the --baseline redactor on the same text; the medians, in wall-clock ms and CPU ms, the ratio
//    new / baseline of the CPU medians (the machine's noise hits both alike), and the steps the
//    redactor counts per character (its StepMeter). With --compare <ref> (a commit or branch, such as
//    main), the redactor of that commit too, in the same rounds: to weigh a change against the one
//    before it.
// 3. Old: a regular expression cannot be stopped once it runs, and the first redactor takes minutes
//    on some of these texts. So each case runs at 1 KB, 2 KB, ... doubling while a run stays under
//    --cap ms and the next is not expected to pass it; its time at --size is then extrapolated from
//    the largest size measured, with the growth seen over its last doubling (x2 linear, x4
//    quadratic). The output says which figures are extrapolated. Below 1 ms a size is run 5 times
//    (the smallest time counts).
// 4. The time to build a redactor's automaton (on its first text), for a key of 35 and of 200 characters.
// 5. Target: the new redactor under 50 ms for each case at 1 MB. Prints MET / MISSED and the load
//    average (/proc/loadavg) before and after: on a shared machine, read the figures with it.
// --json prints the figures as one JSON line at the end.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, posix } from 'node:path';

import { benchArgs, fixed, median, readLoadavg, root, thousands } from './common.mjs';

const TARGET_MS = 50;
const { values: args } = benchArgs(import.meta.url, {
	rounds: { type: 'string', default: '7' },
	size: { type: 'string', default: String(1 << 20) },
	old: { type: 'string', default: 'b6998ae' },
	baseline: { type: 'string', default: '6e66959' },
	compare: { type: 'string', default: '' },
	cap: { type: 'string', default: '1000' },
	json: { type: 'boolean', default: false },
});
const rounds = Number(args.rounds);
const size = Number(args.size);
const cap = Number(args.cap);

/**
 * A TypeScript module (repository path `file`), transpiled with the typescript package and run here;
 * its exports. Its relative imports are read with `read` (a repository path -> its source) the same way.
 */
function loadModule(file, read, cache = new Map()) {
	const typescript = createRequire(import.meta.url)('typescript');
	const { outputText } = typescript.transpileModule(read(file), {
		compilerOptions: { module: typescript.ModuleKind.CommonJS, target: typescript.ScriptTarget.ES2022 },
	});
	const module = { exports: {} };
	const require = (name) => {
		if (!name.startsWith('.')) return createRequire(import.meta.url)(name);
		const path = `${posix.join(posix.dirname(file), name)}.ts`;
		if (!cache.has(path)) cache.set(path, loadModule(path, read, cache));
		return cache.get(path);
	};
	new Function('module', 'exports', 'require', outputText)(module, module.exports, require);
	return module.exports;
}

/** Where redact.ts sat: nodes/shared/redaction/ from 0.6.0, nodes/shared/text/ in 0.5.0, nodes/shared/ before. */
const REDACT_PATHS = ['nodes/shared/redaction/redact.ts', 'nodes/shared/text/redact.ts', 'nodes/shared/redact.ts'];
const current = loadModule(REDACT_PATHS[0], (path) => readFileSync(join(root, path), 'utf8'));
/** The redactor of a commit or branch: its redact.ts and the modules that imports, all read from git at that ref. */
function redactorAt(ref) {
	const read = (path) =>
		execFileSync('git', ['show', `${ref}:${path}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
	for (const path of REDACT_PATHS) {
		try {
			read(path);
		} catch {
			continue; // not there at that ref: an older layout is tried next
		}
		return loadModule(path, read);
	}
	throw new Error(`${ref}: no redact.ts in that commit`);
}
const first = redactorAt(args.old);
const baseline = redactorAt(args.baseline);
const compared = args.compare ? redactorAt(args.compare) : undefined;

const SPACED = 'Bearer sk-live-3e8b1f0c9a27d456f00d';
const ESCAPED = 'sk-live-%41%2B+key+\\n-3e8b1f0c9a27d456';
const fill = (piece, length) => piece.repeat(Math.ceil(length / piece.length)).slice(0, length);
/** [name, key, text of a given length]. */
const CASES = [
	["one whitespace run after the key's first word", SPACED, (length) => `Bearer${fill(' \n\t ', length - 6)}`],
	['whitespace runs of 8 KB after it', SPACED, (length) => fill(`Bearer${fill(' ', 8192)}`, length)],
	['repeated key prefix (20 characters)', SPACED, (length) => fill(SPACED.slice(0, 20), length)],
	['repeated key, one character short', SPACED, (length) => fill(SPACED.slice(0, -1), length)],
	['the key echoed back to back', SPACED, (length) => fill(SPACED, length)],
	['percent storm', SPACED, (length) => fill('%', length)],
	['escapes that decode, key holding % and \\ (read twice)', ESCAPED, (length) => fill('%41\\n%c3%a9\\u00e9', length)],
	['percent and a digit', ESCAPED, (length) => fill('%4', length)],
	['unfinished UTF-8 escapes', ESCAPED, (length) => fill('%E2%82', length)],
	['\\u storm', SPACED, (length) => fill('\\u', length)],
	['\\u storm, key holding % and \\', ESCAPED, (length) => fill('\\u', length)],
	['mixed escapes and gaps', ESCAPED, (length) => fill('%\\u%4\\ %', length)],
	['non-ASCII text', ESCAPED, (length) => fill('漢字かな🔑é', length)],
	['escapes of escapes (%25, &#37;, \\u0025: read at depth 2)', ESCAPED, (length) => fill('%25%25&#37;41\\u0025', length)],
	['the same, an ordinary key', SPACED, (length) => fill('%25%25&#37;41\\u0025', length)],
	['percent storm, escaped once (%25%25...)', ESCAPED, (length) => fill('%25', length)],
	['the same, an ordinary key', SPACED, (length) => fill('%25', length)],
	['unfinished UTF-8 escapes, an ordinary key', SPACED, (length) => fill('%E2%82', length)],
	['HTML references and \\x escapes', ESCAPED, (length) => fill('&#65;&amp;&#x41;\\x41&lt', length)],
	['the key escaped twice, back to back', ESCAPED, (length) => fill(encodeURIComponent(encodeURIComponent(ESCAPED)), length)],
	[
		'random printable ASCII',
		SPACED,
		(length) => Array.from({ length }, (_, index) => String.fromCharCode(32 + ((index * 7919) % 95))).join(''),
	],
];

function timed(redact, text) {
	const cpu = process.cpuUsage();
	const start = performance.now();
	redact(text);
	const wall = performance.now() - start;
	const used = process.cpuUsage(cpu);
	return { wall, cpu: (used.user + used.system) / 1000 };
}

function measureNew(key, text) {
	const meter = { steps: 0 };
	const redact = current.makeRedactor(key, meter);
	const before = baseline.makeRedactor(key);
	const other = compared?.makeRedactor(key);
	redact(''); // builds its automaton
	before('');
	other?.('');
	const built = meter.steps;
	redact(text);
	before(text);
	other?.(text);
	const steps = (meter.steps - built) / text.length;
	const runs = [];
	const baseRuns = [];
	const otherRuns = [];
	for (let round = 0; round < rounds; round++) {
		runs.push(timed(redact, text));
		baseRuns.push(timed(before, text));
		if (other) otherRuns.push(timed(other, text));
	}
	const cpu = median(runs.map((run) => run.cpu));
	const baseCpu = median(baseRuns.map((run) => run.cpu));
	const compare = other ? { wall: median(otherRuns.map((run) => run.wall)), cpu: median(otherRuns.map((run) => run.cpu)) } : undefined;
	return {
		wall: median(runs.map((run) => run.wall)),
		cpu,
		steps,
		baseWall: median(baseRuns.map((run) => run.wall)),
		baseCpu,
		ratio: cpu / Math.max(baseCpu, 0.01),
		compare,
	};
}

/** The first redactor, doubling the size while it stays under the cap; extrapolated to `size`. */
function measureOld(key, make) {
	const redact = first.makeRedactor(key);
	let last;
	for (let length = 1024; ; length *= 2) {
		length = Math.min(length, size);
		const text = make(length);
		const tries = last === undefined || last.wall < 1 ? 5 : 1;
		const wall = Math.min(...Array.from({ length: tries }, () => timed(redact, text).wall));
		const growth = last === undefined ? 2 : Math.min(8, Math.max(2, wall / Math.max(last.wall, 0.05)));
		last = { length, wall, growth };
		if (length >= size) return { ...last, at: size, estimated: wall, extrapolated: false };
		if (wall > cap || wall * growth > cap * 4) break;
	}
	const doublings = Math.log2(size / last.length);
	return { ...last, at: size, estimated: last.wall * last.growth ** doublings, extrapolated: true };
}

const loadBefore = readLoadavg();
console.log(
	`Redaction of ${thousands(size)}-character worst-case texts: this checkout against ${args.baseline} (baseline, same rounds)${args.compare ? ` and ${args.compare} (same rounds)` : ''} and ${args.old} (the first redactor)`,
);
console.log(`load average before: ${loadBefore}; new: median of ${rounds} runs after a warm-up; old: see --help`);
const results = [];
for (const [name, key, make] of CASES) {
	const text = make(size);
	const fresh = measureNew(key, text);
	const old = measureOld(key, make);
	results.push({ name, key, new: fresh, old });
	const oldText = old.extrapolated
		? `~${thousands(old.estimated)} ms extrapolated (${thousands(old.length)} chars took ${fixed(old.wall)} ms, x${fixed(old.growth)} per doubling)`
		: `${fixed(old.estimated)} ms`;
	const compareText = fresh.compare
		? `   ${args.compare} ${fixed(fresh.compare.wall).padStart(6)} ms (cpu ${fixed(fresh.compare.cpu).padStart(6)} ms)`
		: '';
	console.log(
		`${name.padEnd(56)} new ${fixed(fresh.wall).padStart(6)} ms (cpu ${fixed(fresh.cpu).padStart(6)} ms, ${fixed(fresh.steps, 2)} steps/char) ${fresh.wall < TARGET_MS ? 'MET' : 'MISSED'}${compareText}   baseline ${fixed(fresh.baseWall).padStart(6)} ms (cpu ${fixed(fresh.baseCpu).padStart(6)} ms), x${fixed(fresh.ratio, 2)}   old ${oldText}`,
	);
}
for (const key of [SPACED, Array.from({ length: 200 }, (_, index) => String.fromCharCode(33 + ((index * 37) % 94))).join('')]) {
	const builds = Array.from({ length: rounds }, () => timed((text) => current.makeRedactor(key)(text), '').wall);
	console.log(`building a redactor (on its first text) for a key of ${key.length} characters: ${fixed(median(builds), 2)} ms`);
}
const worst = results.reduce((a, b) => (b.new.wall > a.new.wall ? b : a));
const worstOld = results.reduce((a, b) => (b.old.estimated > a.old.estimated ? b : a));
console.log(
	`worst new: ${fixed(worst.new.wall)} ms (${worst.name}); target < ${TARGET_MS} ms: ${results.every((r) => r.new.wall < TARGET_MS) ? 'MET' : 'MISSED'}`,
);
console.log(
	`worst old: ${worstOld.old.extrapolated ? '~' : ''}${thousands(worstOld.old.estimated)} ms (${worstOld.name})${worstOld.old.extrapolated ? ', extrapolated' : ''}`,
);
console.log(`load average after: ${readLoadavg()}`);
if (args.json)
	console.log(
		JSON.stringify({
			size,
			rounds,
			old: args.old,
			loadBefore,
			results: results.map(({ name, new: fresh, old }) => ({ name, new: fresh, old })),
		}),
	);
