import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatBanner, writeStackFile } from './stack';

describe(writeStackFile.name, () => {
  let tmp: string;
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-stackfile-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('writes the URLs the CLI reads, nothing else, and replaces an older file whole', () => {
    fs.writeFileSync(path.join(tmp, 'stack.env'), 'ARBITER_LEDGER_URL=http://127.0.0.1:3003\nOLD=1\n');
    const file = writeStackFile(tmp, { registry: 'http://127.0.0.1:4001', verdict: 'http://127.0.0.1:4002' });
    expect(file).toBe(path.join(tmp, 'stack.env'));
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    expect(lines.filter((l) => l && !l.startsWith('#'))).toEqual([
      'ARBITER_REGISTRY_URL=http://127.0.0.1:4001',
      'ARBITER_VERDICT_URL=http://127.0.0.1:4002',
    ]);
    expect(fs.readdirSync(tmp)).toEqual(['stack.env']);
  });
});

describe(formatBanner.name, () => {
  const stack = {
    urls: { registry: 'http://127.0.0.1:4001' },
    secrets: {
      secrets: { INTERNAL_TOKEN: 't', KEY_ENCRYPTION_KEY: 'k', BOOTSTRAP_ADMIN_KEY: 'ak-1' },
      sources: { INTERNAL_TOKEN: 'file', KEY_ENCRYPTION_KEY: 'file', BOOTSTRAP_ADMIN_KEY: 'file' },
    },
  } as const;

  it("names the stack file and the CLI's first steps when the file was written", () => {
    const banner = formatBanner(stack, '.data/secrets.json', '.data/stack.env');
    expect(banner).toContain('URLs written to .data/stack.env, where arbiter finds them.');
    expect(banner).toContain('  npm install -g ./apps/cli');
    expect(banner).toContain('  ARBITER_ADMIN_KEY=ak-1 arbiter quickstart');
    expect(formatBanner(stack, '.data/secrets.json')).not.toContain('quickstart');
  });

  it('prints the console sign-in link for the admin, or why there is none', () => {
    const link = 'http://127.0.0.1:4001/console/auth/link/abc';
    expect(formatBanner(stack, '.data/secrets.json', undefined, { url: link })).toContain(`  console    ${link}   (sign in as the admin`);
    expect(formatBanner(stack, '.data/secrets.json', undefined, { error: 'down' })).toContain('  console    no sign-in link (down)');
    expect(formatBanner(stack, '.data/secrets.json')).not.toContain('console ');
  });
});
