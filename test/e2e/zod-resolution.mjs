// The open question of issue 3: does `zod` (and everything else the built code imports) resolve
// when the package is installed the way n8n's editor installs community packages, although the
// package declares no runtime dependency?
//
// What n8n does (read from the installed n8n, dist/modules/community-packages/ or
// dist/services/community-packages.service.js): `npm pack <name>@<version>` in ~/.n8n/nodes, untar
// into ~/.n8n/nodes/node_modules/<name>, strip devDependencies/peerDependencies/
// optionalDependencies from its package.json, `npm install <NPM_COMMON_ARGS> <NPM_INSTALL_ARGS>`
// inside that folder, record it in ~/.n8n/nodes/package.json. And at start n8n sets
// NODE_PATH = module.paths of its own load-nodes-and-credentials.js, so bare imports of a package
// fall back to n8n's own node_modules.

import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';

import { run } from '../../tools/lib/process.mjs';

function findFile(root, rel) {
	for (const r of rel) {
		const p = path.join(root, r);
		if (fs.existsSync(p)) return p;
	}
	return null;
}

/** Locates n8n's community-package service in the installed n8n. */
export function communityServiceFile(runtime) {
	const n8nDir = path.join(runtime.dir, 'node_modules', 'n8n', 'dist');
	return findFile(n8nDir, [
		'modules/community-packages/community-packages.service.js',
		'services/community-packages.service.js',
		'community-packages/community-packages.service.js',
	]);
}

function arrayLiteral(src, name) {
	const m = new RegExp(`const ${name}\\s*=\\s*\\[([^\\]]*)\\]`).exec(src);
	if (!m) return null;
	return [...m[1].matchAll(/'([^']*)'|"([^"]*)"/g)].map((x) => x[1] ?? x[2]);
}

/**
 * { file, common, install, procedure } where procedure is 'pack-extract-install' (n8n >= 1.10x:
 * npm pack + tar + `npm install` inside the package folder, peers stripped) or 'npm-install'
 * (older: `npm install <name>@<version>` in ~/.n8n/nodes).
 */
export function readEditorNpmFlags(runtime) {
	const file = communityServiceFile(runtime);
	if (!file)
		return {
			file: null,
			common: ['--audit=false', '--fund=false'],
			install: ['--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false'],
			procedure: 'unknown',
		};
	const src = fs.readFileSync(file, 'utf8');
	let common = arrayLiteral(src, 'NPM_COMMON_ARGS');
	let install = arrayLiteral(src, 'NPM_INSTALL_ARGS');
	if (!install) {
		// n8n 2.x writes the arguments inline: executeNpmCommand(['install', '--audit=false', ...])
		const m = /\[\s*['"]install['"]\s*,([^\]]*)\]/.exec(src);
		if (m) {
			common = [];
			install = [...m[1].matchAll(/'([^']*)'|"([^"]*)"/g)].map((x) => x[1] ?? x[2]);
		}
	}
	common ??= ['--audit=false', '--fund=false'];
	install ??= ['--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false'];
	const procedure = /strip-components/.test(src) && /peerDependencies/.test(src) ? 'pack-extract-install' : 'npm-install';
	return { file, common, install, procedure };
}

/** Bare module specifiers required by the built JS files of the installed package. */
export function requiredModules(packageDir) {
	const specs = new Map(); // spec -> first file
	const walk = (d) => {
		for (const e of fs.readdirSync(d, { withFileTypes: true })) {
			const p = path.join(d, e.name);
			if (e.isDirectory()) {
				if (e.name !== 'node_modules') walk(p);
			} else if (e.name.endsWith('.js')) {
				const src = fs.readFileSync(p, 'utf8');
				for (const m of src.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)|\bfrom\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g)) {
					const spec = m[1] ?? m[2] ?? m[3];
					if (spec.startsWith('.') || spec.startsWith('/')) continue;
					const bare = spec.startsWith('node:') ? spec.slice(5) : spec;
					if (builtinModules.includes(bare.split('/')[0]) || builtinModules.includes(bare)) continue;
					if (!specs.has(spec)) specs.set(spec, path.relative(packageDir, p));
				}
			}
		}
	};
	walk(path.join(packageDir, 'dist'));
	return specs;
}

