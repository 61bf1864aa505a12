// Locates (and once installs) the headless browser the `browser` e2e group and `npm run screenshots`
// drive: Debian's `chromium` package, through apt, as root. Nothing is downloaded from anywhere else:
// playwright-core (npm) only talks CDP to this binary via `executablePath`.
//
//   CHROMIUM_PATH=<binary>   use this browser instead of looking for one
//
// The install prints apt's progress with a heartbeat, as scripts/lib/n8n-runtime.mjs does for n8n.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

import { run } from './process.mjs';

const log = (...a) => console.log('[chromium]', ...a);
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

/** The browser binary if present, else null. */
export function findChromium() {
	const fromEnv = process.env.CHROMIUM_PATH;
	if (fromEnv) {
		if (!fs.existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist; unset it or point it at a Chromium binary.`);
		return fromEnv;
	}
	return CANDIDATES.find((p) => fs.existsSync(p)) ?? null;
}

/** "Chromium 150.0.7871.100 ..." of a binary (a quick `--version`). */
export function chromiumVersion(bin) {
	const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 20_000 });
	return (r.stdout || r.stderr || '').trim() || 'unknown version';
}

/** Runs apt-get with its output streamed (prefixed) and a heartbeat every 15 s. */
async function aptGet(args, label) {
	const started = Date.now();
	log(`$ apt-get ${args.join(' ')}`);
	const tail = [];
	const onLine = (line) => {
		if (!line.trim()) return;
		tail.push(line);
		if (tail.length > 30) tail.shift();
		console.log(`  [${label}] ${line.trimEnd()}`);
	};
	const hb = setInterval(() => console.log(`  [${label}] ... ${Math.round((Date.now() - started) / 1000)} s elapsed (one-time step)`), 15_000);
	const r = await run('apt-get', args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, onLine, label: `apt-get ${args[0]}` }).finally(() => clearInterval(hb));
	const s = ((Date.now() - started) / 1000).toFixed(1);
	if (r.code !== 0) throw new Error(`apt-get ${args.join(' ')} failed (${r.signal || `exit ${r.code}`}) after ${s} s:\n${tail.slice(-15).join('\n')}`);
	log(`  done in ${s} s`);
}

let installing = null;

/**
 * The Chromium binary, installing Debian's `chromium` package first when it is missing.
 * Throws a message that says what to do when it cannot install (not root, no apt).
 */
export async function ensureChromium() {
	const found = findChromium();
	if (found) return { bin: found, version: chromiumVersion(found), installed: false };
	installing ??= (async () => {
		const manual = 'Install it yourself (Debian/Ubuntu: `sudo apt-get update && sudo apt-get install -y chromium`) or set CHROMIUM_PATH to a Chromium/Chrome binary.';
		if (process.platform !== 'linux' || !fs.existsSync('/usr/bin/apt-get')) {
			throw new Error(`Chromium is not installed and this machine has no apt-get to install Debian's chromium package. ${manual}`);
		}
		if (process.getuid?.() !== 0) {
			throw new Error(`Chromium is not installed and installing Debian's chromium package needs root (this runs as uid ${process.getuid?.()}). ${manual}`);
		}
		const started = Date.now();
		log('='.repeat(78));
		log("Installing Debian's chromium package (one-time step, about 15-60 s; later runs reuse it)");
		log('='.repeat(78));
		await aptGet(['update'], 'apt-get update');
		await aptGet(['install', '-y', '--no-install-recommends', 'chromium'], 'apt-get install chromium');
		const bin = findChromium();
		if (!bin) throw new Error(`apt-get installed chromium but none of ${CANDIDATES.join(', ')} exists. ${manual}`);
		log(`${chromiumVersion(bin)} installed in ${((Date.now() - started) / 1000).toFixed(1)} s at ${bin}`);
		return { bin, version: chromiumVersion(bin), installed: true };
	})();
	return installing;
}

// CLI: `node scripts/lib/chromium.mjs` installs/locates the browser.
if (import.meta.url === `file://${process.argv[1]}`) {
	const r = await ensureChromium();
	log(`${r.version} at ${r.bin}`);
}
