// The archive step of the maintenance job (docs/operations.md "Archive"): before a past partition of an archived kind
// is dropped, each tenant's rows in it are written as one archive segment, read back and checked, its manifest sealed
// in the ledger stream `arbiter.<tenant_id>.archives`, and the segment recorded in the owning service, whose drop
// gate then finds the tenant covered. Any failure throws: the partition stays for the next run.
import {
  digestSegment,
  lineId,
  manifestKey,
  manifestMismatch,
  manifestOf,
  parseManifest,
  segmentIndexMismatch,
  segmentKey,
  writeSegment,
  type ArchiveKind,
  type ArchiveLine,
  type ArchiveStore,
  type SegmentManifest,
} from '@arbiter/archive';
import { auditStreamId, REGISTRY_SEAL_ACTOR, VERDICT_SEAL_ACTOR } from '@arbiter/audit-streams';
import type {
  ArchiveSegmentRecord,
  DuePartition,
  LedgerInternalClient,
  PartitionTenantsAnswer,
  RecordSegmentAnswer,
} from '@arbiter/internal-api';

/** The service owning a partition. */
export type MaintainedService = 'verdict' | 'registry';

/** What the archive needs of a partition's owner (its internal API). */
export interface ArchiveOwner {
  partitionTenants(partition: string): Promise<PartitionTenantsAnswer | null>;
  partitionRows(partition: string, tenantId: string, signal?: AbortSignal): AsyncGenerator<string>;
  recordSegment(partition: string, segment: ArchiveSegmentRecord): Promise<RecordSegmentAnswer>;
}

export interface ArchiveDeps {
  /** ARCHIVE_URL opened; null when unset (nothing archived, so nothing of an archived kind is dropped). */
  store: ArchiveStore | null;
  owners: Record<MaintainedService, ArchiveOwner>;
  ledger: Pick<LedgerInternalClient, 'seal'>;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** Told of each segment written and recorded (metrics: rows archived). */
  onArchived?: (kind: ArchiveKind, rows: number) => void;
}

const SEAL_ACTORS: Record<MaintainedService, string> = { verdict: VERDICT_SEAL_ACTOR, registry: REGISTRY_SEAL_ACTOR };

/** The lower bound of a partition unbounded below (rows of a table from before partitioning): the epoch. */
const UNBOUNDED_FROM = new Date(0).toISOString();

/**
 * Archives the due partitions of `service` that have an archive kind, tenant by tenant; throws to leave them for the
 * next run. Idempotent: a tenant whose segment is recorded with its row count is skipped; a segment written and sealed
 * but not recorded is checked against its stored manifest and recorded, never rewritten.
 */
export async function archiveDue(deps: ArchiveDeps, service: MaintainedService, due: readonly DuePartition[]): Promise<void> {
  const archived = due.filter((d) => d.archive !== null);
  if (archived.length === 0) return;
  if (deps.store === null) {
    deps.log.warn(
      { service, partitions: archived.map((d) => d.partition) },
      'archive: ARCHIVE_URL is not set; partitions of archived kinds stay in PostgreSQL',
    );
    return;
  }
  for (const d of archived) await archivePartition(deps, deps.store, service, d.partition);
}

/** archiveDue bound to its dependencies: the maintenance job's archive step. */
export function archiverFor(deps: ArchiveDeps): (service: MaintainedService, due: readonly DuePartition[]) => Promise<void> {
  return (service, due) => archiveDue(deps, service, due);
}

