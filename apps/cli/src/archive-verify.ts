// `arbiter archive verify` (docs/cli.md "Archive verification", docs/operations.md "Archive"): every consultation the
// ledger's `arbiter.<tenant>.consultations` stream holds for a period is either still in the verdict service's database
// or in exactly one sealed archive segment; each segment read matches the manifest sealed in `arbiter.<tenant>.archives`
// (sha256, count, first and last id); every record's normative_hash and context_hash recompute, and its seal payload is
// the ledger's. The reading is streamed segment by segment; what is kept is one entry per consultation of the period.
import {
  digestSegment,
  manifestMismatch,
  parseManifest,
  readSegmentLines,
  segmentIndexMismatch,
  segmentKey,
  type ArchiveStore,
  type SegmentManifest,
} from '@arbiter/archive';
import {
  contextHashOf,
  consultationSealPayload,
  normativeHashOf,
  sealPayloadDifferences,
  type ConsultationRecord,
  type LedgerFactListEntry,
} from '@arbiter/client';

export type ArchiveProblemKind =
  'segment_missing' | 'segment_altered' | 'manifest_malformed' | 'missing' | 'duplicated' | 'hash_mismatch' | 'seal_mismatch';

export interface ArchiveProblem {
  kind: ArchiveProblemKind;
  consultation_id?: string;
  segment?: string;
  message: string;
}

export interface ArchiveVerifyReport {
  tenant_id: string;
  since: string;
  until: string;
  /** Consultations the ledger sealed in the period. */
  sealed: number;
  /** Of them, still in the verdict service's database. */
  in_database: number;
  /** Of them, in a sealed segment. */
  in_segments: number;
  /** Sealed manifests of consultation segments, and how many were read (their ids overlap the period). */
  manifests: number;
  segments_read: number;
  problems: ArchiveProblem[];
  valid: boolean;
}

/** What the verification reads: the two ledger streams, the archive, and the records the database still holds. */
export interface ArchiveVerifySources {
  tenant: string;
  sinceMs: number;
  untilMs: number;
  consultationFacts(): AsyncIterable<LedgerFactListEntry>;
  archiveFacts(): AsyncIterable<LedgerFactListEntry>;
  store: ArchiveStore;
  /** The records of the period still in the database (the consultations list lists only those). */
  databaseRecords(): AsyncIterable<ConsultationRecord>;
  /** A record by id as the service answers it (null: not found); for a sealed consultation the list did not show. */
  getRecord(id: string): Promise<(ConsultationRecord & { archived?: boolean }) | null>;
  onProgress?: (message: string) => void;
}

/** The time-ordered id's millisecond (docs/operations.md "Archive"); NaN for an id of the older random form. */
function idTime(id: string | null): number {
  if (!id || !/^cns-[0-9a-f]{24}$/.test(id)) return Number.NaN;
  return parseInt(id.slice(4, 16), 16);
}

/** Whether a segment may hold consultations of the period: its ids' times overlap it, or cannot tell (older ids). */
function mayHoldPeriod(m: SegmentManifest, sinceMs: number, untilMs: number): boolean {
  const first = idTime(m.first_id);
  const last = idTime(m.last_id);
  if (Number.isNaN(first) || Number.isNaN(last)) return m.count > 0;
  return first <= untilMs && last >= sinceMs;
}

/** Checks one record: its two hashes recompute, and its seal payload is the one the ledger holds. */
function recordProblems(record: Record<string, unknown>, sealed: unknown, where: string): ArchiveProblem[] {
  const id = String(record.id);
  const out: ArchiveProblem[] = [];
  let normative: string;
  let context: string;
  try {
    normative = normativeHashOf(record);
    context = contextHashOf(record);
  } catch (err) {
    return [
      { kind: 'hash_mismatch', consultation_id: id, message: `${where}: the record has no canonical form: ${(err as Error).message}` },
    ];
  }
  if (normative !== record.normative_hash)
    out.push({
      kind: 'hash_mismatch',
      consultation_id: id,
      message: `${where}: normative_hash recomputes to ${normative}, the record says ${String(record.normative_hash)}`,
    });
  if (context !== record.context_hash)
    out.push({
      kind: 'hash_mismatch',
      consultation_id: id,
      message: `${where}: context_hash recomputes to ${context}, the record says ${String(record.context_hash)}`,
    });
  if (sealed !== undefined) {
    const diff = sealPayloadDifferences(consultationSealPayload(record as unknown as ConsultationRecord), sealed);
    if (diff.length)
      out.push({
        kind: 'seal_mismatch',
        consultation_id: id,
        message: `${where}: the ledger's seal differs on ${diff.map((d) => `${d.field} (record ${JSON.stringify(d.record)}, ledger ${JSON.stringify(d.ledger)})`).join(', ')}`,
      });
  }
  return out;
}

