import type { AuthenticatedIdentity } from '@arbiter/auth';
import { auditStreamId } from '@arbiter/audit-streams';
import { AppError } from '@arbiter/http';
import { ownTenant, requireAnyPermission } from '../domain/tenant-access';
import type { Erasure } from '../models/erasures';
import type { SubjectKeysRepository } from '../repositories/subject-keys.repository';
import type { SensitiveValuesService } from './sensitive-values.service';

const MAX_SUBJECT_LENGTH = 1024;

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
    body: { subject: unknown },
  ): Promise<{ erasure: Erasure; created: boolean }> {
    requireAnyPermission(identity, ['admin']);
    const tenantId = ownTenant(identity, tenantParam);
    const subject = body.subject;
    const valid =
      (typeof subject === 'string' && subject.length > 0 && subject.length <= MAX_SUBJECT_LENGTH) ||
      (typeof subject === 'number' && Number.isFinite(subject));
    if (!valid)
      throw new AppError(
        400,
        'validation_failed',
        `subject must be a non-empty string of at most ${MAX_SUBJECT_LENGTH} characters or a number`,
        { field: 'subject' },
      );
    const digest = await this.deps.sensitive.digest(tenantId, subject as string | number);
    const at = new Date((this.deps.now ?? Date.now)());
    const { erasure, created } = await this.deps.keys.erase(tenantId, digest, identity.principal.id, at, this.deps.sealing);
    if (created && this.deps.sealing) this.deps.onSealed?.();
    return {
      erasure: {
        subject_commitment: erasure.subject_digest,
        erased_at: erasure.erased_at.toISOString(),
        erased_by: erasure.erased_by,
        stream_id: auditStreamId(tenantId, 'erasures'),
      },
      created,
    };
  }
}
