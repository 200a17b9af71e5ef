import type { Pool } from 'pg';
import { decryptSecret, generateKeyEncryptionKey, parseKeyEncryptionKey } from '@arbiter/crypto';
import { createLogger } from '@arbiter/http';
import { createTestDatabase, testPool } from '@arbiter/testing';
import { ledgerCli } from '../../apps/ledger/src/cli';
import { createLedgerKeys } from '../../apps/ledger/src/keys';
import { registryCli } from '../../apps/registry/src/cli';
import { sealSecret } from '../../apps/registry/src/domain/standard-webhooks';
import { createWebhookKeys } from '../../apps/registry/src/keys';
import { verdictCli } from '../../apps/verdict/src/cli';
import { VerdictKeys } from '../../apps/verdict/src/keys';
import { SubjectKeysRepository } from '../../apps/verdict/src/repositories/subject-keys.repository';
import { SensitiveValuesService } from '../../apps/verdict/src/services/sensitive-values.service';
import { sensitivePolicy } from '@arbiter/sensitive';
import type { TenantId } from '@arbiter/auth';

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
  /** What else the service's command prints, at its first run and at a run with nothing left to do. */
  also?: { first: object; again: object };
}

/** A registry webhook subscription whose Standard Webhooks secret and previous secret (in its overlap) are under `kek`. */
async function subscriptionWithSecrets(pool: Pool, kek: string): Promise<void> {
  const key = parseKeyEncryptionKey(kek);
  await pool.query(`INSERT INTO tenants (id, slug, name) VALUES ('tnt-rot', 'rot', 'rot')`);
  await pool.query(
    `INSERT INTO webhook_subscriptions (id, tenant_id, url, events, secret_ciphertext, secret_created_at, previous_secret_ciphertext, previous_secret_expires_at)
     VALUES ('whk-rot', 'tnt-rot', 'https://example.test/hook', '{approval.requested}', $1, now(), $2, now() + interval '1 day')`,
    [sealSecret(Buffer.alloc(32, 1), 'whk-rot', key), sealSecret(Buffer.alloc(32, 2), 'whk-rot', key)],
  );
}

/** Both secrets of that subscription, decrypted under `kek` alone by @arbiter/crypto (associated data: docs/webhooks.md). */
async function openSubscriptionSecrets(pool: Pool, kek: string): Promise<Buffer[]> {
  const { rows } = await pool.query(`SELECT secret_ciphertext, previous_secret_ciphertext FROM webhook_subscriptions WHERE id = 'whk-rot'`);
  return [rows[0].secret_ciphertext, rows[0].previous_secret_ciphertext].map((c: string) =>
    decryptSecret(c, parseKeyEncryptionKey(kek), 'webhook-secret:whk-rot'),
  );
}

const logger = createLogger('test', 'silent');

/**
 * A sensitive value committed for a subject of tnt-a (docs/verdicts.md "Sensitive fields"), as a check does: the
 * tenant secret and the subject's keys are read (made on first use) under `kek` alone. Answers the commitment.
 */
async function commitUnder(pool: Pool, kek: string): Promise<unknown> {
  const sensitive = new SensitiveValuesService({
    keys: new SubjectKeysRepository(pool),
    kek: parseKeyEncryptionKey(kek),
    previousKek: null,
  });
  const policy = sensitivePolicy({ sensitive_fields: ['parameters.card'], data_subject_field: 'parameters.customer' });
  const shielded = await sensitive.shield('tnt-a' as TenantId, policy, { card: '4111', customer: 'c-1' }, {}, 'cns-rot');
  return shielded!.parameters.card;
}
const SERVICES: Record<'registry' | 'verdict' | 'ledger', ServiceKeys> = {
  registry: {
    cli: registryCli,
    variable: 'DATABASE_URL_REGISTRY',
    table: 'webhook_signing_keys',
    async makeKeys(pool, kek) {
      const keys = createWebhookKeys(pool, parseKeyEncryptionKey(kek));
      await keys.ensureCurrent();
      await keys.rotate('emergency');
      await subscriptionWithSecrets(pool, kek);
    },
    async open(pool, kek) {
      expect(await openSubscriptionSecrets(pool, kek)).toEqual([Buffer.alloc(32, 1), Buffer.alloc(32, 2)]);
      return createWebhookKeys(pool, parseKeyEncryptionKey(kek)).checkCurrent();
    },
    also: {
      first: { webhookSecrets: { subscriptions: 1, reencrypted: ['whk-rot'], alreadyCurrent: 0 } },
      again: { webhookSecrets: { subscriptions: 1, reencrypted: [], alreadyCurrent: 1 } },
    },
  },
  verdict: {
    cli: verdictCli,
    variable: 'DATABASE_URL_VERDICT',
    table: 'signing_keys',
    async makeKeys(pool, kek) {
      const keys = new VerdictKeys(pool, kek, logger);
      await keys.ensureCurrent('tnt-a');
      await keys.ensureCurrent('tnt-b');
      await commitUnder(pool, kek);
    },
    async open(pool, kek) {
      const keys = new VerdictKeys(pool, kek, logger);
      await commitUnder(pool, kek);
      return Promise.all(['tnt-a', 'tnt-b'].map(async (tenant) => (await keys.signerFor(tenant)).sign({ tenant })));
    },
    // The tenant secret and the subject's keys of sensitive fields, wrapped under the same key.
    also: {
      first: { subjectKeys: { keys: 2, reencrypted: 2, alreadyCurrent: 0 } },
      again: { subjectKeys: { keys: 2, reencrypted: 0, alreadyCurrent: 2 } },
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
  async function reencrypt(
    env: Record<string, string>,
  ): Promise<{ table: string; keys: number; reencrypted: string[]; alreadyCurrent: number } & Record<string, unknown>> {
    let out = '';
    await s
      .cli({ env: { [s.variable]: db.url, ...env }, out: (text) => (out += text) })
      .parseAsync(['node', 'cli.js', 'keys', 'reencrypt']);
    return JSON.parse(out);
  }

  beforeAll(async () => {
    db = await createTestDatabase(`reencrypt_${service}`);
    // The first run, on an empty database, applies the service's migrations and finds no key.
    expect(await reencrypt({ KEY_ENCRYPTION_KEY: OLD })).toMatchObject({ keys: 0, reencrypted: [], alreadyCurrent: 0 });
    pool = testPool(db.url, 2);
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
    expect(first).toMatchObject({ keys: 2, alreadyCurrent: 0, ...s.also?.first });
    expect(first.reencrypted).toHaveLength(2);
    await expect(s.open(pool, NEW)).resolves.toBeDefined();
    await expect(s.open(pool, OLD)).rejects.toMatchObject({ code: expect.stringMatching(/decryption_failed|signing_key_unavailable/) });
  });

  const stored = async () => (await pool.query(`SELECT kid, encrypted_private_key FROM ${s.table} ORDER BY kid`)).rows;

  it('changes nothing when run again', async () => {
    const before = await stored();
    expect(await reencrypt({ KEY_ENCRYPTION_KEY: NEW, KEY_ENCRYPTION_KEY_PREVIOUS: OLD })).toMatchObject({
      keys: 2,
      reencrypted: [],
      alreadyCurrent: 2,
      ...s.also?.again,
    });
    expect(await reencrypt({ KEY_ENCRYPTION_KEY: NEW })).toMatchObject({ keys: 2, reencrypted: [], alreadyCurrent: 2, ...s.also?.again });
    const after = await stored();
    expect(after).toEqual(before);
  });
});
