import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');

/** The committed client types must be what openapi-typescript makes of the committed OpenAPI documents today. */
describe('generated client types', () => {
  let out: string;
  beforeAll(async () => {
    out = await mkdtemp(path.join(os.tmpdir(), 'client-types-'));
    await run(process.execPath, [path.join(root, 'scripts/generate-client.mjs'), '--out-dir', out], { cwd: root });
  }, 120_000);
  afterAll(() => rm(out, { recursive: true, force: true }));

  it.each(['registry', 'verdict', 'ledger'])(
    'libs/client/src/generated/%s.ts is up to date (node scripts/generate-client.mjs)',
    async (service) => {
      const fresh = await readFile(path.join(out, `${service}.ts`), 'utf8');
      const committed = await readFile(path.join(root, 'libs/client/src/generated', `${service}.ts`), 'utf8');
      expect(committed).toBe(fresh);
    },
  );
});
