import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const checker = path.join(__dirname, 'import-circles.cjs');

/** Runs the checker as `npm run lint` does (a process of its own) over a tree written from `files`. */
async function check(files: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'import-circles-'));
  try {
    const tsconfig = {
      compilerOptions: { baseUrl: '.', paths: { '@fixture/a': ['libs/a/src/index.ts'], '@fixture/b': ['libs/b/src/index.ts'] } },
    };
    for (const [file, text] of Object.entries({ 'tsconfig.base.json': JSON.stringify(tsconfig), ...files })) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), text);
    }
    try {
      const { stderr } = await run(process.execPath, [checker, root]);
      return { code: 0, stderr };
    } catch (err) {
      const e = err as { code: number; stderr: string };
      return { code: e.code, stderr: e.stderr };
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

describe('the import-circle check', () => {
  it('passes a tree whose imports go one way, across projects too', async () => {
    expect(
      await check({
        'apps/ledger/src/http/authentication.ts': "export interface KeyCheck { error?: unknown }\nexport const KEY_CHECK_LOCAL = 'k';",
        'apps/ledger/src/http/rate-limit.ts':
          "import { KEY_CHECK_LOCAL, type KeyCheck } from './authentication';\nimport { b } from '@fixture/b';\nexport const x: KeyCheck = { error: KEY_CHECK_LOCAL + b };",
        'libs/b/src/index.ts': "export { b } from './b';",
        'libs/b/src/b.ts': "import { a } from '@fixture/a';\nexport const b = a;",
        'libs/a/src/index.ts': "export const a = 'a';",
      }),
    ).toEqual({ code: 0, stderr: '' });
  }, 60_000);

  it('fails on a circle closed by a type-only import, naming its files', async () => {
    const result = await check({
      'apps/ledger/src/http/authentication.ts':
        "import type { KeyCheck } from './rate-limit';\nexport const KEY_CHECK_LOCAL = 'k';\nexport type Known = KeyCheck;",
      'apps/ledger/src/http/rate-limit.ts':
        "import { KEY_CHECK_LOCAL } from './authentication';\nexport interface KeyCheck { error?: unknown }\nexport const local = KEY_CHECK_LOCAL;",
    });
    expect(result.code).toBe(1);
    // One line per circle, from whichever of its files the walk met first, back to that file.
    expect(result.stderr).toMatch(/^ {2}(\S+) -> (\S+) -> \1$/m);
    expect(result.stderr).toContain('apps/ledger/src/http/authentication.ts');
    expect(result.stderr).toContain('apps/ledger/src/http/rate-limit.ts');
  }, 60_000);

  it('fails on a circle between two projects through their aliases', async () => {
    const result = await check({
      'libs/a/src/index.ts': "export { a } from './a';",
      'libs/a/src/a.ts': "import { b } from '@fixture/b';\nexport const a = () => b;",
      'libs/b/src/index.ts': "import { a } from '@fixture/a';\nexport const b = () => a;",
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('libs/b/src/index.ts');
    expect(result.stderr).toContain('libs/a/src/a.ts');
  }, 60_000);
});
