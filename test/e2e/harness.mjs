// Minimal assertion runner for the e2e suite: named assertions, per-assertion pass/fail lines,
// counts. A failed prerequisite (`setup`) marks the assertions that depend on it as failed with the
// reason, so the counts never hide a case that did not run.

import { AssertionError } from 'node:assert';

export class Suite {
	constructor(label) {
		this.label = label;
		this.results = [];
		this.blocked = null; // reason when setup failed
	}

	get passed() {
		return this.results.filter((r) => r.ok).length;
	}

	get failed() {
		return this.results.filter((r) => !r.ok).length;
	}

	/** A prerequisite: when it fails, every later `test` of this suite fails as "not run". */
	async setup(name, fn) {
		if (this.blocked) return this.#record(name, false, 0, `not run: ${this.blocked}`);
		const r = await this.#run(name, fn);
		if (!r.ok) this.blocked = `setup "${name}" failed`;
		return r.value;
	}

	async test(name, fn) {
		if (this.blocked) return this.#record(name, false, 0, `not run: ${this.blocked}`);
		const r = await this.#run(name, fn);
		return r.value;
	}

	async #run(name, fn) {
		const t = Date.now();
		try {
			const value = await fn();
			this.#record(name, true, Date.now() - t);
			return { ok: true, value };
		} catch (e) {
			this.#record(name, false, Date.now() - t, describeError(e));
			return { ok: false };
		}
	}

	#record(name, ok, ms, detail) {
		this.results.push({ name, ok, ms, detail });
		const time = ms ? ` (${(ms / 1000).toFixed(1)} s)` : '';
		console.log(`  ${ok ? 'PASS' : 'FAIL'}  [${this.label}] ${name}${time}`);
		if (!ok && detail) console.log(indent(detail, '        '));
	}
}

function describeError(e) {
	if (e instanceof AssertionError) {
		const msg = e.generatedMessage
			? e.message
			: `${e.message}\n${e.message.includes('actual') ? '' : `actual: ${short(e.actual)}\nexpected: ${short(e.expected)}`}`;
		return msg.trim();
	}
	return String(e?.stack ?? e)
		.split('\n')
		.slice(0, 30)
		.join('\n');
}

function short(v) {
	let s;
	try {
		s = JSON.stringify(v);
	} catch {
		s = String(v);
	}
	return s && s.length > 600 ? `${s.slice(0, 600)} ...` : s;
}

function indent(text, pad) {
	return String(text)
		.split('\n')
		.map((l) => pad + l)
		.join('\n');
}
