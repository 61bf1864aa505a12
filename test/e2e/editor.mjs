// The `browser` group: what a person sees and clicks in the real n8n editor, driven in headless
// Chromium (Debian's `chromium`, located/installed by tools/lib/chromium.mjs) through npm's
// playwright-core. n8n runs with the packed package installed by n8n's own Community Nodes installer
// steps (N8nInstance install mode 'editor'); the owner is created over REST, the browser signs in
// through the real sign-in form. Each step of issue 11 is one named assertion; a failing step saves
// a screenshot and the page's HTML under .tmp/ and names both in its failure line.
//
// The same walk, with `shots`, writes the README's pictures (test/e2e/screenshots.mjs).
// Selectors and editor behaviour verified on 2.41.1: /work/shared/notes/editor.md.
// Over 400 lines because it is one walk through the editor, step after step on one page; the
// helpers after it serve only the walk.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { ensureChromium } from '../../tools/lib/chromium.mjs';
import { onCleanup } from '../../tools/lib/cleanup.mjs';
import { CREDENTIAL_TYPE, N8nInstance, PACKAGE_NAME } from '../../tools/lib/n8n-instance.mjs';
import { ensureN8n } from '../../tools/lib/n8n-runtime.mjs';
import { waitUntil } from '../../tools/lib/process.mjs';
import { publishMcpWorkflow } from '../../tools/lib/mcp.mjs';
import { RECIPES } from './recipes/recipes.mjs';
import { credentialRefs, importRecipe, readRecipe } from './recipes/workflow.mjs';

const MOCK_COUNT = 7; // small enough that the output table shows every row without scrolling
const WRONG_KEY = 'browser-WRONG-key-5d1e9c20';
const REMOTE_PLAIN_HTTP = 'http://api.example.com';
const N8N1_REJECTED_TEXT = 'Authorization failed - please check your credentials';
const VIEWPORT = { width: 1440, height: 900 };
// Bounds, not waits: every wait below ends when its condition holds. Generous, for a busy machine.
const STEP_TIMEOUT_MS = 30_000;
const RUN_TIMEOUT_MS = 60_000;
const NAVIGATION_TIMEOUT_MS = 60_000;
/** The README's pictures, as `runBrowserSteps` writes them when given `shots`. */
export const SCREENSHOTS = [
	...[
		'node-creator.png',
		'node-panel.png',
		'credential-dialog.png',
		'output-table.png',
		'get-from-list.png',
		'trigger-event.png',
		'mcp-canvas.png',
		'mcp-tool-panel.png',
	],
	...RECIPES.map((r) => r.picture).filter(Boolean),
];

/** The texts a user must see, read from the packed credential (its notice and its 401 test rule). */
export function credentialTexts(packageDir) {
	const mod = createRequire(import.meta.url)(path.join(packageDir, 'dist', 'credentials', 'ServicePlatformApi.credentials.js'));
	const cred = new mod.ServicePlatformApi();
	const notice = cred.properties.find((p) => p.type === 'notice')?.displayName;
	const rule401 = cred.test?.rules?.find((r) => r.type === 'responseCode' && r.properties?.value === 401)?.properties?.message;
	assert.ok(notice, 'the packed credential has a plain-http notice');
	assert.ok(rule401, 'the packed credential has a 401 test rule');
	return { notice, rule401 };
}

