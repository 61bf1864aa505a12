#!/usr/bin/env node
// npm run walk -- <file>:<function>:<parameter> [--ref <git ref>]... [--json] [--root <dir>]
//
// How one value travels through the code's files: a static walk of the TypeScript sources with the
// compiler's type checker. It starts in <function> of <file> (`Class.method` for a method) with
// <parameter> as "me" and walks the body in source order. Me is the parameter and every name bound
// from it: a destructured field, a variable assigned (or a for-of variable iterating) an expression
// that mentions me. A call passes me when an argument mentions me (me, a property of me, an object
// holding me, a call's result on me) or when me is its receiver (`me.method()`, `f.call(me)`): then
// the callee's declaration is resolved with the checker and the walk goes on inside it with the
// matching parameters (or `this`) as me, depth first as execution would (a call's arguments first),
// then comes back to the caller. A method of an interface is followed into each class of the
// program that implements it. Each function is entered at most once per parameter (so recursion
// ends); calls into node_modules and TypeScript's lib are not followed, nor calls of function values
// the checker cannot tie to a body (listed as not followed). Branches are walked one after the other
// in source order, loops once; arrow functions and function expressions are walked where they are
// written, nested function declarations only when called with me.
//
// The files entered make a sequence (coming back from a call is not an entry). A stay is a maximal
// run of entries in one file; a return is a stay in a file the walk had already left. Printed: the
// stays, files and returns, the returns per file and the route (one line per stay: the file, the
// function entered first, as what name, and how many more functions it entered there).
//
//   --ref <ref>   walk the tree of a git commit (a temporary `git worktree` in the system's temporary
//                 folder, this checkout's node_modules linked in, removed after); give it more than
//                 once to compare, `--ref .` for this checkout as it is; a summary table ends the run
//   --json        one JSON object per walk ({ ref, commit, stays, files, returns, returnsPerFile,
//                 route, notFollowed }), as an array
//   --root <dir>  the project to walk (default: this repository); its tsconfig.json's options are used
//   -h, --help    this text
//
// Example: npm run walk -- nodes/ServicesTrigger/poll.ts:runPoll:input --ref 327bc22 --ref .
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import ts from 'typescript';

import { onCleanup, runMain } from '../lib/cleanup.mjs';
import { makeTempDir } from '../lib/process.mjs';
import { formatTable } from '../lib/table.mjs';

const HERE = fileURLToPath(import.meta.url);
const REPO = join(dirname(HERE), '..', '..');

/** The header comment above, for --help. */
function helpText() {
	const lines = readFileSync(HERE, 'utf8').split('\n').slice(1);
	return `${lines
		.slice(
			0,
			lines.findIndex((line) => !line.startsWith('//')),
		)
		.map((line) => line.replace(/^\/\/ ?/, ''))
		.join('\n')}\n`;
}

/** The program of one start file, with the project's compiler options (tsconfig.json) when it has one. */
function createProgram(root, file) {
	let options = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, strict: true, skipLibCheck: true };
	const configPath = join(root, 'tsconfig.json');
	if (existsSync(configPath)) {
		const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
		if (error) throw new Error(`${configPath}: ${ts.flattenDiagnosticMessageText(error.messageText, '\n')}`);
		options = ts.parseJsonConfigFileContent(config, ts.sys, root).options;
	}
	return ts.createProgram([file], { ...options, noEmit: true });
}

const hasBody = (node) => node !== undefined && ts.isFunctionLike(node) && node.body !== undefined;

/** A function's name as the route shows it: `name`, `Class.method`, `new Class`, or the variable holding it. */
function functionName(node) {
	const own = node.name && ts.isIdentifier(node.name) ? node.name.text : undefined;
	const owner = ts.isClassLike(node.parent) ? (node.parent.name?.text ?? '(class)') : undefined;
	if (ts.isConstructorDeclaration(node)) return `new ${owner}`;
	if (owner && own) return `${owner}.${own}`;
	if (own) return own;
	const holder = node.parent;
	if (
		(ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder) || ts.isPropertyDeclaration(holder)) &&
		ts.isIdentifier(holder.name)
	)
		return holder.name.text;
	return `(function at line ${node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1})`;
}

