// The approval fields of a rule (docs/approvals.md "Quorum, escalation and expiry"): how they are checked
// on a rule, how several triggering rules combine into the terms an approval freezes when it is opened
// (the strictest wins), and what those terms mean at a given instant (expired, escalated). Pure: the
// registry's rule checks, both approval flows and the CLI's rules files use these.

/** The bounds of the approval fields. */
export const APPROVAL_FIELD_LIMITS = Object.freeze({
  approvalsRequired: { min: 1, max: 20 },
  escalateAfter: { min: 60, max: 31_536_000 },
  approvalExpiresAfter: { min: 60, max: 31_536_000 },
  escalationDeciders: 100,
});

/** The approval fields as a rule body may hold them (absent and null mean "not set"). */
export interface ApprovalFieldsInput {
  severity?: string;
  approvals_required?: number | null;
  escalate_after?: number | null;
  escalation_deciders?: readonly string[] | null;
  approval_expires_after?: number | null;
}

/** The approval fields as a rule version stores them (null: not set; escalation_deciders empty when none). */
export interface ApprovalFields {
  approvals_required: number | null;
  escalate_after: number | null;
  escalation_deciders: string[];
  approval_expires_after: number | null;
}

/** The severity whose rules lead to an approval (verdict `approval_required`). */
export const APPROVAL_SEVERITY = 'REQUIRES_APPROVAL';

const DECIDER_ID = /^(agn-[0-9a-f]{24}|hum-[0-9a-f]{24}|role-[a-z0-9][a-z0-9_.-]{0,62})$/;

/** Absent, null and (for escalation_deciders) an empty list all mean "not set", as a rule version stores it. */
const isSet = (v: unknown) => v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0);

function integerProblem(name: string, v: unknown, min: number, max?: number): string | null {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || (max !== undefined && v > max))
    return max === undefined ? `${name}: an integer of at least ${min}` : `${name}: an integer from ${min} to ${max}`;
  return null;
}

/**
 * Every problem of a rule's approval fields, each naming its field. The fields only mean something on
 * a rule that leads to an approval (severity REQUIRES_APPROVAL): on any other rule each one set is a
 * problem (fail closed: an author who believes a quorum guards a blocking rule is told it does not).
 * `escalation_deciders` needs `escalate_after` and the other way round. Every number is bounded (one year at
 * most), and `escalate_after` comes before the rule's own `approval_expires_after`: an approval expired first
 * never escalates, so such a rule would promise an escalation that cannot happen.
 */
export function approvalFieldProblems(rule: ApprovalFieldsInput): string[] {
  const problems: string[] = [];
  const names = ['approvals_required', 'escalate_after', 'escalation_deciders', 'approval_expires_after'] as const;
  const set = names.filter((n) => isSet(rule[n]));
  if (rule.severity !== undefined && rule.severity !== APPROVAL_SEVERITY) {
    for (const n of set) problems.push(`${n}: only a rule of severity ${APPROVAL_SEVERITY} leads to an approval; ${n} is not allowed here`);
    return problems;
  }
  const { min: qMin, max: qMax } = APPROVAL_FIELD_LIMITS.approvalsRequired;
  const { min: eMin, max: eMax } = APPROVAL_FIELD_LIMITS.approvalExpiresAfter;
  const push = (p: string | null) => p && problems.push(p);
  if (isSet(rule.approvals_required)) push(integerProblem('approvals_required', rule.approvals_required, qMin, qMax));
  const { min: sMin, max: sMax } = APPROVAL_FIELD_LIMITS.escalateAfter;
  const escalationProblem = isSet(rule.escalate_after) ? integerProblem('escalate_after', rule.escalate_after, sMin, sMax) : null;
  const expiryProblem = isSet(rule.approval_expires_after)
    ? integerProblem('approval_expires_after', rule.approval_expires_after, eMin, eMax)
    : null;
  push(escalationProblem);
  push(expiryProblem);
  if (isSet(rule.escalate_after) && isSet(rule.approval_expires_after) && !escalationProblem && !expiryProblem)
    if ((rule.escalate_after as number) >= (rule.approval_expires_after as number))
      problems.push(
        `escalate_after: must be less than approval_expires_after (${rule.approval_expires_after}): the approval would expire before it escalates`,
      );
  const deciders = rule.escalation_deciders;
  if (isSet(deciders)) {
    if (!Array.isArray(deciders))
      problems.push('escalation_deciders: a list of at least one principal id (agn-…, hum-…) or role id (role-<name>)');
    else if (deciders.length > APPROVAL_FIELD_LIMITS.escalationDeciders)
      problems.push(`escalation_deciders: at most ${APPROVAL_FIELD_LIMITS.escalationDeciders} entries`);
    else
      deciders.forEach((d, i) => {
        if (typeof d !== 'string' || !DECIDER_ID.test(d))
          problems.push(`escalation_deciders[${i}]: a principal id (agn-…, hum-…) or a role id (role-<name>)`);
      });
    if (!isSet(rule.escalate_after)) problems.push('escalation_deciders: only together with escalate_after');
  } else if (isSet(rule.escalate_after)) problems.push('escalate_after: needs escalation_deciders (at least one)');
  return problems;
}

