import { findSegmentLine, segmentKey, type ArchiveStore } from '@arbiter/archive';
import type { ArchiveSegmentStore } from '@arbiter/db';
import { AppError } from '@arbiter/http';
import type { Logger } from 'pino';
import { normativeHash } from '../domain/consultation-builder';
import type { ConsultationRecord } from '../domain/consultation-record';
import type { ExplanationBasis } from '../domain/explanation-basis';

/** Whether the record still hashes to its normative_hash (its text was not changed in the archive). */
function hashHolds(record: ConsultationRecord): boolean {
  try {
    return normativeHash(record) === record.normative_hash;
  } catch {
    return false;
  }
}

/** A consultation found in the archive: the row as it was stored, marked as read from there. */
export interface ArchivedConsultation {
  tenant_id: string;
  record: ConsultationRecord;
  explanation_basis: ExplanationBasis | null;
  archived: true;
}

/**
 * Consultations whose partition left PostgreSQL, read from their archive segment (docs/operations.md "Archive"):
 * the segments whose id range holds the id (archive_segments), then one ranged read of the member that holds it.
 * Without ARCHIVE_URL nothing is archived, and nothing is found here.
 */
export class ArchivedConsultations {
  constructor(
    private readonly segments: ArchiveSegmentStore,
    private readonly store: ArchiveStore | null,
    private readonly logger: Logger,
  ) {}

  async findAnyTenant(id: string): Promise<ArchivedConsultation | null> {
    if (this.store === null) return null;
    const segments = await this.segments.segmentsHoldingAnyTenant('consultations', id);
    for (const s of segments) {
      let line: string | null;
      try {
        line = await findSegmentLine(this.store, segmentKey({ tenant_id: s.tenant_id, kind: 'consultations', from: s.from, to: s.to }), id);
      } catch (err) {
        this.logger.error({ err, segment: s.url }, 'archived consultation unreadable');
        throw new AppError(503, 'archive_unavailable', 'The archive holding this consultation cannot be read right now; retry', undefined, {
          'Retry-After': '5',
        });
      }
      if (line === null) continue;
      const row = JSON.parse(line) as { tenant_id: string; record: ConsultationRecord; explanation_basis?: ExplanationBasis | null };
      // A segment holds one tenant's rows of its own: anything else, or a record that no longer hashes to its
      // normative_hash, is an archive changed behind the worker's back, never answered (fail closed).
      if (row.tenant_id !== s.tenant_id || row.record?.id !== id || row.record.tenant_id !== s.tenant_id || !hashHolds(row.record)) {
        this.logger.error({ consultation_id: id, segment: s.url }, 'archived consultation does not verify: the segment was altered');
        throw new AppError(503, 'archive_unavailable', 'The archived consultation does not verify against its hashes; it is not answered');
      }
      return { tenant_id: row.tenant_id, record: row.record, explanation_basis: row.explanation_basis ?? null, archived: true };
    }
    return null;
  }
}
