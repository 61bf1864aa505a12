/**
 * A Services node run in a child process of its own (measuredRunChild.cjs), for a clean measurement of its
 * memory and time; the servers it talks to stay in the test's process.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { TestCredentials } from './workflow';

export interface MeasuredRun {
	elapsedMs: number;
	items: number;
	rssBeforeMb: number;
	/** RSS high-water mark of the child minus its RSS just before the run. */
	rssPeakGrowthMb: number;
	/** Sampled every 5 ms, so a short spike may be missed; the RSS high-water mark is not. */
	heapPeakGrowthMb: number;
	error?: { name: string; message: string; description?: string; itemIndex?: number };
	serialized?: string;
}

/** `inputItems`: the node's input items (default one empty item); each may set fields an expression reads. */
export async function measuredRun(
	parameters: INodeParameters,
	credentials: TestCredentials,
	{ inputItems }: { inputItems?: IDataObject[] } = {},
): Promise<MeasuredRun> {
	const child = spawn(
		process.execPath,
		['--expose-gc', join(__dirname, 'measuredRunChild.cjs'), JSON.stringify({ parameters, credentials, inputItems })],
		{
			stdio: ['ignore', 'pipe', 'pipe'],
		},
	);
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
	if (code !== 0) throw new Error(`the measured run failed (exit ${code}): ${stderr.slice(0, 2000)}`);
	return JSON.parse(stdout.trim().split('\n').pop() ?? '') as MeasuredRun;
}
