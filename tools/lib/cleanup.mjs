// One place that stops everything a script started: on normal exit, on failure, on Ctrl-C
// (SIGINT), SIGTERM and SIGHUP. Child processes are started in their own process group and are
// killed as a group, so n8n's task runner goes with it.

const tasks = []; // { name, fn: async () => void, sync: () => void }
let installed = false;
let running = null;

/**
 * Registers a clean-up step. `fn` (async) runs on a graceful stop, `sync` (optional, synchronous)
 * runs from the process 'exit' handler as a last resort. Returns a function that unregisters it.
 */
export function onCleanup(name, fn, sync) {
	installHandlers();
	const task = { name, fn, sync };
	tasks.push(task);
	return () => {
		const i = tasks.indexOf(task);
		if (i >= 0) tasks.splice(i, 1);
	};
}

/** Runs all clean-up steps, newest first. Safe to call more than once. */
export function runCleanup() {
	if (running) return running;
	running = (async () => {
		while (tasks.length) {
			const task = tasks.pop();
			try {
				await task.fn();
			} catch (e) {
				console.error(`[cleanup] ${task.name}: ${e?.message ?? e}`);
			}
		}
	})();
	return running.finally(() => {
		running = null;
	});
}

function runSync() {
	while (tasks.length) {
		const task = tasks.pop();
		try {
			task.sync?.();
		} catch {}
	}
}

function installHandlers() {
	if (installed) return;
	installed = true;
	let signalled = 0;
	const onSignal = (sig, code) => {
		signalled++;
		if (signalled > 1) {
			console.error(`\n[cleanup] second ${sig}: killing everything now`);
			runSync();
			process.exit(code);
		}
		console.error(`\n[cleanup] ${sig}: stopping everything this script started ...`);
		const force = setTimeout(() => {
			console.error('[cleanup] graceful stop took too long; killing');
			runSync();
			process.exit(code);
		}, 20000);
		force.unref();
		runCleanup().finally(() => process.exit(code));
	};
	process.on('SIGINT', () => onSignal('SIGINT', 130));
	process.on('SIGTERM', () => onSignal('SIGTERM', 143));
	process.on('SIGHUP', () => onSignal('SIGHUP', 129));
	process.on('exit', runSync);
}

/** Runs main(); on any failure prints it, cleans up, exits non-zero; on success cleans up too. */
export async function runMain(main) {
	installHandlers();
	let code = 0;
	try {
		const r = await main();
		if (typeof r === 'number') code = r;
	} catch (e) {
		console.error(`\nFAILED: ${e?.stack ?? e}`);
		code = 1;
	}
	await runCleanup();
	process.exit(code);
}
