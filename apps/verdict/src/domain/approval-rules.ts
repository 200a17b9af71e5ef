// Pure rules of verdict approvals (docs/approvals.md "Verdict approvals"): what an approval copies from its consultation, who may
// open and decide it, and what a grant may be. No I/O (tested in approval-rules.spec.ts).
import type { PrincipalInfo } from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import { parseIsoInstant } from '@arbiter/input';
import { isEscalationDecider, isExpired, namesPrincipal, type ApprovalTerms } from '@arbiter/policy';
import type { ConsultationRecord } from './consultation-record';
import type { Approval, ApprovalTriggerModel, DecisionBody, ScopeFieldValue } from '../models/approvals';

/**
 * The approval-requiring rules that fired. Records store them (`triggers`); for a record without
 * them the precedence trace says the same: entries of severity `approval` whose reason is `fires`.
 */
export function triggersOf(record: ConsultationRecord): ApprovalTriggerModel[] {
  if (Array.isArray(record.triggers) && record.triggers.length)
    return record.triggers.map((t) => ({ rule_id: t.rule_id, rule_version_id: t.rule_version_id, reason: t.reason }));
  return (record.precedence_trace ?? [])
    .filter((e) => e.severity === 'approval' && e.reason === 'fires')
    .map((e) => ({ rule_id: e.rule_id, rule_version_id: e.rule_version_id, reason: e.reason }));
}

/**
 * Only the principal that made the consultation opens its approval (docs/approvals.md "Who asks"): an
 * approval opened by anyone else would let a second principal stand in as the requester, and the
 * no-self-approval rule would then hold the wrong principal back.
 */
export function checkRequester(record: Pick<ConsultationRecord, 'id' | 'caller_principal_id'>, principalId: string): void {
  if (record.caller_principal_id === principalId) return;
  throw new AppError(
    403,
    'not_the_requester',
    `Only ${record.caller_principal_id}, the principal that made consultation ${record.id}, may request its approval`,
    {
      consultation_id: record.id,
      caller_principal_id: record.caller_principal_id,
    },
  );
}

/**
 * A new pending approval of an approval_required consultation (docs/verdicts.md "States and transitions"),
 * requested by its caller, with the terms its triggering rules set (libs/policy approvalTerms).
 */
export function newApproval(input: { id: string; record: ConsultationRecord; notes?: string; now: Date; terms: ApprovalTerms }): Approval {
  const { record } = input;
  return {
    id: input.id,
    tenant_id: record.tenant_id,
    status: 'pending',
    requester: record.caller_principal_id,
    requester_principal: record.on_behalf_of ?? record.caller_principal_id,
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
    approvals_required: input.terms.approvals_required,
    approvals: [],
    expires_at: input.terms.expires_at,
    escalates_at: input.terms.escalates_at,
    escalation_deciders: input.terms.escalation_deciders,
    decider: null,
    decision: null,
    decider_notes: null,
    decided_at: null,
  };
}

/**
 * The principals that asked for the operation and so never decide it: the consultation's caller and
 * the principal it acted for (`on_behalf_of`, authenticated or not), as the approval and the
 * consultation name them (an approval opened before only the caller could open one may name another
 * requester: it is held back too).
 */
export function askingPrincipals(
  approval: Pick<Approval, 'requester' | 'requester_principal'>,
  record?: Pick<ConsultationRecord, 'caller_principal_id' | 'on_behalf_of'> | null,
): Set<string> {
  const out = new Set([approval.requester, approval.requester_principal]);
  if (record) {
    out.add(record.caller_principal_id);
    if (record.on_behalf_of) out.add(record.on_behalf_of);
  }
  return out;
}

/**
 * docs/verdicts.md "Authentication": a principal decides when its id or one of its roles is in
 * candidate_deciders. An empty list (the triggering rules name no deciders) leaves the decision to
 * any principal holding `approve` or `admin` (the caller's permissions are checked before this). From
 * `escalates_at` on, a principal in `escalation_deciders` decides too. The principals that asked
 * (askingPrincipals) never decide, whatever their roles or permissions (docs/approvals.md).
 */
