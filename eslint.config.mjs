import tseslint from 'typescript-eslint';
import moduleBoundaries from './tools/eslint/module-boundaries.cjs';
import noTrackerNumbers from './tools/eslint/no-tracker-numbers.cjs';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', '**/routes.generated.ts', '.data/**', 'tmp/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { arbiter: { rules: { 'module-boundaries': moduleBoundaries } } },
    rules: {
      'arbiter/module-boundaries': 'error',
      'no-console': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Jest's global setup runs outside any project's module mapper, so it imports devstack by path.
    files: ['libs/testing/src/global-setup.ts', 'libs/testing/src/global-teardown.ts'],
    rules: { 'arbiter/module-boundaries': 'off' },
  },
  {
    // Command-line entry points and test tooling talk to a terminal.
    files: ['**/*.spec.ts', '**/test/**/*.ts', 'libs/devstack/src/cli.ts', 'bench/**/*.ts', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // No tracker numbers in comments and test names: cite the docs section that holds the reason (docs/development.md "Conventions").
    files: ['**/*.{ts,tsx,js,cjs,mjs}'],
    plugins: { citations: { rules: { 'no-tracker-numbers': noTrackerNumbers } } },
    rules: { 'citations/no-tracker-numbers': 'error' },
  },
  {
    // The rule and its spec spell out the forms they refuse.
    files: ['tools/eslint/no-tracker-numbers.cjs', 'tools/tracker-numbers.spec.ts'],
    rules: { 'citations/no-tracker-numbers': 'off' },
  },
);
