import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';

// eslint-disable-next-line @typescript-eslint/no-require-imports
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
    ],
    invalid: [
      { filename: at('apps/verdict/src/app.ts'), code: "import { x } from '../../registry/src/context';", errors: [{ messageId: 'forbidden' }] },
      { filename: at('libs/http/src/app.ts'), code: "import { x } from '../../../apps/registry/src/context';", errors: [{ messageId: 'forbidden' }] },
      { filename: at('apps/registry/src/app.ts'), code: "import { createTestDatabase } from '@arbiter/testing';", errors: [{ messageId: 'forbidden' }] },
      { filename: at('libs/auth/src/x.ts'), code: "import { startPostgres } from '@arbiter/devstack';", errors: [{ messageId: 'forbidden' }] },
      { filename: at('apps/registry/src/app.ts'), code: "import { x } from '../../../libs/http/src/app';", errors: [{ messageId: 'deepLib' }] },
    ],
  });
});