/** NODE_PATH exactly as n8n computes it: module.paths of its load-nodes-and-credentials.js. */
export function n8nNodePath(runtime) {
	const dist = path.join(runtime.dir, 'node_modules', 'n8n', 'dist');
	const req = createRequire(path.join(dist, 'load-nodes-and-credentials.js'));
	void req;
	// Module._nodeModulePaths(dir): every ancestor's node_modules.
	const paths = [];
	let dir = dist;
	for (;;) {
		if (path.basename(dir) !== 'node_modules') paths.push(path.join(dir, 'node_modules'));
		const up = path.dirname(dir);
		if (up === dir) break;
		dir = up;
	}
	return paths.join(path.delimiter);
}

/**
 * Resolves each required module from the package's main node file the way Node resolves it inside
 * n8n (package's own node_modules, then ancestors, then NODE_PATH = n8n's tree), using the Node
 * binary n8n runs on. Also lists what else npm put into ~/.n8n/nodes/node_modules.
 */
export async function inspectEditorInstall(inst, runtime) {
	const packageDir = inst.packageDir;
	const specs = requiredModules(packageDir);
	const nodeModules = path.join(inst.nodesDir, 'node_modules');
	const installedTopLevel = [];
	for (const e of fs.readdirSync(nodeModules)) {
		if (e.startsWith('.')) continue;
		if (e.startsWith('@')) for (const s of fs.readdirSync(path.join(nodeModules, e))) installedTopLevel.push(`${e}/${s}`);
		else installedTopLevel.push(e);
	}
	const ownNodeModules = fs.existsSync(path.join(packageDir, 'node_modules'))
		? fs.readdirSync(path.join(packageDir, 'node_modules')).filter((e) => !e.startsWith('.'))
		: [];
	const from = path.join(packageDir, 'package.json');
	const script = `
		const { createRequire } = require('node:module');
		const fs = require('node:fs'); const path = require('node:path');
		const req = createRequire(${JSON.stringify(from)});
		const out = {};
		for (const spec of ${JSON.stringify([...specs.keys()])}) {
			try {
				const p = req.resolve(spec);
				let dir = path.dirname(p), version = '?';
				while (dir !== path.dirname(dir)) {
					const pj = path.join(dir, 'package.json');
					if (fs.existsSync(pj)) { const j = JSON.parse(fs.readFileSync(pj, 'utf8')); if (j.name && j.version) { version = j.name + '@' + j.version; break; } }
					dir = path.dirname(dir);
				}
				out[spec] = p + ' (' + version + ')';
			} catch (e) { out[spec] = 'NOT RESOLVED: ' + e.code + ' ' + e.message.split('\\n')[0]; }
		}
		console.log(JSON.stringify(out));`;
	const r = await run(runtime.nodeBin, ['-e', script], { env: { ...process.env, NODE_PATH: n8nNodePath(runtime) } });
	let resolution = {};
	try {
		resolution = JSON.parse(r.stdout.trim().split('\n').pop());
	} catch {
		resolution = { '(resolver failed)': `NOT RESOLVED: ${r.stderr}` };
	}
	// Shorten paths for the log: where does each come from?
	const where = {};
	for (const [spec, p] of Object.entries(resolution)) {
		if (p.startsWith('NOT RESOLVED')) where[spec] = p;
		else if (p.startsWith(packageDir)) where[spec] = `package's own node_modules: ${p}`;
		else if (p.startsWith(inst.nodesDir))
			where[spec] = `~/.n8n/nodes/node_modules (installed by npm next to the package): ${path.relative(inst.nodesDir, p)}`;
		else if (p.startsWith(runtime.dir)) where[spec] = `n8n's own node_modules via NODE_PATH: ${path.relative(runtime.dir, p)}`;
		else where[spec] = p;
	}
	const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
	return {
		n8n: runtime.version,
		installProcedure: inst.installProcedure ?? null,
		packageJsonAfterInstall: { dependencies: pkg.dependencies ?? {}, peerDependencies: pkg.peerDependencies ?? null },
		requiredModules: Object.fromEntries(specs),
		installedTopLevel: installedTopLevel.filter((n) => n !== 'n8n-nodes-service-platform'),
		packageOwnNodeModules: ownNodeModules,
		resolution: where,
	};
}
