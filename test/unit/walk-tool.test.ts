/**
 * `npm run walk` (tools/walk/walk.mjs), run for real on a few tiny TypeScript files in the run's
 * temporary folder whose walk is known by construction: the value goes through three files and
 * back, into a destructured field, a method (as `this`), a recursion (entered once), a function with
 * a `this` parameter through `.call`, an interface's one implementation; calls that do not pass it,
 * calls into node_modules and a call of a function value are not entered. Then `--ref` on a git
 * commit of those files: both trees walked in one run, the temporary worktree removed after. And this
 * repository's listing twice: the same walk each time, its JSON (more than a pipe holds) whole.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const tool = join(__dirname, '..', '..', 'tools', 'walk', 'walk.mjs');

const FILES: Record<string, string> = {
	'a.ts': `
import { helper, one } from './b';
import { Box, rec, type Getter } from './d';
import { makeGetter } from './c';
import { unrelated } from './e';
import { external } from 'fake';

export interface Input { box: Box; n: number; inner: { v: number } }

export function start(input: Input, other: number): number {
	one(input);
	unrelated(other);
	external(input);
	const { inner } = input;
	back(inner);
	input.box.take(input.n);
	rec(input, 3);
	one(input);
	const getter: Getter = makeGetter();
	getter.get(input);
	helper.call(input);
	const pick: (value: Input) => void = choose();
	pick(input);
	return 0;
}

function back(field: { v: number }): number {
	return field.v;
}

function choose(): (value: Input) => void {
	return () => undefined;
}
`,
	'b.ts': `
import { two } from './c';
import type { Input } from './a';

export function one(x: Input): void {
	two(x);
}

export function helper(this: Input): number {
	return this.n;
}
`,
	'c.ts': `
import type { Getter } from './d';
import type { Input } from './a';

export function two(y: Input): number {
	return y.n;
}

class CGetter implements Getter {
	get(value: Input): number {
		return value.n;
	}
}

export function makeGetter(): Getter {
	return new CGetter();
}
`,
	'd.ts': `
import type { Input } from './a';

export interface Getter {
	get(value: Input): number;
}

export class Box {
	take(k: number): number {
		return k + this.size();
	}

	size(): number {
		return 1;
	}
}

export function rec(x: Input, n: number): number {
	return n > 0 ? rec(x, n - 1) : x.n;
}
`,
	'e.ts': `
export function unrelated(z: number): number {
	return z + 1;
}
`,
	'node_modules/fake/index.ts': `
export function external(v: unknown): unknown {
	return v;
}
`,
	'.gitignore': 'node_modules\n',
};

interface Walk {
	ref: string;
	stays: number;
	files: number;
	returns: number;
	entries: number;
	returnsPerFile: Record<string, number>;
	route: { file: string; return: boolean; entries: { function: string; as: string }[] }[];
	notFollowed: { at: string; call: string }[];
}

let dir: string;

function walkTool(args: string[]) {
	const r = spawnSync(process.execPath, [tool, '--root', dir, ...args], { encoding: 'utf8', timeout: 60_000 });
	return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function walkJson(args: string[]): Walk[] {
	const r = walkTool([...args, '--json']);
	if (r.code !== 0) throw new Error(`walk failed (${r.code}): ${r.stderr}`);
	return JSON.parse(r.stdout) as Walk[];
}

const git = (...args: string[]) => {
	const r = spawnSync('git', ['-C', dir, '-c', 'user.name=walk test', '-c', 'user.email=walk@test.invalid', ...args], { encoding: 'utf8' });
	if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
	return r.stdout;
};

beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'walk-tool-'));
	for (const [name, text] of Object.entries(FILES)) {
		mkdirSync(join(dir, name, '..'), { recursive: true });
		writeFileSync(join(dir, name), text);
	}
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run walk', () => {
	it('follows the value through three files and back, each function once per parameter', () => {
		const [walk] = walkJson(['a.ts:start:input']);
		expect(walk.route.map((stay) => [stay.file, stay.entries.map((e) => `${e.function} (${e.as})`)])).toEqual([
			['a.ts', ['start (input)']],
			['b.ts', ['one (x)']],
			['c.ts', ['two (y)']],
			// the destructured field
			['a.ts', ['back (field)']],
			// a method with the value as its receiver (and a property as its argument); then a recursion, entered once
			['d.ts', ['Box.take (this, k)', 'Box.size (this)', 'rec (x)']],
			// the interface's one implementation
			['c.ts', ['CGetter.get (value)']],
			// .call(input): as `this`
			['b.ts', ['helper (this)']],
		]);
		// unrelated(other), external(input) (node_modules), the second one(input): not entered
		expect(walk).toMatchObject({ stays: 7, files: 4, returns: 3, entries: 9, returnsPerFile: { 'a.ts': 1, 'c.ts': 1, 'b.ts': 1 } });
		expect(walk.route.map((stay) => stay.return)).toEqual([false, false, false, true, false, true, true]);
		// a function value passing it, with no body the checker can tie to it
		expect(walk.notFollowed.map((n) => n.call)).toEqual(['pick(input)']);
	}, 60_000);

	it('starts from any parameter: one the value is not passed on from enters nothing else', () => {
		const [walk] = walkJson(['a.ts:start:other']);
		expect(walk).toMatchObject({ stays: 2, files: 2, returns: 0, returnsPerFile: {} });
		expect(walk.route.map((stay) => stay.entries[0].function)).toEqual(['start', 'unrelated']);
	}, 60_000);

	it('prints the figures and the route, says how branches are walked, and names what it cannot find', () => {
		const r = walkTool(['a.ts:start:input']);
		expect(r.code).toBe(0);
		expect(r.stdout).toMatch(/stays 7, files 4, returns 3 \(9 functions entered\)/);
		expect(r.stdout).toMatch(/branches walked one after the other in source order/);
		expect(r.stdout).toMatch(/returns per file: a\.ts 1, b\.ts 1, c\.ts 1/);
		expect(r.stdout).toMatch(/ {2}5 {3}d\.ts {2}Box\.take \(as this, k\) \+2 more\n/);
		const missing = walkTool(['a.ts:nowhere:input']);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toMatch(/a\.ts: no function named nowhere/);
		const help = walkTool(['--help']);
		expect(help.stdout).toMatch(/^npm run walk -- <file>:<function>:<parameter>/);
	}, 60_000);

	it("walks this repository's listing the same way twice and writes all its JSON before it exits", () => {
		const r = spawnSync(
			process.execPath,
			[tool, 'nodes/shared/listing/listing.ts:listServicePages:session', '--ref', '.', '--ref', '.', '--json'],
			{
				encoding: 'utf8',
				timeout: 60_000,
			},
		);
		// More than a pipe holds: a slow reader used to get it cut by process.exit (a race this read seldom loses).
		expect(r.stdout.length).toBeGreaterThan(65_536);
		const [walk, again] = JSON.parse(r.stdout) as Walk[];
		expect(again).toEqual(walk);
		expect(walk.route).toHaveLength(walk.stays);
		expect(walk.route[0].entries[0]).toMatchObject({ function: 'listServicePages', as: 'session' });
	}, 60_000);

	it('--ref walks a commit in a temporary worktree, next to this tree, and removes it', () => {
		git('init', '-q');
		git('add', '.');
		git('commit', '-q', '-m', 'fixture');
		// After the commit the value no longer goes back to a.ts: a stay and a return fewer.
		writeFileSync(join(dir, 'a.ts'), FILES['a.ts'].replace('\tback(inner);\n', ''));
		const [before, now] = walkJson(['a.ts:start:input', '--ref', 'HEAD', '--ref', '.']);
		expect(before).toMatchObject({ ref: 'HEAD', stays: 7, returns: 3 });
		expect(now).toMatchObject({ ref: '.', stays: 6, returns: 2 });
		expect(git('worktree', 'list').trim().split('\n')).toHaveLength(1);
		expect(readdirSync(tmpdir())).not.toContainEqual(expect.stringMatching(/^walk-ref-/));
	}, 60_000);
});
