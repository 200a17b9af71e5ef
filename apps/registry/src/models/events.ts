/** An entry of the event feed (docs/registry.md "Event feed"). */
export interface RegistryEvent {
  /** `evt-` + 16 hex digits; strictly increasing within a tenant, in commit order. */
  id: string;
  /** `<entity>.<verb>`, e.g. `rule.updated`. */
  type: string;
  /** The scope of the changed entity (null for none). */
  scope_id: string | null;
  /** Every scope the change concerns (a link between scopes, a grant over rules of several scopes). */
  scope_ids: string[];
  entity_type: string;
  entity_id: string;
  /**
   * Who recorded it: `registry` for the registry's own changes, `verdict` for an event the verdict
   * gateway recorded (verdict approvals, docs/webhooks.md).
   */
  source: 'registry' | 'verdict';
  /** Principal id of the caller, or null for a service. */
  actor_id: string | null;
  created_at: string;
  /** The entity as the API returns it after the change. */
  data: { [key: string]: unknown };
}

/**
 * The body of a webhook delivery (docs/webhooks.md "A delivery"): the event, plus the tenant and
 * the subscription it is delivered for. Both are inside what the ECDSA and HMAC signatures cover,
 * so a delivery meant for one subscription, replayed to another receiver, names the wrong one.
 */
export interface DeliveredEvent extends RegistryEvent {
  tenant_id: string;
  subscription_id: string;
}