export async function verifyArchive(src: ArchiveVerifySources): Promise<ArchiveVerifyReport> {
  const progress = src.onProgress ?? (() => undefined);
  const problems: ArchiveProblem[] = [];

  // 1. What the ledger sealed in the period: consultation id → its seal payload.
  const sealed = new Map<string, Record<string, unknown>>();
  for await (const f of src.consultationFacts()) {
    const p = f.custom_payload as Record<string, unknown>;
    const decided = typeof p?.decided_at === 'string' ? Date.parse(p.decided_at) : Number.NaN;
    if (typeof p?.consultation_id === 'string' && decided >= src.sinceMs && decided <= src.untilMs) sealed.set(p.consultation_id, p);
  }
  progress(`ledger: ${sealed.size} consultations sealed in the period`);

  // 2. Each sealed manifest of a consultations segment that may hold the period: read whole, checked, its records too.
  const segmentsOf = new Map<string, string[]>();
  let manifests = 0;
  let read = 0;
  for await (const f of src.archiveFacts()) {
    let m: SegmentManifest;
    try {
      m = parseManifest(f.custom_payload);
    } catch (err) {
      problems.push({ kind: 'manifest_malformed', message: `fact ${f.fact_id}: ${(err as Error).message}` });
      continue;
    }
    if (m.kind !== 'consultations' || m.tenant_id !== src.tenant) continue;
    manifests++;
    if (!mayHoldPeriod(m, src.sinceMs, src.untilMs)) continue;
    const key = segmentKey(m);
    read++;
    progress(`segment ${key}`);
    if ((await src.store.head(key)) === null) {
      problems.push({ kind: 'segment_missing', segment: key, message: `${key}: sealed as fact ${f.fact_id}, absent from the archive` });
      continue;
    }
    try {
      const digest = await digestSegment(src.store, key);
      const mismatch =
        manifestMismatch(m, digest) ??
        (m.index_sha256 === undefined ? null : await segmentIndexMismatch(src.store, key, m.index_sha256, digest.bytes));
      if (mismatch) {
        problems.push({ kind: 'segment_altered', segment: key, message: `${key}: ${mismatch} (sealed as fact ${f.fact_id})` });
        continue;
      }
    } catch (err) {
      problems.push({ kind: 'segment_altered', segment: key, message: `${key}: unreadable: ${(err as Error).message}` });
      continue;
    }
    for await (const line of readSegmentLines(src.store, key)) {
      const row = JSON.parse(line) as { id: string; record: Record<string, unknown> };
      if (!sealed.has(row.id)) continue;
      segmentsOf.set(row.id, [...(segmentsOf.get(row.id) ?? []), key]);
      problems.push(...recordProblems(row.record, sealed.get(row.id), key));
    }
  }

  // 3. What the database still holds of the period.
  const inDatabase = new Set<string>();
  for await (const r of src.databaseRecords()) {
    if (!sealed.has(r.id)) continue;
    inDatabase.add(r.id);
    if (!segmentsOf.has(r.id)) problems.push(...recordProblems(r as unknown as Record<string, unknown>, sealed.get(r.id), 'database'));
  }

  // 4. Every sealed consultation is in the database or in exactly one segment.
  let inSegments = 0;
  for (const id of sealed.keys()) {
    const keys = segmentsOf.get(id) ?? [];
    if (keys.length > 1)
      problems.push({ kind: 'duplicated', consultation_id: id, message: `in ${keys.length} segments: ${keys.join(', ')}` });
    if (keys.length > 0) {
      inSegments++;
      continue;
    }
    if (inDatabase.has(id)) continue;
    // Not listed in the period (a list read before it was written, or a requested_at the list bounds differently).
    const found = await src.getRecord(id);
    if (found && !found.archived) {
      inDatabase.add(id);
      problems.push(...recordProblems(found as unknown as Record<string, unknown>, sealed.get(id), 'database'));
    } else
      problems.push({
        kind: 'missing',
        consultation_id: id,
        message: found
          ? 'answered from the archive, but in no segment whose sealed manifest holds it'
          : 'sealed in the ledger, in neither the database nor a sealed segment',
      });
  }

  return {
    tenant_id: src.tenant,
    since: new Date(src.sinceMs).toISOString(),
    until: new Date(src.untilMs).toISOString(),
    sealed: sealed.size,
    in_database: inDatabase.size,
    in_segments: inSegments,
    manifests,
    segments_read: read,
    problems,
    valid: problems.length === 0,
  };
}

/** The report as lines: the counts, then the first problems by id. */
export function renderArchiveVerify(r: ArchiveVerifyReport, shown = 20): string {
  const lines = [
    `archive of ${r.tenant_id} from ${r.since} to ${r.until}: ${r.valid ? 'VERIFIED' : `${r.problems.length} problem${r.problems.length === 1 ? '' : 's'}`}`,
    `  ${r.sealed} consultations sealed in the period: ${r.in_database} in the database, ${r.in_segments} in archive segments`,
    `  ${r.manifests} sealed segment manifests, ${r.segments_read} segments read and checked`,
  ];
  for (const p of r.problems.slice(0, shown))
    lines.push(`  [${p.kind.toUpperCase()}] ${p.consultation_id ? `${p.consultation_id}: ` : ''}${p.message}`);
  if (r.problems.length > shown) lines.push(`  … and ${r.problems.length - shown} more (--json lists them all)`);
  return lines.join('\n');
}