/** The stored form of a body's approval fields (defaults: not set; deciders each listed once). */
export function approvalFields(rule: ApprovalFieldsInput): ApprovalFields {
  return {
    approvals_required: rule.approvals_required ?? null,
    escalate_after: rule.escalate_after ?? null,
    escalation_deciders: [...new Set(rule.escalation_deciders ?? [])],
    approval_expires_after: rule.approval_expires_after ?? null,
  };
}

/** What an approval freezes when it is opened (the approval resources of docs/approvals.md). */
export interface ApprovalTerms {
  approvals_required: number;
  /** ISO 8601 */
  expires_at: string;
  /** ISO 8601, or null when no triggering rule escalates. */
  escalates_at: string | null;
  /** Sorted, each once; empty when no triggering rule escalates. */
  escalation_deciders: string[];
}

/**
 * The terms of an approval opened at `requestedAt` by these triggering rules (none: an invariant, or a
 * rule that cannot be read, gets the defaults). The strictest wins: the largest approvals_required
 * (default 1), the earliest expiry (default `defaultTtlSeconds`, APPROVAL_TTL_SECONDS) and the earliest
 * escalation, with the union of every escalating rule's deciders.
 */
export function approvalTerms(rules: readonly Partial<ApprovalFields>[], requestedAt: Date, defaultTtlSeconds: number): ApprovalTerms {
  const at = (seconds: number) => new Date(requestedAt.getTime() + seconds * 1000).toISOString();
  const expiries = rules.map((r) => r.approval_expires_after).filter((s): s is number => typeof s === 'number');
  const escalating = rules.filter((r) => typeof r.escalate_after === 'number' && (r.escalation_deciders ?? []).length > 0);
  return {
    approvals_required: Math.max(1, ...rules.map((r) => r.approvals_required ?? 1)),
    expires_at: at(expiries.length ? Math.min(...expiries) : defaultTtlSeconds),
    escalates_at: escalating.length ? at(Math.min(...escalating.map((r) => r.escalate_after!))) : null,
    escalation_deciders: [...new Set(escalating.flatMap((r) => r.escalation_deciders ?? []))].sort(),
  };
}

/** At or after `expires_at` a pending approval is expired (it is answered so even before anything stores it). */
export function isExpired(approval: { status: string; expires_at?: string | null }, now: Date): boolean {
  if (approval.status === 'expired') return true;
  if (approval.status !== 'pending' || !approval.expires_at) return false;
  return now.getTime() >= Date.parse(approval.expires_at);
}

/** Whether a list of deciders names the principal, by its id or by one of its roles. */
export function namesPrincipal(deciders: readonly string[], principal: { id: string; roles?: readonly string[] | null }): boolean {
  const held = new Set([principal.id, ...(principal.roles ?? [])]);
  return deciders.some((d) => held.has(d));
}

/**
 * Whether a principal may decide by escalation: from `escalates_at` on, a principal listed in
 * `escalation_deciders` by id or by one of its roles.
 */
