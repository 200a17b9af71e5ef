/**
 * Which events a webhook subscription can ask for, and which subscriptions an event goes to
 * (docs/webhooks.md). Pure: the relay loads subscriptions and events and asks this module.
 */

/** Every event type the registry writes to its feed (docs/webhooks.md). */
export const REGISTRY_EVENT_TYPES = [
  'scope.created',
  'scope.updated',
  'namespace.created',
  'decision.created',
  'invariant.created',
  'invariant.revoked',
  'rule.created',
  'rule.updated',
  'rule.archived',
  'override.created',
  'override.revoked',
  'reference.created',
  'link.created',
  'approval.requested',
  'approval.resolved',
] as const;

/** Event types another service may record through POST /internal/v1/tenants/{id}/events. */
export const FOREIGN_EVENT_TYPES = { verdict: ['approval.requested', 'approval.resolved'] } as const;

/** Subscribes to every event type, present and future. */
export const ALL_EVENTS = '*';

const KNOWN = new Set<string>([...REGISTRY_EVENT_TYPES, ALL_EVENTS]);

/** Problems with a subscription's `events` list (empty when it is fine). */
export function eventListProblems(events: string[]): string[] {
  if (!events.length) return ['events must name at least one event type'];
  const unknown = events.filter((e) => !KNOWN.has(e));
  return unknown.length ? [`unknown event type ${unknown.join(', ')}; known: ${[...KNOWN].join(', ')}`] : [];
}

export interface SubscriptionFacts {
  /** null for a tenant-level subscription. */
  scope_id: string | null;
  events: string[];
  deciders: string[];
  created_at: Date;
  /** The scopes of the key that made it, when restricted: it gets no event that concerns another scope. Empty: all. */
  reach_scope_ids: string[];
}

export interface EventFacts {
  type: string;
  scope_ids: string[];
  data: unknown;
  created_at: Date;
}

/**
 * Whether a subscription receives an event:
 * - the type is listed (or `*`);
 * - a scope subscription gets the events of its scope (an event's `scope_ids`); a tenant-level
 *   one gets every event of the tenant, scoped or not (verdict approvals may have no scope);
 * - with a `deciders` filter, only events whose `data.candidate_deciders` shares an id with it
 *   (approval routing: one subscription per team or channel);
 * - events written before the subscription existed are not sent to it.
 */
/**
 * Whether an event that concerns `scopeIds` may be shown to a key restricted to `reach` (empty: every scope): only
 * when every scope it concerns is one of them, so that nothing of another scope is learned (docs/registry.md "Event
 * feed", docs/webhooks.md "Events").
 */
export function withinReach(scopeIds: readonly string[], reach: readonly string[]): boolean {
  return reach.length === 0 || scopeIds.every((s) => reach.includes(s));
}

export function subscriptionWants(sub: SubscriptionFacts, event: EventFacts): boolean {
  if (!sub.events.includes(ALL_EVENTS) && !sub.events.includes(event.type)) return false;
  if (sub.scope_id !== null && !event.scope_ids.includes(sub.scope_id)) return false;
  if (!withinReach(event.scope_ids, sub.reach_scope_ids)) return false;
  if (event.created_at.getTime() < sub.created_at.getTime()) return false;
  if (sub.deciders.length) {
    const candidates = candidateDeciders(event.data);
    if (!candidates.some((c) => sub.deciders.includes(c))) return false;
  }
  return true;
}

function candidateDeciders(data: unknown): string[] {
  const list = data && typeof data === 'object' ? (data as { candidate_deciders?: unknown }).candidate_deciders : undefined;
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
}
