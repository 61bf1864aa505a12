// The `recipes` group (issue 29): each workflow of examples/ that the docs offer as a recipe
// (docs/recipes.md) is imported into one real n8n 2.41.1 the way a user imports the JSON (only the
// credentials and the settings the docs name are set), run against the mock platform, and what it
// produced is checked: files, chat messages, tool answers.
//
// A recipe is one entry of RECIPES, a module in test/e2e/recipes/ exporting:
//   name      selects it alone: --only recipe-<name>
//   title     its name in the assertion lines
//   file      the workflow in examples/
//   picture   its picture in docs/images/ (taken by the browser walk, `npm run screenshots`), or null
//   env(ctx)  optional: settings n8n must start with (N8N_* variables), as the docs tell the user
//   run(t, ctx) -> state   imports, starts what it needs, sets things going; records its assertions
//                          on t and returns a state object (undefined when it failed)
//   check(t, ctx, state)   checks what the recipe produced; runs after every recipe's run, so waits
//                          (a trigger's next poll) overlap
// ctx: { inst, folder(name), startMock(options), serviceCredential(mock, label), importRecipe(file,
// { credentials, edit }), track(promise, close) }. Everything started through ctx is stopped after.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { CREDENTIAL_TYPE, N8nInstance } from '../../../tools/lib/n8n-instance.mjs';
import { ensureN8n } from '../../../tools/lib/n8n-runtime.mjs';
import { inventoryRecipe } from './inventory.mjs';
import { mcpServerRecipe } from './mcp-server.mjs';
import { suspendedAlertRecipe } from './suspended-alert.mjs';
import { mirrorRecipe } from './mirror.mjs';
import { importRecipe } from './workflow.mjs';

export const RECIPES = [inventoryRecipe, suspendedAlertRecipe, mcpServerRecipe, mirrorRecipe];

export const RECIPE_GROUPS = ['recipes', ...RECIPES.map((r) => `recipe-${r.name}`)];

const chosenBy = (only) => RECIPES.filter((r) => !only || only.test('recipes') || only.test(`recipe-${r.name}`));

export async function runRecipesGroup(t, { line, tarball, startMockApi, only }) {
	const started = Date.now();
	const recipes = chosenBy(only);
	const closers = [];
	const apiKeys = [];
	let inst;
	const ctx = {
		get inst() {
			return inst;
		},
		folder(name) {
			const dir = path.join(inst.root, 'recipes', name);
			fs.mkdirSync(dir, { recursive: true });
			return dir;
		},
		async track(promise, close) {
			const value = await promise;
			closers.push(() => close(value));
			return value;
		},
		async startMock(options) {
			const mock = await ctx.track(startMockApi(options), (m) => m.close());
			apiKeys.push(mock.apiKey);
			return mock;
		},
		serviceCredential: (mock, label) =>
			inst.createCredential({
				name: `Service Platform account (${label})`,
				type: CREDENTIAL_TYPE,
				data: { apiKey: mock.apiKey, baseUrl: mock.url },
			}),
		importRecipe: (file, options) => importRecipe(inst, file, options),
	};
	try {
		const ready = await t.setup(
			`n8n line ${line} with the package and the settings the recipes ask for, started, owner signed in`,
			async () => {
				const runtime = await ensureN8n(line);
				inst = await N8nInstance.create({ runtime, tarball, label: `n8n ${runtime.version} (recipes)` });
				const env = Object.assign({}, ...recipes.map((r) => r.env?.(ctx)));
				Object.assign(inst.env, env);
				await inst.start();
				await inst.setupOwner();
				await inst.login();
				console.log(
					`    n8n ${runtime.version} ready after ${(inst.startMs / 1000).toFixed(1)} s; recipes: ${recipes.map((r) => r.name).join(', ')}; settings: ${Object.keys(env).join(', ') || 'none'}`,
				);
				return true;
			},
		);
		if (!ready) return null;
		// A recipe that throws outside its own assertions fails as one more assertion; the others go on.
		const guarded = async (what, fn) => {
			try {
				return await fn();
			} catch (e) {
				await t.test(what, () => Promise.reject(e));
				return undefined;
			}
		};
		const states = [];
		for (const r of recipes) states.push(await guarded(`${r.title}: run`, () => r.run(t, ctx)));
		for (const [i, r] of recipes.entries()) {
			if (states[i]) await guarded(`${r.title}: check`, () => r.check(t, ctx, states[i]));
			else await t.test(`${r.title}: checks`, () => assert.fail(`not run: the recipe's run failed`));
		}
		await inst.stop();
		await t.test('no API key appears in n8n output, logs or any file n8n or a recipe wrote', () => {
			assert.deepEqual(
				apiKeys.flatMap((key) => inst.findSecret(key)),
				[],
			);
		});
		const seconds = (Date.now() - started) / 1000;
		console.log(`    recipes group total ${seconds.toFixed(1)} s`);
		return { seconds };
	} finally {
		await inst?.stop();
		for (const close of closers.reverse()) await close().catch(() => {});
	}
}
