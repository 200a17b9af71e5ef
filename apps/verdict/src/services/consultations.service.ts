import type { AuthenticatedIdentity } from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import { crossTenantForbidden } from '../domain/errors';
import { ownTenant, requireAnyPermission } from '../domain/tenant-access';
import type { ConsultationRecord } from '../domain/consultation-record';
import type { ConsultationRepository } from '../repositories/consultations.repository';
import { parseConsultationQuery, type ConsultationQuery } from '../domain/consultation-query';
import { timeKeysetCursor } from '../domain/pagination';
import type { ExplanationBasis } from '../domain/explanation-basis';
import type { ArchivedConsultation, ArchivedConsultations } from './archived-consultations.service';

/** Reading consultations back (GET .../consultations, docs/verdicts.md "Consultations"): `read` or `check`, own tenant only. */
export class ConsultationsService {
  constructor(
    private readonly repo: ConsultationRepository,
    private readonly archived: Pick<ArchivedConsultations, 'findAnyTenant'> | null = null,
  ) {}

  /** The record, from PostgreSQL or, once its partition left, from the archive with `archived: true` beside it. */
  async get(identity: AuthenticatedIdentity, tenantParam: string, id: string): Promise<ConsultationRecord> {
    const found = await readConsultation(identity, tenantParam, id, (cid) => this.findAnyTenant(cid));
    return 'archived' in found ? { ...found.record, archived: true } : found.record;
  }

  /** The row of this id wherever it is (the caller decides 404 vs 403). */
  async findAnyTenant(id: string): Promise<{ tenant_id: string; record: ConsultationRecord } | ArchivedConsultation | null> {
    return (await this.repo.findAnyTenant(id)) ?? (await this.archived?.findAnyTenant(id)) ?? null;
  }

  /** The row with its explanation basis wherever it is. */
  async findWithBasisAnyTenant(
    id: string,
  ): Promise<{ tenant_id: string; record: ConsultationRecord; explanation_basis: ExplanationBasis | null; archived?: true } | null> {
    return (await this.repo.findWithBasisAnyTenant(id)) ?? (await this.archived?.findAnyTenant(id)) ?? null;
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
    const items = rows.slice(0, limit);
    return { items, next_cursor: rows.length > limit ? timeKeysetCursor(items[items.length - 1]) : null };
  }
}

/**
 * A consultation read by id as its routes allow (docs/verdicts.md "Consultations"): `read` or `check`,
 * the path's tenant the key's own; 404 consultation_not_found for an id that exists nowhere, 403
 * cross_tenant_forbidden for another tenant's. The record and its explanation read alike.
 */
export async function readConsultation<T extends { tenant_id: string }>(
  identity: AuthenticatedIdentity,
  tenantParam: string,
  id: string,
  find: (id: string) => Promise<T | null>,
): Promise<T> {
  requireAnyPermission(identity, ['read', 'check']);
  const tenantId = ownTenant(identity, tenantParam);
  const found = await find(id);
  if (!found)
    throw new AppError(404, 'consultation_not_found', `Consultation ${id} does not exist in this tenant`, { consultation_id: id });
  if (found.tenant_id !== tenantId) throw crossTenantForbidden('The consultation belongs to another tenant');
  return found;
}
