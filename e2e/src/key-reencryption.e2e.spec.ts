import { Pool } from 'pg';
import { generateKeyEncryptionKey, parseKeyEncryptionKey } from '@arbiter/crypto';
import { createLogger } from '@arbiter/http';
import { createTestDatabase } from '@arbiter/testing';
import { ledgerCli } from '../../apps/ledger/src/cli';
import { createLedgerKeys } from '../../apps/ledger/src/keys';
import { registryCli } from '../../apps/registry/src/cli';
import { createWebhookKeys } from '../../apps/registry/src/keys';
import { verdictCli } from '../../apps/verdict/src/cli';
import { VerdictKeys } from '../../apps/verdict/src/keys';

/**
 * Rotating KEY_ENCRYPTION_KEY (docs/operations.md "Rotating KEY_ENCRYPTION_KEY"): each service's `keys reencrypt`
 * command, against a real database, moves the stored private keys from the previous key to the current one; after
 * it the service opens them with the new key alone, and a second run changes nothing.
 */

type Cli = (io: { env: NodeJS.ProcessEnv; out: (text: string) => void }) => { parseAsync(argv: string[]): Promise<unknown> };

interface ServiceKeys {
  cli: Cli;
  variable: string;
  /** The service's key table. */
  table: string;
  /** Makes two keys under `kek` (two owners, or a rotation), as the running service would. */
  makeKeys(pool: Pool, kek: string): Promise<void>;
  /** Opens the current key(s) under `kek` alone, as the service does at start or at its first signature. */
  open(pool: Pool, kek: string): Promise<unknown>;
}

const logger = createLogger('test', 'silent');
const SERVICES: Record<'registry' | 'verdict' | 'ledger', ServiceKeys> = {
  registry: {
    cli: registryCli,
    variable: 'DATABASE_URL_REGISTRY',
    table: 'webhook_signing_keys',
    async makeKeys(pool, kek) {
      const keys = createWebhookKeys(pool, parseKeyEncryptionKey(kek));
      await keys.ensureCurrent();
      await keys.rotate('emergency');
    },
    open: (pool, kek) => createWebhookKeys(pool, parseKeyEncryptionKey(kek)).checkCurrent(),
  },
  verdict: {
    cli: verdictCli,
    variable: 'DATABASE_URL_VERDICT',
    table: 'signing_keys',
    async makeKeys(pool, kek) {
      const keys = new VerdictKeys(pool, kek, logger);
      await keys.ensureCurrent('tnt-a');
      await keys.ensureCurrent('tnt-b');
    },
    async open(pool, kek) {
      const keys = new VerdictKeys(pool, kek, logger);
      return Promise.all(['tnt-a', 'tnt-b'].map(async (tenant) => (await keys.signerFor(tenant)).sign({ tenant })));
    },
  },
  ledger: {
    cli: ledgerCli,
    variable: 'DATABASE_URL_LEDGER',
    table: 'signing_keys',
    async makeKeys(pool, kek) {
      const keys = createLedgerKeys(pool, parseKeyEncryptionKey(kek));
      await keys.ensureCurrent();
      await keys.rotate('emergency');
    },
    open: (pool, kek) => createLedgerKeys(pool, parseKeyEncryptionKey(kek)).checkCurrent(),
  },
};

describe.each(Object.entries(SERVICES))('%s: keys reencrypt', (service, s) => {
  const OLD = generateKeyEncryptionKey();
  const NEW = generateKeyEncryptionKey();
  let db: { url: string; drop(): Promise<void> };
  let pool: Pool;

  /** Runs `keys reencrypt` in-process with this environment; answers the JSON it prints. */
  async function reencrypt(env: Record<string, string>): Promise<{ table: string; keys: number; reencrypted: string[]; alreadyCurrent: number }> {
    let out = '';
    await s.cli({ env: { [s.variable]: db.url, ...env }, out: (text) => (out += text) }).parseAsync(['node', 'cli.js', 'keys', 'reencrypt']);
    return JSON.parse(out);
  }

  beforeAll(async () => {
    db = await createTestDatabase(`reencrypt_${service}`);
    // The first run, on an empty database, applies the service's migrations and finds no key.
    expect(await reencrypt({ KEY_ENCRYPTION_KEY: OLD })).toMatchObject({ keys: 0, reencrypted: [], alreadyCurrent: 0 });
    pool = new Pool({ connectionString: db.url, max: 2 });
    await s.makeKeys(pool, OLD);
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  it('refuses, changing nothing, while the keys are under a key it was not given', async () => {
    await expect(reencrypt({ KEY_ENCRYPTION_KEY: NEW })).rejects.toMatchObject({ code: 'decryption_failed' });
    await expect(s.open(pool, OLD)).resolves.toBeDefined();
  });

  it('moves every key to KEY_ENCRYPTION_KEY, after which the service opens them with it alone and no longer with the old one', async () => {
    await expect(s.open(pool, NEW)).rejects.toMatchObject({ code: expect.stringMatching(/decryption_failed|signing_key_unavailable/) });
    const first = await reencrypt({ KEY_ENCRYPTION_KEY: NEW, KEY_ENCRYPTION_KEY_PREVIOUS: OLD });
    expect(first).toMatchObject({ keys: 2, alreadyCurrent: 0 });
    expect(first.reencrypted).toHaveLength(2);
    await expect(s.open(pool, NEW)).resolves.toBeDefined();
    await expect(s.open(pool, OLD)).rejects.toMatchObject({ code: expect.stringMatching(/decryption_failed|signing_key_unavailable/) });
  });

  const stored = async () => (await pool.query(`SELECT kid, encrypted_private_key FROM ${s.table} ORDER BY kid`)).rows;

  it('changes nothing when run again', async () => {
    const before = await stored();
    expect(await reencrypt({ KEY_ENCRYPTION_KEY: NEW, KEY_ENCRYPTION_KEY_PREVIOUS: OLD })).toMatchObject({ keys: 2, reencrypted: [], alreadyCurrent: 2 });
    expect(await reencrypt({ KEY_ENCRYPTION_KEY: NEW })).toMatchObject({ keys: 2, reencrypted: [], alreadyCurrent: 2 });
    const after = await stored();
    expect(after).toEqual(before);
  });
});
