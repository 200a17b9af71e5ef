import { createPublicKey, verify } from 'node:crypto';
import { mintTenantId } from '@arbiter/auth';
import { applyMigrations, createPool, createPrismaClient } from '@arbiter/db';
import { generateKeyEncryptionKey } from '@arbiter/crypto';
import { createLogger } from '@arbiter/http';
import { createTestDatabase } from '@arbiter/testing';
import type { Pool } from 'pg';
import { PrismaClient } from '../src/generated/prisma/client';
import { verdictMigrationsDir } from '../src/context';
import type { ConsultationRecord } from '../src/domain/consultation-record';
import { ConsultationRepository } from '../src/repositories/consultations.repository';
import { VerdictKeys } from '../src/keys';

jest.setTimeout(60_000);

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: Pool;
let prisma: PrismaClient;

beforeAll(async () => {
  db = await createTestDatabase('verdict_db');
  await applyMigrations(db.url, verdictMigrationsDir());
  pool = createPool({ url: db.url, max: 6 });
  prisma = createPrismaClient(PrismaClient, pool);
});
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
  await db.drop();
});

const record = (id: string, over: Partial<ConsultationRecord> = {}): ConsultationRecord =>
  ({
    id,
    tenant_id: 'tnt-1',
    caller_principal_id: 'agn-1',
    requested_at: new Date().toISOString(),
    action: 'a',
    verdict: 'allowed',
    dominating_rule_id: null,
    parameters: { text: 'é "x" \\ \u0000 end', n: 1.0, big: 1e21 },
    ...over,
  }) as ConsultationRecord;

/** A record as the builder hands it to the repository: with the text it is stored as. */
const sealed = (r: ConsultationRecord) => ({ record: r, json: JSON.stringify(r) });

