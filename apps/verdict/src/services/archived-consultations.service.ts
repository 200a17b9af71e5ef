import { findSegmentLine, SegmentAltered, segmentKey, type ArchiveStore } from '@arbiter/archive';
import type { ArchiveSegmentStore, StoredArchiveSegment } from '@arbiter/db';
import { AppError } from '@arbiter/http';
import type { Logger } from 'pino';
import { archivedRecordProblem, type RingKey } from '../domain/archived-record';
import type { ConsultationRecord } from '../domain/consultation-record';
import type { ExplanationBasis } from '../domain/explanation-basis';
import type { SealedValues } from '../domain/sealed-values';

/** A consultation found in the archive: the row as it was stored, marked as read from there. */
export interface ArchivedConsultation {
  tenant_id: string;
  record: ConsultationRecord;
  explanation_basis: ExplanationBasis | null;
  /** The sensitive values sealed under their subject's key, as stored (docs/verdicts.md "Sensitive fields"). */
  sealed_values: SealedValues | null;
  archived: true;
}

/** An id another tenant's segment holds: all the caller learns is that it is not theirs (403, as for a row in the table). */
export interface ArchivedElsewhere {
  tenant_id: string;
  elsewhere: true;
}

/** At most this many segments of other tenants are read to tell a 403 from a 404 (docs/operations.md "Archive", "Reads"). */
export const OTHER_TENANT_SEGMENTS = 3;

const unavailable = () =>
  new AppError(503, 'archive_unavailable', 'The archive holding this consultation cannot be read right now; retry', undefined, {
    'Retry-After': '5',
  });

interface SegmentRow {
  tenant_id: string;
  record: ConsultationRecord;
  explanation_basis?: ExplanationBasis | null;
  sealed_values?: SealedValues | null;
}

/**
 * Consultations whose partition left PostgreSQL, read from their archive segment (docs/operations.md "Archive",
 * "Reads"): the caller's own segments whose id range holds the id first (their failure is the caller's 503), then, only
 * when none holds it, at most OTHER_TENANT_SEGMENTS segments of other tenants to answer 403 rather than 404 (their
 * failure is logged and counts as not found). A record is answered only when its signature, claims and hash hold.
 * Without ARCHIVE_URL nothing is archived, and nothing is found here.
 */
export class ArchivedConsultations {
  constructor(
    private readonly segments: Pick<ArchiveSegmentStore, 'segmentsHolding' | 'otherTenantsHoldingAnyTenant'>,
    private readonly store: ArchiveStore | null,
    /** The tenant's verdict key ring, retired keys included (VerdictKeys.records). */
    private readonly keys: { records(tenantId: string): Promise<readonly RingKey[]> },
    private readonly logger: Logger,
  ) {}

  async find(tenantId: string, id: string): Promise<ArchivedConsultation | ArchivedElsewhere | null> {
    if (this.store === null) return null;
    const own = await this.segments.segmentsHolding(tenantId, 'consultations', id);
    for (const s of own) {
      let line: string | null;
      try {
        line = await this.lineOf(s, id);
      } catch (err) {
        if (err instanceof SegmentAltered) throw this.altered(id, s, err.message);
        this.logger.error({ err, segment: s.url }, 'archived consultation unreadable');
        throw unavailable();
      }
      if (line !== null) return this.checked(tenantId, id, s, line);
    }
    const owner = await this.ownerElsewhere(tenantId, id);
    if (owner !== null) return { tenant_id: owner, elsewhere: true };
    // Ranges of one tenant's segments overlap (retentions changed, ids of the same millisecond), so an id inside one
    // and in none may be a crafted one; it may also be a line removed from a segment. Cheap to say, loud to see.
    if (own.length)
      this.logger.error(
        { consultation_id: id, tenant_id: tenantId, segments: own.map((s) => s.url) },
        'archived consultation not found inside the id range of its tenant segments: a possible integrity problem (run arbiter archive verify)',
      );
    return null;
  }

  /** The segment's line of the id, checked against the index digest recorded of the segment (SegmentAltered). */
  private async lineOf(s: StoredArchiveSegment, id: string): Promise<string | null> {
    const key = segmentKey({ tenant_id: s.tenant_id, kind: 'consultations', from: s.from, to: s.to });
    return findSegmentLine(this.store!, key, id, s.index_sha256);
  }

  private altered(id: string, s: StoredArchiveSegment, problem: string): AppError {
    this.logger.error({ consultation_id: id, segment: s.url, problem }, 'archived consultation does not verify: the segment was altered');
    return new AppError(
      503,
      'archive_unavailable',
      'The archived consultation does not verify against its signature and hashes; it is not answered',
    );
  }

  /** The record of a line of the caller's segment, answered only when it is the one the gateway signed (fail closed). */
  private async checked(tenantId: string, id: string, s: StoredArchiveSegment, line: string): Promise<ArchivedConsultation> {
    const ring = await this.keys.records(tenantId);
    let problem: string | null;
    let row: SegmentRow | null = null;
    try {
      row = JSON.parse(line) as SegmentRow;
      problem =
        row.tenant_id === tenantId
          ? await archivedRecordProblem(row.record, { id, tenant_id: tenantId }, ring)
          : 'the line is of another tenant';
    } catch (err) {
      problem = `the line cannot be read: ${(err as Error).message}`;
    }
    if (problem !== null || row === null) throw this.altered(id, s, problem ?? 'no row');
    return {
      tenant_id: tenantId,
      record: row.record,
      explanation_basis: row.explanation_basis ?? null,
      sealed_values: row.sealed_values ?? null,
      archived: true,
    };
  }

  /** The tenant of another tenant's segment holding the id, reading a bounded number of segments; null if none does. */
  private async ownerElsewhere(tenantId: string, id: string): Promise<string | null> {
    for (const s of await this.segments.otherTenantsHoldingAnyTenant(tenantId, 'consultations', id, OTHER_TENANT_SEGMENTS)) {
      try {
        if ((await this.lineOf(s, id)) !== null) return s.tenant_id;
      } catch (err) {
        this.logger.warn({ err, segment: s.url }, "another tenant's archive segment unreadable: counted as not holding the id");
      }
    }
    return null;
  }
}