export function isValidDecider(
  approval: Pick<Approval, 'candidate_deciders' | 'requester' | 'requester_principal'> &
    Partial<Pick<Approval, 'escalates_at' | 'escalation_deciders'>>,
  principal: Pick<PrincipalInfo, 'id' | 'roles'>,
  asking: ReadonlySet<string> = askingPrincipals(approval),
  now: Date = new Date(),
): boolean {
  if (asking.has(principal.id)) return false;
  // From escalates_at on, the escalation deciders decide too (docs/approvals.md "Quorum, escalation and expiry").
  if (isEscalationDecider(approval, principal, now)) return true;
  if (!approval.candidate_deciders.length) return true;
  return namesPrincipal(approval.candidate_deciders, principal);
}

/**
 * The registry scopes of the triggering rules a scope-restricted key does not reach (docs/approvals.md
 * "Deciding"): empty when the key reaches every scope of the tenant, or every one of those scopes.
 * A trigger whose scope is unknown (null) is never covered by a restricted key.
 */
export function scopesNotCovered(keyScopeIds: readonly string[], triggerScopes: readonly (string | null)[]): string[] {
  if (keyScopeIds.length === 0) return [];
  const held = new Set(keyScopeIds);
  return [...new Set(triggerScopes.map((s) => s ?? 'unknown'))].filter((s) => !held.has(s)).sort();
}

export interface CheckedGrant {
  applies_to_scope: Record<string, ScopeFieldValue>;
  expires_at: string;
}

const isScopeValue = (v: unknown): v is ScopeFieldValue =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * The grant of a decision, checked and bounded (docs/approvals.md "Grants"): only with approve (400);
 * `applies_to_scope` an object of scope values (400) that holds every field of the approved
 * operation's scope with its value (422), so the grant covers at most operations in that scope
 * (absent: exactly that scope); `expires_at` an ISO 8601 timestamp (400) in the future and at most
 * `ttlSeconds` (APPROVAL_GRANT_TTL_SECONDS) after the decision (422; absent: that bound). A grant
 * that would name no scope field at all (the operation was checked with `scope: {}`) is refused (422).
 */
export function checkGrant(
  body: DecisionBody,
  approval: Pick<Approval, 'intended_scope'>,
  now: Date,
  ttlSeconds: number,
): CheckedGrant | null {
  if (!body.grant) return null;
  if (body.decision !== 'approve') throw new AppError(400, 'invalid_grant', 'A grant is only allowed with decision approve');
  const { applies_to_scope: raw, expires_at: expiresAt } = body.grant;
  const approved = approval.intended_scope ?? {};
  let scope: Record<string, ScopeFieldValue>;
  if (raw === undefined) scope = { ...approved };
  else {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw) || !Object.values(raw).every(isScopeValue)) {
      throw new AppError(400, 'invalid_grant', 'grant.applies_to_scope must be an object of scope fields', {
        field: 'grant.applies_to_scope',
      });
    }
    scope = raw;
    for (const [field, value] of Object.entries(approved)) {
      if (!Object.prototype.hasOwnProperty.call(scope, field) || scope[field] !== value) {
        throw new AppError(
          422,
          'invalid_grant',
          `grant.applies_to_scope must keep ${field}: ${JSON.stringify(value)} of the approved operation's scope: a grant covers at most that scope`,
          {
            field: 'grant.applies_to_scope',
            missing_field: field,
            approved_scope: approved,
          },
        );
      }
    }
  }
  // A grant names at least one scope field: one of `{}` would lift its rules for every operation
  // everywhere, so an approved operation that named no scope is approved once, not granted.
  if (Object.keys(scope).length === 0) {
    throw new AppError(
      422,
      'invalid_grant',
      'grant.applies_to_scope must name at least one scope field: the approved operation named none, so approve it without a grant (once)',
      { field: 'grant.applies_to_scope', approved_scope: approved },
    );
  }
  const latestMs = now.getTime() + ttlSeconds * 1000;
  let ms = latestMs;
  if (expiresAt !== undefined) {
    ms = parseIsoInstant(expiresAt) ?? NaN;
    if (Number.isNaN(ms))
      throw new AppError(400, 'invalid_grant', 'grant.expires_at must be an ISO 8601 timestamp with Z or an offset', {
        field: 'grant.expires_at',
      });
    if (ms <= now.getTime())
      throw new AppError(422, 'invalid_grant', 'grant.expires_at must be in the future', { field: 'grant.expires_at' });
    if (ms > latestMs) {
      const latest = new Date(latestMs).toISOString();
      throw new AppError(
        422,
        'invalid_grant',
        `grant.expires_at must be at most ${ttlSeconds} seconds after the decision (APPROVAL_GRANT_TTL_SECONDS): not after ${latest}`,
        {
          field: 'grant.expires_at',
          latest,
          max_seconds: ttlSeconds,
        },
      );
    }
  }
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
  if (input.grant)
    out.grants = [
      { override_id: input.grant.override_id, applies_to_scope: input.grant.applies_to_scope, expires_at: input.grant.expires_at },
    ];
  // Approved without a grant: the approved operation, once, by its requester, for a while (docs/approvals.md).
  out.authorizes_until =
    out.status === 'approved' && !input.grant ? new Date(input.now.getTime() + input.validitySeconds * 1000).toISOString() : null;
  out.consumed_by = null;
  out.consumed_at = null;
  return out;
}

