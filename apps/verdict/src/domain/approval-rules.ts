// Pure rules of verdict approvals (docs/approvals.md "Verdict approvals"): what an approval copies from its consultation, who may
// decide it, and what a grant may be. No I/O (tested in approval-rules.spec.ts).
import type { PrincipalInfo } from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import type { ConsultationRecord } from './consultation-record';
import type { Approval, ApprovalTriggerModel, DecisionBody, GrantRequestBody } from '../models/approvals';

/**
 * The approval-requiring rules that fired. Records store them (`triggers`); for a record without
 * them the precedence trace says the same: entries of severity `approval` whose reason is `fires`.
 */
export function triggersOf(record: ConsultationRecord): ApprovalTriggerModel[] {
  if (Array.isArray(record.triggers) && record.triggers.length) return record.triggers.map((t) => ({ rule_id: t.rule_id, rule_version_id: t.rule_version_id, reason: t.reason }));
  return (record.precedence_trace ?? [])
    .filter((e) => e.severity === 'approval' && e.reason === 'fires')
    .map((e) => ({ rule_id: e.rule_id, rule_version_id: e.rule_version_id, reason: e.reason }));
}

/** A new pending approval of an approval_required consultation (docs/verdicts.md "States and transitions"). */
export function newApproval(input: { id: string; record: ConsultationRecord; requester: string; notes?: string; now: Date }): Approval {
  const { record } = input;
  return {
    id: input.id,
    tenant_id: record.tenant_id,
    status: 'pending',
    requester: input.requester,
    requester_principal: record.on_behalf_of ?? input.requester,
    intended_action: record.action,
    intended_resource: record.resource,
    intended_parameters: record.parameters ?? {},
    intended_scope: record.scope_used ?? {},
    triggers: triggersOf(record),
    requester_notes: input.notes ?? null,
    requested_at: input.now.toISOString(),
    consultation_id: record.id,
    dominating_rule_id: record.dominating_rule_id ?? null,
    candidate_deciders: [...new Set(record.candidate_deciders ?? [])].sort(),
    decider: null,
    decision: null,
    decider_notes: null,
    decided_at: null,
  };
}

/**
 * docs/verdicts.md "Authentication": a principal decides when its id or one of its roles is in
 * candidate_deciders. An empty list (the triggering rules name no deciders) leaves the decision to
 * any principal holding `approve` or `admin` (the caller's permissions are checked before this). The
 * requester never decides its own approval, whatever its roles or permissions (docs/approvals.md).
 */
export function isValidDecider(approval: Pick<Approval, 'candidate_deciders' | 'requester'>, principal: Pick<PrincipalInfo, 'id' | 'roles'>): boolean {
  if (principal.id === approval.requester) return false;
  if (!approval.candidate_deciders.length) return true;
  const held = new Set([principal.id, ...(principal.roles ?? [])]);
  return approval.candidate_deciders.some((d) => held.has(d));
}

export interface CheckedGrant {
  applies_to_scope: GrantRequestBody['applies_to_scope'];
  expires_at: string;
}

/** The grant of a decision, checked: only with approve (400), a valid future expires_at (400 / 422). */
export function checkGrant(body: DecisionBody, now: Date): CheckedGrant | null {
  if (!body.grant) return null;
  if (body.decision !== 'approve') throw new AppError(400, 'invalid_grant', 'A grant is only allowed with decision approve');
  const { applies_to_scope: scope, expires_at: expiresAt } = body.grant;
  if (!scope || typeof scope !== 'object' || Array.isArray(scope) || !Object.values(scope).every((v) => ['string', 'number', 'boolean'].includes(typeof v))) {
    throw new AppError(400, 'invalid_grant', 'grant.applies_to_scope must be an object of scope fields');
  }
  const ms = typeof expiresAt === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(expiresAt) ? Date.parse(expiresAt) : NaN;
  if (Number.isNaN(ms)) throw new AppError(400, 'invalid_grant', 'grant.expires_at must be an ISO 8601 timestamp');
  if (ms <= now.getTime()) throw new AppError(422, 'invalid_grant', 'grant.expires_at must be in the future');
  return { applies_to_scope: scope, expires_at: new Date(ms).toISOString() };
}

/** The approval after its decision (docs/verdicts.md "Approval": decider, decision, decider_notes, decided_at, grants). */
export function decided(
  approval: Approval,
  input: { decider: string; body: DecisionBody; now: Date; grant?: { override_id: string } & CheckedGrant; validitySeconds: number },
): Approval {
  const out: Approval = {
    ...approval,
    status: input.body.decision === 'approve' ? 'approved' : 'rejected',
    decider: input.decider,
    decision: input.body.decision,
    decider_notes: input.body.decider_notes ?? null,
    decided_at: input.now.toISOString(),
  };
  if (input.grant) out.grants = [{ override_id: input.grant.override_id, applies_to_scope: input.grant.applies_to_scope, expires_at: input.grant.expires_at }];
  // Approved without a grant: the approved operation, once, by its requester, for a while (docs/approvals.md).
  out.authorizes_until = out.status === 'approved' && !input.grant ? new Date(input.now.getTime() + input.validitySeconds * 1000).toISOString() : null;
  out.consumed_by = null;
  out.consumed_at = null;
  return out;
}
