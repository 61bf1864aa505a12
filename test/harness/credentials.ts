import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper } from 'n8n-workflow';

/**
 * Test stand-in for n8n's CredentialsHelper: hands out fixed decrypted credentials and, unlike the
 * helper in n8n's own repo, applies *generic* `authenticate` blocks the way n8n does, so tests see
 * the real `Authorization` header the credential produces.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: Record<string, ICredentialType>,
		private readonly data: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = this.types[typeName]?.authenticate;
		const options = requestOptions as IHttpRequestOptions;
		if (typeof authenticate === 'function') return await authenticate(credentials, options);
		if (!authenticate || authenticate.type !== 'generic') return options;
		if (!workflow || !node) throw new Error('generic authenticate needs the workflow and node');
		const resolve = (value: unknown) =>
			typeof value === 'string'
				? workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: credentials })
				: value;
		const headers = { ...(options.headers ?? {}) };
		for (const [name, value] of Object.entries(authenticate.properties.headers ?? {})) {
			headers[name] = resolve(value) as string;
		}
		const qs = { ...(options.qs ?? {}) };
		for (const [name, value] of Object.entries(authenticate.properties.qs ?? {})) {
			qs[name] = resolve(value) as string;
		}
		return { ...options, headers, qs };
	}

	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(_details: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		throw new Error(`getCredentials(${type}) is not used by these tests`);
	}

	async getDecrypted(
		_additionalData: unknown,
		_details: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.data[type];
		if (!data) throw new Error(`No test credentials of type ${type}`);
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types[type]?.properties ?? [];
	}
}
