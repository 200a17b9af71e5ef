import { createPublicKey, verify } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';
import { CryptoError, decryptSecret, generateKeyEncryptionKey, parseKeyEncryptionKey, type RotationMode } from '@arbiter/crypto';
import { createTestDatabase, testPool } from '@arbiter/testing';
import { KeyStore, type KeyChange, type KeyChangeRecorder, type KeyStoreOptions } from './key-store';
import { ed25519Keys, es256JwsKeys, p256HexKeys, type KeyType } from './key-types';

// The key tables as the services' migrations create them; the fixture tables are made from the same text.
const MIGRATIONS = path.resolve(__dirname, '../../../prisma');
const SERVICE_TABLES = [
  ['verdict/migrations/20261122000000_signing_keys/migration.sql', 'signing_keys'],
  ['ledger/migrations/20261122000000_signing_keys/migration.sql', 'signing_keys'],
  ['registry/migrations/20261126000000_approvals_webhooks/migration.sql', 'webhook_signing_keys'],
] as const;

/** The CREATE TABLE and CREATE UNIQUE INDEX of `table` in a migration, the table's name replaced by <table>. */
function keyTableDdl(file: string, table: string): string {
  const sql = fs.readFileSync(path.join(MIGRATIONS, file), 'utf8');
  const create = new RegExp(`CREATE TABLE "${table}" \\([\\s\\S]*?\\n\\);`).exec(sql)?.[0];
  const unique = new RegExp(`CREATE UNIQUE INDEX "${table}_owner_id_epoch_key"[^;]*;`).exec(sql)?.[0];
  if (!create || !unique) throw new Error(`${file} does not create ${table} with its unique (owner_id, epoch)`);
  return `${create}\n${unique}`.split(`"${table}`).join('"<table>');
}

const DDL = (table: string) =>
  keyTableDdl(...SERVICE_TABLES[0])
    .split('"<table>')
    .join(`"${table}`);

let db: Awaited<ReturnType<typeof createTestDatabase>>;
/** Two pools: two "instances" of a service, each with its own connections. */
let pools: Pool[];
let table: string;
let n = 0;

beforeAll(async () => {
  db = await createTestDatabase('keystore');
  pools = [testPool(db.url, 4), testPool(db.url, 4)];
});
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  await db.drop();
});
beforeEach(async () => {
  table = `keys_${++n}`;
  await pools[0].query(DDL(table));
});

const kek = generateKeyEncryptionKey();
const at = (iso: string) => () => new Date(iso);

function store<S>(over: Partial<KeyStoreOptions<S>> & { type: KeyType<S> }, instance = 0): KeyStore<S> {
  return new KeyStore<S>({ pool: pools[instance], table, keyEncryptionKey: kek, ...over });
}

const openKeys = async () => (await pools[0].query(`SELECT kid FROM "${table}" WHERE not_after IS NULL`)).rows.map((r) => r.kid as string);

