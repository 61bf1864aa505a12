// ESM entry for scripts (bench, demo, e2e). The implementation is CommonJS (server.cjs) because the
// project's ts-jest runs tests as CommonJS, where importing an .mjs file fails.
export { startMockApi, generateServices, normalizeFault, API_PATH, SHAPES, FAULT_KINDS } from './server.cjs';
