/**
 * Five test tiers in two jest projects: unit (pure rules, no database); and, sharing one database setup, db
 * (repositories, migrations and the event bus on a real PostgreSQL), e2e (HTTP over the real app, real PostgreSQL and
 * embedded), soak (*.soak-spec.ts: e2e that runs for a set time) and browser (the operator console in headless
 * chromium, issue 19). Every file but soak and browser stays under 20 s.
 */
// SWC strips the types (no type check here: `npm run typecheck` checks src and test). Legacy decorators with their
// metadata, as tsconfig.json (NestJS and TypeORM read `design:*`); dynamic import() stays a real import for the
// ESM-only packages (oidc-provider, PGlite), as tsc's nodenext output keeps it.
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
    target: 'es2023',
    keepClassNames: true,
  },
  module: { type: 'commonjs', ignoreDynamic: true },
  sourceMaps: 'inline',
};
const transform = { '^.+\\.ts$': ['@swc/jest', swc] };
// jest's runtime plus V8's code cache per worker: a module's compiled code is reused by the next test file that loads
// the same source (test/support/jest-runtime.js); each file still gets its own module registry.
const runtime = '<rootDir>/test/support/jest-runtime.js';
const common = { transform, runtime, testEnvironment: 'node', moduleFileExtensions: ['ts', 'js', 'json'] };

module.exports = {
  testTimeout: 60000,
  // Each e2e file loads the whole app (and PGlite's WebAssembly) into its worker's fresh module registry; what a
  // worker keeps across files grew it past 2 GB and slowed every later file. A worker above this after a file is
  // replaced by a new one (jest's own remedy).
  workerIdleMemoryLimit: '1200MB',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      // A *.soak-spec.ts runs for a set time by design (pooler-rolling: 24 s); it and the browser tier are the only
      // files allowed past 20 s.
      testMatch: [
        '<rootDir>/test/e2e/**/*.e2e-spec.ts',
        '<rootDir>/test/e2e/**/*.soak-spec.ts',
        '<rootDir>/test/db/**/*.spec.ts',
        '<rootDir>/test/browser/**/*.browser-spec.ts',
      ],
      setupFilesAfterEnv: ['<rootDir>/test/support/pg-overlap-guard.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      testTimeout: 60000,
    },
  ],
};
