import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { FileArchiveStore, manifestKey, parseManifest } from '@arbiter/archive';
import type { ArchiveSegmentRecord, DuePartition } from '@arbiter/internal-api';
import { archiveDue, type ArchiveDeps, type ArchiveOwner } from '.';

const PARTITION = 'consultations_p20261127t1400';
const due: DuePartition[] = [
  {
    table: 'consultations',
    partition: PARTITION,
    from: '2026-11-27T14:00:00.000Z',
    to: '2026-11-27T14:01:00.000Z',
    archive: 'consultations',
  },
  { table: 'seal_outbox', partition: 'seal_outbox_p20261127t1400', from: null, to: '2026-11-27T14:01:00.000Z', archive: null },
];
const rowsOf: Record<string, string[]> = {
  'tnt-a': ['cns-1', 'cns-2', 'cns-3'].map((id) => JSON.stringify({ id, tenant_id: 'tnt-a', record: { id } })),
  'tnt-b': [JSON.stringify({ id: 'cns-4', tenant_id: 'tnt-b', record: { id: 'cns-4' } })],
};

/** An owner in memory: the rows above, segments recorded once. */
function fakeOwner() {
  const recorded = new Map<string, ArchiveSegmentRecord>();
  const streamed: string[] = [];
  const owner: ArchiveOwner = {
    partitionTenants: async (partition) => ({
      partition,
      table: 'consultations',
      kind: 'consultations',
      from: '2026-11-27T14:00:00.000Z',
      to: '2026-11-27T14:01:00.000Z',
      tenants: Object.entries(rowsOf).map(([tenant_id, rows]) => ({
        tenant_id,
        count: rows.length,
        archived_count: recorded.get(tenant_id)?.count ?? null,
      })),
    }),
    async *partitionRows(_partition, tenantId) {
      streamed.push(tenantId);
      yield* rowsOf[tenantId];
    },
    recordSegment: async (_partition, segment) => {
      const first = recorded.get(segment.tenant_id);
      if (!first) recorded.set(segment.tenant_id, segment);
      return { created: !first, segment: { ...(first ?? segment), created_at: new Date().toISOString() } };
    },
  };
  return { owner, recorded, streamed };
}

function fakeLedger() {
  const facts = new Map<string, { fact_id: string; payload: unknown }>();
  return {
    facts,
    seal: async (seals: { stream_id: string; client_ref: string; custom_payload: unknown }[]) => ({
      results: seals.map((s) => {
        const key = `${s.stream_id} ${s.client_ref}`;
        const created = !facts.has(key);
        if (created) facts.set(key, { fact_id: `fct-${facts.size + 1}`, payload: s.custom_payload });
        return { ok: true as const, fact_id: facts.get(key)!.fact_id, stream_id: s.stream_id, seq: 1, fact_hash: 'sha256:x', created };
      }),
    }),
  };
}

describe(archiveDue.name, () => {
  let dir: string;
  let store: FileArchiveStore;
  const log = { info: jest.fn(), warn: jest.fn() };
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-archive-due-'));
    store = new FileArchiveStore(dir);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const depsWith = (owner: ArchiveOwner, ledger: ReturnType<typeof fakeLedger>, s: FileArchiveStore | null = store): ArchiveDeps => ({
    store: s,
    owners: { verdict: owner, registry: owner },
    ledger: ledger as never,
    log,
  });

  it('writes one segment per tenant, stores and seals its manifest in the tenant archives stream, then records it', async () => {
    const { owner, recorded } = fakeOwner();
    const ledger = fakeLedger();
    await archiveDue(depsWith(owner, ledger), 'verdict', due);
    const key = 'tnt-a/consultations/2026-11-27T140000Z--2026-11-27T140100Z.jsonl.gz';
    expect(
      gunzipSync((await store.get(key))!)
        .toString()
        .trimEnd()
        .split('\n'),
    ).toEqual(rowsOf['tnt-a']);
    const manifest = parseManifest(JSON.parse((await store.get(manifestKey(key)))!.toString()));
    expect(manifest).toMatchObject({ tenant_id: 'tnt-a', kind: 'consultations', count: 3, first_id: 'cns-1', last_id: 'cns-3' });
    expect(ledger.facts.get(`arbiter.tnt-a.archives ${key}`)?.payload).toEqual(manifest);
    expect(recorded.get('tnt-a')).toMatchObject({ ...manifest, partition: PARTITION, url: store.urlOf(key), fact_id: 'fct-1' });
    expect(recorded.get('tnt-b')?.count).toBe(1);
  });

  it('does not write or seal again what is recorded, and records a sealed segment without rewriting it', async () => {
    const first = fakeOwner();
    const ledger = fakeLedger();
    await archiveDue(depsWith(first.owner, ledger), 'verdict', due);
    // Recorded: nothing is streamed again.
    first.streamed.length = 0;
    await archiveDue(depsWith(first.owner, ledger), 'verdict', due);
    expect(first.streamed).toEqual([]);
    // Written and sealed, the record lost (another owner that never heard of it): checked and recorded, not rewritten.
    const second = fakeOwner();
    await archiveDue(depsWith(second.owner, ledger), 'verdict', due);
    expect(second.streamed).toEqual([]);
    expect(second.recorded.get('tnt-a')?.fact_id).toBe('fct-1');
    expect(ledger.facts.size).toBe(2);
  });

  it('refuses a stored segment that no longer matches its manifest, recording nothing', async () => {
    const ledger = fakeLedger();
    await archiveDue(depsWith(fakeOwner().owner, ledger), 'verdict', due);
    const key = 'tnt-a/consultations/2026-11-27T140000Z--2026-11-27T140100Z.jsonl.gz';
    await store.put(key, Buffer.from('altered'));
    const { owner, recorded } = fakeOwner();
    await expect(archiveDue(depsWith(owner, ledger), 'verdict', due)).rejects.toThrow(
      /incorrect header check|does not match its stored manifest/,
    );
    expect(recorded.size).toBe(0);
  });

  it('refuses a row of another tenant in a tenant’s rows', async () => {
    const { owner } = fakeOwner();
    const foreign: ArchiveOwner = {
      ...owner,
      async *partitionRows() {
        yield JSON.stringify({ id: 'cns-9', tenant_id: 'tnt-z' });
      },
    };
    await expect(archiveDue(depsWith(foreign, fakeLedger()), 'verdict', due)).rejects.toThrow(/a row of tnt-z in the rows of tnt-a/);
  });

  it('archives nothing without ARCHIVE_URL and says why', async () => {
    const { owner, streamed } = fakeOwner();
    await archiveDue(depsWith(owner, fakeLedger(), null), 'verdict', due);
    expect(streamed).toEqual([]);
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ partitions: [PARTITION] }),
      expect.stringMatching(/ARCHIVE_URL is not set/),
    );
  });
});
