import type { AuthenticatedIdentity } from '@arbiter/auth';
import { newId } from '@arbiter/db';
import { notFound } from '../domain/errors';
import type { CreateDecisionBody, CreateInvariantBody, Decision, Invariant } from '../models/entries';
import type { Page } from '../models/identity';
import type { DecisionFilter } from '../repositories/entries.repository';
import { presentDecision, presentInvariant } from '../presenters/registry';
import { readPage, toPage, type PageQuery } from '../domain/pagination';
import { authorOf, type ScopeAccess } from './scope-access.service';
import type { ChangeWriter, Repos } from './changes.service';

/** Decisions and invariants (docs/registry.md "Decisions and invariants"). */
export class EntriesService {
  constructor(
    private readonly repos: Repos,
    private readonly writer: ChangeWriter,
    private readonly access: ScopeAccess,
  ) {}

  async createDecision(caller: AuthenticatedIdentity, scopeId: string, body: CreateDecisionBody): Promise<Decision> {
    const scope = await this.access.scope(caller, scopeId);
    return this.writer.write(caller.tenant_id, caller.principal.id, async (r, emit) => {
      if (body.namespace !== undefined && !(await r.scopes.findNamespace(caller.tenant_id, scope.id, body.namespace))) {
        throw notFound('Namespace', `${body.namespace} of scope ${scope.id}`);
      }
      const row = await r.entries.createDecision(caller.tenant_id, {
        id: newId('dec-'),
        scope_id: scope.id,
        decision: body.decision,
        context: body.context ?? null,
        reasoning: body.reasoning ?? null,
        ...authorOf(caller, body),
        tags: [...new Set(body.tags ?? [])],
        namespace: body.namespace ?? null,
        created_by: caller.principal.id,
      });
      const decision = presentDecision(row);
      emit({
        type: 'decision.created',
        scope_id: scope.id,
        scope_ids: [scope.id],
        entity_type: 'decision',
        entity_id: row.id,
        data: decision,
      });
      return decision;
    });
  }

  async getDecision(caller: AuthenticatedIdentity, scopeId: string, id: string): Promise<Decision> {
    const scope = await this.access.scope(caller, scopeId);
    const row = await this.repos.entries.findDecision(caller.tenant_id, scope.id, id);
    if (!row) throw notFound('Decision', id);
    return presentDecision(row);
  }

  async listDecisions(caller: AuthenticatedIdentity, scopeId: string, q: PageQuery & DecisionFilter): Promise<Page<Decision>> {
    const scope = await this.access.scope(caller, scopeId);
    const { limit, after } = readPage(q);
    const rows = await this.repos.entries.listDecisions(caller.tenant_id, scope.id, { namespace: q.namespace, tag: q.tag }, limit, after);
    return toPage(rows, limit, presentDecision);
  }

  async createInvariant(caller: AuthenticatedIdentity, scopeId: string, body: CreateInvariantBody): Promise<Invariant> {
    const scope = await this.access.scope(caller, scopeId);
    return this.writer.write(caller.tenant_id, caller.principal.id, async (r, emit) => {
      const row = await r.entries.createInvariant(caller.tenant_id, {
        id: newId('inv-'),
        scope_id: scope.id,
        constraint: body.constraint,
        rationale: body.rationale ?? null,
        requires_approval: body.requires_approval ?? false,
        ...authorOf(caller, body),
        created_by: caller.principal.id,
      });
      const invariant = presentInvariant(row);
      emit({
        type: 'invariant.created',
        scope_id: scope.id,
        scope_ids: [scope.id],
        entity_type: 'invariant',
        entity_id: row.id,
        data: invariant,
      });
      return invariant;
    });
  }

  async getInvariant(caller: AuthenticatedIdentity, scopeId: string, id: string): Promise<Invariant> {
    const scope = await this.access.scope(caller, scopeId);
    const row = await this.repos.entries.findInvariant(caller.tenant_id, scope.id, id);
    if (!row) throw notFound('Invariant', id);
    return presentInvariant(row);
  }

  async listInvariants(
    caller: AuthenticatedIdentity,
    scopeId: string,
    q: PageQuery & { status?: 'active' | 'revoked' | 'all' },
  ): Promise<Page<Invariant>> {
    const scope = await this.access.scope(caller, scopeId);
    const { limit, after } = readPage(q);
    return toPage(
      await this.repos.entries.listInvariants(caller.tenant_id, scope.id, q.status ?? 'active', limit, after),
      limit,
      presentInvariant,
    );
  }

  /** DELETE revokes (soft delete); revoking a revoked invariant changes nothing and answers it as it is. */
  async revokeInvariant(caller: AuthenticatedIdentity, scopeId: string, id: string): Promise<Invariant> {
    const scope = await this.access.scope(caller, scopeId);
    return this.writer.write(caller.tenant_id, caller.principal.id, async (r, emit) => {
      if (!(await r.entries.findInvariant(caller.tenant_id, scope.id, id))) throw notFound('Invariant', id);
      const changed = await r.entries.revokeInvariant(caller.tenant_id, id, new Date(), caller.principal.id);
      const invariant = presentInvariant((await r.entries.findInvariant(caller.tenant_id, scope.id, id))!);
      if (changed)
        emit({
          type: 'invariant.revoked',
          scope_id: scope.id,
          scope_ids: [scope.id],
          entity_type: 'invariant',
          entity_id: id,
          data: invariant,
        });
      return invariant;
    });
  }
}
