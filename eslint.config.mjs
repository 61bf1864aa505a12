import js from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

const packageCode = ['nodes/**/*.ts', 'credentials/**/*.ts'];
const nodeGlobals = {
	process: 'readonly',
	console: 'readonly',
	Buffer: 'readonly',
	URL: 'readonly',
	setTimeout: 'readonly',
	clearTimeout: 'readonly',
	setInterval: 'readonly',
	clearInterval: 'readonly',
	setImmediate: 'readonly',
	fetch: 'readonly',
	AbortController: 'readonly',
	AbortSignal: 'readonly',
	performance: 'readonly',
	structuredClone: 'readonly',
	__dirname: 'readonly',
	require: 'readonly',
	module: 'writable',
};

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.tmp/**'] },

	// The published package: n8n's community rules (what n8n's scanner and verification check) ...
	{ ...n8nCommunityNodesPlugin.configs.recommended, files: [...packageCode, 'package.json'] },
	// ... plus the classic n8n-nodes-base rule sets, as @n8n/node-cli wires them.
	{
		files: packageCode,
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// Node files live in nodes/<Name>/, actions in nodes/<Name>/actions/: the layout of n8n's own
			// versioned nodes (Airtable v2), which this rule does not know.
			'n8n-nodes-base/node-dirname-against-convention': 'off',
			'n8n-nodes-base/node-filename-against-convention': 'off',
			// Superseded by the community plugin's icon-validation (themed light/dark icons).
			'n8n-nodes-base/node-class-description-icon-not-svg': 'off',
			// Superseded by the community plugin's require-node-api-error.
			'n8n-nodes-base/node-execute-block-wrong-error-thrown': 'off',
			// Want the string 'main'; the community plugin's node-connection-type-literal wants NodeConnectionTypes.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Wants a slug of n8n's own docs site; a community credential links its own docs, which the
			// community plugin's credential-documentation-url rule checks instead.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	// package.json is parsed as a TypeScript JSON file, which is how both plugins' package rules read it.
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nNodesBase.configs.community.rules,
	},

	// All TypeScript: type-aware basics.
	{
		files: ['**/*.ts'],
		extends: [tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-explicit-any': 'off',
		},
	},
	{
		files: ['test/**/*.ts'],
		languageOptions: { globals: { ...nodeGlobals, describe: 'readonly', test: 'readonly', expect: 'readonly' } },
	},
	// Scripts and the mock server: plain Node.
	{
		files: ['**/*.{js,mjs,cjs}'],
		extends: [js.configs.recommended],
		languageOptions: { globals: nodeGlobals, sourceType: 'module' },
		// Clean-up code ignores errors of things already gone (a stopped process, a removed folder).
		rules: { 'no-empty': ['error', { allowEmptyCatch: true }] },
	},
	{ files: ['**/*.cjs', 'gulpfile.js', 'jest.config.js'], languageOptions: { sourceType: 'commonjs' } },
);
