import type { AuthenticatedIdentity, TenantId } from '@arbiter/auth';
import { conditionProblem } from '@arbiter/cel';
import { newId } from '@arbiter/db';
import { badRequest, conflict, notFound, unprocessable } from '../domain/errors';
import type { CreateOverrideBody, Override } from '../models/overrides';
import type { Page } from '../models/identity';
import type { ScopeSelector } from '../models/common';
import type { OverrideStatusFilter } from '../repositories/overrides.repository';
import { presentOverride } from '../presenters/registry';
import { readPage, toPage, type PageQuery } from '../domain/pagination';
import type { ScopeAccess } from './scope-access.service';
import type { ChangeWriter, Repos } from './changes.service';
import type { ScopesService } from './scopes.service';

/** Body of the verdict gateway's approval grant (docs/verdicts.md "Approval", grants; docs/approvals.md). */
export interface GrantRequest {
  target_ids: string[];
  /** The rule versions the approval was asked for; absent: the grant lifts whatever version (a caller of the previous release). */
  target_version_ids?: string[];
  applies_to_scope: ScopeSelector;
  expires_at: Date;
  justification?: string;
  approved_by?: string;
  approval_id?: string;
  consultation_id?: string;
}

/** Overrides suspend invariants and rules; their status is computed when read (expired = no effect). */
export class OverridesService {
  constructor(
    private readonly repos: Repos,
    private readonly writer: ChangeWriter,
    private readonly access: ScopeAccess,
    private readonly scopes: ScopesService,
    /** TENANT_OVERRIDES_MAX_BYTES. */
    private readonly maxTenantBytes = 8 * 1024 * 1024,
  ) {}

  /**
   * Checked in the write's transaction, after the new row, under the tenant's write lock: an override that takes the
   * tenant's effective overrides past TENANT_OVERRIDES_MAX_BYTES is refused (422) and rolled back. Revoking always
   * goes through. Grants, made by decided approvals, are counted but never refused for it.
   */
  private async withinTenantBound(r: Repos, tenantId: TenantId, now: Date): Promise<void> {
    const bytes = await r.overrides.effectiveBytes(tenantId, now);
    if (bytes > this.maxTenantBytes) {
      throw unprocessable(
        `The tenant's effective overrides would hold ${bytes} bytes, more than the ${this.maxTenantBytes} a tenant's overrides may ` +
          'hold together (TENANT_OVERRIDES_MAX_BYTES); revoke overrides or make this one smaller',
      );
    }
  }

  async create(caller: AuthenticatedIdentity, scopeId: string, body: CreateOverrideBody): Promise<Override> {
    const scope = await this.access.scope(caller, scopeId);
    const targetType = body.target_id.startsWith('inv-') ? 'invariant' : body.target_id.startsWith('rul-') ? 'rule' : null;
    if (!targetType) throw badRequest('target_id must be the id of an invariant (inv-) or a rule (rul-)');
    if (body.override_type === 'temporary' && !body.expires_at) throw unprocessable('expires_at is required for a temporary override');
    if (body.override_type === 'conditional' && !body.conditions?.trim())
      throw unprocessable('conditions: required for a conditional override (a CEL expression)');
    if (body.conditions !== undefined) {
      // Parsed now, with the library the verdict gateway evaluates it with: nothing unparseable is stored.
      const problem = conditionProblem(body.conditions);
      if (problem) throw unprocessable(`conditions: ${problem}`);
    }
    if (body.expires_at && body.expires_at.getTime() <= Date.now()) throw unprocessable('expires_at must be in the future');
    if (body.applies_to_scope) await this.scopes.checkSelector(caller.tenant_id, body.applies_to_scope, 'applies_to_scope');
    return this.writer.write(caller.tenant_id, caller.principal.id, async (r, emit) => {
      const target =
        targetType === 'invariant'
          ? await r.entries.findInvariant(caller.tenant_id, scope.id, body.target_id)
          : await r.rules.find(caller.tenant_id, scope.id, body.target_id);
      if (!target) throw notFound(targetType === 'invariant' ? 'Invariant' : 'Rule', body.target_id);
      if (target.status !== 'active') throw conflict(`${body.target_id} is ${target.status}; only active entries can be overridden`);
      const now = new Date();
      const row = await r.overrides.create(caller.tenant_id, {
        id: newId('ovr-'),
        scope_id: scope.id,
        scope_ids: [scope.id],
        target_id: body.target_id,
        target_ids: [body.target_id],
        target_type: targetType,
        override_type: body.override_type,
        justification: body.justification,
        conditions: body.conditions ?? null,
        approved_by: body.approved_by ?? null,
        applies_to_scope: body.applies_to_scope ?? null,
        expires_at: body.expires_at ?? null,
        approval_id: null,
        consultation_id: null,
        created_by: caller.principal.id,
      });
      await this.withinTenantBound(r, caller.tenant_id, now);
      const override = presentOverride(row, now);
      emit({
        type: 'override.created',
        scope_id: scope.id,
        scope_ids: [scope.id],
        entity_type: 'override',
        entity_id: row.id,
        data: override,
      });
      return override;
    });
  }

