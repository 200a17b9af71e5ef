import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '..');

/**
 * The committed OpenAPI documents must be what the controllers generate today (npm run generate):
 * each service's public openapi.json (finished by scripts/openapi-finish.mjs), and the internal APIs of the registry, the ledger and the verdict gateway (tsoa.internal.json).
 */
describe('committed OpenAPI documents', () => {
  it.each([
    ['registry', 'tsoa.json'],
    ['verdict', 'tsoa.json'],
    ['ledger', 'tsoa.json'],
    ['registry', 'tsoa.internal.json'],
    ['ledger', 'tsoa.internal.json'],
    ['verdict', 'tsoa.internal.json'],
  ])(
    '%s %s document is up to date',
    async (app, config) => {
      const appDir = path.join(root, 'apps', app);
      const tsoa = JSON.parse(await readFile(path.join(appDir, config), 'utf8'));
      const out = await mkdtemp(path.join(os.tmpdir(), `openapi-${app}-`));
      const configPath = path.join(out, 'tsoa.json');
      await writeFile(configPath, JSON.stringify({ ...tsoa, spec: { ...tsoa.spec, outputDirectory: out } }));
      await run(path.join(root, 'node_modules/.bin/tsoa'), ['spec', '-c', configPath], { cwd: appDir });
      const name = `${tsoa.spec.specFileBaseName}.json`;
      // npm run generate finishes what tsoa wrote (scripts/openapi-finish.mjs): so does this test.
      const finish = [
        path.join(root, 'scripts/openapi-finish.mjs'),
        path.join(out, name),
        app,
        ...(config === 'tsoa.json' ? [] : ['--structure-only']),
      ];
      await run(process.execPath, finish);
      const fresh = JSON.parse(await readFile(path.join(out, name), 'utf8'));
      const committed = JSON.parse(await readFile(path.join(appDir, name), 'utf8'));
      expect(committed).toEqual(fresh);
    },
    120_000,
  );

  it.each(['registry', 'ledger', 'verdict'])('keeps the internal endpoints out of the public %s document', async (app) => {
    const pub = JSON.parse(await readFile(path.join(root, `apps/${app}/openapi.json`), 'utf8'));
    const internal = JSON.parse(await readFile(path.join(root, `apps/${app}/openapi.internal.json`), 'utf8'));
    expect(Object.keys(pub.paths).filter((p) => p.startsWith('/internal/'))).toEqual([]);
    expect(Object.keys(internal.paths).length).toBeGreaterThan(0);
    expect(Object.keys(internal.paths).filter((p) => !p.startsWith('/internal/v1/'))).toEqual([]);
  });
});
