import type { Decision, Invariant } from '../models/entries';
import type { Namespace } from '../models/namespaces';
import type { Override } from '../models/overrides';
import type { Link, Reference } from '../models/links';
import type { DeliveredEvent, RegistryEvent } from '../models/events';
import type { Rule, RuleContent, RuleVersion } from '../models/rules';
import type { Scope } from '../models/scopes';
import type { AuthorType, EntryType, ScopeSelector } from '../models/common';
import type { DecisionRow, InvariantRow } from '../repositories/entries.repository';
import type { RuleRow, RuleVersionRow } from '../repositories/rules.repository';
import type { OverrideRow } from '../repositories/overrides.repository';
import type { LinkRow } from '../repositories/links.repository';
import type { ReferenceRow } from '../repositories/references.repository';
import type { EventRow } from '../repositories/events.repository';
import type { NamespaceRow, ScopeRow } from '../repositories/scopes.repository';
import type { Approval } from '../models/approvals';
import type { ApprovalRow } from '../repositories/approvals.repository';
import type { WebhookAttempt, WebhookDelivery, WebhookSubscription } from '../models/webhooks';
import type { SubscriptionRow } from '../repositories/webhooks.repository';
import type { AttemptRow, DeliveryWithAttempts } from '../repositories/deliveries.repository';
import { overrideStatus } from '../domain/override-status';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function server(row: { tenant_id: string; created_at: Date; updated_at: Date; created_by: string | null }, version = 1) {
  return {
    tenant_id: row.tenant_id,
    version,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    created_by: row.created_by,
  };
}

export function presentScope(row: ScopeRow): Scope {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    selector: row.selector as ScopeSelector,
    status: 'active',
    ...server(row, row.version),
  };
}

export function presentNamespace(row: NamespaceRow): Namespace {
  return {
    id: row.id,
    scope_id: row.scope_id,
    path: row.path,
    name: row.name,
    parent_id: row.parent_id,
    depth: row.depth,
    description: row.description,
    status: 'active',
    ...server(row),
  };
}

export function presentDecision(row: DecisionRow): Decision {
  return {
    id: row.id,
    scope_id: row.scope_id,
    decision: row.decision,
    context: row.context,
    reasoning: row.reasoning,
    author: row.author,
    author_type: row.author_type as AuthorType,
    tags: row.tags,
    namespace: row.namespace,
    status: 'active',
    ...server(row),
  };
}

export function presentInvariant(row: InvariantRow): Invariant {
  return {
    id: row.id,
    scope_id: row.scope_id,
    constraint: row.constraint,
    rationale: row.rationale,
    requires_approval: row.requires_approval,
    author: row.author,
    author_type: row.author_type as AuthorType,
    status: row.status as Invariant['status'],
    revoked_at: iso(row.revoked_at),
    ...server(row),
  };
}

export function ruleContent(v: RuleVersionRow): RuleContent {
  return {
    directive: v.directive,
    severity: v.severity as RuleContent['severity'],
    verdict: v.verdict,
    applies_to: (v.applies_to ?? null) as RuleContent['applies_to'],
    conditions: v.conditions as unknown as RuleContent['conditions'],
    condition_mode: v.condition_mode as RuleContent['condition_mode'],
    requires: v.requires as unknown as RuleContent['requires'],
    deciders: v.deciders,
    priority: v.priority,
    mode: v.mode as RuleContent['mode'],
    approvals_required: v.approvals_required,
    escalate_after: v.escalate_after,
    escalation_deciders: v.escalation_deciders,
    approval_expires_after: v.approval_expires_after,
    limit: (v.limit ?? null) as RuleContent['limit'],
    requires_prior: (v.requires_prior ?? null) as RuleContent['requires_prior'],
    author: v.author,
    author_type: v.author_type as AuthorType,
  };
}

export function presentRule(row: RuleRow): Rule {
  const v = row.current_version;
  // A rule is created with its first version in one transaction, so a committed rule always has one.
  if (!v) throw new Error(`rule ${row.id} has no current version`);
  return {
    id: row.id,
    scope_id: row.scope_id,
    status: row.status as Rule['status'],
    current_version_id: v.id,
    ...ruleContent(v),
    archived_at: iso(row.archived_at),
    ...server(row, row.version),
  };
}

export function presentRuleVersion(v: RuleVersionRow, currentVersionId: string | null): RuleVersion {
  return {
    id: v.id,
    rule_id: v.rule_id,
    scope_id: v.scope_id,
    status: v.id === currentVersionId ? 'current' : 'superseded',
    ...ruleContent(v),
    tenant_id: v.tenant_id,
    version: v.version,
    created_at: v.created_at.toISOString(),
    updated_at: v.created_at.toISOString(),
    created_by: v.created_by,
  };
}

