/** Unit and engine tests: TypeScript sources through ts-jest (type-checking is `npm run typecheck`). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
  },
  setupFiles: ['<rootDir>/test/harness/env.ts'],
  testTimeout: 20000,
};
