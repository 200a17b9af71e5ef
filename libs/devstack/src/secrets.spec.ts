import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DevstackError } from './errors';
import { loadOrCreateSecrets } from './secrets';

describe(loadOrCreateSecrets.name, () => {
  let tmp: string;
  let file: string;

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-secrets-'));
    file = path.join(tmp, '.data', 'secrets.json');
  });

  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('generates secrets of the documented shapes into a file only its owner can read', () => {
    const sut = loadOrCreateSecrets(file, {});

    expect(sut.secrets.INTERNAL_TOKEN).toMatch(/^[0-9a-f]{64}$/);
    expect(Buffer.from(sut.secrets.KEY_ENCRYPTION_KEY, 'base64')).toHaveLength(32);
    expect(sut.secrets.BOOTSTRAP_ADMIN_KEY).toMatch(/^ak-[0-9a-f]{64}$/);
    expect(sut.sources).toEqual({ INTERNAL_TOKEN: 'generated', KEY_ENCRYPTION_KEY: 'generated', BOOTSTRAP_ADMIN_KEY: 'generated' });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(sut.secrets);
  });

  it('reuses the stored secrets on the next load', () => {
    const first = loadOrCreateSecrets(file, {});

    const sut = loadOrCreateSecrets(file, {});

    expect(sut.secrets).toEqual(first.secrets);
    expect(sut.sources.BOOTSTRAP_ADMIN_KEY).toBe('file');
  });

  it('lets a value from the environment win without overwriting the stored one', () => {
    const stored = loadOrCreateSecrets(file, {});
    const given = `ak-${'ab'.repeat(32)}`;

    const sut = loadOrCreateSecrets(file, { BOOTSTRAP_ADMIN_KEY: given });

    expect(sut.secrets.BOOTSTRAP_ADMIN_KEY).toBe(given);
    expect(sut.sources.BOOTSTRAP_ADMIN_KEY).toBe('env');
    expect(sut.secrets.INTERNAL_TOKEN).toBe(stored.secrets.INTERNAL_TOKEN);
    expect(loadOrCreateSecrets(file, {}).secrets.BOOTSTRAP_ADMIN_KEY).toBe(stored.secrets.BOOTSTRAP_ADMIN_KEY);
  });

  it('completes a file that lacks some secrets and keeps the ones it has', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ INTERNAL_TOKEN: 'kept' }), { mode: 0o644 });

    const sut = loadOrCreateSecrets(file, {});

    expect(sut.secrets.INTERNAL_TOKEN).toBe('kept');
    expect(sut.sources.KEY_ENCRYPTION_KEY).toBe('generated');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('rejects a file that is not JSON with invalid_secrets', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{ not json');

    const attempt = () => loadOrCreateSecrets(file, {});

    expect(attempt).toThrow(DevstackError);
    expect(attempt).toThrow(expect.objectContaining({ code: 'invalid_secrets' }));
  });
});
