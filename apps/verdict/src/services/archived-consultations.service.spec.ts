import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { FileArchiveStore, segmentKey, writeSegment } from '@arbiter/archive';
import type { ArchiveSegmentStore, StoredArchiveSegment } from '@arbiter/db';
import { AppError } from '@arbiter/http';
import { normativeHash } from '../domain/consultation-builder';
import type { ConsultationRecord } from '../domain/consultation-record';
import { ArchivedConsultations } from './archived-consultations.service';

const TENANT = 'tnt-a';
const bounds = { tenant_id: TENANT, kind: 'consultations' as const, from: '2026-11-27T14:00:00.000Z', to: '2026-11-27T14:01:00.000Z' };
const recordOf = (id: string, verdict = 'allowed'): ConsultationRecord => {
  const rest = { id, tenant_id: TENANT, verdict, requested_at: '2026-11-27T13:58:00.000Z' };
  return { normative_hash: normativeHash(rest as never), signed_verdict: 'x.y.z', ...rest } as unknown as ConsultationRecord;
};
const lineOf = (r: ConsultationRecord) => ({
  id: r.id,
  line: JSON.stringify({ id: r.id, tenant_id: TENANT, record: r, explanation_basis: null }),
});

describe(ArchivedConsultations.name, () => {
  let dir: string;
  let store: FileArchiveStore;
  const segment: StoredArchiveSegment = {
    ...bounds,
    partition: 'consultations_p20261127t1400',
    url: '',
    count: 2,
    sha256: '',
    first_id: 'cns-1',
    last_id: 'cns-3',
    fact_id: 'fct-1',
    created_at: '',
  };
  const segments = { segmentsHoldingAnyTenant: async (_k: string, id: string) => (id >= 'cns-1' && id <= 'cns-3' ? [segment] : []) };
  const sutWith = (s: FileArchiveStore | null) =>
    new ArchivedConsultations(segments as unknown as ArchiveSegmentStore, s, pino({ level: 'silent' }));

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-archived-'));
    store = new FileArchiveStore(dir);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('answers a record from the segment whose id range holds it, marked archived', async () => {
    await writeSegment(store, segmentKey(bounds), [lineOf(recordOf('cns-1')), lineOf(recordOf('cns-3'))]);
    expect(await sutWith(store).findAnyTenant('cns-3')).toEqual({
      tenant_id: TENANT,
      record: recordOf('cns-3'),
      explanation_basis: null,
      sealed_values: null,
      archived: true,
    });
    expect(await sutWith(store).findAnyTenant('cns-2')).toBeNull();
    expect(await sutWith(store).findAnyTenant('cns-9')).toBeNull();
  });

  it('finds nothing without an archive', async () => {
    expect(await sutWith(null).findAnyTenant('cns-1')).toBeNull();
  });

  it('refuses with 503 archive_unavailable a record changed in the archive (it no longer hashes to its normative_hash)', async () => {
    const changed = { ...recordOf('cns-1'), verdict: 'blocked' };
    await writeSegment(store, segmentKey(bounds), [lineOf(changed)]);
    await expect(sutWith(store).findAnyTenant('cns-1')).rejects.toMatchObject({ status: 503, code: 'archive_unavailable' });
  });

  it('refuses with 503 archive_unavailable a segment it cannot read', async () => {
    await expect(sutWith(store).findAnyTenant('cns-1')).rejects.toBeInstanceOf(AppError);
  });
});
