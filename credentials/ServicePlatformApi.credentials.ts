import type { IAuthenticateGeneric, Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../nodes/shared/transport/types';

/** A base URL `resolveApiBaseUrl` refuses: plain http to a host that is not loopback. */
const PLAIN_HTTP_REFUSED_PATTERN = '^\\s*[hH][tT][tT][pP]://(?!(localhost|127(\\.\\d{1,3}){3}|\\[::1\\])(:\\d+)?(/|$))';

/**
 * The credential test runs inside n8n's credential tester, which cannot call node code, so the
 * base-URL rules of `nodes/shared/transport/baseUrl.ts` are repeated here as one expression (a unit test
 * checks both agree). A refused plain-http address gets an unusable scheme: the request fails
 * before anything is sent (n8n 2.x shows the code ERR_BAD_REQUEST; the notice below says why).
 */
const TEST_BASE_URL_EXPRESSION =
	'={{ $credentials.baseUrl.trim()' +
	// As WHATWG URL parsing (and so resolveApiBaseUrl) does: strip C0 controls and spaces at both ends
	// and tabs/newlines anywhere, so "\u0001http://..." or "ht\ntp://..." cannot slip past the check.
	".replace(/^[\\u0000-\\u0020]+|[\\u0000-\\u0020]+$/g, '')" +
	".replace(/[\\t\\n\\r]/g, '')" +
	".replace(/\\/+$/, '')" +
	".replace(/\\/v2026(\\/services)?$/i, '')" +
	".replace(/\\/+$/, '')" +
	`.replace(new RegExp(${JSON.stringify(PLAIN_HTTP_REFUSED_PATTERN)}), 'refused-plain-http-use-https://') }}`;

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
			description: 'Personal API key, generated in the account panel of the platform. Sent as a Bearer token, over HTTPS only.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description:
				'Base address of the platform API, as the platform gives it. A trailing slash or a pasted /v2026 suffix is fine. Must be https:// (plain http only for localhost).',
		},
		{
			// Shown while the user types a refused address: the credential tester can only report it as
			// an error code, so the dialog says it in words here.
			displayName:
				'Plain http is refused: the API key would travel unencrypted. Use the https:// address (plain http is allowed only for localhost, 127.x.x.x and [::1]).',
			name: 'plainHttpNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { baseUrl: [{ _cnd: { regex: PLAIN_HTTP_REFUSED_PATTERN } }] } },
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				// Trimmed as the node checks it: a key pasted with spaces around it still works.
				Authorization: '=Bearer {{$credentials.apiKey.trim()}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: TEST_BASE_URL_EXPRESSION,
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