/**
 * The approval as the API answers it at `now` (docs/approvals.md "Quorum, escalation and expiry"): an
 * approval stored before quorum and expiry existed gets their defaults (1, none given, requested_at +
 * `ttlSeconds`, no escalation), and a pending one at or after its expires_at is `expired`, whether or
 * not anything has stored that yet.
 */
export function approvalAt(stored: Approval, now: Date, ttlSeconds: number): Approval {
  const out: Approval = {
    ...stored,
    approvals_required: stored.approvals_required ?? 1,
    approvals: stored.approvals ?? [],
    expires_at: stored.expires_at ?? new Date(Date.parse(stored.requested_at) + ttlSeconds * 1000).toISOString(),
    escalates_at: stored.escalates_at ?? null,
    escalation_deciders: stored.escalation_deciders ?? [],
  };
  if (isExpired(out, now)) out.status = 'expired';
  return out;
}

/** 409 approval_expired: a decision on an approval past its expires_at. */
export const approvalExpired = (approval: Pick<Approval, 'id' | 'expires_at'>) =>
  new AppError(409, 'approval_expired', `Approval ${approval.id} expired at ${approval.expires_at}; request a new one`, {
    status: 'expired',
    expires_at: approval.expires_at,
  });

/**
 * One approving decision of a quorum: 409 already_approved_by_you when this decider approved before,
 * else the approval with it appended to `approvals`, naming the triggering rules it counts for (still
 * pending: the caller completes it with `decided` once every triggering rule has its own quorum).
 */
export function withApproval(approval: Approval, input: { decider: string; notes?: string; now: Date; ruleIds: string[] }): Approval {
  if (approval.approvals.some((a) => a.decider === input.decider)) {
    throw new AppError(
      409,
      'already_approved_by_you',
      `${input.decider} already approved ${approval.id}: a quorum needs distinct deciders`,
      {
        approvals: approval.approvals,
        approvals_required: approval.approvals_required,
      },
    );
  }
  return {
    ...approval,
    approvals: [
      ...approval.approvals,
      { decider: input.decider, decided_at: input.now.toISOString(), notes: input.notes ?? null, rule_ids: input.ruleIds },
    ],
  };
}

/** Whether the approvals given reach the quorum. */
export const quorumReached = (approval: Pick<Approval, 'approvals' | 'approvals_required'>) =>
  approval.approvals.length >= approval.approvals_required;

/**
 * The deciding principal with only the roles the tenant's state also gives it (all of its own when the state lacks
 * it): a role removed in the registry stops counting as soon as the gateway's state has it, whatever the key cache says.
 */
export function deciderAsStateSees<P extends { id: string; roles: string[] }>(
  principal: P,
  states: ReadonlyMap<string, { roles: string[] }>,
): P {
  const state = states.get(principal.id);
  return state ? { ...principal, roles: principal.roles.filter((r) => state.roles.includes(r)) } : principal;
}
