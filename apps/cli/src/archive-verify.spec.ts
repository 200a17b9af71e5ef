import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileArchiveStore, manifestOf, segmentKey, writeSegment, type SegmentManifest } from '@arbiter/archive';
import { consultationSealPayload, type ConsultationRecord, type LedgerFactListEntry } from '@arbiter/client';
import { makeConsultation, makeKey, TENANT } from '@arbiter/client/testing';
import { verifyArchive, type ArchiveVerifySources } from './archive-verify';

const at = Date.parse('2026-11-27T14:00:00.000Z');
const key = makeKey(`${TENANT}:2026`, { notBefore: '2026-01-01T00:00:00.000Z' });
/** Time-ordered ids: 12 hex of the millisecond, 12 more. */
const idAt = (ms: number, n: number) => `cns-${ms.toString(16).padStart(12, '0')}${n.toString(16).padStart(12, '0')}`;
const records = [0, 1, 2, 3].map(
  (i) => makeConsultation(key, { id: idAt(at + i * 1000, i) }, at + i * 1000) as unknown as ConsultationRecord,
);
const fact = (n: number, payload: unknown): LedgerFactListEntry =>
  ({
    fact_id: `fct-${n}`,
    sealed_at_ms: at,
    sealed_at_iso: '',
    actor: 'service:verdict',
    sealed_by: 'service:internal',
    custom_payload: payload,
  }) as never;
const sealedFacts = records.map((r, i) => fact(i, consultationSealPayload(r)));

async function* from<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

describe(verifyArchive.name, () => {
  let dir: string;
  let store: FileArchiveStore;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-archive-verify-'));
    store = new FileArchiveStore(dir);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** Writes a segment of these records for a partition starting at `fromMs`; answers its sealed manifest. */
  async function segment(rs: ConsultationRecord[], fromMs: number): Promise<SegmentManifest> {
    const bounds = { tenant_id: TENANT, kind: 'consultations' as const, from: new Date(fromMs), to: new Date(fromMs + 60_000) };
    const lines = rs.map((r) => ({
      id: r.id,
      line: JSON.stringify({ id: r.id, tenant_id: TENANT, requested_at: r.requested_at, record: r }),
    }));
    return manifestOf(bounds, await writeSegment(store, segmentKey(bounds), lines));
  }

  const sources = (over: Partial<ArchiveVerifySources>): ArchiveVerifySources => ({
    tenant: TENANT,
    sinceMs: at - 1000,
    untilMs: at + 10_000,
    store,
    consultationFacts: () => from(sealedFacts),
    archiveFacts: () => from([]),
    databaseRecords: () => from([]),
    getRecord: async () => null,
    ...over,
  });

  it('passes a period whose consultations are in the database or in one intact sealed segment', async () => {
    const m = await segment(records.slice(0, 3), at + 86_400_000);
    const sut = await verifyArchive(sources({ archiveFacts: () => from([fact(9, m)]), databaseRecords: () => from([records[3]]) }));
    expect(sut).toMatchObject({ valid: true, sealed: 4, in_database: 1, in_segments: 3, manifests: 1, segments_read: 1, problems: [] });
  });

  it('fails a segment altered after its manifest was sealed', async () => {
    const m = await segment(records.slice(0, 3), at + 86_400_000);
    await segment(records.slice(0, 2), at + 86_400_000); // rewritten under the same key, one record short
    const sut = await verifyArchive(sources({ archiveFacts: () => from([fact(9, m)]), databaseRecords: () => from([records[3]]) }));
    expect(sut.valid).toBe(false);
    expect(sut.problems.map((p) => p.kind)).toEqual(['segment_altered', 'missing', 'missing', 'missing']);
    expect(sut.problems[0].message).toMatch(/sha256 .* is not the manifest's/);
  });

  it('fails a sealed consultation that is neither in the database nor in a segment', async () => {
    const m = await segment(records.slice(0, 2), at + 86_400_000);
    const sut = await verifyArchive(sources({ archiveFacts: () => from([fact(9, m)]), databaseRecords: () => from([records[3]]) }));
    expect(sut.problems).toEqual([expect.objectContaining({ kind: 'missing', consultation_id: records[2].id })]);
  });

  it('fails a consultation found in two segments', async () => {
    const a = await segment(records.slice(0, 3), at + 86_400_000);
    const b = await segment(records.slice(2, 3), at + 2 * 86_400_000);
    const sut = await verifyArchive(
      sources({ archiveFacts: () => from([fact(8, a), fact(9, b)]), databaseRecords: () => from([records[3]]) }),
    );
    expect(sut.problems).toEqual([expect.objectContaining({ kind: 'duplicated', consultation_id: records[2].id })]);
  });

  it('fails a record in a segment whose content no longer hashes to its normative_hash, and a seal that differs', async () => {
    const changed = { ...records[0], parameters: { transfer: { amount: 1 } } } as ConsultationRecord;
    const m = await segment([changed, ...records.slice(1, 3)], at + 86_400_000);
    const facts = [fact(0, { ...consultationSealPayload(records[0]) }), ...sealedFacts.slice(1)];
    facts[1] = fact(1, { ...consultationSealPayload(records[1]), verdict: 'allowed' });
    const sut = await verifyArchive(
      sources({ consultationFacts: () => from(facts), archiveFacts: () => from([fact(9, m)]), databaseRecords: () => from([records[3]]) }),
    );
    expect(sut.problems.map((p) => `${p.kind} ${p.consultation_id}`)).toEqual([
      `hash_mismatch ${records[0].id}`,
      `hash_mismatch ${records[0].id}`,
      `seal_mismatch ${records[1].id}`,
    ]);
  });

  it('fails a sealed segment absent from the archive', async () => {
    const m = await segment(records.slice(0, 3), at + 86_400_000);
    await rm(path.join(dir, TENANT), { recursive: true });
    const sut = await verifyArchive(sources({ archiveFacts: () => from([fact(9, m)]), databaseRecords: () => from([records[3]]) }));
    expect(sut.problems[0]).toMatchObject({ kind: 'segment_missing' });
  });

  it('reads no segment whose ids lie outside the period', async () => {
    const m = await segment(records.slice(0, 3), at + 86_400_000);
    const sut = await verifyArchive(sources({ sinceMs: at + 3_600_000, untilMs: at + 7_200_000, archiveFacts: () => from([fact(9, m)]) }));
    expect(sut).toMatchObject({ valid: true, sealed: 0, manifests: 1, segments_read: 0 });
  });
});
