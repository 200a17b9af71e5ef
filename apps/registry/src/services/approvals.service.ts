import type { AuthenticatedIdentity, TenantId } from '@arbiter/auth';
import { approvalSealRow, newId } from '@arbiter/db';
import { AppError } from '@arbiter/http';
import { approvalTerms, isEscalationDecider, namesPrincipal } from '@arbiter/policy';
import { badRequest, notFound, unprocessable, conflict } from '../domain/errors';
import type { Approval, DecideApprovalBody, RequestApprovalBody } from '../models/approvals';
import type { Page } from '../models/identity';
import type { ApprovalFilter, ApprovalRow } from '../repositories/approvals.repository';
import type { InvariantRow } from '../repositories/entries.repository';
import type { RuleRow } from '../repositories/rules.repository';
import type { ScopeSelector } from '../models/common';
import { presentApproval, presentOverride } from '../presenters/registry';
import { readPage, toPage, type PageQuery } from '../domain/pagination';
import type { ScopeAccess } from './scope-access.service';
import type { ChangeWriter, Repos } from './changes.service';

type Trigger = { type: 'invariant'; row: InvariantRow } | { type: 'rule'; row: RuleRow };

export const alreadyDecided = (row: Pick<ApprovalRow, 'id' | 'status'>) =>
  new AppError(409, 'already_decided', `Approval ${row.id} is already decided (${row.status})`);

/**
 * Registry approvals (docs/approvals.md). Requesting writes
 * `approval.requested`; deciding writes `approval.resolved` and, when an approving decision meets
 * a trigger that requires approval, an `approval_grant` override (`override.created`) — all in
 * the decision's transaction, with their outbox rows, so subscribers hear of exactly what
 * committed. The grant is bounded: to the approval's scope (its selector), to at most
 * APPROVAL_GRANT_TTL_SECONDS, and to the authenticated decider as `approved_by`.
 */
export class ApprovalsService {
  constructor(
    private readonly repos: Repos,
    private readonly writer: ChangeWriter,
    private readonly access: ScopeAccess,
    private readonly grantTtlSeconds: number,
    /** APPROVAL_TTL_SECONDS: a pending approval expires this long after its request unless its rule sets approval_expires_after. */
    private readonly ttlSeconds: number,
    /** LEDGER_SEALING: each decision writes its seal_outbox row (docs/operations.md "Seal relay"). */
    private readonly sealing = true,
  ) {}

  async request(caller: AuthenticatedIdentity, scopeId: string, body: RequestApprovalBody): Promise<Approval> {
    const scope = await this.access.scope(caller, scopeId);
    const type = triggerTypeOf(body.trigger_id);
    if (!type) throw badRequest('trigger_id must be the id of an invariant (inv-) or a rule (rul-)');
    if (body.trigger_type !== undefined && body.trigger_type !== type)
      throw badRequest(`trigger_type ${body.trigger_type} does not match trigger_id ${body.trigger_id}`);
    return this.writer.write(caller.tenant_id, caller.principal.id, async (r, emit) => {
      const trigger = await findTrigger(r, caller.tenant_id, scope.id, type, body.trigger_id);
      if (trigger.row.status !== 'active')
        throw conflict(`${body.trigger_id} is ${trigger.row.status}; approvals are requested against active entries`);
      const now = new Date();
      // The rule's approval fields (an invariant: the defaults), frozen now (docs/approvals.md "Quorum, escalation and expiry").
      const terms = approvalTerms(
        trigger.type === 'rule' && trigger.row.current_version ? [trigger.row.current_version] : [],
        now,
        this.ttlSeconds,
      );
      const row = await r.approvals.create(caller.tenant_id, {
        id: newId('apr-'),
        scope_id: scope.id,
        trigger_id: body.trigger_id,
        trigger_type: type,
        trigger_version_id: trigger.type === 'rule' ? (trigger.row.current_version_id ?? null) : null,
        requires_approval: requiresApproval(trigger),
        intended_action: body.intended_action,
        justification: body.justification ?? null,
        requested_by: body.requested_by ?? caller.principal.id,
        requested_by_type: body.requested_by_type ?? caller.principal.kind,
        candidate_deciders: trigger.type === 'rule' ? (trigger.row.current_version?.deciders ?? []) : [],
        approvals_required: terms.approvals_required,
        expires_at: new Date(terms.expires_at),
        escalates_at: terms.escalates_at ? new Date(terms.escalates_at) : null,
        escalation_deciders: terms.escalation_deciders,
        // The terms count from the request's instant.
        created_at: now,
        updated_at: now,
        created_by: caller.principal.id,
      });
      const approval = presentApproval(row, { now, ttlSeconds: this.ttlSeconds });
      emit({
        type: 'approval.requested',
        scope_id: scope.id,
        scope_ids: [scope.id],
        entity_type: 'approval',
        entity_id: row.id,
        data: approval,
      });
      return approval;
    });
  }