describe(ConsultationRepository.name, () => {
  it('commits concurrent saves in batches and reads each record back exactly as it was written', async () => {
    const batches: number[] = [];
    const sut = new ConsultationRepository(pool, { onBatch: (n) => batches.push(n) });
    const records = Array.from({ length: 40 }, (_, i) => record(`cns-batch-${i}`));
    await Promise.all(records.map((r) => sut.save(sealed(r))));
    expect(batches.reduce((a, b) => a + b, 0)).toBe(40);
    expect(batches.length).toBeLessThan(40);
    const back = await sut.find(mintTenantId('tnt-1'), 'cns-batch-7');
    expect(JSON.stringify(back)).toBe(JSON.stringify(records[7]));
    expect(await sut.find(mintTenantId('tnt-2'), 'cns-batch-7')).toBeNull();
    expect((await sut.findAnyTenant('cns-batch-7'))?.tenant_id).toBe('tnt-1');
  });

  it('fails only the faulty record of a batch', async () => {
    const sut = new ConsultationRepository(pool);
    // The same record twice: its key (id, keep_until) is taken (docs/operations.md "Partitions").
    const dup = record('cns-dup');
    await sut.save(sealed(dup));
    const results = await Promise.allSettled([
      sut.save(sealed(record('cns-ok-1'))),
      sut.save(sealed(dup)),
      sut.save(sealed(record('cns-ok-2'))),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await sut.find(mintTenantId('tnt-1'), 'cns-ok-2')).not.toBeNull();
    await sut.drain();
  });

  it('pages newest first on (requested_at, id) with the filters', async () => {
    const sut = new ConsultationRepository(pool);
    const base = Date.parse('2030-01-01T00:00:00Z');
    for (let i = 0; i < 5; i++) {
      await sut.save(
        sealed(
          record(`cns-page-${i}`, {
            tenant_id: 'tnt-page',
            requested_at: new Date(base + (i < 3 ? 0 : i) * 1000).toISOString(),
            verdict: i % 2 ? 'blocked' : 'allowed',
          }),
        ),
      );
    }
    const first = await sut.list(mintTenantId('tnt-page'), {}, 2);
    expect(first.map((r) => r.id)).toEqual(['cns-page-4', 'cns-page-3', 'cns-page-2']);
    const next = await sut.list(mintTenantId('tnt-page'), {}, 2, { requested_at: new Date(first[1].requested_at), id: first[1].id });
    expect(next.map((r) => r.id)).toEqual(['cns-page-2', 'cns-page-1', 'cns-page-0']);
    expect((await sut.list(mintTenantId('tnt-page'), { verdict: 'blocked' }, 10)).map((r) => r.id)).toEqual(['cns-page-3', 'cns-page-1']);
    expect(await sut.list(mintTenantId('tnt-page'), { since: new Date(base + 3500) }, 10)).toHaveLength(1);
  });

  describe('shadow disagreements (docs/verdicts.md "Shadow rules")', () => {
    const shadowOf = (...entries: [string, string, string][]) =>
      entries.map(([rule_id, rule_version_id, would_be]) => ({ rule_id, rule_version_id, would_be }));

    it.each([true, false])(
      'writes a row per shadow entry in the statement that stores the record (sealing %s), and counts them per rule version',
      async (sealing) => {
        const sut = new ConsultationRepository(pool, { sealing });
        const tenant = `tnt-shadow-${sealing}`;
        const at = (s: number) => new Date(Date.parse('2030-02-01T00:00:00Z') + s * 1000).toISOString();
        await Promise.all([
          sut.save(
            sealed(
              record(`cns-sh-${sealing}-1`, {
                tenant_id: tenant,
                requested_at: at(1),
                shadow: shadowOf(['rul-x', 'rv-x1', 'blocked'], ['rul-y', 'rv-y1', 'observe']),
              }),
            ),
          ),
          sut.save(
            sealed(
              record(`cns-sh-${sealing}-2`, { tenant_id: tenant, requested_at: at(2), shadow: shadowOf(['rul-x', 'rv-x1', 'blocked']) }),
            ),
          ),
          sut.save(sealed(record(`cns-sh-${sealing}-3`, { tenant_id: tenant, requested_at: at(3) }))),
          sut.save(
            sealed(
              record(`cns-sh-${sealing}-4`, {
                tenant_id: tenant,
                requested_at: at(4),
                shadow: shadowOf(['rul-x', 'rv-x2', 'approval_required']),
              }),
            ),
          ),
        ]);
        expect(await sut.shadowCounts(mintTenantId(tenant), 'rul-x')).toEqual([
          { rule_version_id: 'rv-x1', disagreements: 2, last_at: new Date(at(2)) },
          { rule_version_id: 'rv-x2', disagreements: 1, last_at: new Date(at(4)) },
        ]);
        expect(await sut.shadowCounts(mintTenantId(tenant), 'rul-y')).toEqual([
          { rule_version_id: 'rv-y1', disagreements: 1, last_at: new Date(at(1)) },
        ]);
        expect(await sut.shadowCounts(mintTenantId('tnt-other'), 'rul-x')).toEqual([]);
        const { rows } = await pool.query('SELECT count(*)::int AS n FROM seal_outbox WHERE tenant_id = $1', [tenant]);
        expect(rows[0].n).toBe(sealing ? 4 : 0);
      },
    );

    it("writes no row for a record the database refuses, and keeps the rows of the batch's good records", async () => {
      const sut = new ConsultationRepository(pool);
      const tenant = 'tnt-shadow-fault';
      const dup = record('cns-sh-dup', { tenant_id: tenant, shadow: shadowOf(['rul-f', 'rv-f', 'blocked']) });
      await sut.save(sealed(dup));
      const results = await Promise.allSettled([
        sut.save(sealed(record('cns-sh-ok', { tenant_id: tenant, shadow: shadowOf(['rul-f', 'rv-f', 'blocked']) }))),
        sut.save(sealed(dup)),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
      expect((await sut.shadowCounts(mintTenantId(tenant), 'rul-f')).map((c) => c.disagreements)).toEqual([2]);
    });
  });
});

describe(VerdictKeys.name, () => {
  const logger = createLogger('test', 'silent');

  it('makes one key on first use however many replicas race for it', async () => {
    const kek = generateKeyEncryptionKey();
    const replicas = Array.from({ length: 4 }, () => new VerdictKeys(pool, kek, logger, () => new Date('2026-06-01T00:00:00Z')));
    const signers = await Promise.all(replicas.flatMap((r) => [r.signerFor('tnt-race'), r.signerFor('tnt-race')]));
    expect(new Set(signers.map((s) => s.kid))).toEqual(new Set(['tnt-race:2026']));
    expect(await replicas[0].records('tnt-race')).toHaveLength(1);
  });

  it('rotates on schedule when the year turns, keeping the old key published', async () => {
    const kek = generateKeyEncryptionKey();
    let now = new Date('2026-12-31T23:59:59Z');
    const sut = new VerdictKeys(pool, kek, logger, () => now);
    const old = await sut.signerFor('tnt-year');
    expect(old.kid).toBe('tnt-year:2026');
    const jws = old.sign({ hello: 1 });
    now = new Date('2027-01-01T00:00:01Z');
    sut.invalidate('tnt-year');
    expect((await sut.signerFor('tnt-year')).kid).toBe('tnt-year:2027');
    const keys = await sut.publicKeys('tnt-year');
    expect(keys.map((k) => [k.kid, k.not_after])).toEqual([
      ['tnt-year:2026', '2027-01-01T00:00:01.000Z'],
      ['tnt-year:2027', null],
    ]);
    // The old signature verifies with node:crypto against the published (public) key.
    const [h, p, s] = jws.split('.');
    const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: keys[0].x, y: keys[0].y }, format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'))).toBe(true);
    await expect(sut.rotate('tnt-year', 'scheduled')).rejects.toMatchObject({ status: 409, code: 'rotation_not_due' });
  });

  it('seals every key a tenant gains (first, yearly, emergency) in arbiter.<tenant_id>.keys, with the public key that verifies its verdicts', async () => {
    const kek = generateKeyEncryptionKey();
    let now = new Date('2026-12-31T23:00:00Z');
    let nudged = 0;
    const sut = new VerdictKeys(pool, kek, logger, () => now, { onSealed: () => nudged++ });
    const first = await sut.signerFor('tnt-keyseal');
    const jws = first.sign({ hello: 1 });
    now = new Date('2027-01-01T00:00:01Z');
    sut.invalidate('tnt-keyseal');
    await sut.signerFor('tnt-keyseal');
    now = new Date('2027-03-01T00:00:00Z');
    await sut.rotate('tnt-keyseal', 'emergency');
    const { rows } = await pool.query('SELECT stream_id, client_ref, payload FROM seal_outbox WHERE tenant_id = $1 ORDER BY id', [
      'tnt-keyseal',
    ]);
    expect(rows.map((r) => [r.stream_id, r.client_ref])).toEqual([
      ['arbiter.tnt-keyseal.keys', 'tnt-keyseal:2026'],
      ['arbiter.tnt-keyseal.keys', 'tnt-keyseal:2027'],
      ['arbiter.tnt-keyseal.keys', 'tnt-keyseal:2027.1'],
    ]);
    expect(rows.map((r) => r.payload)).toEqual([
      {
        kid: 'tnt-keyseal:2026',
        public_jwk: { kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String) },
        not_before: '2026-12-31T23:00:00.000Z',
        mode: 'first',
        retired: [],
      },
      {
        kid: 'tnt-keyseal:2027',
        public_jwk: expect.any(Object),
        not_before: '2027-01-01T00:00:01.000Z',
        mode: 'scheduled',
        retired: [{ kid: 'tnt-keyseal:2026', not_after: '2027-01-01T00:00:01.000Z' }],
      },
      {
        kid: 'tnt-keyseal:2027.1',
        public_jwk: expect.any(Object),
        not_before: '2027-03-01T00:00:00.000Z',
        mode: 'emergency',
        retired: [{ kid: 'tnt-keyseal:2027', not_after: '2027-03-01T00:00:00.000Z' }],
      },
    ]);
    expect(nudged).toBe(3);
    // The sealed public key is the one that signs: node:crypto verifies the first verdict with it.
    const [h, p, s] = jws.split('.');
    const key = createPublicKey({ key: rows[0].payload.public_jwk, format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'))).toBe(true);
  });

  it('seals nothing with sealing off (LEDGER_SEALING=false)', async () => {
    await new VerdictKeys(pool, generateKeyEncryptionKey(), logger, undefined, null).signerFor('tnt-nokeyseal');
    const { rows } = await pool.query('SELECT 1 FROM seal_outbox WHERE tenant_id = $1', ['tnt-nokeyseal']);
    expect(rows).toEqual([]);
  });

  it('answers signing_key_unavailable when the stored key does not decrypt', async () => {
    await new VerdictKeys(pool, generateKeyEncryptionKey(), logger).signerFor('tnt-kek');
    const wrongKek = new VerdictKeys(pool, generateKeyEncryptionKey(), logger);
    await expect(wrongKek.signerFor('tnt-kek')).rejects.toMatchObject({ status: 500, code: 'signing_key_unavailable' });
  });
});