async function archivePartition(deps: ArchiveDeps, store: ArchiveStore, service: MaintainedService, partition: string): Promise<void> {
  const owner = deps.owners[service];
  const answer = await owner.partitionTenants(partition);
  if (answer === null || answer.to === null) return; // gone meanwhile (dropped by another worker), or not archived
  for (const t of answer.tenants) {
    if (t.archived_count === t.count) continue;
    const bounds = { tenant_id: t.tenant_id, kind: answer.kind, from: answer.from ?? UNBOUNDED_FROM, to: answer.to };
    const key = segmentKey(bounds);
    const manifest =
      (await storedSegment(store, key)) ?? (await writeAndCheck(store, key, bounds, owner.partitionRows(partition, t.tenant_id)));
    if (manifest.count !== t.count) {
      throw new Error(`archive: ${key} holds ${manifest.count} rows, ${partition} holds ${t.count} of ${t.tenant_id}`);
    }
    const factId = await sealManifest(deps, service, key, manifest);
    const recorded = await owner.recordSegment(partition, { ...manifest, partition, url: store.urlOf(key), fact_id: factId });
    if (recorded.segment.sha256 !== manifest.sha256 || recorded.segment.count !== manifest.count) {
      throw new Error(`archive: ${partition} of ${t.tenant_id} was recorded before with another segment (${recorded.segment.sha256})`);
    }
    deps.onArchived?.(answer.kind, manifest.count);
    deps.log.info({ partition, tenant_id: t.tenant_id, rows: manifest.count, segment: key, fact_id: factId }, 'archive: segment recorded');
  }
}

/**
 * A segment written before (its manifest stored beside it), checked against that manifest; null when there is none.
 * A segment that does not match its manifest is never overwritten: its manifest may be sealed already.
 */
async function storedSegment(store: ArchiveStore, key: string): Promise<SegmentManifest | null> {
  const text = await store.get(manifestKey(key));
  if (text === null) return null;
  const manifest = parseManifest(JSON.parse(text.toString('utf8')));
  const digest = await digestSegment(store, key);
  const mismatch =
    manifestMismatch(manifest, digest) ??
    (manifest.index_sha256 === undefined ? null : await segmentIndexMismatch(store, key, manifest.index_sha256, digest.bytes));
  if (mismatch) throw new Error(`archive: ${key} does not match its stored manifest: ${mismatch}`);
  return manifest;
}

/** Streams the rows into the segment, reads it back whole and checks it, then stores the manifest beside it. */
async function writeAndCheck(
  store: ArchiveStore,
  key: string,
  bounds: { tenant_id: string; kind: ArchiveKind; from: string; to: string },
  rows: AsyncIterable<string>,
): Promise<SegmentManifest> {
  const written = await writeSegment(store, key, withIds(rows, bounds.tenant_id));
  const manifest = manifestOf(bounds, written);
  const mismatch = manifestMismatch(manifest, await digestSegment(store, key));
  if (mismatch) throw new Error(`archive: ${key} read back differs from what was written: ${mismatch}`);
  await store.put(manifestKey(key), Buffer.from(JSON.stringify(manifest)));
  return manifest;
}

/** Each row line with its id; a line of another tenant stops the segment (it would hold what is not its own). */
async function* withIds(rows: AsyncIterable<string>, tenantId: string): AsyncGenerator<ArchiveLine> {
  for await (const line of rows) {
    const row = JSON.parse(line) as { tenant_id?: unknown };
    if (row.tenant_id !== tenantId) throw new Error(`archive: a row of ${String(row.tenant_id)} in the rows of ${tenantId}`);
    yield { id: lineId(line), line };
  }
}

/** Seals the manifest in `arbiter.<tenant_id>.archives` under the segment's key (a repeat answers the first fact). */
async function sealManifest(deps: ArchiveDeps, service: MaintainedService, key: string, manifest: SegmentManifest): Promise<string> {
  const { results } = await deps.ledger.seal([
    {
      stream_id: auditStreamId(manifest.tenant_id, 'archives'),
      tenant_id: manifest.tenant_id,
      actor: SEAL_ACTORS[service],
      custom_payload: { ...manifest },
      client_ref: key,
    },
  ]);
  const r = results[0];
  if (!r?.ok) throw new Error(`archive: the ledger refused the manifest of ${key}: ${r ? `${r.status} ${r.code}` : 'no result'}`);
  return r.fact_id;
}