  /**
   * An approval grant from the verdict gateway (internal endpoint): one override of type
   * approval_grant over every triggering rule, matching operations whose scope contains
   * applies_to_scope, until expires_at. It appears in the lists of every scope it touches.
   */
  async createGrant(tenantId: TenantId, body: GrantRequest): Promise<Override> {
    const targets = [...new Set(body.target_ids)];
    const bad = targets.find((t) => !t.startsWith('rul-'));
    if (bad) throw badRequest(`target_ids: ${bad} is not a rule id (rul-)`);
    if (body.expires_at.getTime() <= Date.now()) throw unprocessable('expires_at must be in the future');
    await this.scopes.checkSelector(tenantId, body.applies_to_scope, 'applies_to_scope');
    return this.writer.write(tenantId, body.approved_by ?? null, async (r, emit) => {
      const rules = await r.rules.findMany(tenantId, targets);
      const byId = new Map(rules.map((x) => [x.id, x]));
      const missing = targets.find((t) => !byId.has(t));
      if (missing) throw notFound('Rule', missing);
      // A gateway's grant names at least one scope field (the gateway refuses `{}` first; this holds for any caller).
      if (Object.keys(body.applies_to_scope).length === 0) {
        throw unprocessable('applies_to_scope must name at least one scope field: a grant never covers every operation of the tenant');
      }
      // Bound to the versions the approval was asked for: a rule changed since the consultation is refused
      // (read under the tenant's write lock, so no change slips in before the grant is stored).
      let versionIds: string[] = [];
      if (body.target_version_ids) {
        const asked = new Set(body.target_version_ids);
        const changed = targets.find((t) => !asked.has(byId.get(t)!.current_version_id ?? ''));
        if (changed) {
          throw unprocessable(
            `target ${changed} changed since the approval was asked for (its current version is ${byId.get(changed)!.current_version_id}): check the operation again`,
          );
        }
        versionIds = targets.map((t) => byId.get(t)!.current_version_id!);
      }
      const scopeIds = [...new Set(targets.map((t) => byId.get(t)!.scope_id))];
      const now = new Date();
      const row = await r.overrides.create(tenantId, {
        id: newId('ovr-'),
        scope_id: scopeIds[0],
        scope_ids: scopeIds,
        target_id: targets[0],
        target_ids: targets,
        target_version_ids: versionIds,
        target_type: 'rule',
        override_type: 'approval_grant',
        justification: body.justification ?? 'Approval grant',
        conditions: null,
        approved_by: body.approved_by ?? null,
        applies_to_scope: body.applies_to_scope,
        expires_at: body.expires_at,
        approval_id: body.approval_id ?? null,
        consultation_id: body.consultation_id ?? null,
        created_by: body.approved_by ?? null,
      });
      const override = presentOverride(row, now);
      emit({
        type: 'override.created',
        scope_id: scopeIds[0],
        scope_ids: scopeIds,
        entity_type: 'override',
        entity_id: row.id,
        data: override,
      });
      return override;
    });
  }

  async list(caller: AuthenticatedIdentity, scopeId: string, q: PageQuery & { status?: OverrideStatusFilter }): Promise<Page<Override>> {
    const scope = await this.access.scope(caller, scopeId);
    const { limit, after } = readPage(q);
    const now = new Date();
    const rows = await this.repos.overrides.list(caller.tenant_id, scope.id, q.status ?? 'all', now, limit, after);
    return toPage(rows, limit, (row) => presentOverride(row, now));
  }

  /** DELETE revokes; revoking a revoked override changes nothing and answers it as it is. */
  async revoke(caller: AuthenticatedIdentity, scopeId: string, id: string): Promise<Override> {
    const scope = await this.access.scope(caller, scopeId);
    return this.writer.write(caller.tenant_id, caller.principal.id, async (r, emit) => {
      if (!(await r.overrides.find(caller.tenant_id, scope.id, id))) throw notFound('Override', id);
      const now = new Date();
      const changed = await r.overrides.revoke(caller.tenant_id, id, now, caller.principal.id);
      const row = (await r.overrides.find(caller.tenant_id, scope.id, id))!;
      const override = presentOverride(row, now);
      if (changed)
        emit({
          type: 'override.revoked',
          scope_id: row.scope_id,
          scope_ids: row.scope_ids,
          entity_type: 'override',
          entity_id: id,
          data: override,
        });
      return override;
    });
  }
}
