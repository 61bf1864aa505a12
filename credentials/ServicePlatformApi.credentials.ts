import type { IAuthenticate, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import { authenticateRequest } from '../nodes/shared/credential/authenticate';
import { CREDENTIAL_TYPE } from '../nodes/shared/transport/types';

/** Plain http, unless written as localhost, 127.0.0.1 or [::1] (with a port, a path): where the hint shows. */
const PLAIN_HTTP_HINT = '^\\s*[hH][tT][tT][pP]:(?!//(localhost|127\\.0\\.0\\.1|\\[::1\\])(:\\d+)?(/|$))';

/**
 * The key's rules are the node's own, applied in one place: `authenticate` (credential/authenticate.ts) runs
 * for every request made with this credential, the Test's included, and refuses what the node refuses
 * (the Base URL's https and loopback rule of baseUrl.ts) and any address outside the Base URL's origin.
 * The Test's dialog shows the refusal's message, which says why and how to fix it.
 */
export class ServicePlatformApi implements ICredentialType {
	name = CREDENTIAL_TYPE;

	displayName = 'Service Platform API';

	icon: Icon = {
		light: 'file:../icons/servicePlatform.svg',
		dark: 'file:../icons/servicePlatform.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-service-platform/n8n-nodes-service-platform#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"Personal API key, generated in the account panel of the platform. Sent as a Bearer token, only to the Base URL's address.",
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://api.example.com',
			description:
				'Base address of the platform API, as the platform gives it. A trailing slash or a pasted /v2026 suffix is fine. Must be https:// (plain http only for this machine: localhost, 127.x.x.x, [::1]).',
		},
		{
			// A hint, not a verdict (the editor cannot run the node's rule; Test can): shown for every plain
			// http address but the three usual spellings of this machine, where it would only be noise.
			displayName:
				'Plain http sends the API key unencrypted, so it is accepted only for this machine (localhost, 127.x.x.x, [::1]). Anywhere else, use the https:// address. Test tells whether this address is accepted.',
			name: 'plainHttpNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { baseUrl: [{ _cnd: { regex: PLAIN_HTTP_HINT } }] } },
		},
	];

	// A class field, not a method: n8n serves the credential's own properties to the editor, and without
	// `authenticate` among them it drops Custom API Call and HTTP Request's Predefined Credential Type.
	authenticate: IAuthenticate = authenticateRequest;

	test: ICredentialTestRequest = {
		request: {
			// The Base URL as typed: authenticate replaces it with the node's reading of it, or refuses.
			baseURL: '={{ $credentials.baseUrl }}',
			url: '/v2026/services',
			method: 'GET',
			headers: { Accept: 'application/json' },
			disableFollowRedirect: true,
		},
		// Without these the dialog shows n8n's generic "Unauthorized" (2.x) for a rejected key.
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The platform rejected the API key (HTTP 401). Generate a new API key in the account panel of the platform and paste it here.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: "The API key is not allowed to list services (HTTP 403). Check the key's permissions in the account panel.",
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No services endpoint at this Base URL (HTTP 404). Use the API base address the platform gives, e.g. https://api.example.com.',
				},
			},
		],
	};
}