/** Launches headless Chromium (stopped on clean-up). */
export async function launchBrowser() {
	const { chromium, selectors } = await import('playwright-core');
	selectors.setTestIdAttribute('data-test-id'); // n8n's attribute
	const found = await ensureChromium();
	const browser = await chromium.launch({ executablePath: found.bin, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
	const un = onCleanup('chromium', () => browser.close().catch(() => {}));
	return { browser, version: found.version, close: async () => (un(), browser.close().catch(() => {})) };
}

/** n8n with the package installed the Community Nodes way, started, owner set up over REST. */
export async function startEditorN8n({ line, tarball, log = console.log }) {
	const runtime = await ensureN8n(line);
	const inst = await N8nInstance.create({ runtime, tarball, install: 'editor', label: `n8n ${runtime.version} (browser)`, log });
	await inst.start();
	await inst.setupOwner();
	return inst;
}

/**
 * Runs the steps against a started n8n. `step(name, fn)` is the caller's assertion runner
 * (Suite.test); `shots` (optional) is a folder the README's pictures are written to.
 * Returns { timings: {step: ms} }.
 */
export async function runBrowserSteps({ step, inst, mock, page, artifactsDir, texts, line, shots }) {
	const timings = {};
	// After a failed step the editor is brought back to the canvas (toCanvas) and each step opens what
	// it works in: one failure stays one failure. A step that builds on what an earlier one did
	// (`builtOn(...)`, what `did(...)` recorded) is reported as not run, saying what it lacks; when the
	// editor cannot be brought back, every later step is reported as not run, saying why.
	let broken = null;
	const done = new Set();
	const notRun = (why) => Object.assign(new Error(), { stack: `not run: ${why}`, notRun: true });
	const did = (what) => done.add(what);
	const builtOn = (...what) => {
		const missing = what.filter((w) => !done.has(w));
		if (missing.length) throw notRun(`it builds on ${missing.join(' and ')}, which an earlier step did not do`);
	};
	const named = async (name, fn) => {
		const t = Date.now();
		const r = await step(name, async () => {
			if (broken) throw notRun(broken);
			try {
				return await fn();
			} catch (e) {
				if (e.notRun) throw e;
				const saved = await saveArtifacts(page, artifactsDir, `browser-n8n${line}-${slug(name)}`);
				const after = await toCanvas(page).then(
					() => 'the editor is back on the canvas',
					(err) => ((broken = `step "${name}" failed and the editor could not be brought back to the canvas`), err.message),
				);
				// Of Playwright's call log (after "Call log:") its first line and its last say what was waited
				// for and what was seen last; the rest is noise here. An assertion's "- expected" lines are not.
				const [message, callLog = ''] = String(e?.message ?? e).split(/^\s*Call log:/m);
				const lines = (text) => text.split('\n').filter((l) => !l.includes('\u001b'));
				const log = lines(callLog)
					.map((l) => l.trim())
					.filter(Boolean);
				const waited = [...new Set([log[0], log[log.length - 1]])].filter(Boolean);
				const what = [lines(message).join('\n').trim(), ...waited].join('\n  ');
				const msg = `step "${name}" failed: ${what}\n  page saved: ${saved.join(', ')}\n  after it: ${after}`;
				throw Object.assign(new Error(msg), { stack: msg });
			}
		});
		timings[name] = Date.now() - t;
		return r;
	};
	const ndv = page.getByTestId('ndv');
	// The Services node the walk adds ("List services"; the trigger added later is not it).
	const servicesNode = page.getByTestId('canvas-node').filter({ hasNot: page.getByTestId('canvas-trigger-node') });
	const openServicesPanel = async () => {
		if (await ndv.isVisible()) return;
		await servicesNode.first().dblclick();
		await ndv.getByTestId('node-parameters').waitFor();
	};
	const serviceCount = mock.getServices().length;
	const shot = async (locator, file) => {
		if (!shots) return;
		// n8n's toasts ("Node executed successfully", ...) would cover the output: leave them out.
		await page.locator('.el-notification').evaluateAll((toasts) => toasts.forEach((n) => n.remove()));
		// Transitions (a panel sliding in, a dialog fading) ended; endless ones (spinners) do not count.
		await page.waitForFunction(() =>
			// eslint-disable-next-line no-undef -- runs in the page
			document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
		);
		await locator.screenshot({ path: path.join(shots, file), animations: 'disabled' });
	};

	await named('sign in through the sign-in form', async () => {
		// Straight on to a new workflow after signing in: one load of the editor instead of two.
		await page.goto(`${inst.baseUrl}/signin?redirect=${encodeURIComponent('/workflow/new')}`);
		await page.locator('input[type=email]').fill(inst.owner.email);
		await page.locator('input[type=password]').fill(inst.owner.password);
		await page.keyboard.press('Enter');
		await page.waitForURL((u) => !u.pathname.includes('signin'), { timeout: NAVIGATION_TIMEOUT_MS });
		did('the sign-in');
	});

	await named(
		'node creator: searching "Services" lists Services (with Services Trigger folded in) and the package icon loads',
		async () => {
			builtOn('the sign-in');
			if (!new URL(page.url()).pathname.startsWith('/workflow/')) await page.goto(`${inst.baseUrl}/workflow/new`);
			await openCreatorSearch(page, 'Services');
			const entry = creatorEntry(page, 'Services');
			const navId = await entry.getAttribute('data-keyboard-nav-id');
			assert.ok(navId?.startsWith(`${PACKAGE_NAME}.services`), `the "Services" entry is this package's node (${navId})`);
			await assertIconLoads(entry, 'Services entry');
			// n8n folds a package's trigger into its regular node's entry: opening it lists the trigger's
			// events and the node's action, each with the icon.
			await entry.click();
			const triggers = page.locator(`[data-keyboard-nav-id^="${PACKAGE_NAME}.servicesTrigger"]`);
			await triggers.first().waitFor();
			const triggerNames = await triggers.getByTestId('node-creator-item-name').allInnerTexts();
			assert.ok(triggerNames.length >= 1, 'Services Trigger events are listed');
			await assertIconLoads(triggers.first(), 'Services Trigger event');
			await page
				.getByTestId('node-creator-category-item')
				.filter({ hasText: /^\s*Actions/ })
				.click();
			const action = page.getByTestId('node-creator-item-name').filter({ hasText: /^List services$/ });
			await action.waitFor();
			console.log(`      trigger events: ${triggerNames.join(', ')}; action: List services`);
			await shot(page.getByTestId('node-creator'), 'node-creator.png');
			await action.click();
			await ndv.getByTestId('node-parameters').waitFor();
			did('the Services node added');
		},
	);

	await named('Services panel: Service / List with Return All off, Limit 50, Simplify on, Filters, Options', async () => {
		builtOn('the Services node added');
		await openServicesPanel();
		assert.equal(await ndv.getByTestId('parameter-input-resource').locator('input').inputValue(), 'Service');
		assert.equal(await ndv.getByTestId('parameter-input-operation').locator('input').inputValue(), 'List');
		assert.equal(await switchOn(ndv, 'returnAll'), false, 'Return All is off');
		assert.equal(await ndv.getByTestId('parameter-input-limit').locator('input').inputValue(), '50', 'Limit defaults to 50');
		assert.equal(await switchOn(ndv, 'simplify'), true, 'Simplify is on');
		const shown = ['Return All', 'Limit', 'Simplify', 'Filters', 'Options'];
		// The parameters are drawn one component at a time: read them once all of these are (or the bound passed).
		const labels = await until(
			`the parameters ${shown.join(', ')} drawn`,
			async () =>
				(await ndv.getByTestId('node-parameters').getByTestId('parameter-item').allInnerTexts()).map((s) => s.split('\n')[0].trim()),
			(now) => shown.every((l) => now.includes(l)),
			{ orLast: true },
		);
		for (const l of shown) assert.ok(labels.includes(l), `"${l}" is shown (parameters: ${labels.join(', ')})`);
		await shot(ndv, 'node-panel.png');
	});

	await named('Services panel: switching Return All on hides Limit, off shows it again', async () => {
		builtOn('the Services node added');
		await openServicesPanel();
		await ndv.getByTestId('parameter-input-returnAll').locator('.el-switch').click();
		await ndv.getByTestId('parameter-input-limit').waitFor({ state: 'detached' });
		await ndv.getByTestId('parameter-input-returnAll').locator('.el-switch').click();
		await ndv.getByTestId('parameter-input-limit').waitFor();
	});

	await named('canvas: the node subtitle reads "List services"', async () => {
		builtOn('the Services node added');
		await toCanvas(page);
		assert.deepEqual(await subtitleOf(servicesNode, 'List services'), ['List services']);
		await openServicesPanel();
	});

	const dialog = page.getByTestId('credential-edit-dialog');
	const dialogWindow = page.locator('.el-dialog').filter({ has: dialog });
	await named('credential dialog from the panel: API Key is a password field; a plain-http remote Base URL shows the notice', async () => {
		builtOn('the Services node added');
		await openServicesPanel();
		await openNewCredential(ndv);
		await dialog.waitFor();
		assert.equal(await dialog.getByTestId('parameter-input-apiKey').locator('input').getAttribute('type'), 'password');
		const notice = dialog.getByText(texts.notice, { exact: false });
		assert.equal(await notice.count(), 0, 'no notice before a Base URL is typed');
		await dialog.getByTestId('parameter-input-baseUrl').locator('input').fill(REMOTE_PLAIN_HTTP);
		await notice.first().waitFor({ timeout: STEP_TIMEOUT_MS });
		await dialog.getByTestId('parameter-input-apiKey').locator('input').fill(mock.apiKey);
		await shot(dialogWindow, 'credential-dialog.png');
		did('the credential dialog opened and filled in');
	});

	await named("credential dialog: with the mock's URL and key, saving shows the connection-tested success", async () => {
		builtOn('the credential dialog opened and filled in');
		await dialog.getByTestId('parameter-input-baseUrl').locator('input').fill(mock.url);
		await dialog.getByText(texts.notice).first().waitFor({ state: 'detached' });
		await dialogWindow.getByTestId('credential-save-button').click();
		// From 2.x's panel, a credential whose test passes is saved and the dialog closes at once:
		// reopen it with the pencil. 1.x keeps it open.
		const success = dialog.getByTestId('credentials-config-container-test-success');
		const outcome = await until(
			"the credential's test: its success shown, or the dialog closed (2.x, from the panel)",
			async () => ((await success.isVisible()) ? 'success' : (await dialog.isVisible()) ? null : 'closed'),
			Boolean,
			{ seen: async () => `the dialog open, showing: ${(await dialog.innerText().catch(() => '')).replace(/\s+/g, ' ').slice(0, 300)}` },
		);
		if (outcome === 'closed') await ndv.getByTestId('credential-edit-button').click();
		await success.waitFor();
		assert.match(await dialog.getByTestId('credentials-config-container-test-success').innerText(), /Connection tested successfully/);
		did('the credential saved');
	});

	// n8n 1.x's credential tester answers a rejected saved credential with its own text, before the
	// credential's rules are consulted (seen on 1.123.81); 2.x applies the rules.
	const wrongKeyText = line >= 2 ? texts.rule401 : N8N1_REJECTED_TEXT;
	await named(
		`credential dialog: a wrong key shows ${line >= 2 ? 'the 401 text of the credential test rules' : "n8n 1.x's own 401 text"}`,
		async () => {
			builtOn('the credential saved');
			await dialog.getByTestId('parameter-input-apiKey').locator('input').fill(WRONG_KEY);
			await dialogWindow.getByTestId('credential-save-button').click();
			// n8n shows "Couldn't connect with these settings" and the test's message, in 2.x behind
			// "More details".
			const details = dialog.getByText('More details');
			await details.or(dialog.getByText(wrongKeyText)).first().waitFor({ timeout: STEP_TIMEOUT_MS });
			if (await details.count()) await details.first().click();
			await dialog.getByText(wrongKeyText).first().waitFor({ timeout: STEP_TIMEOUT_MS });
			const body = await dialog.innerText();
			assert.ok(!body.includes(WRONG_KEY) && !body.includes(mock.apiKey), 'the dialog does not show the key');
			// Put the right key back for the run.
			await dialog.getByTestId('parameter-input-apiKey').locator('input').fill(mock.apiKey);
			await dialogWindow.getByTestId('credential-save-button').click();
			await dialog.getByTestId('credentials-config-container-test-success').waitFor({ timeout: STEP_TIMEOUT_MS });
			await dialogWindow.locator('.el-dialog__headerbtn, [aria-label="Close"]').first().click();
			await dialog.waitFor({ state: 'hidden' });
			did("the mock's key back in the credential");
		},
	);

	await named(`run from the panel: the table shows one row per mock service (${serviceCount})`, async () => {
		builtOn("the mock's key back in the credential");
		await openServicesPanel();
		const rows = await executeAndReadTable(page, ndv);
		assert.equal(rows.count, serviceCount, `rows in the output table (headers: ${rows.headers.join(', ')})`);
		assert.ok(
			rows.headers.includes('id_service') && rows.headers.includes('status'),
			`simplified columns (headers: ${rows.headers.join(', ')})`,
		);
		assert.ok(!rows.headers.includes('values'), 'no raw nested record while Simplify is on');
		await shot(ndv, 'output-table.png');
	});

	await named('run from the panel with Simplify off: the table shows the nested record', async () => {
		builtOn("the mock's key back in the credential");
		await openServicesPanel();
		await ndv.getByTestId('parameter-input-simplify').locator('.el-switch').click();
		assert.equal(await switchOn(ndv, 'simplify'), false);
		const rows = await executeAndReadTable(page, ndv);
		assert.equal(rows.count, serviceCount);
		assert.ok(rows.headers.includes('values'), `the raw record's nested "values" column (headers: ${rows.headers.join(', ')})`);
		await closePanel(page);
	});

	// Operation Get: its Service field is a resource locator whose "From List" mode calls the node's
	// listSearch method (searchServices) against the mock. Expectations are computed from the mock.
	const locator = ndv.getByTestId('resource-locator-serviceId');
	// n8n 2.x renders the list outside the field (no resource-locator-dropdown inside it).
	const listItems = page.getByTestId('rlc-item');
	const answers = listAnswers(page);
	const entries = mock.getServices().map(listEntryOf);
	const search = searchTextFor(entries);
	const found = entries.filter((e) => e.matches(search));
	const picked = found[found.length - 1];
	await named('Get: with Operation Get the canvas subtitle reads "Get service" and Service offers "From List" and "By ID"', async () => {
		builtOn('the Services node added');
		await openServicesPanel();
		await ndv.getByTestId('parameter-input-operation').click();
		// An option's text is its name and then its description: match the name alone.
		const options = page.locator('.el-select-dropdown__item:visible');
		await options.filter({ has: page.getByText('Get', { exact: true }) }).click();
		// The Operation menu closes with a transition: its options must be gone before the mode menu's are read.
		await options.first().waitFor({ state: 'hidden' });
		await locator.waitFor();
		await locator.getByTestId('rlc-mode-selector').click();
		const modeOptions = options;
		await modeOptions.first().waitFor();
		const modes = (await modeOptions.allInnerTexts()).map((s) => s.trim());
		assert.deepEqual(
			modes.map((m) => m.toLowerCase()),
			['from list', 'by id'],
			`the Service modes (shown: ${modes.join(', ')})`,
		);
		await modeOptions.filter({ hasText: /^\s*From list\s*$/i }).click(); // the current mode: closes the menu
		await closePanel(page);
		assert.deepEqual(await subtitleOf(servicesNode, 'Get service'), ['Get service']);
		await openServicesPanel();
		await locator.waitFor();
		did('Operation Get chosen');
	});

	await named(`Get: "From List" lists the ${serviceCount} mock services; searching "${search}" narrows it to ${found.length}`, async () => {
		builtOn('Operation Get chosen', "the mock's key back in the credential");
		await locator.getByTestId('rlc-input-container').click();
		const all = await listShowing(listItems, answers, '');
		assert.deepEqual(
			all,
			entries.map((e) => e.name),
			'the list shows every mock service, in the listing order',
		);
		await page.locator('[data-test-id="rlc-search"] input, input[data-test-id="rlc-search"]').first().fill(search);
		const narrowed = await listShowing(listItems, answers, search);
		assert.deepEqual(
			narrowed,
			found.map((e) => e.name),
			`the services whose name or alias contains "${search}"`,
		);
		// The parameters only: the output pane still shows List's earlier run.
		await shot(ndv.getByTestId('node-parameters'), 'get-from-list.png');
		did('the list searched');
	});

	await named(`Get: picking "${picked.name}" and running from the panel outputs exactly that service (${picked.id})`, async () => {
		builtOn('the list searched');
		await listItems.nth(found.length - 1).click(); // `picked`: the list's order was checked above
		await listItems.first().waitFor({ state: 'hidden' });
		const rows = await executeAndReadTable(page, ndv);
		assert.equal(rows.count, 1, `one item (headers: ${rows.headers.join(', ')})`);
		const ids = entries.map((e) => e.id).filter((id) => rows.text.includes(id));
		assert.deepEqual(ids, [picked.id], "the output holds the picked service's id_service and no other");
		await closePanel(page);
	});

	await named('Services Trigger: "Fetch Test Event" shows one event item', async () => {
		// Added to the same workflow: no second load of the editor. Its run needs the saved credential.
		builtOn("the mock's key back in the credential");
		await toCanvas(page);
		await openCreatorSearch(page, 'Services');
		await creatorEntry(page, 'Services').click();
		// With nodes on the canvas n8n opens the entry on its actions, the triggers folded. The
		// category's chevron says which (down: open, up: folded); its items may not be drawn yet.
		const triggersCategory = page.getByTestId('node-creator-category-item').filter({ hasText: /^\s*Triggers/ });
		const fold = await until(
			'the Triggers category of the Services entry, drawn with its chevron',
			() =>
				triggersCategory
					.first()
					.evaluate((el) =>
						el.querySelector('[data-icon="chevron-up"]') ? 'folded' : el.querySelector('[data-icon="chevron-down"]') ? 'open' : null,
					)
					.catch(() => null),
			Boolean,
		);
		if (fold === 'folded') await triggersCategory.click();
		const trigger = page.locator(`[data-keyboard-nav-id^="${PACKAGE_NAME}.servicesTrigger"]`).first();
		await trigger.click();
		await ndv.getByTestId('node-parameters').waitFor();
		// The only credential of its type is preselected on a new node.
		await ndv.getByTestId('node-credentials-select').or(ndv.getByTestId('credential-edit-button')).first().waitFor();
		const rows = await executeAndReadTable(page, ndv);
		assert.equal(rows.count, 1, `one event item (headers: ${rows.headers.join(', ')})`);
		assert.ok(rows.headers.includes('event'), `the item is an event (headers: ${rows.headers.join(', ')})`);
		await shot(ndv, 'trigger-event.png');
	});

	await named(
		'MCP Server Trigger with the List and Get tools on the canvas; the List tool panel shows $fromAI and its Tool Description',
		async () => {
			builtOn('the sign-in');
			await inst.login();
			const { workflow } = await publishMcpWorkflow(inst, {
				mcpPath: `browser-mcp-${line}`,
				credential: { apiKey: mock.apiKey, baseUrl: mock.url },
				activate: false,
			});
			page.once('dialog', (d) => d.accept().catch(() => {}));
			await page.goto(`${inst.baseUrl}/workflow/${workflow.id}`);
			const nodes = page.getByTestId('canvas-node');
			for (const name of ['MCP Server Trigger', 'List services', 'Get service']) await nodes.filter({ hasText: name }).first().waitFor();
			await shot(page.locator('body'), 'mcp-canvas.png');
			await nodes.filter({ hasText: 'List services' }).first().dblclick();
			const parameters = ndv.getByTestId('node-parameters');
			await parameters.waitFor();
			const toolDescription = /Tool Description/;
			const fromAI = /Defined automatically by the model|\$fromAI/;
			// The parameters are drawn one component at a time: read them once both texts are (or the bound passed).
			const text = await until(
				'the tool panel drawn with its Tool Description and the $fromAI parameters',
				() => parameters.innerText(),
				(now) => toolDescription.test(now) && fromAI.test(now),
				{ orLast: true },
			);
			assert.match(text, toolDescription, 'the tool panel shows its Tool Description');
			assert.match(text, fromAI, 'Limit, Status and Search are left to the model');
			await shot(ndv, 'mcp-tool-panel.png');
			await closePanel(page);
		},
	);

	// Each recipe of test/e2e/recipes/recipes.mjs with a picture, imported as a user imports it (its credentials
	// picked; those of the Service Platform point at the mock), as the editor draws it.
	for (const recipe of RECIPES.filter((r) => r.picture)) {
		// A sticky note is drawn as a note, not as a canvas node with its name.
		const names = readRecipe(recipe.file)
			.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote')
			.map((n) => n.name);
		await named(`recipe ${recipe.file} on the canvas: its ${names.length} nodes, none unknown, none with issues`, async () => {
			builtOn('the sign-in');
			const credentials = {};
			for (const [type, ref] of Object.entries(credentialRefs(readRecipe(recipe.file)))) {
				credentials[type] = await inst.createCredential({
					name: ref.name,
					type,
					data: type === CREDENTIAL_TYPE ? { apiKey: mock.apiKey, baseUrl: mock.url } : {},
				});
			}
			const workflow = await importRecipe(inst, recipe.file, { credentials });
			page.once('dialog', (d) => d.accept().catch(() => {}));
			await page.goto(`${inst.baseUrl}/workflow/${workflow.id}`);
			const nodes = page.getByTestId('canvas-node');
			for (const name of names) await nodes.filter({ hasText: name }).first().waitFor();
			assert.equal(await nodes.count(), names.length, 'one canvas node per node of the file');
			const flagged = page.locator(
				'[data-test-id="node-not-installed"], [data-test-id="node-issues"], [data-test-id="node-setup-required"]',
			);
			// A node's marks are worked out after it is drawn (its credentials looked up): a node just drawn
			// can carry one for a moment. Count them once none is left (or the bound passed).
			const marked = await until(
				'the nodes drawn without a mark',
				() => flagged.count(),
				(n) => n === 0,
				{ orLast: true },
			);
			assert.equal(marked, 0, 'no node is marked not installed, with issues or needing setup');
			await shot(page.locator('body'), recipe.picture);
		});
	}

	return { timings };
}

// The node panel of n8n 2.x has a close button and a "Connect" button for a missing credential;
// 1.x's has "Back to canvas" and a credential select. The steps accept both.
async function closePanel(page) {
	const ndv = page.getByTestId('ndv');
	await ndv.getByTestId('ndv-close-button').or(page.getByTestId('back-to-canvas')).first().click();
	await ndv.waitFor({ state: 'hidden' });
}

/**
 * Closes what lies over the canvas, one layer at a time (a menu or popover, a dialog, the node
 * panel, the node creator), and checks the canvas is shown with nothing over it; throws naming what
 * stays open. Where a step starts, and where the walk goes on after a failed step.
 */
async function toCanvas(page) {
	const layers = [
		[
			'a menu',
			page.locator('.el-select-dropdown:visible, .el-dropdown-menu:visible, [data-dismissable-layer][data-state="open"]'),
			() => page.keyboard.press('Escape'),
		],
		[
			'a dialog',
			page.locator('.el-dialog:visible:not([data-test-id="ndv"]), .el-message-box:visible'),
			(l) => l.locator('.el-dialog__headerbtn, .el-message-box__headerbtn, [aria-label="Close"]').first().click(),
		],
		['the node panel', page.getByTestId('ndv'), () => closePanel(page)],
		['the node creator', page.getByTestId('node-creator'), () => page.keyboard.press('Escape')],
	];
	const open = async () => {
		const found = [];
		for (const layer of layers) if (await layer[1].first().isVisible()) found.push(layer);
		return found;
	};
	for (let round = 0; round < 8; round++) {
		const [top] = await open();
		if (!top) break;
		const [, layer, close] = top;
		await close(layer.first()).catch(() => page.keyboard.press('Escape'));
		await layer
			.first()
			.waitFor({ state: 'hidden', timeout: 5000 })
			.catch(() => {});
	}
	const left = (await open()).map(([what]) => what);
	if (left.length) throw new Error(`still open over the canvas: ${left.join(', ')}`);
	await page.getByTestId('canvas').first().waitFor();
}

/** The node's subtitle on the canvas once it reads `expected` (or the bound passed): n8n draws it after the node. */
async function subtitleOf(node, expected) {
	const subtitle = node.locator('[class*="subtitle" i]');
	return until(
		`the node's subtitle "${expected}" on the canvas`,
		async () => (await subtitle.allInnerTexts()).map((s) => s.trim()).filter(Boolean),
		(now) => `${now}` === expected,
		{ orLast: true },
	);
}

/**
 * Reads `read()` until `done(value)` holds and returns that value. After `timeoutMs` it throws
 * "<what>: not within N s; last seen: <seen()>" (default: the last value), or with `orLast` returns
 * the last value, for a wait whose condition the step then asserts with its own message.
 */
async function until(what, read, done, { timeoutMs = STEP_TIMEOUT_MS, orLast = false, seen } = {}) {
	let last;
	try {
		await waitUntil(what, async () => done((last = await read())), {
			timeoutMs,
			everyMs: 100,
			describe: seen ?? (() => JSON.stringify(last)),
		});
	} catch (e) {
		if (!orLast) throw e;
	}
	return last;
}

async function openNewCredential(ndv) {
	const empty = ndv.getByTestId('node-credentials-empty-state');
	const select = ndv.getByTestId('node-credentials-select');
	await empty.or(select).first().waitFor();
	if (await empty.count()) return empty.click();
	await select.click();
	await ndv.page().getByTestId('node-credentials-select-item-new').click();
}

async function openCreatorSearch(page, text) {
	// The big "+" of an empty canvas, or the node creator's "+" once the canvas has nodes.
	await page.getByTestId('canvas-plus-button').or(page.getByTestId('node-creator-plus-button')).first().click();
	const search = page.getByTestId('node-creator-search-bar');
	await search.fill(text);
	// The list from before the search can satisfy a first wait: wait for the searched entry itself.
	await creatorEntry(page, text).or(page.getByTestId('node-creator-no-results')).first().waitFor();
	assert.equal(await page.getByTestId('node-creator-no-results').count(), 0, `searching "${text}" finds nothing`);
}

function creatorEntry(page, name) {
	return page
		.locator('[data-keyboard-nav-id]')
		.filter({ has: page.getByTestId('node-creator-item-name').getByText(name, { exact: true }) })
		.first();
}

/** The entry's icon is an image that loaded (not a broken image or a placeholder). */
async function assertIconLoads(entry, what) {
	const img = entry.locator('img').first();
	await img.waitFor();
	const src = await img.getAttribute('src');
	assert.match(String(src), new RegExp(`/icons/${PACKAGE_NAME}/`), `${what}: the icon is the package's (src ${src})`);
	await img.evaluate((el) =>
		el.complete
			? null
			: new Promise((r) => el.addEventListener('load', r, { once: true }) || el.addEventListener('error', r, { once: true })),
	);
	const width = await img.evaluate((el) => el.naturalWidth);
	assert.ok(width > 0, `${what}: the icon ${src} did not load (broken image)`);
}

async function switchOn(scope, name) {
	return (await scope.getByTestId(`parameter-input-${name}`).locator('input[role=switch]').getAttribute('aria-checked')) === 'true';
}

/**
 * Clicks the panel's execute button and reads the output table of that run. The run is known by
 * the execution id n8n answers the click with (POST /rest/workflows/<id>/run); when it has ended,
 * the editor fetches it (GET /rest/executions/<id>) and draws it. An earlier run's table stays on
 * screen until n8n takes the new run, and the new table comes head first, its rows after: the table
 * is read once the editor has this run and draws a row for each item its count shows.
 */
async function executeAndReadTable(page, ndv) {
	const out = ndv.getByTestId('output-panel');
	const fetched = new Set();
	const onResponse = (r) => {
		const m = /\/rest\/executions\/([^/]+)$/.exec(new URL(r.url()).pathname);
		if (m && r.request().method() === 'GET') fetched.add(decodeURIComponent(m[1]));
	};
	page.on('response', onResponse);
	try {
		const answered = page.waitForResponse(
			(r) => r.request().method() === 'POST' && /\/rest\/workflows\/[^/]+\/run$/.test(new URL(r.url()).pathname),
			{ timeout: RUN_TIMEOUT_MS },
		);
		answered.catch(() => {}); // awaited below, unless the click fails
		await ndv.getByTestId('node-execute-button').click();
		const answer = await answered;
		const executionId = String((await answer.json().catch(() => null))?.data?.executionId ?? '');
		if (!executionId) throw new Error(`the run did not start: n8n answered HTTP ${answer.status()} ${(await answer.text()).slice(0, 300)}`);
		await until(`the editor to fetch the ended execution ${executionId}`, () => fetched.has(executionId), Boolean, {
			timeoutMs: RUN_TIMEOUT_MS,
			seen: async () =>
				`executions fetched: ${[...fetched].join(', ') || 'none'}; the output panel: ${JSON.stringify(await readOutput(out).catch(() => null))}`,
		});
		const table = out.getByTestId('radio-button-table');
		const panel = await until(
			`the output of execution ${executionId}: its item count, and a table row for each item`,
			async () => {
				const now = await readOutput(out);
				if (!now.error && !now.busy && !now.headers.length && (await table.count())) await table.click();
				return now;
			},
			(now) => now.error || (!now.busy && now.items !== null && now.headers.length > 0 && now.rows === now.items),
		);
		if (panel.error) throw new Error(`the run failed: ${panel.error.slice(0, 500)}`);
		return { headers: panel.headers, count: panel.rows, text: panel.text };
	} finally {
		page.off('response', onResponse);
	}
}

/** The output panel in one look: the item count it shows, busy or not, an error, the table's headers, rows and text. */
function readOutput(out) {
	return out.evaluate((el) => {
		const leaves = [...el.querySelectorAll('*')].filter((e) => !e.children.length);
		const count = leaves.map((e) => /^(\d+) items?$/.exec(e.textContent.trim())).find(Boolean);
		const table = el.querySelector('table');
		return {
			items: count ? Number(count[1]) : null,
			busy: /Executing node|Loading data|Waiting to execute/.test(el.innerText),
			error: el.querySelector('[data-test-id*="error" i]')?.innerText.trim() || null,
			headers: table ? [...table.querySelectorAll('thead th')].map((th) => th.innerText.trim()).filter(Boolean) : [],
			rows: table ? table.querySelectorAll('tbody tr').length : 0,
			text: table?.querySelector('tbody')?.innerText ?? '',
		};
	});
}

/** From now on, the answers of the node's listSearch method (searchServices) as the editor gets them: search text -> entry names. */
function listAnswers(page) {
	const bySearch = new Map();
	const record = async (r) => {
		if (r.request().method() !== 'POST' || !r.url().includes('/rest/dynamic-node-parameters/resource-locator-results')) return;
		const body = await r.json();
		const results = body?.data?.results ?? body?.results;
		if (Array.isArray(results))
			bySearch.set(
				r.request().postDataJSON()?.filter ?? '',
				results.map((x) => x.name),
			);
	};
	page.on('response', (r) => record(r).catch(() => {}));
	return { bySearch };
}

/**
 * The list's entries once they are the answer to `search` as drawn: the list from before a search
 * stays until its answer comes (n8n waits for the typing to stop), then is emptied and redrawn.
 */
async function listShowing(items, answers, search) {
	let shown = [];
	await until(
		`the list drawn from the answer to ${search ? `the search "${search}"` : 'opening it'}`,
		async () => (shown = (await items.allInnerTexts()).map((s) => s.trim())),
		(now) => answers.bySearch.has(search) && JSON.stringify(now) === JSON.stringify(answers.bySearch.get(search)),
		{ seen: () => `the answer ${JSON.stringify(answers.bySearch.get(search) ?? '(none yet)')}, the list ${JSON.stringify(shown)}` },
	);
	return shown;
}

/**
 * A mock service as the "From List" mode shows it: the name (and alias) the listSearch method gives
 * its entry, and whether a search text matches it (name or alias contains it, case-insensitive).
 */
function listEntryOf(record) {
	const { name = '', alias = '' } = record.values?.values ?? {};
	const entry = `${name || record.id_service}${alias ? ` (${alias})` : ''}`;
	return { id: record.id_service, name: entry, matches: (text) => `${name}\n${alias}`.toLowerCase().includes(text.toLowerCase()) };
}

/** A search text that narrows the list: a host name's project part shared by some services but not all. */
function searchTextFor(entries) {
	const parts = entries.map((e) => e.name.split(' (')[0].split('.').pop());
	const text = parts.find((p) => {
		const n = entries.filter((e) => e.matches(p)).length;
		return n >= 1 && n < entries.length;
	});
	assert.ok(text, 'the mock data has a search text that matches some services but not all');
	return text;
}

function slug(s) {
	return s
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '')
		.slice(0, 60);
}

async function saveArtifacts(page, dir, base) {
	fs.mkdirSync(dir, { recursive: true });
	const saved = [];
	try {
		const png = path.join(dir, `${base}.png`);
		await page.screenshot({ path: png, fullPage: false, timeout: 10_000 });
		saved.push(path.relative(process.cwd(), png));
	} catch (e) {
		saved.push(`(no screenshot: ${e.message.split('\n')[0]})`);
	}
	try {
		const html = path.join(dir, `${base}.html`);
		fs.writeFileSync(html, await page.content());
		saved.push(path.relative(process.cwd(), html));
	} catch (e) {
		saved.push(`(no HTML: ${e.message.split('\n')[0]})`);
	}
	return saved;
}

/**
 * The group for the e2e entry: its own n8n (Community Nodes install), its own mock, one browser.
 * @param {import('./harness.mjs').Suite} t
 */
export async function runBrowserGroup(t, { line, tarball, startMockApi, outDir, shots }) {
	const started = Date.now();
	const mock = await t.setup('start mock API', () => startMockApi({ count: MOCK_COUNT, seed: 7 }));
	if (!mock) return null;
	let inst;
	let br;
	try {
		inst = await t.setup(
			`n8n line ${line} with the package installed by the Community Nodes installer steps, started, owner set up`,
			async () => {
				const i = await startEditorN8n({ line, tarball });
				console.log(`    n8n ${i.runtime.version} ready after ${(i.startMs / 1000).toFixed(1)} s at ${i.baseUrl}`);
				return i;
			},
		);
		if (!inst) return null;
		br = await t.setup('headless Chromium (Debian chromium through playwright-core)', async () => {
			const b = await launchBrowser();
			console.log(`    ${b.version}`);
			return b;
		});
		if (!br) return null;
		const texts = await t.setup("the notice and 401 texts of the installed package's credential", () => credentialTexts(inst.packageDir));
		if (!texts) return null;
		const context = await br.browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
		context.setDefaultTimeout(STEP_TIMEOUT_MS);
		context.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
		const page = await context.newPage();
		const { timings } = await runBrowserSteps({
			step: (name, fn) => t.test(name, fn),
			inst,
			mock,
			page,
			artifactsDir: outDir,
			texts,
			line,
			shots,
		});
		const secs = Object.entries(timings).map(([k, ms]) => `${(ms / 1000).toFixed(1)} s  ${k}`);
		console.log(`    browser step times (n8n ${inst.runtime.version}):\n${secs.map((s) => `      ${s}`).join('\n')}`);
		await br.close();
		await inst.stop();
		await t.test('neither API key typed in the browser appears in n8n output, logs or any file n8n wrote', async () => {
			const hits = [
				...inst.findSecret(mock.apiKey).map((h) => `mock key in ${h}`),
				...inst.findSecret(WRONG_KEY).map((h) => `wrong key in ${h}`),
			];
			assert.deepEqual(hits, []);
		});
		console.log(`    browser group total ${((Date.now() - started) / 1000).toFixed(1)} s`);
		return { timings, seconds: (Date.now() - started) / 1000 };
	} finally {
		await br?.close();
		await inst?.stop();
		await mock.close();
	}
}
