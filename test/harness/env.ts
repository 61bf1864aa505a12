/**
 * The settings n8n-core needs in every process that runs nodes in the tests. globalSetup.ts sets them
 * once per run in jest's own process; jest's workers and the processes they start inherit them.
 * n8n-core writes `$N8N_USER_FOLDER/.n8n/config` on each execution: never the developer's ~/.n8n.
 */
export function n8nTestEnv(userFolder: string): Record<string, string> {
	return { N8N_USER_FOLDER: userFolder, N8N_LOG_LEVEL: 'silent', N8N_DIAGNOSTICS_ENABLED: 'false' };
}
