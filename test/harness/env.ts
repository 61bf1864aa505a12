/**
 * Runs before every test file (jest `setupFiles`). n8n-core writes `$N8N_USER_FOLDER/.n8n/config` on
 * each execution: point it at a throw-away folder, never at the developer's real ~/.n8n.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const userFolder = mkdtempSync(join(tmpdir(), 'n8n-nodes-service-platform-test-'));
process.env.N8N_USER_FOLDER = userFolder;
process.env.N8N_LOG_LEVEL = 'silent';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
process.on('exit', () => rmSync(userFolder, { recursive: true, force: true }));