  async get(caller: AuthenticatedIdentity, scopeId: string, id: string): Promise<Approval> {
    const scope = await this.access.scope(caller, scopeId);
    const row = await this.repos.approvals.find(caller.tenant_id, scope.id, id);
    if (!row) throw notFound('Approval', id);
    return presentApproval(row, { now: new Date(), ttlSeconds: this.ttlSeconds });
  }

  async list(caller: AuthenticatedIdentity, scopeId: string, q: PageQuery & ApprovalFilter): Promise<Page<Approval>> {
    const scope = await this.access.scope(caller, scopeId);
    const { limit, after } = readPage(q);
    const at = { now: new Date(), ttlSeconds: this.ttlSeconds };
    const rows = await this.repos.approvals.list(
      caller.tenant_id,
      scope.id,
      { status: q.status, trigger_id: q.trigger_id, requested_by: q.requested_by },
      limit,
      at,
      after,
    );
    return toPage(rows, limit, (row) => presentApproval(row, at));
  }

  /**
   * Decides once. Concurrent deciders serialise on the tenant's write lock and the UPDATE only
   * applies to a pending approval, so exactly one wins and the others get 409 already_decided.
   */
  async decide(caller: AuthenticatedIdentity, scopeId: string, id: string, body: DecideApprovalBody): Promise<Approval> {
    const scope = await this.access.scope(caller, scopeId);
    if (body.expires_at && body.decision !== 'approved') throw badRequest('expires_at applies only to an approving decision');
    if (body.expires_at && body.expires_at.getTime() <= Date.now()) throw unprocessable('expires_at must be in the future');
    const outcome = await this.writer.write(caller.tenant_id, caller.principal.id, async (r, emit): Promise<Approval> => {
      const row = await r.approvals.find(caller.tenant_id, scope.id, id);
      if (!row) throw notFound('Approval', id);
      const now = new Date();
      const at = { now, ttlSeconds: this.ttlSeconds };
      const current = presentApproval(row, at);
      /** The approval as stored now, announced with approval.resolved (decided, or its expiry stored). */
      const resolved = async (): Promise<Approval> => {
        const approval = presentApproval((await r.approvals.find(caller.tenant_id, scope.id, id))!, at);
        emit({
          type: 'approval.resolved',
          scope_id: scope.id,
          scope_ids: [scope.id],
          entity_type: 'approval',
          entity_id: id,
          data: approval,
        });
        return approval;
      };
      if (current.status === 'expired') {
        // Stored when first touched after expires_at, with its approval.resolved; answered 409 after the commit.
        if (row.status === 'pending' && (await r.approvals.expire(caller.tenant_id, id, now))) return resolved();
        return current;
      }
      if (row.status !== 'pending') throw alreadyDecided(row);
      // Four eyes by the authenticated principal that made the request (created_by), never by the
      // free-text requested_by, which anyone may fill with any name (docs/approvals.md).
      if (row.created_by === caller.principal.id) {
        throw new AppError(403, 'self_approval_forbidden', 'The principal that requested an approval cannot decide it');
      }
      const escalated = isEscalationDecider(current, caller.principal, now);
      if (!escalated && row.candidate_deciders.length && !namesPrincipal(row.candidate_deciders, caller.principal)) {
        throw new AppError(
          403,
          'not_a_valid_decider',
          `not_a_valid_decider: only ${row.candidate_deciders.join(', ')} may decide approval ${id}` +
            (current.escalates_at ? ` (and ${current.escalation_deciders.join(', ')} from ${current.escalates_at} on)` : ''),
        );
      }
      const latest = new Date(now.getTime() + this.grantTtlSeconds * 1000);
      // Fail closed: a decision may shorten the grant, never lengthen it past the configured bound.
      if (body.expires_at && body.expires_at.getTime() > latest.getTime()) {
        throw unprocessable(
          `expires_at must be at most ${this.grantTtlSeconds} seconds after the decision (APPROVAL_GRANT_TTL_SECONDS): not after ${latest.toISOString()}`,
        );
      }
      let approvals = current.approvals;
      if (body.decision === 'approved') {
        if (approvals.some((a) => a.decider === caller.principal.id))
          throw new AppError(
            409,
            'already_approved_by_you',
            `already_approved_by_you: ${caller.principal.id} already approved ${id}; a quorum needs ${current.approvals_required} distinct deciders`,
          );
        approvals = [...approvals, { decider: caller.principal.id, decided_at: now.toISOString(), notes: body.comment ?? null }];
        if (approvals.length < current.approvals_required) {
          if (body.expires_at)
            throw unprocessable(
              `expires_at is given by the approval that completes the quorum: approval ${id} needs ${current.approvals_required - approvals.length} more after this one`,
            );
          if (!(await r.approvals.recordApprovals(caller.tenant_id, id, approvals, now))) throw alreadyDecided({ id, status: 'decided' });
          return presentApproval((await r.approvals.find(caller.tenant_id, scope.id, id))!, at);
        }
      }
      const decided = await r.approvals.decide(caller.tenant_id, id, {
        status: body.decision,
        comment: body.comment ?? null,
        // A note only: who decided is decider_principal_id, the key's principal.
        decided_by: body.decided_by ?? caller.principal.id,
        decider_principal_id: caller.principal.id,
        decided_at: now,
        approvals,
      });
      if (!decided) throw alreadyDecided({ id, status: 'decided' });
      let overrideId: string | undefined;
      if (body.decision === 'approved') {
        // The trigger as it is now: an override only suspends an active entry that still requires approval, and a
        // rule only when it is still the version the approval was requested against (its terms were frozen from it).
        const trigger = await findTrigger(r, caller.tenant_id, scope.id, row.trigger_type as 'invariant' | 'rule', row.trigger_id).catch(
          () => null,
        );
        if (trigger && trigger.row.status === 'active' && requiresApproval(trigger) && !triggerChanged(trigger, row)) {
          const override = await r.overrides.create(caller.tenant_id, {
            id: newId('ovr-'),
            scope_id: scope.id,
            scope_ids: [scope.id],
            target_id: row.trigger_id,
            target_ids: [row.trigger_id],
            // A rule grant lifts the version approved here only: the rule changed later (made MANDATORY, say) is not lifted.
            target_version_ids: trigger.type === 'rule' && trigger.row.current_version_id ? [trigger.row.current_version_id] : [],
            target_type: row.trigger_type,
            override_type: 'approval_grant',
            justification: row.justification ?? `Approval ${id}: ${row.intended_action}`,
            conditions: null,
            approved_by: caller.principal.id,
            // Always the scope's selector, also when it is {}: the grant covers this scope only.
            // Read under the tenant's write lock, so a concurrent selector change cannot slip past.
            applies_to_scope: ((await r.scopes.find(caller.tenant_id, scope.id)) ?? scope).selector as ScopeSelector,
            expires_at: body.expires_at ?? latest,
            approval_id: id,
            consultation_id: null,
            created_by: caller.principal.id,
          });
          await r.approvals.attachOverride(caller.tenant_id, id, override.id);
          overrideId = override.id;
          emit({
            type: 'override.created',
            scope_id: scope.id,
            scope_ids: [scope.id],
            entity_type: 'override',
            entity_id: override.id,
            data: presentOverride(override, now),
          });
        }
      }
      if (this.sealing) {
        await r.seals.add(
          caller.tenant_id,
          approvalSealRow(caller.tenant_id, {
            approval_id: id,
            kind: 'registry',
            decision: body.decision,
            decider: caller.principal.id,
            decided_at: now.toISOString(),
            override_id: overrideId,
          }),
        );
      }
      return resolved();
    });
    if (outcome.status === 'expired') throw approvalExpired(outcome);
    return outcome;
  }
}

