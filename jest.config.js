// Every project's tests in one run; real PostgreSQL and Redis are started once by the global setup.
module.exports = {
  projects: [
    '<rootDir>/apps/*/jest.config.js',
    '<rootDir>/libs/*/jest.config.js',
    '<rootDir>/e2e/jest.config.js',
    '<rootDir>/tools/jest.config.js',
  ],
  globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
  // testTimeout is a global option: the per-project value in jest.preset.js is ignored under `projects`.
  testTimeout: 60000,
  globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
};
