// Installs Debian packages the tests need (chromium for the browser group, redis-server and
// postgresql-15 for the queue group) with apt-get, as root: apt's output streamed with a prefix and a
// heartbeat every 15 s. `apt-get update` runs at most once per process, however many groups install.
// Nothing is downloaded from anywhere but the machine's Debian mirrors.

import fs from 'node:fs';

import { run } from './process.mjs';

let updated = null;

/** Runs apt-get with its output streamed and a heartbeat; throws with apt's last lines on failure. */
async function aptGet(args, label, log) {
	const started = Date.now();
	const tail = [];
	const onLine = (line) => {
		if (!line.trim()) return;
		tail.push(line);
		if (tail.length > 30) tail.shift();
		console.log(`  [${label}] ${line.trimEnd()}`);
	};
	const heartbeat = setInterval(
		() => console.log(`  [${label}] ... ${Math.round((Date.now() - started) / 1000)} s elapsed (one-time step)`),
		15_000,
	);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const r = await run('apt-get', args, { env, onLine, label: `apt-get ${args[0]}` }).finally(() => clearInterval(heartbeat));
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	if (r.code !== 0)
		throw new Error(
			`apt-get ${args.join(' ')} failed (${r.signal || `exit ${r.code}`}) after ${seconds} s:\n${tail.slice(-15).join('\n')}`,
		);
	log(`  apt-get ${args[0]}: ${seconds} s`);
}

/**
 * Installs the Debian `packages`. Throws a message naming the command to run
 * when this cannot install them itself (not root, no apt-get).
 */
export async function aptInstall(packages, { why, log = console.log } = {}) {
	const command = `apt-get update && apt-get install -y --no-install-recommends ${packages.join(' ')}`;
	if (process.platform !== 'linux' || !fs.existsSync('/usr/bin/apt-get')) {
		throw new Error(
			`${why} needs ${packages.join(' and ')}, and this machine has no apt-get to install them: install them yourself (Debian: ${command}).`,
		);
	}
	if (process.getuid?.() !== 0) {
		throw new Error(
			`${why} needs ${packages.join(' and ')}; installing them needs root (this runs as uid ${process.getuid?.()}). Run as root: ${command}`,
		);
	}
	log(`Installing Debian package(s) ${packages.join(', ')} for ${why} (one-time step, about a minute; later runs reuse them)`);
	updated ??= aptGet(['update'], 'apt-get update', log);
	await updated;
	await aptGet(['install', '-y', '--no-install-recommends', ...packages], `apt-get install ${packages.join(' ')}`, log);
}