/** 409 approval_expired (docs/approvals.md "Quorum, escalation and expiry"). */
const approvalExpired = (a: Pick<Approval, 'id' | 'expires_at'>) =>
  new AppError(409, 'approval_expired', `approval_expired: approval ${a.id} expired at ${a.expires_at}; request a new one`);

function triggerTypeOf(id: string): 'invariant' | 'rule' | null {
  return id.startsWith('inv-') ? 'invariant' : id.startsWith('rul-') ? 'rule' : null;
}

async function findTrigger(r: Repos, tenantId: TenantId, scopeId: string, type: 'invariant' | 'rule', id: string): Promise<Trigger> {
  if (type === 'invariant') {
    const row = await r.entries.findInvariant(tenantId, scopeId, id);
    if (!row) throw notFound('Invariant', id);
    return { type, row };
  }
  const row = await r.rules.find(tenantId, scopeId, id);
  if (!row) throw notFound('Rule', id);
  return { type, row };
}

/**
 * Whether a rule trigger changed since the approval was requested (docs/approvals.md "Decide"): its current version
 * is not the one the approval was requested against. The approval's deciders, quorum and whether approval was
 * required at all were frozen from that version, and its decision keeps to them; but an override made now would lift
 * the rule as it is (since reserved to others, made stricter, or made to require approval only after the request), so
 * none is made. An invariant has no versions: it only changes by being revoked, and a revoked trigger gets no override
 * anyway.
 */
function triggerChanged(t: Trigger, approval: { trigger_version_id: string | null }): boolean {
  return t.type === 'rule' && t.row.current_version_id !== approval.trigger_version_id;
}

/** docs/approvals.md: an invariant with requires_approval, or a rule of severity REQUIRES_APPROVAL. */
function requiresApproval(t: Trigger): boolean {
  return t.type === 'invariant' ? t.row.requires_approval : t.row.current_version?.severity === 'REQUIRES_APPROVAL';
}