/** The function `name` (or `Class.method`) declared in `source`. */
function findFunction(source, name) {
	let found;
	const visit = (node) => {
		if (found) return;
		if (hasBody(node) && functionName(node) === name) found = node;
		else ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/** The identifiers a parameter or variable name binds (a destructuring pattern binds several). */
function boundNames(name) {
	if (ts.isIdentifier(name)) return [name];
	return name.elements.flatMap((element) => (ts.isOmittedExpression(element) ? [] : boundNames(element.name)));
}

const isAssignment = (kind) => kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
const isOutside = (source) => source.isDeclarationFile || /[\\/]node_modules[\\/]/.test(source.fileName);

/** One walk over `program` from `start` (a function node) with the named parameter as me. */
function walkFrom(program, root, start, parameter) {
	const checker = program.getTypeChecker();
	const entered = new Set(); // `${file}:${position}:${parameter index or "this"}`
	const entries = [];
	const notFollowed = [];
	let implementers; // interface symbol -> class declarations implementing it

	const where = (node) => {
		const source = node.getSourceFile();
		return `${relative(root, source.fileName)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
	};
	const symbolOf = (node) => {
		const symbol = checker.getSymbolAtLocation(node);
		return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
	};

	/** Whether `node` mentions me; a nested function is a callback, not the value, and is not looked into. */
	function mentions(node, frame) {
		if (node === undefined || ts.isFunctionLike(node) || ts.isTypeNode(node)) return false;
		if (node.kind === ts.SyntaxKind.ThisKeyword) return frame.thisIsMe;
		if (ts.isShorthandPropertyAssignment(node)) return frame.me.has(checker.getShorthandAssignmentValueSymbol(node));
		if (ts.isIdentifier(node)) return frame.me.has(checker.getSymbolAtLocation(node));
		if (ts.isPropertyAccessExpression(node)) return mentions(node.expression, frame);
		return ts.forEachChild(node, (child) => mentions(child, frame) || undefined) === true;
	}

	const bind = (name, frame) => {
		for (const id of boundNames(name)) frame.me.add(checker.getSymbolAtLocation(id));
	};

	/** The bodies of an interface's method `member` in the program's classes (outside node_modules) that implement it. */
	function implementationsOf(member) {
		if (!implementers) {
			implementers = new Map();
			for (const source of program.getSourceFiles()) {
				if (isOutside(source)) continue;
				const visit = (node) => {
					if (ts.isClassDeclaration(node)) {
						for (const clause of node.heritageClauses ?? []) {
							for (const type of clause.types) {
								const symbol = symbolOf(type.expression);
								if (symbol) implementers.set(symbol, [...(implementers.get(symbol) ?? []), node]);
							}
						}
					}
					ts.forEachChild(node, visit);
				};
				visit(source);
			}
		}
		const name = member.name?.getText();
		const classes = implementers.get(checker.getSymbolAtLocation(member.parent.name)) ?? [];
		return classes.flatMap((c) => c.members.filter((m) => hasBody(m) && m.name?.getText() === name));
	}

	/** The declarations with a body a call reaches, its receiver and arguments; `.call(thisArg, ...)` unwrapped. */
	function resolveCall(call) {
		const callee = ts.isTaggedTemplateExpression(call) ? call.tag : call.expression;
		let args = ts.isTaggedTemplateExpression(call)
			? [undefined, ...(ts.isTemplateExpression(call.template) ? call.template.templateSpans.map((span) => span.expression) : [])]
			: [...(call.arguments ?? [])];
		let receiver = ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee) ? callee.expression : undefined;
		if (ts.isPropertyAccessExpression(callee) && ['call', 'apply'].includes(callee.name.text)) {
			const target = symbolOf(callee.expression);
			const bodies = (target?.declarations ?? []).filter(hasBody);
			if (bodies.length > 0) {
				receiver = args[0];
				args = callee.name.text === 'call' ? args.slice(1) : [];
				return { declarations: bodies, receiver, args };
			}
		}
		const declaration = checker.getResolvedSignature(call)?.declaration;
		if (declaration === undefined) return { declarations: [], receiver, args };
		if (isOutside(declaration.getSourceFile())) return { declarations: [], receiver, args, outside: true };
		if (hasBody(declaration)) return { declarations: [declaration], receiver, args };
		// An overload's signature: the implementation; an interface's method: its implementations.
		const symbol = declaration.symbol ?? symbolOf(ts.isTaggedTemplateExpression(call) ? call.tag : call.expression);
		const implementation = (symbol?.declarations ?? []).filter(hasBody);
		if (implementation.length > 0) return { declarations: implementation, receiver, args };
		if (ts.isMethodSignature(declaration) && ts.isInterfaceDeclaration(declaration.parent))
			return { declarations: implementationsOf(declaration), receiver, args };
		return { declarations: [], receiver, args };
	}

	/** A call met in `frame`: when it passes me, enter each declaration it reaches (once per parameter). */
	function onCall(call, frame) {
		const { declarations, receiver, args, outside } = resolveCall(call);
		const passed = args.map((arg) => mentions(arg, frame));
		const thisPassed = receiver !== undefined && mentions(receiver, frame);
		if (!thisPassed && !passed.includes(true)) return;
		if (declarations.length === 0) {
			if (!outside) notFollowed.push({ at: where(call), call: call.getText().split('\n')[0].slice(0, 80) });
			return;
		}
		for (const declaration of declarations) {
			const parameters = declaration.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this'));
			const matched = new Map(); // parameter index -> its node
			passed.forEach((is, i) => {
				const parameter = parameters[Math.min(i, parameters.length - 1)];
				if (!is || parameter === undefined || (i >= parameters.length && !parameter.dotDotDotToken)) return;
				matched.set(parameters.indexOf(parameter), parameter);
			});
			const keys = [...matched.keys(), ...(thisPassed ? ['this'] : [])].map(
				(index) => `${declaration.getSourceFile().fileName}:${declaration.pos}:${index}`,
			);
			if (keys.every((key) => entered.has(key))) continue;
			for (const key of keys) entered.add(key);
			const inner = { me: new Set(), thisIsMe: thisPassed };
			for (const parameter of matched.values()) bind(parameter.name, inner);
			enter(declaration, inner, [...(thisPassed ? ['this'] : []), ...[...matched.values()].map((p) => p.name.getText())]);
		}
	}

	function enter(declaration, frame, as) {
		entries.push({
			file: relative(root, declaration.getSourceFile().fileName),
			function: functionName(declaration),
			as: as.join(', ').replace(/\s+/g, ' '),
			line: declaration.getSourceFile().getLineAndCharacterOfPosition(declaration.getStart()).line + 1,
		});
		visit(declaration.body, frame);
	}

	/** Source order; a call's callee and arguments before the call itself, as they run. */
	function visit(node, frame) {
		if (node === undefined) return;
		if (ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isTypeNode(node)) return;
		if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
		if (ts.isVariableDeclaration(node)) {
			visit(node.initializer, frame);
			if (mentions(node.initializer, frame)) bind(node.name, frame);
			return;
		}
		if (ts.isForOfStatement(node) || ts.isForInStatement(node)) {
			visit(node.expression, frame);
			if (mentions(node.expression, frame)) {
				if (ts.isVariableDeclarationList(node.initializer)) node.initializer.declarations.forEach((d) => bind(d.name, frame));
				else if (ts.isIdentifier(node.initializer)) bind(node.initializer, frame);
			}
			visit(node.statement, frame);
			return;
		}
		ts.forEachChild(node, (child) => visit(child, frame));
		if (ts.isBinaryExpression(node) && isAssignment(node.operatorToken.kind) && mentions(node.right, frame)) {
			if (ts.isIdentifier(node.left)) bind(node.left, frame);
		}
		if (ts.isCallExpression(node) || ts.isNewExpression(node) || ts.isTaggedTemplateExpression(node)) onCall(node, frame);
	}

	const frame = { me: new Set(), thisIsMe: parameter === 'this' };
	const found = start.parameters.flatMap((p) => boundNames(p.name)).find((id) => id.text === parameter);
	if (!found && parameter !== 'this') throw new Error(`${functionName(start)} has no parameter named ${parameter}`);
	if (found) frame.me.add(checker.getSymbolAtLocation(found));
	const index = start.parameters.findIndex((p) => boundNames(p.name).includes(found));
	entered.add(`${start.getSourceFile().fileName}:${start.pos}:${found ? index : 'this'}`);
	enter(start, frame, [parameter]);
	return { entries, notFollowed };
}

/** The stays (maximal runs of entries in one file) and the returns (stays in a file already left). */
function countStays(entries) {
	const route = [];
	for (const entry of entries) {
		if (route.at(-1)?.file === entry.file) route.at(-1).entries.push(entry);
		else route.push({ file: entry.file, return: route.some((stay) => stay.file === entry.file), entries: [entry] });
	}
	const returnsPerFile = {};
	for (const stay of route.filter((s) => s.return)) returnsPerFile[stay.file] = (returnsPerFile[stay.file] ?? 0) + 1;
	const sorted = Object.fromEntries(Object.entries(returnsPerFile).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
	return {
		stays: route.length,
		files: new Set(route.map((s) => s.file)).size,
		returns: route.filter((s) => s.return).length,
		returnsPerFile: sorted,
		route,
	};
}

/** Walks `spec` (file:function:parameter) in the project at `root`. */
function walk(root, spec) {
	const [file, name, parameter] = spec.split(':');
	if (!file || !name || !parameter) throw new Error(`expected <file>:<function>:<parameter>, got "${spec}"`);
	const path = resolve(root, file);
	if (!existsSync(path)) throw new Error(`${file}: no such file in ${root}`);
	const program = createProgram(root, path);
	program.getTypeChecker(); // binds the files: their nodes' parents are set from here on
	const source = program.getSourceFile(path);
	const start = findFunction(source, name);
	if (!start) throw new Error(`${file}: no function named ${name} with a body`);
	const { entries, notFollowed } = walkFrom(program, root, start, parameter);
	return { ...countStays(entries), entries: entries.length, notFollowed };
}

const git = (cwd, args) => spawnSync('git', ['-C', cwd, ...args], { encoding: 'utf8' });

/** Runs `fn(dir)` on the tree of `ref`: a temporary detached worktree with this checkout's node_modules, removed after. */
function onRef(root, ref, fn) {
	const commit = git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).stdout.trim();
	if (!commit) throw new Error(`--ref ${ref}: not a commit of the repository at ${root}`);
	const dir = join(makeTempDir('walk-ref-'), 'checkout');
	const added = git(root, ['worktree', 'add', '--detach', dir, commit]);
	if (added.status !== 0) throw new Error(`--ref ${ref}: git worktree add failed:\n${added.stderr}`);
	const remove = () => git(root, ['worktree', 'remove', '--force', dir]);
	const unregister = onCleanup(`git worktree remove ${dir}`, async () => remove(), remove);
	try {
		if (existsSync(join(root, 'node_modules')) && !existsSync(join(dir, 'node_modules')))
			symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
		return { ...fn(dir), commit: commit.slice(0, 10) };
	} finally {
		remove();
		unregister();
	}
}

/** A walk in words: its figures, returns per file, the route and what it could not follow. */
function describe(result) {
	const where = result.ref === '.' ? 'this checkout' : `${result.ref} (${result.commit})`;
	const perFile = Object.entries(result.returnsPerFile).map(([file, n]) => `${file} ${n}`);
	const lines = [
		`\nwalk of ${result.spec} at ${where}`,
		'static, from the TypeScript sources: branches walked one after the other in source order, loops once,',
		'each function entered at most once per parameter, node_modules not followed (tools/walk/walk.mjs --help)',
		`stays ${result.stays}, files ${result.files}, returns ${result.returns} (${result.entries} functions entered)`,
		`returns per file: ${perFile.join(', ') || 'none'}`,
		'route:',
	];
	result.route.forEach((stay, i) => {
		const [first, ...more] = stay.entries;
		const extra = more.length ? ` +${more.length} more` : '';
		lines.push(`  ${String(i + 1).padStart(3)} ${stay.return ? '↩' : ' '} ${stay.file}  ${first.function} (as ${first.as})${extra}`);
	});
	if (result.notFollowed.length) {
		lines.push(`calls passing it not followed (no body the checker can tie to them): ${result.notFollowed.length}`);
		for (const { at, call } of result.notFollowed) lines.push(`  ${at}  ${call}`);
	}
	return lines;
}

/** Writes `text` and waits until it is out: runMain's process.exit would cut a long output to a pipe. */
const write = (stream, text) => new Promise((done) => stream.write(text, done));

await runMain(async () => {
	const { values, positionals } = parseArgs({
		allowPositionals: true,
		options: {
			ref: { type: 'string', multiple: true, default: ['.'] },
			json: { type: 'boolean', default: false },
			root: { type: 'string', default: REPO },
			help: { type: 'boolean', short: 'h', default: false },
		},
	});
	if (values.help || positionals.length !== 1) {
		await write(values.help ? process.stdout : process.stderr, helpText());
		return values.help ? 0 : 2;
	}
	const root = resolve(values.root);
	const [spec] = positionals;
	const results = values.ref.map((ref) => ({
		spec,
		ref,
		...(ref === '.' ? { ...walk(root, spec), commit: null } : onRef(root, ref, (dir) => walk(dir, spec))),
	}));
	if (values.json) {
		await write(process.stdout, `${JSON.stringify(results, null, 2)}\n`);
		return 0;
	}
	const lines = results.flatMap(describe);
	if (results.length > 1) {
		const columns = [
			{ title: 'ref', get: (r) => (r.ref === '.' ? 'this checkout' : `${r.ref} (${r.commit})`) },
			{ title: 'stays', get: (r) => r.stays, align: 'right' },
			{ title: 'files', get: (r) => r.files, align: 'right' },
			{ title: 'returns', get: (r) => r.returns, align: 'right' },
			{ title: 'most returns', get: (r) => Object.entries(r.returnsPerFile)[0]?.join(' ') },
		];
		lines.push(`\n${spec}`, formatTable(results, columns, { maxWidth: 60 }));
	}
	await write(process.stdout, `${lines.join('\n')}\n`);
	return 0;
});
