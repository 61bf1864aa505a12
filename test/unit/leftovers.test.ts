/**
 * npm test's leftover check (tools/lib/leftovers.mjs), run for real in a child Node process (the
 * module is ESM): a file left in the run's TMPDIR and a process of the run still listening are both
 * named, the process is killed and the folder removed; a clean run reports nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const leftoversModule = join(__dirname, '..', '..', 'tools', 'lib', 'leftovers.mjs');

/** Runs `body` after isolateTmp() in a fresh Node process; returns what it printed as JSON. */
function runScript(body: string): { dir: string; lines: string[]; pid?: number } {
	const script = `
		import { spawn } from 'node:child_process';
		import fs from 'node:fs';
		import os from 'node:os';
		import path from 'node:path';
		import { findLeftovers, isolateTmp } from ${JSON.stringify(leftoversModule)};
		const dir = isolateTmp('leftovers-test-');
		let pid;
		${body}
		const lines = await findLeftovers(dir, { graceMs: 500 });
		console.log(JSON.stringify({ dir, lines, pid }));
	`;
	const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 15_000 });
	if (r.status !== 0) throw new Error(`script failed (${r.status}): ${r.stderr}`);
	return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

/** Whether `pid` still runs (a killed child nobody reaps yet is a zombie: state Z in /proc). */
const alive = (pid: number): boolean => {
	try {
		return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
	} catch {
		return false;
	}
};

// The process check reads /proc (Linux, where CI runs); elsewhere it is skipped, like the check itself.
const linuxTest = existsSync('/proc/self/environ') ? test : test.skip;

describe('tools/lib/leftovers.mjs', () => {
	linuxTest('names a folder left in the run’s TMPDIR and a process still listening, then kills it and removes the folder', () => {
		const { dir, lines, pid } = runScript(`
			fs.mkdtempSync(path.join(os.tmpdir(), 'left-behind-'));
			const child = spawn(process.execPath, ['-e', "require('net').createServer().listen(0, '127.0.0.1', () => console.log('up')); setTimeout(() => {}, 30000)"],
				{ env: process.env, detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
			await new Promise((resolve) => child.stdout.once('data', resolve));
			child.unref(); child.stdout.destroy();
			pid = child.pid;
		`);
		expect(lines).toEqual([
			expect.stringMatching(new RegExp(`^process ${pid} listening on \\d+: .*node -e`)),
			expect.stringMatching(/^in the temporary folder: left-behind-/),
		]);
		expect(alive(pid!)).toBe(false);
		expect(existsSync(dir)).toBe(false);
	});

	test('a run that cleaned up after itself reports nothing', () => {
		const { dir, lines } = runScript(`
			const made = fs.mkdtempSync(path.join(os.tmpdir(), 'tidy-'));
			fs.rmSync(made, { recursive: true });
		`);
		expect(lines).toEqual([]);
		expect(existsSync(dir)).toBe(false);
	});
});