describe(KeyStore.name, () => {
  it('works on the one table shape every service migrates (verdict, ledger, registry)', () => {
    const [first, ...others] = SERVICE_TABLES.map(([file, name]) => keyTableDdl(file, name));
    for (const other of others) expect(other).toBe(first);
    // ...and no later migration changes one of them (a change must reach all three, and this test).
    for (const [file, name] of SERVICE_TABLES) {
      const dir = path.join(MIGRATIONS, path.dirname(path.dirname(file)));
      for (const migration of fs.readdirSync(dir)) {
        const sql = fs.readFileSync(path.join(dir, migration, 'migration.sql'), 'utf8');
        expect({ migration, alters: sql.includes(`ALTER TABLE "${name}"`) }).toEqual({ migration, alters: false });
      }
    }
    expect(first).toMatch(/"kid" TEXT NOT NULL,[\s\S]*PRIMARY KEY \("kid"\)/);
  });

  describe('concurrency', () => {
    it('creates exactly one key when instances race for a first key', async () => {
      const instances = [0, 1, 0, 1].map((i) => store({ type: ed25519Keys, clock: at('2026-06-01T00:00:00Z') }, i));
      const results = await Promise.all(instances.flatMap((sut) => [sut.ensureCurrent('ledger'), sut.signer('ledger')]));
      const kids = results.map((r) => ('key' in r ? r.key.kid : r.kid));
      expect(new Set(kids)).toEqual(new Set(['ledger:2026']));
      expect(results.filter((r) => 'created' in r && r.created)).toHaveLength(1);
      expect(await instances[0].records('ledger')).toHaveLength(1);
    });

    it('never leaves two current keys when instances rotate at once: each rotation gets its own epoch, one stays open', async () => {
      const a = store({ type: p256HexKeys });
      const b = store({ type: p256HexKeys }, 1);
      await a.ensureCurrent('webhooks');
      const rotations = await Promise.all([a, b, a, b].map((sut) => sut.rotate('webhooks', 'emergency')));
      const year = new Date().getUTCFullYear();
      expect(rotations.map((r) => r.key.epoch).sort()).toEqual([1, 2, 3, 4].map((i) => `${year}.${i}`));
      expect(await openKeys()).toEqual([`webhooks:${year}.4`]);
      // Each rotation closed exactly the key open before it: the ring is a single chain.
      expect(rotations.map((r) => r.retired.length)).toEqual([1, 1, 1, 1]);
      expect(await a.records('webhooks')).toHaveLength(5);
    });

    it('lets only one of two racing scheduled rotations through; the other is rotation_not_due', async () => {
      const clock = at('2026-12-31T12:00:00Z');
      await store({ type: ed25519Keys, clock }).ensureCurrent('ledger');
      const next = at('2027-01-01T00:00:00Z');
      const results = await Promise.allSettled(
        [store({ type: ed25519Keys, clock: next }), store({ type: ed25519Keys, clock: next }, 1)].map((sut) =>
          sut.rotate('ledger', 'scheduled'),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ code: 'rotation_not_due' });
      expect(await openKeys()).toEqual(['ledger:2027']);
    });
  });

  describe('encryption at rest', () => {
    it('stores the private half encrypted, never its plain form', async () => {
      const sut = store({ type: es256JwsKeys });
      await sut.ensureCurrent('tnt-a');
      const { rows } = await pools[0].query(`SELECT encrypted_private_key, public_jwk, algorithm FROM "${table}"`);
      expect(rows[0].encrypted_private_key).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(rows[0].encrypted_private_key).not.toContain('"d"');
      expect(rows[0].public_jwk).not.toHaveProperty('d');
      expect(rows[0].algorithm).toBe('ES256');
    });

    it('refuses a wrong KEY_ENCRYPTION_KEY at the startup check and at signing, and creates nothing', async () => {
      await store({ type: ed25519Keys }).checkCurrent('ledger');
      const wrong = store({ type: ed25519Keys, keyEncryptionKey: generateKeyEncryptionKey() }, 1);
      await expect(wrong.checkCurrent('ledger')).rejects.toMatchObject({ code: 'decryption_failed' });
      await expect(wrong.signer('ledger')).rejects.toBeInstanceOf(CryptoError);
      expect(await wrong.records('ledger')).toHaveLength(1);
    });

    it('binds each private half to its kid: a blob moved onto another key does not open', async () => {
      const sut = store({ type: ed25519Keys });
      await sut.ensureCurrent('ledger');
      await sut.rotate('ledger', 'emergency');
      const [first, second] = await sut.records('ledger');
      await pools[0].query(`UPDATE "${table}" SET encrypted_private_key = $1 WHERE kid = $2`, [first.encryptedPrivateKey, second.kid]);
      await expect(store({ type: ed25519Keys }).checkCurrent('ledger')).rejects.toMatchObject({ code: 'decryption_failed' });
    });

    it('refuses a row of another algorithm', async () => {
      await store({ type: ed25519Keys }).ensureCurrent('ledger');
      await expect(store({ type: p256HexKeys }).checkCurrent('ledger')).rejects.toMatchObject({ code: 'invalid_key' });
    });
  });

  describe('KEY_ENCRYPTION_KEY rotation', () => {
    const blobs = async () =>
      Object.fromEntries(
        (await pools[0].query(`SELECT kid, encrypted_private_key FROM "${table}"`)).rows.map((r) => [r.kid, r.encrypted_private_key]),
      );

    it('signs with keys stored under the previous key while both are set, and makes new ones under the current key', async () => {
      const old = store({ type: ed25519Keys });
      const { key: before } = await old.ensureCurrent('ledger');
      const newKek = generateKeyEncryptionKey();
      const both = store({ type: ed25519Keys, keyEncryptionKey: newKek, previousKeyEncryptionKey: kek }, 1);
      expect(await both.checkCurrent('ledger')).toBe(before.kid);
      const { key: after } = await both.rotate('ledger', 'emergency');
      // Only the new key opens the key made under it: the previous one is never used to encrypt.
      await expect(store({ type: ed25519Keys }).checkCurrent('ledger')).rejects.toMatchObject({ code: 'decryption_failed' });
      expect(await store({ type: ed25519Keys, keyEncryptionKey: newKek }).checkCurrent('ledger')).toBe(after.kid);
    });

    it('re-encrypts every key of every owner under the current key, once: afterwards the current key alone opens them', async () => {
      const old = store({ type: ed25519Keys });
      for (const owner of ['ledger', 'other']) {
        await old.ensureCurrent(owner);
        await old.rotate(owner, 'emergency');
      }
      const kids = (await Promise.all(['ledger', 'other'].map((o) => old.records(o)))).flat().map((r) => r.kid);
      const newKek = generateKeyEncryptionKey();
      const before = await blobs();

      const first = await store({ type: ed25519Keys, keyEncryptionKey: newKek, previousKeyEncryptionKey: kek }, 1).reencrypt();
      expect(first).toEqual({ table, keys: 4, reencrypted: expect.arrayContaining(kids), alreadyCurrent: 0 });
      expect(first.reencrypted).toHaveLength(4);
      const after = await blobs();
      for (const kid of kids) expect(after[kid]).not.toBe(before[kid]);

      // Each blob now holds the same private key under the new key alone, retired keys included (decrypted here
      // by @arbiter/crypto directly); the current keys sign with the new key and no previous one.
      for (const kid of kids) {
        expect(decryptSecret(after[kid], parseKeyEncryptionKey(newKek), kid)).toEqual(
          decryptSecret(before[kid], parseKeyEncryptionKey(kek), kid),
        );
        expect(() => decryptSecret(after[kid], parseKeyEncryptionKey(kek), kid)).toThrow(CryptoError);
      }
      const newOnly = store({ type: ed25519Keys, keyEncryptionKey: newKek });
      for (const owner of ['ledger', 'other']) await expect(newOnly.checkCurrent(owner)).resolves.toEqual(expect.any(String));
      await expect(store({ type: ed25519Keys }, 1).checkCurrent('ledger')).rejects.toMatchObject({ code: 'decryption_failed' });

      const second = await store({ type: ed25519Keys, keyEncryptionKey: newKek, previousKeyEncryptionKey: kek }).reencrypt();
      expect(second).toEqual({ table, keys: 4, reencrypted: [], alreadyCurrent: 4 });
      expect(await blobs()).toEqual(after);
    });

    it('changes nothing when a key opens under neither key, and names it', async () => {
      const old = store({ type: ed25519Keys });
      await old.ensureCurrent('ledger');
      await store({ type: ed25519Keys, keyEncryptionKey: generateKeyEncryptionKey() }).ensureCurrent('stranger');
      const before = await blobs();
      const err = await store({ type: ed25519Keys, keyEncryptionKey: generateKeyEncryptionKey(), previousKeyEncryptionKey: kek })
        .reencrypt()
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'decryption_failed', message: expect.stringContaining('stranger:') });
      expect(await blobs()).toEqual(before);
    });
  });

  describe('signatures', () => {
    it('Ed25519: node:crypto verifies the signature with the published JWK', async () => {
      const sut = store({ type: ed25519Keys });
      const signer = await sut.signer('ledger');
      const [jwk] = await sut.published('ledger');
      const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
      expect(verify(null, Buffer.from('message'), key, signer.sign('message'))).toBe(true);
    });

    it('P-256 hex r||s: node:crypto verifies the signature with the published JWK', async () => {
      const sut = store({ type: p256HexKeys });
      const signer = await sut.signer('webhooks');
      const [jwk] = await sut.published('webhooks');
      const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' });
      const signature = Buffer.from(signer.sign('1700000000.{"a":1}'), 'hex');
      expect(verify('sha256', Buffer.from('1700000000.{"a":1}'), { key, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
    });

    it('ES256 JWS: the header names the kid and node:crypto verifies the signature', async () => {
      const sut = store({ type: es256JwsKeys });
      const signer = await sut.signer('tnt-a');
      const [h, p, s] = signer.sign({ hello: 1 }).split('.');
      expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ alg: 'ES256', kid: signer.kid, typ: 'JWT' });
      const [jwk] = await sut.published('tnt-a');
      const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' });
      expect(verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'))).toBe(true);
    });
  });

  describe('rotation', () => {
    it('retires the open key at the rotation instant and keeps it published', async () => {
      let now = new Date('2026-03-01T00:00:00Z');
      const sut = store({ type: ed25519Keys, clock: () => now });
      await sut.ensureCurrent('ledger');
      now = new Date('2026-04-01T00:00:00Z');
      const rotation = await sut.rotate('ledger', 'emergency');
      expect(rotation).toMatchObject({ mode: 'emergency', retired: ['ledger:2026'], key: { kid: 'ledger:2026.1', notAfter: null } });
      expect((await sut.published('ledger')).map((k) => [k.kid, k.not_before, k.not_after])).toEqual([
        ['ledger:2026', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'],
        ['ledger:2026.1', '2026-04-01T00:00:00.000Z', null],
      ]);
      expect((await sut.signer('ledger')).kid).toBe('ledger:2026.1');
      // The retired key still signs for an instant inside its window (a bundle dated then).
      expect((await sut.signer('ledger', new Date('2026-03-15T00:00:00Z'))).kid).toBe('ledger:2026');
    });

    it('refuses a scheduled rotation when this year’s key exists (rotation_not_due)', async () => {
      const sut = store({ type: ed25519Keys, clock: at('2026-05-01T00:00:00Z') });
      await sut.ensureCurrent('ledger');
      await expect(sut.rotate('ledger', 'scheduled')).rejects.toMatchObject({ code: 'rotation_not_due' });
    });

    it.each<[boolean, string]>([
      [true, 'tnt-y:2027'],
      [false, 'tnt-y:2026'],
    ])('with rotateYearly=%s, the first signature of a new year signs with %s', async (rotateYearly, kid) => {
      let now = new Date('2026-12-31T23:59:59Z');
      const sut = store({ type: es256JwsKeys, rotateYearly, clock: () => now });
      expect((await sut.signer('tnt-y')).kid).toBe('tnt-y:2026');
      now = new Date('2027-01-01T00:00:01Z');
      expect((await sut.signer('tnt-y')).kid).toBe(kid);
    });

    it('makes a new key after every key was retired, as an emergency epoch when this year’s exists', async () => {
      const sut = store({ type: ed25519Keys });
      const first = await sut.ensureCurrent('ledger');
      await pools[0].query(`UPDATE "${table}" SET not_after = now() - interval '1 second'`);
      const second = await sut.ensureCurrent('ledger');
      expect(second).toMatchObject({ created: true, key: { kid: `${first.key.kid}.1` } });
    });

    it('keeps owners apart: rotating one ring neither reads nor closes another’s keys', async () => {
      const sut = store({ type: es256JwsKeys });
      await sut.ensureCurrent('tnt-a');
      await sut.ensureCurrent('tnt-b');
      const rotation = await sut.rotate('tnt-a', 'emergency' as RotationMode);
      expect(rotation.retired).toEqual([`tnt-a:${new Date().getUTCFullYear()}`]);
      expect((await sut.records('tnt-b')).map((k) => k.notAfter)).toEqual([null]);
    });
  });

  describe('recorder', () => {
    /** A recorder writing one row per change into a side table, on the change's own connection. */
    const recording = (fail = false) => {
      const committed: KeyChange<unknown>[] = [];
      const recorder: KeyChangeRecorder<unknown> = {
        async record(db, change) {
          await db.query(`INSERT INTO "${table}_log" (kid, mode, first, retired) VALUES ($1, $2, $3, $4)`, [
            change.key.kid,
            change.mode,
            change.first,
            change.retired.map((r) => `${r.kid}@${r.notAfter?.toISOString()}`).join(','),
          ]);
          if (fail) throw new Error('recorder failed');
        },
        committed: (change) => committed.push(change),
      };
      return { recorder, committed };
    };
    const log = async () => (await pools[0].query(`SELECT kid, mode, first, retired FROM "${table}_log" ORDER BY kid`)).rows;
    beforeEach(() => pools[0].query(`CREATE TABLE "${table}_log" (kid TEXT PRIMARY KEY, mode TEXT, first BOOLEAN, retired TEXT)`));

    it('records the first key, a yearly rotation and an emergency rotation with their commit, and reports each once committed', async () => {
      let now = new Date('2026-12-31T23:00:00Z');
      const { recorder, committed } = recording();
      const sut = store({ type: es256JwsKeys, rotateYearly: true, clock: () => now, recorder });
      await sut.signer('tnt-r');
      now = new Date('2027-01-01T00:00:01Z');
      await sut.signer('tnt-r');
      now = new Date('2027-02-01T00:00:00Z');
      await sut.rotate('tnt-r', 'emergency');
      await sut.ensureCurrent('tnt-r'); // nothing to add: nothing recorded
      expect(await log()).toEqual([
        { kid: 'tnt-r:2026', mode: 'scheduled', first: true, retired: '' },
        { kid: 'tnt-r:2027', mode: 'scheduled', first: false, retired: 'tnt-r:2026@2027-01-01T00:00:01.000Z' },
        { kid: 'tnt-r:2027.1', mode: 'emergency', first: false, retired: 'tnt-r:2027@2027-02-01T00:00:00.000Z' },
      ]);
      expect(committed.map((c) => c.key.kid)).toEqual(['tnt-r:2026', 'tnt-r:2027', 'tnt-r:2027.1']);
    });

    it('rolls the whole change back when the recorder throws: no key, no record, nothing reported', async () => {
      const { recorder, committed } = recording(true);
      const sut = store({ type: ed25519Keys, recorder });
      await expect(sut.ensureCurrent('ledger')).rejects.toThrow('recorder failed');
      expect(await sut.records('ledger')).toEqual([]);
      expect(await log()).toEqual([]);
      expect(committed).toEqual([]);
    });

    it('opens the retired key for the recorder: its signature verifies with the retired public key (node:crypto)', async () => {
      let now = new Date('2026-03-01T00:00:00Z');
      const signatures: { kid: string; signature: Uint8Array }[] = [];
      const recorder: KeyChangeRecorder<(m: string | Uint8Array) => Uint8Array> = {
        async record(_db, change) {
          for (const old of change.retired) signatures.push({ kid: old.kid, signature: change.open(old)('transition') });
        },
      };
      const sut = store({ type: ed25519Keys, clock: () => now, recorder });
      const first = await sut.ensureCurrent('ledger');
      now = new Date('2026-04-01T00:00:00Z');
      await sut.rotate('ledger', 'emergency');
      expect(signatures.map((s) => s.kid)).toEqual([first.key.kid]);
      const publicKey = createPublicKey({ key: first.key.publicJwk as import('node:crypto').JsonWebKey, format: 'jwk' });
      expect(verify(null, Buffer.from('transition'), publicKey, signatures[0].signature)).toBe(true);
    });
  });

  describe('publication window', () => {
    it('publishes retired keys forever by default, and for publishRetiredForMs when set', async () => {
      let now = new Date('2026-03-01T00:00:00Z');
      const clock = () => now;
      await store({ type: ed25519Keys, clock }).ensureCurrent('ledger');
      now = new Date('2026-04-01T00:00:00Z');
      await store({ type: ed25519Keys, clock }).rotate('ledger', 'emergency');
      now = new Date('2026-04-02T00:00:00Z');
      expect((await store({ type: ed25519Keys, clock }).published('ledger')).map((k) => k.kid)).toEqual(['ledger:2026', 'ledger:2026.1']);
      const windowed = store({ type: ed25519Keys, clock, publishRetiredForMs: 86_400_000 });
      expect((await windowed.published('ledger')).map((k) => k.kid)).toEqual(['ledger:2026.1']);
      now = new Date('2026-04-01T12:00:00Z');
      expect((await windowed.published('ledger')).map((k) => k.kid)).toEqual(['ledger:2026', 'ledger:2026.1']);
    });
  });

  describe('signer cache', () => {
    it('answers the cached key until invalidated when signerCacheMs is set, and reads the ring every time without it', async () => {
      const cached = store({ type: es256JwsKeys, signerCacheMs: 3_600_000 });
      const uncached = store({ type: es256JwsKeys }, 1);
      const first = await cached.signer('tnt-c');
      expect((await uncached.signer('tnt-c')).kid).toBe(first.kid);
      const rotation = await store({ type: es256JwsKeys }, 1).rotate('tnt-c', 'emergency');
      expect((await uncached.signer('tnt-c')).kid).toBe(rotation.key.kid);
      expect((await cached.signer('tnt-c')).kid).toBe(first.kid);
      cached.invalidate('tnt-c');
      expect((await cached.signer('tnt-c')).kid).toBe(rotation.key.kid);
    });

    it('does not cache back a key read before a rotation whose invalidation arrived during the read', async () => {
      // The ring's read answers, then waits until released: the rotation elsewhere commits and is announced meanwhile.
      const gates: Array<() => void> = [];
      let hold = false;
      const slowPool = {
        query: async (text: string, values?: unknown[]) => {
          const answer = await pools[0].query(text, values);
          if (hold) await new Promise<void>((r) => gates.push(r));
          return answer;
        },
        connect: () => pools[0].connect(),
      } as unknown as Pool;
      const sut = store({ type: es256JwsKeys, signerCacheMs: 3_600_000, pool: slowPool });
      const old = (await store({ type: es256JwsKeys }, 1).signer('tnt-r')).kid;
      hold = true;
      const reading = sut.signer('tnt-r');
      while (!gates.length) await new Promise((r) => setImmediate(r));
      const rotation = await store({ type: es256JwsKeys }, 1).rotate('tnt-r', 'emergency');
      sut.invalidate('tnt-r');
      hold = false;
      gates.shift()!();
      // The read that began before the announcement is not used: the ring is read again.
      expect((await reading).kid).toBe(rotation.key.kid);
      expect((await sut.signer('tnt-r')).kid).toBe(rotation.key.kid);
      expect(rotation.key.kid).not.toBe(old);
    });

    it('is dropped by the instance’s own rotation', async () => {
      const sut = store({ type: es256JwsKeys, signerCacheMs: 3_600_000 });
      await sut.signer('tnt-d');
      const rotation = await sut.rotate('tnt-d', 'emergency');
      expect((await sut.signer('tnt-d')).kid).toBe(rotation.key.kid);
    });
  });

  it('refuses a table name that is not a plain SQL identifier', () => {
    expect(() => new KeyStore({ pool: pools[0], table: 'keys"; DROP TABLE x; --', type: ed25519Keys, keyEncryptionKey: kek })).toThrow(
      TypeError,
    );
  });

  it('refuses a malformed KEY_ENCRYPTION_KEY at construction', () => {
    expect(() => new KeyStore({ pool: pools[0], table: 'keys', type: ed25519Keys, keyEncryptionKey: 'c2hvcnQ=' })).toThrow(
      expect.objectContaining({ code: 'invalid_key_encryption_key' }),
    );
  });
});
