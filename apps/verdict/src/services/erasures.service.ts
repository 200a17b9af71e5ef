import type { AuthenticatedIdentity, TenantId } from '@arbiter/auth';
import { auditStreamId } from '@arbiter/audit-streams';
import { AppError, parseLimit } from '@arbiter/http';
import { MAX_SUBJECT_LENGTH, subjectName } from '@arbiter/sensitive';
import { badRequest } from '../domain/errors';
import { parseTimeKeyset, timeKeysetCursor } from '../domain/pagination';
import { ownTenant, requireAnyPermission } from '../domain/tenant-access';
import type { Erasure, ErasureList, ErasureResult } from '../models/erasures';
import type { ErasureRow, SubjectKeysRepository } from '../repositories/subject-keys.repository';
import type { SensitiveValuesService } from './sensitive-values.service';

const COMMITMENT = /^hmac-sha256:[0-9a-f]{64}$/;

/**
 * An erasure reaches every record of the subject in every scope, and the list names every subject erased: both need an
 * `admin` key that reaches every scope of the tenant. A key restricted by `scope_ids` is refused (403), as the registry
 * refuses it tenant settings.
 */
function requireTenantWideAdmin(identity: AuthenticatedIdentity, action: string): void {
  requireAnyPermission(identity, ['admin']);
  if (identity.scope_ids.length > 0)
    throw new AppError(
      403,
      'insufficient_permission',
      `A key restricted to some scopes cannot ${action}: an erasure reaches every scope of the tenant`,
      { permission: 'admin', reason: 'scope_restricted' },
    );
}

export interface ErasuresDeps {
  keys: SubjectKeysRepository;
  sensitive: SensitiveValuesService;
  /** LEDGER_SEALING: the erasure is sealed in arbiter.<tenant_id>.erasures. */
  sealing: boolean;
  /** Called after an erasure wrote its seal_outbox row (the worker's relay is nudged). */
  onSealed?: () => void;
  now?: () => number;
}

/**
 * POST /<tenant_id>/v1/erasures (docs/operations.md "Erasure"): the subject's keys are deleted, so every value sealed
 * under them, in the database, the archive and any backup taken since, can no longer be decrypted, and every
 * commitment to them can no longer be tested against a guess. The records, their hashes and signatures stay as they
 * are. The first erasure is sealed; a second answers the first, and deletes any key made since (a check that named
 * the subject after the first erasure).
 */
export class ErasuresService {
  constructor(private readonly deps: ErasuresDeps) {}

  async erase(
    identity: AuthenticatedIdentity,
    tenantParam: string,
    body: { subject?: unknown; subject_commitment?: unknown },
  ): Promise<{ erasure: ErasureResult; created: boolean }> {
    requireTenantWideAdmin(identity, 'erase a subject');
    const tenantId = ownTenant(identity, tenantParam);
    const digest = await this.digestOf(tenantId, body);
    const at = new Date((this.deps.now ?? Date.now)());
    const { erasure, created, keysDeleted } = await this.deps.keys.erase(tenantId, digest, identity.principal.id, at, this.deps.sealing);
    if (created && this.deps.sealing) this.deps.onSealed?.();
    return { erasure: { ...present(erasure), keys_deleted: keysDeleted }, created };
  }

  /**
   * The subject's digest: from `subject`, or `subject_commitment` as an erasure or a read answered it (the form an
   * operator replays after restoring a backup, when the subject itself is not at hand). Exactly one; 400 otherwise.
   */
  private async digestOf(tenantId: TenantId, body: { subject?: unknown; subject_commitment?: unknown }): Promise<string> {
    const { subject, subject_commitment: commitment } = body;
    const invalid = (field: string, message: string) => new AppError(400, 'validation_failed', message, { field });
    if ((subject === undefined) === (commitment === undefined))
      throw invalid('subject', 'give exactly one of subject and subject_commitment');
    if (commitment !== undefined) {
      if (typeof commitment !== 'string' || !COMMITMENT.test(commitment))
        throw invalid('subject_commitment', 'subject_commitment must be hmac-sha256: and 64 lowercase hex digits');
      return commitment;
    }
    // Named as a check names it (a number by its JSON text), so that the erasure reaches the key the checks made.
    const name = subjectName(subject);
    if (name === null)
      throw invalid('subject', `subject must be a non-empty string of at most ${MAX_SUBJECT_LENGTH} characters or a number`);
    return this.deps.sensitive.digest(tenantId, name);
  }

  /**
   * GET /<tenant_id>/v1/erasures: the tenant's erasures, newest first (what an operator replays after restoring a backup,
   * docs/operations.md "Erasure"). `admin`.
   */
  async list(identity: AuthenticatedIdentity, tenantParam: string, q: { limit?: number; cursor?: string }): Promise<ErasureList> {
    requireTenantWideAdmin(identity, 'list erasures');
    const tenantId = ownTenant(identity, tenantParam);
    const limit = parseLimit(q.limit, () => badRequest('invalid_query', 'limit must be an integer from 1 to 1000', { parameter: 'limit' }));
    const after = parseTimeKeyset(q.cursor);
    const rows = await this.deps.keys.listErasures(tenantId, limit, after && { at: after.requested_at, digest: after.id });
    const items = rows.slice(0, limit).map(present);
    const last = items[items.length - 1];
    return {
      items,
      next_cursor: rows.length > limit ? timeKeysetCursor({ requested_at: last.erased_at, id: last.subject_commitment }) : null,
    };
  }
}

function present(row: ErasureRow): Erasure {
  return {
    subject_commitment: row.subject_digest,
    erased_at: row.erased_at.toISOString(),
    erased_by: row.erased_by,
    stream_id: auditStreamId(row.tenant_id, 'erasures'),
  };
}
