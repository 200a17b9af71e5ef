import { createPublicKey, verify } from 'node:crypto';
import { applyMigrations, createPool, createPrismaClient } from '@arbiter/db';
import { generateKeyEncryptionKey, parseKeyEncryptionKey } from '@arbiter/crypto';
import { createTestDatabase } from '@arbiter/testing';
import { PrismaClient } from '../src/generated/prisma/client';
import { ledgerMigrationsDir } from '../src/context';
import { SigningKeysService } from '../src/services/signing-keys.service';

describe(SigningKeysService.name, () => {
  let db: { url: string; drop(): Promise<void> };
  let pool: ReturnType<typeof createPool>;
  let prisma: PrismaClient;
  const kek = parseKeyEncryptionKey(generateKeyEncryptionKey());

  beforeEach(async () => {
    db = await createTestDatabase('signing_keys');
    await applyMigrations(db.url, ledgerMigrationsDir());
    pool = createPool({ url: db.url, max: 4 });
    prisma = createPrismaClient(PrismaClient, pool);
  });
  afterEach(async () => {
    await prisma.$disconnect();
    await pool.end();
    await db.drop();
  });

  it('creates exactly one key when replicas start at once', async () => {
    const replicas = [0, 1, 2, 3].map(() => new SigningKeysService(prisma, kek));
    const kids = await Promise.all(replicas.map((sut) => sut.ensureCurrent().then((k) => k.kid)));
    expect(new Set(kids)).toEqual(new Set([`ledger:${new Date().getUTCFullYear()}`]));
    expect(await new SigningKeysService(prisma, kek).published()).toHaveLength(1);
  });

  it('stores the private key encrypted, and signs what node:crypto verifies with the published key', async () => {
    const sut = new SigningKeysService(prisma, kek);
    const signer = await sut.signerAt(new Date());
    const { rows } = await pool.query(`SELECT encrypted_private_key, public_jwk FROM signing_keys`);
    expect(rows[0].encrypted_private_key).toMatch(/^v1\./);
    const [published] = await sut.published();
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: published.x }, format: 'jwk' });
    expect(verify(null, Buffer.from('message'), publicKey, signer.sign('message'))).toBe(true);
  });

  it('refuses to use a key under a different KEY_ENCRYPTION_KEY', async () => {
    await new SigningKeysService(prisma, kek).ensureCurrent();
    const other = new SigningKeysService(prisma, parseKeyEncryptionKey(generateKeyEncryptionKey()));
    await expect(other.checkCurrent()).rejects.toMatchObject({ code: 'decryption_failed' });
  });

  it('makes a new key after every key was retired, as an emergency epoch when this year’s exists', async () => {
    const sut = new SigningKeysService(prisma, kek);
    const first = await sut.ensureCurrent();
    await pool.query(`UPDATE signing_keys SET not_after = now() - interval '1 second'`);
    const second = await sut.ensureCurrent();
    expect(second.kid).toBe(`${first.kid}.1`);
    expect((await sut.published()).map((k) => k.kid)).toEqual([first.kid, second.kid]);
  });
});
