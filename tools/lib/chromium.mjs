// Locates (and once installs) the headless browser the `browser` e2e group and `npm run screenshots`
// drive: Debian's `chromium` package, through apt, as root. Nothing is downloaded from anywhere else:
// playwright-core (npm) only talks CDP to this binary via `executablePath`.
//
//   CHROMIUM_PATH=<binary>   use this browser instead of looking for one
//
// The install goes through tools/lib/apt.mjs (progress streamed, heartbeat, one apt-get update).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

import { aptInstall } from './apt.mjs';

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

let installing = null;

/**
 * The Chromium binary, installing Debian's `chromium` package first when it is missing.
 * Throws a message that says what to do when it cannot install (not root, no apt).
 */
export async function ensureChromium() {
	const found = findChromium();
	if (found) return { bin: found, version: chromiumVersion(found), installed: false };
	installing ??= (async () => {
		const manual =
			'Install it yourself (Debian/Ubuntu: `sudo apt-get update && sudo apt-get install -y chromium`) or set CHROMIUM_PATH to a Chromium/Chrome binary.';
		const started = Date.now();
		await aptInstall(['chromium'], { why: 'the browser tests (set CHROMIUM_PATH to use another browser)', log });
		const bin = findChromium();
		if (!bin) throw new Error(`apt-get installed chromium but none of ${CANDIDATES.join(', ')} exists. ${manual}`);
		log(`${chromiumVersion(bin)} installed in ${((Date.now() - started) / 1000).toFixed(1)} s at ${bin}`);
		return { bin, version: chromiumVersion(bin), installed: true };
	})();
	return installing;
}

// CLI: `node tools/lib/chromium.mjs` installs/locates the browser.
if (import.meta.url === `file://${process.argv[1]}`) {
	const r = await ensureChromium();
	log(`${r.version} at ${r.bin}`);
}
