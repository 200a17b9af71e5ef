import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { FileArchiveStore, segmentKey, writeSegment } from '@arbiter/archive';
import { createEs256Signer, generateEs256KeyPair } from '@arbiter/crypto';
import type { StoredArchiveSegment } from '@arbiter/db';
import { AppError } from '@arbiter/http';
import { normativeHash, verdictClaims } from '../domain/consultation-builder';
import type { ConsultationRecord } from '../domain/consultation-record';
import { ArchivedConsultations, OTHER_TENANT_SEGMENTS } from './archived-consultations.service';

const TENANT = 'tnt-a';
const OTHER = 'tnt-b';
const KID = `${TENANT}:2026`;
const keyPair = generateEs256KeyPair();
const signer = createEs256Signer(keyPair.privateJwk, KID);
const forger = createEs256Signer(generateEs256KeyPair().privateJwk, KID);
const bounds = (tenant_id: string) => ({
  tenant_id,
  kind: 'consultations' as const,
  from: '2026-11-27T14:00:00.000Z',
  to: '2026-11-27T14:01:00.000Z',
});

/** A record hashed and signed as the gateway does (the signature is verified with jose, not node:crypto). */
const recordOf = (id: string, verdict = 'allowed', sign = signer, tenant_id = TENANT): ConsultationRecord => {
  const rest = {
    id,
    tenant_id,
    verdict,
    requested_at: '2026-11-27T13:58:00.000Z',
    context_hash: 'sha256:00',
    signing_kid: KID,
    verdict_ttl_seconds: 60,
  } as unknown as ConsultationRecord;
  const record = { ...rest, normative_hash: normativeHash(rest) } as ConsultationRecord;
  return { ...record, signed_verdict: sign.sign(verdictClaims(record, 'arbiter')) };
};
const lineOf = (r: ConsultationRecord) => ({
  id: r.id,
  line: JSON.stringify({ id: r.id, tenant_id: r.tenant_id, record: r, explanation_basis: null }),
});
const segmentOf = (tenant_id: string, first_id: string, last_id: string): StoredArchiveSegment => ({
  ...bounds(tenant_id),
  partition: 'consultations_p20261127t1400',
  url: `file:///${tenant_id}`,
  count: 2,
  sha256: '',
  first_id,
  last_id,
  fact_id: 'fct-1',
  created_at: '',
});

describe(ArchivedConsultations.name, () => {
  let dir: string;
  let store: FileArchiveStore;
  let others: StoredArchiveSegment[];
  const own = segmentOf(TENANT, 'cns-1', 'cns-3');
  const segments = {
    segmentsHolding: async (tenantId: string, _k: string, id: string) =>
      tenantId === TENANT && id >= 'cns-1' && id <= 'cns-3' ? [own] : [],
    otherTenantsHoldingAnyTenant: async (_t: string, _k: string, _id: string, limit: number) => others.slice(0, limit),
  };
  const logger = pino({ level: 'silent' });
  const ring = { records: async (tenantId: string) => (tenantId === TENANT ? [{ kid: KID, publicJwk: keyPair.publicJwk }] : []) };
  const sutWith = (s: FileArchiveStore | null) => new ArchivedConsultations(segments, s, ring, logger);

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-archived-'));
    store = new FileArchiveStore(dir);
    others = [];
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('answers a record from the segment whose id range holds it, marked archived, once its signature verifies', async () => {
    const kept = recordOf('cns-3');
    await writeSegment(store, segmentKey(bounds(TENANT)), [lineOf(recordOf('cns-1')), lineOf(kept)]);
    expect(await sutWith(store).find(TENANT, 'cns-3')).toEqual({
      tenant_id: TENANT,
      record: kept,
      explanation_basis: null,
      sealed_values: null,
      archived: true,
    });
    expect(await sutWith(store).find(TENANT, 'cns-2')).toBeNull();
    expect(await sutWith(store).find(TENANT, 'cns-9')).toBeNull();
  });

  it('finds nothing without an archive', async () => {
    expect(await sutWith(null).find(TENANT, 'cns-1')).toBeNull();
  });

  it('refuses with 503 archive_unavailable a record changed in the archive (it no longer hashes to its normative_hash)', async () => {
    const changed = { ...recordOf('cns-1'), verdict: 'blocked' };
    await writeSegment(store, segmentKey(bounds(TENANT)), [lineOf(changed)]);
    await expect(sutWith(store).find(TENANT, 'cns-1')).rejects.toMatchObject({ status: 503, code: 'archive_unavailable' });
  });

  it('refuses a record forged with its hash recomputed: the signature no longer names it', async () => {
    const genuine = recordOf('cns-1', 'blocked');
    const { normative_hash: _n, signed_verdict, ...rest } = { ...genuine, verdict: 'allowed' };
    const forged = { ...rest, normative_hash: normativeHash(rest as ConsultationRecord), signed_verdict } as ConsultationRecord;
    await writeSegment(store, segmentKey(bounds(TENANT)), [lineOf(forged)]);
    await expect(sutWith(store).find(TENANT, 'cns-1')).rejects.toMatchObject({ status: 503, code: 'archive_unavailable' });
  });

  it('refuses a record hashed and signed again under a key that is not the tenant’s', async () => {
    await writeSegment(store, segmentKey(bounds(TENANT)), [lineOf(recordOf('cns-1', 'allowed', forger))]);
    await expect(sutWith(store).find(TENANT, 'cns-1')).rejects.toMatchObject({ status: 503, code: 'archive_unavailable' });
  });

  it('refuses with 503 archive_unavailable a segment of its own it cannot read', async () => {
    await expect(sutWith(store).find(TENANT, 'cns-1')).rejects.toBeInstanceOf(AppError);
  });

  it("says elsewhere for an id another tenant's segment holds, reading at most a few of them; unreadable ones count as not found", async () => {
    await writeSegment(store, segmentKey(bounds(OTHER)), [lineOf(recordOf('cns-5', 'allowed', signer, OTHER))]);
    // A tenant whose segments are gone: its failure is not the caller's.
    others = [segmentOf('tnt-gone', 'cns-4', 'cns-6'), segmentOf(OTHER, 'cns-4', 'cns-6')];
    expect(await sutWith(store).find(TENANT, 'cns-5')).toEqual({ tenant_id: OTHER, elsewhere: true });
    expect(await sutWith(store).find(TENANT, 'cns-4')).toBeNull();
    others = [...Array.from({ length: OTHER_TENANT_SEGMENTS }, (_, i) => segmentOf(`tnt-gone${i}`, 'cns-4', 'cns-6')), others[1]];
    expect(await sutWith(store).find(TENANT, 'cns-5')).toBeNull();
  });

  it("reads the caller's own segments first: another tenant's unreadable segment does not fail the caller's read", async () => {
    await writeSegment(store, segmentKey(bounds(TENANT)), [lineOf(recordOf('cns-1'))]);
    others = [segmentOf('tnt-gone', 'cns-1', 'cns-9')];
    expect(await sutWith(store).find(TENANT, 'cns-1')).toMatchObject({ tenant_id: TENANT, archived: true });
  });
});
