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
    ],
    invalid: [
      { filename: at('apps/verdict/src/app.ts'), code: "import { x } from '../../registry/src/context';", errors: [{ messageId: 'forbidden' }] },
      { filename: at('libs/http/src/app.ts'), code: "import { x } from '../../../apps/registry/src/context';", errors: [{ messageId: 'forbidden' }] },
      { filename: at('apps/registry/src/app.ts'), code: "import { createTestDatabase } from '@arbiter/testing';", errors: [{ messageId: 'forbidden' }] },
      { filename: at('libs/auth/src/x.ts'), code: "import { startPostgres } from '@arbiter/devstack';", errors: [{ messageId: 'forbidden' }] },
      { filename: at('apps/registry/src/app.ts'), code: "import { x } from '../../../libs/http/src/app';", errors: [{ messageId: 'deepLib' }] },
      { filename: at('tools/deploy/sources.ts'), code: "import { registryConfigSchema } from '../../apps/registry/src/config';", errors: [{ messageId: 'notPublic' }] },
      { filename: at('tools/deploy/sources.ts'), code: "import { x } from '../../apps/registry/src/context';", errors: [{ messageId: 'notPublic' }] },
      { filename: at('tools/deploy/sources.ts'), code: "import { x } from '@arbiter/registry';", errors: [{ messageId: 'notPublic' }] },
      // An app cannot reach another app's public entry points: those are for tooling.
      { filename: at('apps/verdict/src/app.ts'), code: "import { registryConfigSchema } from '@arbiter/registry/config';", errors: [{ messageId: 'forbidden' }] },
      { filename: at('libs/http/src/app.ts'), code: "import { registryConfigSchema } from '@arbiter/registry/config';", errors: [{ messageId: 'forbidden' }] },
    ],
  });
});
