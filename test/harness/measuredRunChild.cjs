'use strict';
// Runs one Services node through n8n's engine in a process of its own (started by measuredRun.ts)
// and prints, as one JSON line, what the run cost: time, the RSS high-water mark and the sampled
// heap peak against the figures just before the run. A process of its own keeps the jest worker's
// heap and earlier tests out of the figures. The package's TypeScript sources are transpiled on load.
const { readFileSync } = require('node:fs');
const ts = require('typescript');

const extensions = require.extensions;
const { '.json': loadJson, '.node': loadNative } = extensions;
// `.ts` before `.json`: `Services.node` must resolve to Services.node.ts, not the codex Services.node.json.
delete extensions['.json'];
delete extensions['.node'];
extensions['.ts'] = (module, filename) => {
	const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
	const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), { fileName: filename, compilerOptions });
	module._compile(outputText, filename);
};
Object.assign(extensions, { '.json': loadJson, '.node': loadNative });
require('./env.ts');
const { runNode, servicesNode } = require('./workflow.ts');

const MB = 1024 * 1024;

async function main() {
	const { parameters, credentials, inputItems } = JSON.parse(process.argv[2]);
	global.gc?.();
	const before = process.memoryUsage();
	let peakHeap = before.heapUsed;
	const sample = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 5);
	const started = performance.now();
	const result = await runNode({ node: servicesNode(parameters), credentials, inputItems });
	const elapsedMs = Math.round(performance.now() - started);
	clearInterval(sample);
	peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
	const peakRss = process.resourceUsage().maxRSS * 1024;
	const { error } = result;
	const figures = {
		elapsedMs,
		items: result.items.length,
		rssBeforeMb: +(before.rss / MB).toFixed(1),
		rssPeakGrowthMb: +((peakRss - before.rss) / MB).toFixed(1),
		heapPeakGrowthMb: +((peakHeap - before.heapUsed) / MB).toFixed(1),
		error: error && { name: error.name, message: error.message, description: error.description, itemIndex: error.context?.itemIndex },
		// Everything n8n keeps of the run, for the caller's search for the key (small: a failed run has no items).
		serialized: result.items.length > 1000 ? undefined : result.serialized,
	};
	process.stdout.write(`${JSON.stringify(figures)}\n`);
}

main().then(
	() => process.exit(0),
	(error) => {
		process.stderr.write(`${error?.stack ?? error}\n`);
		process.exit(1);
	},
);
