import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '..');

/** The committed OpenAPI documents must be what the controllers generate today (npm run generate). */
describe('committed OpenAPI documents', () => {
  it.each(['registry', 'verdict', 'ledger'])('%s openapi.json is up to date', async (app) => {
    const appDir = path.join(root, 'apps', app);
    const tsoa = JSON.parse(await readFile(path.join(appDir, 'tsoa.json'), 'utf8'));
    const out = await mkdtemp(path.join(os.tmpdir(), `openapi-${app}-`));
    const configPath = path.join(out, 'tsoa.json');
    await writeFile(configPath, JSON.stringify({ ...tsoa, spec: { ...tsoa.spec, outputDirectory: out } }));
    await run(path.join(root, 'node_modules/.bin/tsoa'), ['spec', '-c', configPath], { cwd: appDir });
    const fresh = JSON.parse(await readFile(path.join(out, 'openapi.json'), 'utf8'));
    const committed = JSON.parse(await readFile(path.join(appDir, 'openapi.json'), 'utf8'));
    expect(committed).toEqual(fresh);
  }, 120_000);
});
