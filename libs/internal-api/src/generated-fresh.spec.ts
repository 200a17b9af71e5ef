import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');

const TARGETS = ['registry-internal', 'ledger-internal', 'verdict-internal'];

/** The committed types must be what openapi-typescript makes of the committed apps/<service>/openapi.internal.json today. */
describe('generated internal API types', () => {
  let out: string;
  beforeAll(async () => {
    out = await mkdtemp(path.join(os.tmpdir(), 'internal-api-types-'));
    await run(process.execPath, [path.join(root, 'scripts/generate-client.mjs'), '--out-dir', out, ...TARGETS], { cwd: root });
  }, 120_000);
  afterAll(() => rm(out, { recursive: true, force: true }));

  it.each(TARGETS)('libs/internal-api/src/generated/%s.ts is up to date (node scripts/generate-client.mjs)', async (target) => {
    const fresh = await readFile(path.join(out, `${target}.ts`), 'utf8');
    const committed = await readFile(path.join(root, `libs/internal-api/src/generated/${target}.ts`), 'utf8');
    expect(committed).toBe(fresh);
  });
});
