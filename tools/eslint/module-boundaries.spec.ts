import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';

const rule = require('./module-boundaries.cjs');

const root = path.resolve(__dirname, '../..');
const at = (rel: string) => path.join(root, rel);

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser as never, sourceType: 'module' } });

describe('module-boundaries rule', () => {
  tester.run('module-boundaries', rule, {
    valid: [
      { filename: at('apps/registry/src/app.ts'), code: "import { createServiceApp } from '@arbiter/http';" },
      { filename: at('apps/registry/src/app.ts'), code: "import { x } from './context';" },
      { filename: at('libs/auth/src/remote.ts'), code: "import { AppError } from '@arbiter/http';" },
      { filename: at('apps/registry/test/harness.ts'), code: "import { createTestDatabase } from '@arbiter/testing';" },
      { filename: at('apps/verdict/src/x.spec.ts'), code: "import { createTestDatabase } from '@arbiter/testing';" },
      { filename: at('e2e/src/stack.ts'), code: "import { startVerdict } from '../../apps/verdict/src/server';" },
      // Tooling reaches an app only through an entry point of its package.json "exports", by alias.
      { filename: at('tools/deploy/sources.ts'), code: "import { registryConfigSchema } from '@arbiter/registry/config';" },
      { filename: at('tools/deploy/k8s.spec.ts'), code: "import { x } from '../../apps/registry/src/context';" },
      // Test code may use test code: specs, fixtures, test/ folders, the test-only entry points.
      { filename: at('libs/policy/src/compile.spec.ts'), code: "import { RULE_AT_LIMITS } from './rule-limits.fixture';" },
      { filename: at('apps/verdict/src/domain/ledger-proof.fixture.ts'), code: "import { x } from './registry-state.fixture';" },
      { filename: at('libs/client/src/verify.spec.ts'), code: "import { x } from '@arbiter/client/testing';" },
      { filename: at('libs/crypto/src/es256.spec.ts'), code: "import { signEs256JwsWithJose } from '@arbiter/testing';" },
      { filename: at('e2e/src/stack.ts'), code: "import { startTestRegistry } from '../../apps/registry/test/harness';" },
      // A product file may hold "test" in a name that is not test code.
      { filename: at('apps/cli/src/commands/rules.ts'), code: "import { x } from '../rules/rules-test';" },
    ],
    invalid: [
      {
        filename: at('apps/verdict/src/app.ts'),
        code: "import { x } from '../../registry/src/context';",
        errors: [{ messageId: 'forbidden' }],
      },
      {
        filename: at('libs/http/src/app.ts'),
        code: "import { x } from '../../../apps/registry/src/context';",
        errors: [{ messageId: 'forbidden' }],
      },
      {
        filename: at('apps/registry/src/app.ts'),
        code: "import { createTestDatabase } from '@arbiter/testing';",
        errors: [{ messageId: 'forbidden' }],
      },
      {
        filename: at('libs/auth/src/x.ts'),
        code: "import { startPostgres } from '@arbiter/devstack';",
        errors: [{ messageId: 'forbidden' }],
      },
      {
        filename: at('apps/registry/src/app.ts'),
        code: "import { x } from '../../../libs/http/src/app';",
        errors: [{ messageId: 'deepLib' }],
      },
      {
        filename: at('tools/deploy/sources.ts'),
        code: "import { registryConfigSchema } from '../../apps/registry/src/config';",
        errors: [{ messageId: 'notPublic' }],
      },
      {
        filename: at('tools/deploy/sources.ts'),
        code: "import { x } from '../../apps/registry/src/context';",
        errors: [{ messageId: 'notPublic' }],
      },
      { filename: at('tools/deploy/sources.ts'), code: "import { x } from '@arbiter/registry';", errors: [{ messageId: 'notPublic' }] },
      // An app cannot reach another app's public entry points: those are for tooling.
      {
        filename: at('apps/verdict/src/app.ts'),
        code: "import { registryConfigSchema } from '@arbiter/registry/config';",
        errors: [{ messageId: 'forbidden' }],
      },
      {
        filename: at('libs/http/src/app.ts'),
        code: "import { registryConfigSchema } from '@arbiter/registry/config';",
        errors: [{ messageId: 'forbidden' }],
      },
      // Test code in the product: the test-only libraries, test entry points, specs, fixtures, test helpers, test/ folders.
      {
        filename: at('libs/policy/src/index.ts'),
        code: "export { benchmarkFixture } from '@arbiter/testing';",
        errors: [{ messageId: 'forbidden' }],
      },
      {
        filename: at('apps/verdict/src/server.ts'),
        code: "import { x } from '@arbiter/client/testing';",
        errors: [{ messageId: 'testCode' }],
      },
      { filename: at('libs/client/src/index.ts'), code: "export * from '../test/fixtures';", errors: [{ messageId: 'testCode' }] },
      {
        filename: at('libs/policy/src/validate.ts'),
        code: "import { RULE_AT_LIMITS } from './rule-limits.fixture';",
        errors: [{ messageId: 'testCode' }],
      },
      { filename: at('libs/crypto/src/index.ts'), code: "export { flipBit } from './test-helpers';", errors: [{ messageId: 'testCode' }] },
      {
        filename: at('libs/policy/src/index.ts'),
        code: "export { benchmarkFixture } from './fixtures';",
        errors: [{ messageId: 'testCode' }],
      },
      {
        filename: at('apps/registry/src/server.ts'),
        code: "import { startTestRegistry } from '../test/harness';",
        errors: [{ messageId: 'testCode' }],
      },
      {
        filename: at('apps/verdict/src/domain/evaluate.ts'),
        code: "import { x } from './evaluate.spec';",
        errors: [{ messageId: 'testCode' }],
      },
      {
        filename: at('apps/verdict/src/domain/x.ts'),
        code: "const f = import('./ledger-proof.fixture');",
        errors: [{ messageId: 'testCode' }],
      },
    ],
  });
});
