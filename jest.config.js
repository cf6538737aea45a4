/**
 * Jest runs the TypeScript sources as ES modules through SWC (docs/decisions.md, "Build and module
 * resolution").
 */
const swcConfig = {
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    keepClassNames: true,
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};

/** Pages are TSX rendered by @kitajs/html (docs/decisions.md, "Dashboard pages"). */
const swcTsxConfig = {
  ...swcConfig,
  jsc: {
    ...swcConfig.jsc,
    parser: { ...swcConfig.jsc.parser, tsx: true },
    transform: {
      ...swcConfig.jsc.transform,
      react: { runtime: 'automatic', importSource: '@kitajs/html' },
    },
  },
};

export default {
  rootDir: '.',
  // Node's environment, plus a database of its own for each e2e file (test/database-environment.js).
  testEnvironment: '<rootDir>/test/database-environment.js',
  testMatch: [
    '<rootDir>/apps/**/*.spec.ts',
    '<rootDir>/apps/**/*.spec.tsx',
    '<rootDir>/libs/**/*.spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
  ],
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', swcConfig],
    '^.+\\.tsx$': ['@swc/jest', swcTsxConfig],
  },
  moduleNameMapper: {
    '^#app/(.*)$': '<rootDir>/libs/$1/index.ts',
    '^#test/(.*)$': '<rootDir>/test/$1/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  setupFilesAfterEnv: ['<rootDir>/test/jest.setup.ts'],
  globalSetup: '<rootDir>/test/global-setup.js',
  globalTeardown: '<rootDir>/test/global-teardown.js',
  // Generous: a hook that starts an api and a sandbox takes seconds on a quiet machine and
  // tens of seconds beside busy loops; a test that measures time says so with its own bounds.
  testTimeout: 90_000,
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/.data/'],
};
