import type { AuthenticatedIdentity } from '@arbiter/auth';
import { AppError, shownId } from '@arbiter/http';
import { crossTenantForbidden } from '../domain/errors';
import { ownTenant, requireAnyPermission } from '../domain/tenant-access';
import { reachedVersionIds, type ConsultationRecord } from '../domain/consultation-record';
import type { ConsultationRepository } from '../repositories/consultations.repository';
import { parseConsultationQuery, type ConsultationQuery } from '../domain/consultation-query';
import { timeKeysetCursor } from '../domain/pagination';
import type { ExplanationBasis } from '../domain/explanation-basis';
import type { ArchivedConsultations } from './archived-consultations.service';
import { hasPermission } from '@arbiter/auth';
import type { SealedValues } from '../domain/sealed-values';
import type { SensitiveValuesService } from './sensitive-values.service';
import type { ConsultationRead } from '../models/verdicts';

/** A stored consultation wherever it is: PostgreSQL, or its archive segment (`archived: true`). */
export interface StoredConsultation {
  tenant_id: string;
  record: ConsultationRecord;
  sealed_values: SealedValues | null;
  explanation_basis?: ExplanationBasis | null;
  archived?: true;
}

/** Reading consultations back (GET .../consultations, docs/verdicts.md "Consultations"): `read` or `check`, own tenant only. */
export class ConsultationsService {
  constructor(
    private readonly repo: ConsultationRepository,
    private readonly archived: Pick<ArchivedConsultations, 'find'> | null = null,
    private readonly sensitive: SensitiveValuesService | null = null,
    /** Which consultations a key restricted to some scopes reaches (docs/verdicts.md "Authentication"); null: all. */
    private readonly reach: ScopeReach | null = null,
  ) {}

  /**
   * The record exactly as hashed and signed (sensitive values as their commitments), from PostgreSQL or, once its
   * partition left, from the archive with `archived: true` beside it. A record that has sensitive values answers
   * them beside it, under `sensitive_values` (each `erased` once its subject's key is gone), to a caller holding
   * `read`; a `check` caller gets the record alone.
   */
  async get(identity: AuthenticatedIdentity, tenantParam: string, id: string): Promise<ConsultationRead> {
    const row = await readConsultation(identity, tenantParam, id, (tid, cid) => this.find(tid, cid), this.reach);
    let read: ConsultationRead = row.record;
    if (row.sealed_values && this.sensitive && hasPermission(identity, 'read')) {
      const values = await this.sensitive.reveal(identity.tenant_id, row.record.id, row.sealed_values);
      if (values) read = { ...read, sensitive_values: values };
    }
    return row.archived ? { ...read, archived: true } : read;
  }

  /** The record alone, as hashed and signed (evidence), with `archived: true` when read from the archive. */
  async record(identity: AuthenticatedIdentity, tenantParam: string, id: string): Promise<ConsultationRecord> {
    const row = await readConsultation(identity, tenantParam, id, (tid, cid) => this.find(tid, cid), this.reach);
    return row.archived ? { ...row.record, archived: true } : row.record;
  }

  /**
   * The row of this id wherever it is, read for `tenantId` (the caller decides 404 vs 403 for a row in PostgreSQL;
   * another tenant's archived one is 403 here).
   */
  async find(tenantId: string, id: string): Promise<StoredConsultation | null> {
    return (await this.repo.findAnyTenant(id)) ?? (await this.fromArchive(tenantId, id));
  }

  /** The row with its explanation basis wherever it is, read for `tenantId`. */
  async findWithBasis(tenantId: string, id: string): Promise<(StoredConsultation & { explanation_basis: ExplanationBasis | null }) | null> {
    return (await this.repo.findWithBasisAnyTenant(id)) ?? (await this.fromArchive(tenantId, id));
  }

  /** The caller's archived consultation; 403 when another tenant's segment holds the id (docs/operations.md "Archive", "Reads"). */
  private async fromArchive(tenantId: string, id: string) {
    const found = (await this.archived?.find(tenantId, id)) ?? null;
    if (found && 'elsewhere' in found) throw crossTenantForbidden('The consultation belongs to another tenant');
    return found;
  }

  async list(
    identity: AuthenticatedIdentity,
    tenantParam: string,
    query: ConsultationQuery,
  ): Promise<{ items: ConsultationRecord[]; next_cursor: string | null }> {
    requireAnyPermission(identity, ['read', 'check']);
    const tenantId = ownTenant(identity, tenantParam);
    const { filter, limit, after } = parseConsultationQuery(query);
    const rows = await this.repo.list(tenantId, filter, limit, after);
    const page = rows.slice(0, limit);
    const next_cursor = rows.length > limit ? timeKeysetCursor(page[page.length - 1]) : null;
    // A key restricted to some scopes sees the page without what it does not reach (the page may be short).
    if (!this.reach || identity.scope_ids.length === 0) return { items: page, next_cursor };
    const reached = await Promise.all(page.map((r) => this.reach!.reaches(identity, reachedVersionIds(r))));
    return { items: page.filter((_, i) => reached[i]), next_cursor };
  }
}

/** Whether a key reaches what some rule versions govern (RuleVersionsService.reaches). */
export interface ScopeReach {
  reaches(identity: AuthenticatedIdentity, ruleVersionIds: readonly (string | null)[]): Promise<boolean>;
}

/**
 * A consultation read by id as its routes allow (docs/verdicts.md "Consultations"): `read` or `check`,
 * the path's tenant the key's own; 404 consultation_not_found for an id that exists nowhere, 403
 * cross_tenant_forbidden for another tenant's, and 404 too for a key restricted to some scopes when the
 * consultation's cited rules, and the rules whose windows it took from, do not all lie in them (`reach`). The record and its explanation read alike.
 */
export async function readConsultation<
  T extends { tenant_id: string; record: Pick<ConsultationRecord, 'cited_rule_version_ids' | 'limits' | 'precedence_trace'> },
>(
  identity: AuthenticatedIdentity,
  tenantParam: string,
  id: string,
  find: (tenantId: string, id: string) => Promise<T | null>,
  reach: ScopeReach | null,
): Promise<T> {
  requireAnyPermission(identity, ['read', 'check']);
  const tenantId = ownTenant(identity, tenantParam);
  const found = await find(tenantId, id);
  const notFound = () =>
    new AppError(404, 'consultation_not_found', `Consultation ${shownId(id)} does not exist in this tenant`, {
      consultation_id: shownId(id),
    });
  if (!found) throw notFound();
  if (found.tenant_id !== tenantId) throw crossTenantForbidden('The consultation belongs to another tenant');
  if (reach && !(await reach.reaches(identity, reachedVersionIds(found.record)))) throw notFound();
  return found;
}
