/**
 * Pure checks behind test/unit/house.test.ts: the size of the package's source files and the
 * import graph among them. The graph uses TypeScript's own pre-parser (`ts.preProcessFile`), so
 * `import type`, `export ... from`, `import()` and `require()` all count: a type-only import is
 * still a dependency a reader has to follow. Also: merge conflict markers a merge left behind.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

export const REPO_DIR = resolve(__dirname, '../..');
export const MAX_LINES = 300;

/** Every `.ts` file below `dirs` (relative to the repository), as repository-relative paths. */
export function sourceFiles(dirs: string[]): string[] {
	const out: string[] = [];
	const walk = (dir: string): void => {
		for (const name of readdirSync(dir).sort()) {
			const full = join(dir, name);
			if (statSync(full).isDirectory()) walk(full);
			else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(relative(REPO_DIR, full));
		}
	};
	for (const dir of dirs) walk(join(REPO_DIR, dir));
	return out;
}

/** The text of the first comment of a file (a run of `//` lines or one block comment), or ''. */
export function firstComment(text: string): string {
	const trimmed = text.replace(/^\s+/, '');
	if (trimmed.startsWith('/*')) return trimmed.slice(0, trimmed.indexOf('*/') + 2);
	const lines: string[] = [];
	for (const line of trimmed.split('\n')) {
		if (!line.trimStart().startsWith('//')) break;
		lines.push(line);
	}
	return lines.join('\n');
}

/**
 * Why a file may be longer than MAX_LINES, from its first comment: it is generated ("Generated ...
 * do not edit"), or the comment says why it is over the limit ("over 300 lines because ...").
 * Undefined when it gives no reason.
 */
export function lengthExemption(text: string): 'generated' | 'explained' | undefined {
	const comment = firstComment(text);
	if (/\bgenerated\b/i.test(comment) && /\bdo not edit\b/i.test(comment)) return 'generated';
	if (new RegExp(`\\b(over|more than|longer than) ${MAX_LINES} lines\\b`, 'i').test(comment)) return 'explained';
	return undefined;
}

export function lineCount(text: string): number {
	return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** The relative imports of one file resolved to repository-relative paths (packages are left out). */
export function localImports(file: string, text: string): string[] {
	const found = new Set<string>();
	for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
		if (!fileName.startsWith('.')) continue;
		const base = resolve(REPO_DIR, dirname(file), fileName);
		const target = [base, `${base}.ts`, join(base, 'index.ts')].find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
		if (target) found.add(relative(REPO_DIR, target));
	}
	return [...found].sort();
}

export type ImportGraph = Map<string, string[]>;

export function importGraph(files: string[]): ImportGraph {
	return new Map(files.map((file) => [file, localImports(file, readFileSync(join(REPO_DIR, file), 'utf8'))]));
}

/**
 * The import cycles of a graph: its strongly connected components with more than one module, or
 * one module importing itself (Tarjan's algorithm). Each cycle is sorted, the list too.
 */
export function importCycles(graph: ImportGraph): string[][] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const cycles: string[][] = [];
	let next = 0;
	const visit = (node: string): void => {
		index.set(node, next);
		low.set(node, next++);
		stack.push(node);
		onStack.add(node);
		for (const target of graph.get(node) ?? []) {
			if (!index.has(target)) {
				visit(target);
				low.set(node, Math.min(low.get(node)!, low.get(target)!));
			} else if (onStack.has(target)) {
				low.set(node, Math.min(low.get(node)!, index.get(target)!));
			}
		}
		if (low.get(node) !== index.get(node)) return;
		const component: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			onStack.delete(member);
			component.push(member);
		} while (member !== node);
		if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
	};
	for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
	return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The rooms' imports that break their order: `from -> to` of modules in nodes/shared/<room>/. */
export function roomOrderBreaks(graph: ImportGraph, rooms: readonly string[]): string[] {
	const roomOf = (file: string) => /^nodes\/shared\/([^/]+)\//.exec(file)?.[1];
	const breaks: string[] = [];
	for (const [from, targets] of graph) {
		const own = roomOf(from);
		if (own === undefined) continue;
		for (const to of targets) {
			const theirs = roomOf(to);
			if (theirs === undefined || !rooms.includes(own) || !rooms.includes(theirs) || rooms.indexOf(theirs) > rooms.indexOf(own)) {
				if (theirs !== own) breaks.push(`${from} -> ${to}`);
			}
		}
	}
	return breaks.sort();
}

/** GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\- _]/gu, '')
		.replace(/ /g, '-');
}

/**
 * Relative links of a Markdown file (repository-relative) that lead nowhere: a missing file, or an
 * anchor no heading of the target Markdown file gives. Links inside code blocks are left out.
 */
export function brokenLinks(file: string): string[] {
	const read = (path: string): string => readFileSync(join(REPO_DIR, path), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
	const anchorsOf = (path: string): Set<string> => new Set([...read(path).matchAll(/^#{1,6} (.+)$/gm)].map((m) => headingAnchor(m[1])));
	const broken: string[] = [];
	for (const [, link] of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
		if (/^[a-z]+:/i.test(link)) continue; // https:, mailto:
		const [path, anchor] = link.split('#');
		const target = path ? relative(REPO_DIR, resolve(REPO_DIR, dirname(file), path)) : file;
		if (!existsSync(join(REPO_DIR, target))) broken.push(`${file}: ${link} (no such file)`);
		else if (anchor && target.endsWith('.md') && !anchorsOf(target).has(anchor)) broken.push(`${file}: ${link} (no such heading)`);
	}
	return broken;
}

/** Line numbers (1-based) of merge conflict markers a resolved merge left in a text. */
export function conflictMarkerLines(text: string): number[] {
	return text.split('\n').flatMap((line, i) => (/^(<{7}|>{7})( |$)|^\|{7}( |$)/.test(line) ? [i + 1] : []));
}

/** Tracked files of the repository that are text (no NUL byte in them). */
export function trackedTextFiles(): string[] {
	return execFileSync('git', ['ls-files', '-z'], { cwd: REPO_DIR, encoding: 'utf8' })
		.split('\0')
		.filter((file) => file && existsSync(join(REPO_DIR, file)) && !readFileSync(join(REPO_DIR, file)).includes(0));
}

/** Every tool file (`.mjs`, `.cjs`, `.cts`, `.js`) below `dirs`, as repository-relative paths. */
export function toolFiles(dirs: string[]): string[] {
	const out: string[] = [];
	const walk = (dir: string): void => {
		for (const name of readdirSync(dir).sort()) {
			const full = join(dir, name);
			if (statSync(full).isDirectory()) walk(full);
			else if (/\.(mjs|cjs|cts|js)$/.test(name)) out.push(relative(REPO_DIR, full));
		}
	};
	for (const dir of dirs) walk(join(REPO_DIR, dir));
	return out;
}

/** The relative imports and requires of a tool file, resolved to repository-relative paths. */
export function toolImports(file: string): string[] {
	const found = new Set<string>();
	for (const { fileName } of ts.preProcessFile(readFileSync(join(REPO_DIR, file), 'utf8'), true, true).importedFiles) {
		if (!fileName.startsWith('.')) continue;
		found.add(relative(REPO_DIR, resolve(REPO_DIR, dirname(file), fileName)));
	}
	return [...found].sort();
}

/**
 * The tools' one-way imports (docs/development.md): which folders a tool file's folder may import
 * from besides itself. The first entry whose folder holds the file decides.
 */
export const TOOL_IMPORTS: ReadonlyArray<[folder: string, mayImport: string[]]> = [
	['tools/lib/', []],
	['tools/mock-platform/', ['tools/lib/']],
	['test/chaos/', ['tools/lib/', 'tools/mock-platform/']],
	['test/e2e/', ['tools/lib/', 'tools/mock-platform/', 'test/chaos/']],
	['tools/', ['tools/lib/', 'tools/mock-platform/']],
	['test/', ['tools/lib/', 'tools/mock-platform/']],
];

/** Imports of tool files that break TOOL_IMPORTS, as "file -> import". */
export function toolImportBreaks(files: string[]): string[] {
	const breaks: string[] = [];
	for (const file of files) {
		const rule = TOOL_IMPORTS.find(([folder]) => file.startsWith(folder));
		if (!rule) continue;
		const [folder, mayImport] = rule;
		// Its own folder: tools/bench/ for tools/bench/network/x.mjs; a script at the top of test/ has none.
		const own = folder === 'tools/' ? `tools/${file.split('/')[1]}/` : folder === 'test/' ? file : folder;
		for (const target of toolImports(file)) {
			if (!target.startsWith(own) && !mayImport.some((allowed) => target.startsWith(allowed))) breaks.push(`${file} -> ${target}`);
		}
	}
	return breaks;
}
