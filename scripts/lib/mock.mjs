// Loads the embedded mock platform API (mock/server.mjs, owned by the mock helper).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_DIR } from './n8n-instance.mjs';

export async function loadMock() {
	const mjs = path.join(REPO_DIR, 'mock', 'server.mjs');
	if (fs.existsSync(mjs)) return import(pathToFileURL(mjs).href);
	const cjs = path.join(REPO_DIR, 'mock', 'server.cjs');
	if (fs.existsSync(cjs)) return createRequire(import.meta.url)(cjs);
	throw new Error(`the mock API (${mjs}) is missing`);
}
