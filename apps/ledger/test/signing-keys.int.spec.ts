import { createPublicKey, verify } from 'node:crypto';
import { applyMigrations, createPool } from '@arbiter/db';
import { generateKeyEncryptionKey, parseKeyEncryptionKey } from '@arbiter/crypto';
import { createTestDatabase } from '@arbiter/testing';
import { ledgerMigrationsDir } from '../src/context';
import canonicalize from 'canonicalize';
import { KeyTransitionsRepository } from '../src/repositories/key-transitions.repository';
import { createLedgerKeys, publishedKeySet, rotateLedgerKey } from '../src/keys';

describe(createLedgerKeys.name, () => {
  let db: { url: string; drop(): Promise<void> };
  let pool: ReturnType<typeof createPool>;
  const kek = parseKeyEncryptionKey(generateKeyEncryptionKey());

  beforeEach(async () => {
    db = await createTestDatabase('signing_keys');
    await applyMigrations(db.url, ledgerMigrationsDir());
    pool = createPool({ url: db.url, max: 4 });
  });
  afterEach(async () => {
    await pool.end();
    await db.drop();
  });

  it('creates exactly one key when replicas start at once', async () => {
    const replicas = [0, 1, 2, 3].map(() => createLedgerKeys(pool, kek));
    const kids = await Promise.all(replicas.map((sut) => sut.ensureCurrent().then((k) => k.key.kid)));
    expect(new Set(kids)).toEqual(new Set([`ledger:${new Date().getUTCFullYear()}`]));
    expect(await createLedgerKeys(pool, kek).published()).toHaveLength(1);
  });

  it('stores the private key encrypted, and signs what node:crypto verifies with the published key', async () => {
    const sut = createLedgerKeys(pool, kek);
    const signer = await sut.signer(new Date());
    const { rows } = await pool.query(`SELECT encrypted_private_key, public_jwk, algorithm FROM signing_keys`);
    expect(rows[0].encrypted_private_key).toMatch(/^v1\./);
    expect(rows[0].algorithm).toBe('Ed25519');
    const [published] = await sut.published();
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: published.x }, format: 'jwk' });
    expect(verify(null, Buffer.from('message'), publicKey, signer.sign('message'))).toBe(true);
  });

  it('refuses to use a key under a different KEY_ENCRYPTION_KEY', async () => {
    await createLedgerKeys(pool, kek).ensureCurrent();
    const other = createLedgerKeys(pool, parseKeyEncryptionKey(generateKeyEncryptionKey()));
    await expect(other.checkCurrent()).rejects.toMatchObject({ code: 'decryption_failed' });
  });

  it('makes a new key after every key was retired, as an emergency epoch when this year’s exists', async () => {
    const sut = createLedgerKeys(pool, kek);
    const first = (await sut.ensureCurrent()).key;
    await pool.query(`UPDATE signing_keys SET not_after = now() - interval '1 second'`);
    const second = (await sut.ensureCurrent()).key;
    expect(second.kid).toBe(`${first.kid}.1`);
    expect((await sut.published()).map((k) => k.kid)).toEqual([first.kid, second.kid]);
  });

  it('answers a rotation as the admin endpoint and the CLI print it', async () => {
    const sut = createLedgerKeys(pool, kek);
    const first = (await sut.ensureCurrent()).key;
    const rotation = await rotateLedgerKey(sut, 'emergency');
    expect(rotation).toMatchObject({ mode: 'emergency', key_id: `${first.kid}.1`, retired: [first.kid] });
    expect(rotation.keys.map((k) => [k.kid, k.not_after === null])).toEqual([
      [first.kid, false],
      [`${first.kid}.1`, true],
    ]);
    await expect(rotateLedgerKey(sut, 'scheduled')).rejects.toMatchObject({ code: 'rotation_not_due' });
  });

  it('publishes each rotation as a statement signed by the retired key and the new one (node:crypto verifies both); the first key has none', async () => {
    const sut = createLedgerKeys(pool, kek);
    const first = (await sut.ensureCurrent()).key;
    const transitions = new KeyTransitionsRepository(pool);
    expect(await transitions.list()).toEqual([]);
    await rotateLedgerKey(sut, 'emergency');
    await rotateLedgerKey(sut, 'emergency');
    const { keys, transitions: statements } = await publishedKeySet(sut, transitions);
    expect(keys.map((k) => k.kid)).toEqual([first.kid, `${first.kid}.1`, `${first.kid}.2`]);
    expect(statements).toHaveLength(2);
    for (const [i, t] of statements!.entries()) {
      const [old, made] = [keys[i], keys[i + 1]];
      expect(t).toMatchObject({
        type: 'ledger_key_transition',
        mode: 'emergency',
        created_at_ms: Date.parse(made.not_before),
        key: { kid: made.kid, kty: 'OKP', crv: 'Ed25519', x: made.x },
        retired: [{ kid: old.kid, not_after: old.not_after }],
        signature_alg: 'Ed25519',
      });
      expect(t.signatures.map((s) => s.key_id)).toEqual([old.kid, made.kid]);
      const { signatures, ...unsigned } = t;
      const input = Buffer.from(canonicalize(unsigned)!, 'utf8');
      for (const [s, k] of [
        [signatures[0], old],
        [signatures[1], made],
      ] as const) {
        const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: k.x }, format: 'jwk' });
        expect(verify(null, input, publicKey, Buffer.from(s.signature, 'base64'))).toBe(true);
      }
    }
  });
});
