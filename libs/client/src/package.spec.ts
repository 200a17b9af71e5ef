import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');

/** The published package: what `npm run build -w @arbiter/client` makes must load and type-check on its own. */
describe('@arbiter/client package build', () => {
  let dir: string;
  beforeAll(async () => {
    // Under the repository so that the package's dependencies (jose, openapi-fetch) resolve as installed.
    await mkdir(path.join(root, 'tmp'), { recursive: true });
    dir = await mkdtemp(path.join(root, 'tmp', 'client-package-'));
    await run(process.execPath, [path.join(root, 'libs/client/scripts/build.mjs'), '--out-dir', path.join(dir, 'dist')], { cwd: root });
  }, 120_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('loads as CommonJS and as an ES module', async () => {
    const probe = (file: string) =>
      `const c = ${file}; if (typeof c.verifyVerdict !== 'function' || typeof c.createVerdictClient !== 'function') process.exit(1);`;
    await run(process.execPath, ['-e', probe(`require(${JSON.stringify(path.join(dir, 'dist/index.cjs'))})`)]);
    await run(process.execPath, ['--input-type=module', '-e', probe(`await import(${JSON.stringify(path.join(dir, 'dist/index.mjs'))})`)]);
  });

  it('ships declarations a consumer type-checks against (typed, not any) without the monorepo', async () => {
    await writeFile(
      path.join(dir, 'consumer.ts'),
      [
        "import { createVerdictClient, resolveUntilComplete, verifyVerdict, type VerdictClaims } from './dist/types/index';",
        "const verdict = createVerdictClient({ baseUrl: 'http://127.0.0.1:3002', apiKey: 'ak-x', tenant: 'acme' });",
        'export async function run(): Promise<VerdictClaims> {',
        "  const { response } = await resolveUntilComplete(verdict, { action: 'a', resource: 'r', scope: {}, context: {} }, () => ({}));",
        '  const { claims } = await verifyVerdict(response.signed_verdict, { jwksUrl: await verdict.jwksUrl() });',
        // Fails to compile if the declarations collapsed to `any` (an unused @ts-expect-error is an error).
        '  // @ts-expect-error the verdict is a string',
        '  const wrong: number = claims.verdict;',
        '  void wrong;',
        '  return claims;',
        '}',
      ].join('\n'),
    );
    await run(
      path.join(root, 'node_modules/.bin/tsc'),
      [
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        'true',
        '--target',
        'es2022',
        '--module',
        'commonjs',
        '--moduleResolution',
        'node',
        '--esModuleInterop',
        '--types',
        'node',
        path.join(dir, 'consumer.ts'),
      ],
      { cwd: dir },
    );
  }, 60_000);
});
