// Shared Jest configuration: every project's jest.config.js calls this.
// ESM-only dependencies (jose, canonicalize, @noble/*) are transformed to CommonJS by swc.
const path = require('node:path');
const tsconfig = require('./tsconfig.base.json');

const root = __dirname;
const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(tsconfig.compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace('/', '\\/')}$`] = path.join(root, target);
}

// canonicalize v4 exports only an "import" condition, which Jest's CommonJS resolver does not match.
moduleNameMapper['^canonicalize$'] = path.join(root, 'node_modules/canonicalize/lib/canonicalize.js');
// json-schema-faker (the contract test's request generator) likewise.
moduleNameMapper['^json-schema-faker$'] = path.join(root, 'node_modules/json-schema-faker/dist/index.js');

// The OTLP exporter loads node:http with import(), which Jest's CommonJS runtime refuses; swc turns it into require.
const esmPackages = [
  'jose',
  'openid-client',
  'oauth4webapi',
  'canonicalize',
  '@noble',
  '@marcbachmann',
  'uuid',
  '@opentelemetry/otlp-exporter-base',
  'json-schema-faker',
];

module.exports = (name, dir) => ({
  displayName: name,
  rootDir: dir,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  transform: {
    '^.+\\.(t|j|mj)s$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: false },
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleNameMapper,
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  testTimeout: 30000,
});