export function isEscalationDecider(
  approval: { escalates_at?: string | null; escalation_deciders?: readonly string[] | null },
  principal: { id: string; roles?: readonly string[] | null },
  now: Date,
): boolean {
  if (!approval.escalates_at || !approval.escalation_deciders?.length) return false;
  if (now.getTime() < Date.parse(approval.escalates_at)) return false;
  return namesPrincipal(approval.escalation_deciders, principal);
}

/**
 * What one triggering rule of a verdict approval asks of its deciders (docs/approvals.md "Several rules"), read from
 * its rule version: who decides (`deciders`; empty: any principal holding `approve`), how many distinct approvals it
 * needs, and from when (`escalates_at_ms`, null without escalation) its escalation deciders may step in.
 */
export interface TriggerTerms {
  rule_id: string;
  deciders: readonly string[];
  approvals_required: number;
  escalates_at_ms: number | null;
  escalation_deciders: readonly string[];
}

/** A triggering rule version as the approvals read it: its approval fields and deciders (absent: the defaults). */
export type TriggerVersion = Partial<ApprovalFields> & { deciders?: readonly string[] | null };

/**
 * Each triggering rule's terms from its version, in trigger order. A rule's escalation comes at its own
 * `escalate_after`, counted like the approval's frozen `escalates_at` (the earliest of the rules'): that instant plus
 * the rule's delay beyond the earliest one. A version that is not known (null) keeps `fallback` (the approval's own
 * candidate deciders and quorum, no escalation).
 */
export function triggerTerms(
  approval: { escalates_at: string | null; triggers: readonly { rule_id: string }[] },
  versions: readonly (TriggerVersion | null)[],
  fallback: { deciders: readonly string[]; approvals_required: number },
): TriggerTerms[] {
  const escalating = (v: TriggerVersion | null) =>
    v !== null && typeof v.escalate_after === 'number' && (v.escalation_deciders ?? []).length > 0;
  const delays = versions.filter(escalating).map((v) => v!.escalate_after as number);
  const start = approval.escalates_at === null ? NaN : Date.parse(approval.escalates_at);
  return approval.triggers.map((t, i) => {
    const v = versions[i] ?? null;
    if (v === null) return { rule_id: t.rule_id, ...fallback, escalates_at_ms: null, escalation_deciders: [] };
    return {
      rule_id: t.rule_id,
      deciders: v.deciders ?? [],
      approvals_required: Math.max(1, v.approvals_required ?? 1),
      escalates_at_ms: escalating(v) && Number.isFinite(start) ? start + ((v.escalate_after as number) - Math.min(...delays)) * 1000 : null,
      escalation_deciders: v.escalation_deciders ?? [],
    };
  });
}

/**
 * The triggering rules an approval by `principal` at `now` counts for: those that list it (by id or one of its
 * roles) among their deciders, those that list none, and those whose own escalation time has come and that list it
 * among their escalation deciders. Each rule keeps its own deciders: a principal one rule trusts does not approve
 * for another rule that reserved its approval to someone else (fail closed).
 */
export function rulesCountedFor(
  triggers: readonly TriggerTerms[],
  principal: { id: string; roles?: readonly string[] | null },
  now: Date,
): string[] {
  const listed = (ids: readonly string[]) => namesPrincipal(ids, principal);
  return triggers
    .filter(
      (t) =>
        t.deciders.length === 0 ||
        listed(t.deciders) ||
        (t.escalates_at_ms !== null && now.getTime() >= t.escalates_at_ms && listed(t.escalation_deciders)),
    )
    .map((t) => t.rule_id);
}

/**
 * The triggering rules still short of their own quorum: fewer than their `approvals_required` distinct approvals that
 * count for them. An approval given before approvals named the rules they count for (no `rule_ids`) counts for every
 * rule, as it did when it was given.
 */
export function rulesAwaitingApproval(
  triggers: readonly TriggerTerms[],
  approvals: readonly { decider: string; rule_ids?: readonly string[] | null }[],
): string[] {
  return triggers
    .filter(
      (t) =>
        new Set(approvals.filter((a) => !a.rule_ids || a.rule_ids.includes(t.rule_id)).map((a) => a.decider)).size < t.approvals_required,
    )
    .map((t) => t.rule_id);
}
