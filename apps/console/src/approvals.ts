// Approvals of both flows as the console shows them (docs/console.md "The inbox"): one shape for a verdict approval
// (`/<tenant>/v1/approvals`) and a registry approval (`/api/v1/scopes/<s>/approvals`), and the rule that decides
// which of them the signed-in person may decide. Pure: no fetch, no DOM.
import type { Approval, RegistryApproval as RegistryApprovalModel } from '@arbiter/client';
import { isCommitment } from '@arbiter/client/browser';
import type { Session } from './session';

export type Flow = 'verdict' | 'registry';

export interface QuorumApproval {
  decider: string;
  decided_at: string;
  notes: string | null;
}

/** The two services' approvals as the SDK types them (docs/approvals.md). */
export type VerdictApproval = Approval;
export type RegistryApproval = RegistryApprovalModel;

export interface RuleRef {
  id: string;
  /** The rule's directive or the invariant's constraint; null until looked up when the approval does not carry it. */
  statement: string | null;
  kind: 'rule' | 'invariant';
}

/** One approval of either flow, everything the inbox, the approval page and the history show. */
export interface ApprovalView {
  flow: Flow;
  id: string;
  /** The registry scope (registry flow), null for a verdict approval. */
  scopeId: string | null;
  status: string;
  action: string;
  /** The verdict flow's intended_resource; null for the registry flow (it has none). */
  resource: string | null;
  /** The verdict flow's intended_scope (operation scope fields); null for the registry flow. */
  operationScope: Record<string, unknown> | null;
  /** The verdict flow's intended_parameters; null for the registry flow. */
  parameters: Record<string, unknown> | null;
  rules: RuleRef[];
  /** The principal that asked (verdict `requester`, registry `created_by`). */
  requester: string | null;
  /** The verdict flow's requester_principal (on_behalf_of), the registry's free-text requested_by. */
  onBehalfOf: string | null;
  requesterNotes: string | null;
  requestedAt: string;
  consultationId: string | null;
  candidateDeciders: string[];
  approvalsRequired: number | null;
  approvals: QuorumApproval[];
  expiresAt: string | null;
  escalatesAt: string | null;
  escalationDeciders: string[];
  decider: string | null;
  decision: string | null;
  deciderNotes: string | null;
  decidedAt: string | null;
  /** What approving produced: grant overrides (verdict), the override (registry), or a one-shot window. */
  outcome: string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const quorum = (v: unknown): QuorumApproval[] =>
  Array.isArray(v)
    ? v
        .filter((a) => a && typeof a === 'object' && typeof a.decider === 'string')
        .map((a) => ({ decider: a.decider, decided_at: String(a.decided_at ?? ''), notes: str(a.notes) }))
    : [];
const required = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : null);
const record = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** What the inbox shows in place of a sensitive value's commitment (docs/verdicts.md "Sensitive fields"). */
export const MASKED = '‹sensitive›';

/** The parameters with each commitment shown as MASKED: a decider sees which fields are sensitive, never a hash to compare. */
export function masked(v: unknown): unknown {
  if (isCommitment(v)) return MASKED;
  if (Array.isArray(v)) return v.map(masked);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, masked(x)]));
  return v;
}

export function fromVerdict(a: VerdictApproval): ApprovalView {
  const triggers = Array.isArray(a.triggers) ? a.triggers : [];
  const grants = Array.isArray(a.grants) ? a.grants : [];
  return {
    flow: 'verdict',
    id: a.id,
    scopeId: null,
    status: a.status,
    action: String(a.intended_action ?? ''),
    resource: str(a.intended_resource),
    operationScope: record(a.intended_scope),
    parameters: record(masked(a.intended_parameters)),
    // A trigger's reason is the rule's statement as it fired; older records say only `fires` (then the registry's is shown).
    rules: triggers.map((t) => ({
      id: String(t.rule_id),
      statement: t.reason && t.reason !== 'fires' ? String(t.reason) : null,
      kind: 'rule' as const,
    })),
    requester: str(a.requester),
    onBehalfOf: str(a.requester_principal),
    requesterNotes: str(a.requester_notes),
    requestedAt: a.requested_at,
    consultationId: str(a.consultation_id),
    candidateDeciders: strings(a.candidate_deciders),
    approvalsRequired: required(a.approvals_required),
    approvals: quorum(a.approvals),
    expiresAt: str(a.expires_at),
    escalatesAt: str(a.escalates_at),
    escalationDeciders: strings(a.escalation_deciders),
    decider: str(a.decider),
    decision: str(a.decision),
    deciderNotes: str(a.decider_notes),
    decidedAt: str(a.decided_at),
    outcome: grants.length
      ? `Grant ${grants.map((g) => `${g.override_id} until ${g.expires_at}`).join(', ')}`
      : a.authorizes_until
        ? `The requester's next check of exactly this operation is allowed once, until ${a.authorizes_until}`
        : null,
  };
}

