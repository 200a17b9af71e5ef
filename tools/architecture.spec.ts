import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { architecture, render, UNDESCRIBED, type Tree } from './architecture';
import { readText, repositoryFiles, root } from './repository';

function tree(files: Record<string, string>): Tree {
  return { files: Object.keys(files), read: (f) => files[f] ?? null };
}
const pkg = (name: string, tag: string) => JSON.stringify({ name, nx: { tags: [tag] } });

const TREE = {
  'tsconfig.base.json': JSON.stringify({
    compilerOptions: {
      paths: {
        '@arbiter/base': ['libs/base/src/index.ts'],
        '@arbiter/mid': ['libs/mid/src/index.ts'],
        '@arbiter/top': ['libs/top/src/index.ts'],
        '@arbiter/top/testing': ['libs/top/test/index.ts'],
        '@arbiter/kit': ['libs/kit/src/index.ts'],
        '@arbiter/svc/config': ['apps/svc/src/config.ts'],
      },
    },
  }),
  'libs/base/package.json': pkg('@arbiter/base', 'type:lib'),
  'libs/base/src/index.ts': "import { x } from 'node:fs';",
  'libs/mid/package.json': pkg('@arbiter/mid', 'type:lib'),
  'libs/mid/src/index.ts': "export { a } from '@arbiter/base';",
  'libs/top/package.json': pkg('@arbiter/top', 'type:lib'),
  'libs/top/src/index.ts': "import {\n  b,\n} from '@arbiter/mid';\nimport { a } from '@arbiter/base';",
  'libs/top/test/index.ts': "import { t } from '@arbiter/kit';",
  'libs/kit/package.json': pkg('@arbiter/kit', 'type:testing'),
  'libs/kit/src/index.ts': "import { b } from '@arbiter/base';",
  'apps/svc/package.json': pkg('@arbiter/svc', 'type:app'),
  'apps/svc/src/main.ts': "import { c } from '@arbiter/top';",
  // Tests and fixtures are not what an app imports.
  'apps/svc/src/main.spec.ts':
    "import { m } from '@arbiter/mid';\nimport { k } from '@arbiter/kit';\nimport { t } from '@arbiter/top/testing';",
  'apps/svc/src/domain/x.fixture.ts': "import { m } from '@arbiter/mid';",
  'apps/svc/test/harness.ts': "import { m } from '@arbiter/mid';",
  'apps/tool/package.json': pkg('@arbiter/tool', 'type:app'),
  'apps/tool/src/main.ts': "const m = await import('@arbiter/mid');",
  'e2e/src/a.spec.ts': "import { h } from '../../apps/svc/test/harness';\nimport { s } from '../../apps/svc/src/server';",
  'scripts/start.mjs': "import { k } from '../libs/kit/src/index.ts';",
};

describe('the architecture tables', () => {
  it('computes floors, app imports and test-only code from the tree', () => {
    const arch = architecture(tree(TREE));
    expect(arch.libraries).toEqual([
      { dir: 'libs/base', floor: 0, imports: [] },
      { dir: 'libs/mid', floor: 1, imports: ['base'] },
      { dir: 'libs/top', floor: 2, imports: ['base', 'mid'] },
    ]);
    expect(arch.apps).toEqual(['svc', 'tool']);
    expect(Object.fromEntries(arch.importedBy)).toEqual({ 'libs/base': [], 'libs/mid': ['tool'], 'libs/top': ['svc'] });
    expect(arch.testOnly).toEqual([
      { dir: 'apps/svc/test', entry: null, usedBy: ['e2e'] },
      { dir: 'libs/kit', entry: '@arbiter/kit', usedBy: ['apps/svc', 'libs/top', 'scripts'] },
      { dir: 'libs/top/test', entry: '@arbiter/top/testing', usedBy: ['apps/svc'] },
    ]);
  });

  it('refuses a library that is neither a product library nor test-only code', () => {
    expect(() => architecture(tree({ ...TREE, 'libs/odd/package.json': pkg('@arbiter/odd', 'type:other') }))).toThrow(
      /^libs\/odd: tag it type:lib or type:testing/,
    );
  });

  it('refuses libraries that import each other in a circle', () => {
    expect(() => architecture(tree({ ...TREE, 'libs/base/src/index.ts': "import { c } from '@arbiter/top';" }))).toThrow(
      /circle: libs\/base → libs\/top → libs\/mid → libs\/base/,
    );
  });

  it('renders the blocks, keeps the hand-written cells and names the rows still to describe', () => {
    const block = (name: string, body = '') =>
      `<!-- generated: ${name} (tools/architecture.spec.ts) -->\n${body}<!-- end generated: ${name} -->`;
    const doc = [
      '# Architecture',
      block(
        'libraries',
        '| Floor | Library | What it does | Imports |\n|--:|---|---|---|\n| 0 | `libs/base` | the base | — |\n| 3 | `libs/gone` | removed since | — |\n',
      ),
      'Prose between stays.',
      block('apps'),
      block('test-only code'),
    ].join('\n');
    const { text, undescribed } = render(doc, architecture(tree(TREE)));
    expect(undescribed).toEqual(['libs/mid', 'libs/top', 'apps/svc/test', 'libs/kit', 'libs/top/test']);
    expect(text).toBe(
      [
        '# Architecture',
        block(
          'libraries',
          [
            '| Floor | Library | What it does | Imports |',
            '|--:|---|---|---|',
            '| 0 | `libs/base` | the base | — |',
            `| 1 | \`libs/mid\` | ${UNDESCRIBED} | base |`,
            `| 2 | \`libs/top\` | ${UNDESCRIBED} | base, mid |`,
            '',
          ].join('\n'),
        ),
        'Prose between stays.',
        block(
          'apps',
          ['| Library | apps/svc | apps/tool |', '|---|:-:|:-:|', '| `base` |  |  |', '| `mid` |  | ● |', '| `top` | ● |  |', ''].join(
            '\n',
          ),
        ),
        block(
          'test-only code',
          [
            '| Test-only code | Import it as | What it does | Used by |',
            '|---|---|---|---|',
            `| \`apps/svc/test\` | a relative path | ${UNDESCRIBED} | e2e |`,
            `| \`libs/kit\` | \`@arbiter/kit\` | ${UNDESCRIBED} | apps/svc, libs/top, scripts |`,
            `| \`libs/top/test\` | \`@arbiter/top/testing\` | ${UNDESCRIBED} | apps/svc |`,
            '',
          ].join('\n'),
        ),
      ].join('\n'),
    );
    // Rendering its own output changes nothing.
    expect(render(text, architecture(tree(TREE))).text).toBe(text);
  });
});

describe('docs/architecture.md', () => {
  /**
   * The tables follow the tree: a library added, removed or importing something new changes them.
   * `ARBITER_WRITE_ARCHITECTURE=1 npm test -- tools/architecture.spec.ts` rewrites them; then write
   * the "What it does" cell of each new row.
   */
  it('shows the libraries, their floors and importers, and the test-only code as they are', () => {
    const file = path.join(root, 'docs/architecture.md');
    const doc = readFileSync(file, 'utf8');
    const { text, undescribed } = render(doc, architecture({ files: repositoryFiles({ untracked: true }), read: readText }));
    if (process.env.ARBITER_WRITE_ARCHITECTURE === '1' && text !== doc) writeFileSync(file, text);
    expect(undescribed).toEqual([]);
    expect(doc).toBe(text);
  });
});
