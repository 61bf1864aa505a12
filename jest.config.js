/** Unit and engine tests: TypeScript sources through ts-jest (type-checking is `npm run typecheck`). */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	// One temporary folder and n8n user folder per run, checked empty and removed at the end.
	globalSetup: '<rootDir>/test/harness/globalSetup.ts',
	globalTeardown: '<rootDir>/test/harness/globalTeardown.ts',
	// Every fast-check property runs with the run's seed, fixed per commit (test/harness/propertySeed.ts).
	setupFiles: ['<rootDir>/test/harness/propertySetup.ts'],
	// ts-jest's transform cache in the repository's ignored .tmp/, not jest's default os.tmpdir()/jest_*,
	// which every run would leave in the temporary folder.
	cacheDirectory: '<rootDir>/.tmp/jest-cache',
	testTimeout: 20000,
};