export function fromRegistry(a: RegistryApproval): ApprovalView {
  return {
    flow: 'registry',
    id: a.id,
    scopeId: a.scope_id,
    status: a.status,
    action: String(a.intended_action ?? ''),
    resource: null,
    operationScope: null,
    parameters: null,
    rules: [{ id: String(a.trigger_id), statement: null, kind: a.trigger_type === 'invariant' ? 'invariant' : 'rule' }],
    requester: str(a.created_by),
    onBehalfOf: str(a.requested_by),
    requesterNotes: str(a.justification),
    requestedAt: a.created_at,
    consultationId: null,
    candidateDeciders: strings(a.candidate_deciders),
    approvalsRequired: required(a.approvals_required),
    approvals: quorum(a.approvals),
    expiresAt: str(a.expires_at),
    escalatesAt: str(a.escalates_at),
    escalationDeciders: strings(a.escalation_deciders),
    decider: str(a.decider_principal_id),
    decision: str(a.decision),
    deciderNotes: str(a.comment),
    decidedAt: str(a.decided_at),
    outcome: a.override_id ? `Override ${a.override_id}` : null,
  };
}

/** Permissions that decide approvals (docs/approvals.md "Deciding"). */
const DECIDING_PERMISSIONS = ['approve', 'admin', 'platform_admin'];

export function holdsApprove(session: Pick<Session, 'permissions'>): boolean {
  return session.permissions.some((p) => DECIDING_PERMISSIONS.includes(p));
}

/** Whether `entries` (principal and `role-` ids) name this principal or one of its roles. */
function names(entries: string[], principal: Session['principal']): boolean {
  return entries.includes(principal.id) || principal.roles.some((role) => entries.includes(role));
}

export type DecideVerdict = { may: true } | { may: false; reason: string };

/**
 * Whether the signed-in person may decide the approval now (what the inbox lists, what the approval page offers).
 * The server decides for real; this only keeps the inbox to what the person can act on, and errs towards hiding:
 * a pending approval, not expired, a deciding permission, not the principal that asked nor the one it acted for, not
 * already among the approvals given, and named by candidate_deciders (or none named), or by escalation_deciders once
 * escalates_at has passed. Pure.
 */
export function mayDecide(view: ApprovalView, session: Pick<Session, 'principal' | 'permissions'>, now: Date): DecideVerdict {
  const me = session.principal;
  if (view.status !== 'pending') return { may: false, reason: `it is ${view.status}` };
  if (view.expiresAt && !(Date.parse(view.expiresAt) > now.getTime())) return { may: false, reason: 'it has expired' };
  if (!holdsApprove(session)) return { may: false, reason: 'your console permissions do not include approve' };
  if (view.requester === me.id) return { may: false, reason: 'you requested it' };
  if (view.flow === 'verdict' && view.onBehalfOf === me.id) return { may: false, reason: 'it was requested on your behalf' };
  if (view.approvals.some((a) => a.decider === me.id)) return { may: false, reason: 'you have already approved it' };
  if (view.candidateDeciders.length === 0 || names(view.candidateDeciders, me)) return { may: true };
  const escalated = view.escalatesAt !== null && Date.parse(view.escalatesAt) <= now.getTime();
  if (escalated && names(view.escalationDeciders, me)) return { may: true };
  return { may: false, reason: 'you are not among its deciders' };
}

/** Newest first by the given timestamp; ties by id for a stable order. Pure. */
export function newestFirst<T extends ApprovalView>(items: T[], at: (v: T) => string | null): T[] {
  return [...items].sort((a, b) => (Date.parse(at(b) ?? '') || 0) - (Date.parse(at(a) ?? '') || 0) || a.id.localeCompare(b.id));
}

/** "3 h 5 min", "42 s": a duration between two instants for age and expiry. Pure. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/**
 * The quorum line: "1 of 2 approvals", or null when the approval has no quorum fields. A pending approval that holds
 * as many approvals as its largest quorum still waits for the deciders of another triggering rule (each rule is
 * approved by its own deciders, docs/approvals.md "Several rules"), and the line says so. Pure.
 */
export function quorumState(view: ApprovalView): string | null {
  if (view.approvalsRequired === null) return null;
  const line = `${view.approvals.length} of ${view.approvalsRequired} approval${view.approvalsRequired === 1 ? '' : 's'}`;
  return view.status === 'pending' && view.approvals.length >= view.approvalsRequired
    ? `${line}; waiting for the deciders of another triggering rule`
    : line;
}

/** The console path of an approval. Pure. */
export function approvalPath(view: Pick<ApprovalView, 'flow' | 'id' | 'scopeId'>): string {
  const e = encodeURIComponent;
  return view.flow === 'verdict'
    ? `/console/approvals/verdict/${e(view.id)}`
    : `/console/approvals/registry/${e(view.scopeId ?? '')}/${e(view.id)}`;
}