export function presentOverride(row: OverrideRow, now: Date): Override {
  return {
    id: row.id,
    scope_id: row.scope_id,
    scope_ids: row.scope_ids,
    target_id: row.target_id,
    target_ids: row.target_ids,
    ...(row.target_version_ids.length ? { target_version_ids: row.target_version_ids } : {}),
    target_type: row.target_type as Override['target_type'],
    override_type: row.override_type as Override['override_type'],
    justification: row.justification,
    conditions: row.conditions,
    conditions_error: row.conditions_error,
    approved_by: row.approved_by,
    applies_to_scope: (row.applies_to_scope ?? null) as ScopeSelector | null,
    expires_at: iso(row.expires_at),
    revoked_at: iso(row.revoked_at),
    status: overrideStatus(row, now),
    approval_id: row.approval_id,
    consultation_id: row.consultation_id,
    ...server(row),
  };
}

export function presentReference(row: ReferenceRow): Reference {
  return {
    id: row.id,
    scope_id: row.scope_id,
    entry_id: row.entry_id,
    entry_type: row.entry_type as EntryType,
    context_type: row.context_type,
    context_ref: row.context_ref,
    status: row.status as Reference['status'],
    reason: row.reason,
    author: row.author,
    author_type: row.author_type as AuthorType,
    ...server(row),
  };
}

export function presentLink(row: LinkRow): Link {
  return {
    id: row.id,
    from_id: row.from_id,
    from_type: row.from_type as EntryType,
    from_scope_id: row.from_scope_id,
    to_id: row.to_id,
    to_type: row.to_type as EntryType,
    to_scope_id: row.to_scope_id,
    relation: row.relation as Link['relation'],
    status: 'active',
    ...server(row),
  };
}

export function presentEvent(row: EventRow): RegistryEvent {
  return {
    id: row.id,
    type: row.type,
    scope_id: row.scope_id,
    scope_ids: row.scope_ids,
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    source: row.source as RegistryEvent['source'],
    actor_id: row.actor_id,
    created_at: row.created_at.toISOString(),
    data: row.data as RegistryEvent['data'],
  };
}

/** A delivery's body: the event bound to its tenant and subscription (docs/webhooks.md "A delivery"). */
export function presentDeliveredEvent(row: EventRow, subscriptionId: string): DeliveredEvent {
  return { ...presentEvent(row), tenant_id: row.tenant_id, subscription_id: subscriptionId };
}

/**
 * A registry approval as the API answers it at `at.now`: a pending one at or after its expiry is
 * `expired` (docs/approvals.md "Quorum, escalation and expiry"), stored or not; a row requested before
 * expiry existed expires `at.ttlSeconds` (APPROVAL_TTL_SECONDS) after its request.
 */
export function presentApproval(row: ApprovalRow, at: { now: Date; ttlSeconds: number }): Approval {
  const expiresAt = row.expires_at ?? new Date(row.created_at.getTime() + at.ttlSeconds * 1000);
  const expired = row.status === 'expired' || (row.status === 'pending' && at.now.getTime() >= expiresAt.getTime());
  return {
    id: row.id,
    scope_id: row.scope_id,
    trigger_id: row.trigger_id,
    trigger_type: row.trigger_type as Approval['trigger_type'],
    trigger_version_id: row.trigger_version_id,
    requires_approval: row.requires_approval,
    intended_action: row.intended_action,
    justification: row.justification,
    requested_by: row.requested_by,
    requested_by_type: row.requested_by_type as AuthorType,
    candidate_deciders: row.candidate_deciders,
    status: expired ? 'expired' : (row.status as Approval['status']),
    approvals_required: row.approvals_required,
    approvals: (row.approvals ?? []) as unknown as Approval['approvals'],
    expires_at: expiresAt.toISOString(),
    escalates_at: iso(row.escalates_at),
    escalation_deciders: row.escalation_deciders,
    decision: row.decision as Approval['decision'],
    comment: row.comment,
    decided_by: row.decided_by,
    decider_principal_id: row.decider_principal_id,
    decided_at: iso(row.decided_at),
    override_id: row.override_id,
    ...server(row, row.version),
  };
}

export function presentSubscription(row: SubscriptionRow): WebhookSubscription {
  return {
    id: row.id,
    scope_id: row.scope_id,
    url: row.url,
    events: row.events,
    description: row.description,
    deciders: row.deciders,
    status: row.status as WebhookSubscription['status'],
    consecutive_failures: row.consecutive_failures,
    disabled_at: iso(row.disabled_at),
    disabled_reason: row.disabled_reason,
    last_success_at: iso(row.last_success_at),
    last_failure_at: iso(row.last_failure_at),
    secret_created_at: iso(row.secret_created_at),
    previous_secret_expires_at: row.previous_secret_ciphertext ? iso(row.previous_secret_expires_at) : null,
    ...server(row, row.version),
  };
}

export function presentAttempt(row: AttemptRow): WebhookAttempt {
  return {
    attempt: row.attempt,
    outcome: row.outcome as WebhookAttempt['outcome'],
    status_code: row.status_code,
    error: row.error,
    duration_ms: row.duration_ms,
    key_id: row.key_id,
    started_at: row.started_at.toISOString(),
    finished_at: iso(row.finished_at),
  };
}

export function presentDelivery(row: DeliveryWithAttempts): WebhookDelivery {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    subscription_id: row.subscription_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status as WebhookDelivery['status'],
    attempt_count: row.attempt_count,
    max_attempts: row.max_attempts,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    delivered_at: iso(row.delivered_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    attempts: row.attempts.map(presentAttempt),
  };
}
