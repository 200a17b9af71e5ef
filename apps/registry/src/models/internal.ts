/**
 * Request and response shapes of the internal API (`/internal/v1`, docs/registry.md "Internal API"),
 * documented in apps/registry/openapi.internal.json; @arbiter/internal-api's client types are
 * generated from that document. The hand checks in controllers/internal/internal-input.ts give the
 * error messages callers see (the registry's `{detail}` dialect); these types never refuse a body
 * those checks accept.
 */
import type { Identity } from '@arbiter/auth';
import type { ScopeSelector } from './common';
import type { RuleVersion } from './rules';

export interface IntrospectRequest {
  /** sha256 of the API key, 64 lowercase hex digits: the key itself never crosses the wire. */
  key_hash: string;
}

/** What a key hash resolves to; `identity` only when `active`. */
export interface IntrospectionAnswer {
  active: boolean;
  identity?: Identity;
}

/** A tenant addressed by its slug (the verdict gateway's JWKS by slug). */
export interface TenantRef {
  id: string;
  slug: string;
}

/** Any rule version, current or superseded, with the status of its rule. */
export interface InternalRuleVersion extends RuleVersion {
  rule_status: 'active' | 'archived';
}

/** An approval grant (docs/approvals.md): an approval_grant override over the triggering rules. */
export interface ApprovalGrantBody {
  override_type?: 'approval_grant';
  /** `rul-` ids, 1 to 100; they may lie in several scopes. */
  target_ids: string[];
  /**
   * The rule versions (`rv-`) the approval was asked for, one per target: each must be its target's current
   * version (422 otherwise: the rule changed since), and the grant lifts those versions only.
   */
  target_version_ids?: string[] | null;
  /** The operations the grant covers; checked against the tenant's scope_schema. */
  applies_to_scope: ScopeSelector;
  /** ISO 8601, in the future. */
  expires_at: string;
  justification?: string | null;
  approved_by?: string | null;
  approval_id?: string | null;
  consultation_id?: string | null;
}

/** An event of another service to record in the feed and notify (docs/webhooks.md "Events from the verdict service"). */
export interface ForeignEventBody {
  /** The recording service; `verdict` when absent. */
  source?: 'verdict' | null;
  type: 'approval.requested' | 'approval.resolved';
  /** A lowercase word, e.g. `approval`. */
  entity_type: string;
  entity_id: string;
  /** Registry scopes the event concerns, at most 100. */
  scope_ids?: string[] | null;
  actor_id?: string | null;
  data: { [key: string]: unknown };
  /** The same key answers the event already written (200 instead of 201). 1 to 200 characters. */
  idempotency_key?: string | null;
}

export interface RelayRequest {
  /** Due deliveries to lease at most, 1 to 1000 (100 when absent). */
  limit?: number | null;
}

/** What one relay call did (ADR 0005). */
export interface RelayAnswer {
  /** Outbox rows (events) fanned out by this call. */
  fanned_out: number;
  /** Deliveries those events created (one per matching subscription). */
  deliveries_created: number;
  /** Due deliveries handed to the caller, to enqueue as `webhook.v1.deliver` jobs now. */
  dispatch: DispatchedAttempt[];
  /** Due approval notifications handed to the caller, to enqueue as `notification.v1.send` jobs now (docs/approvals.md "Notifications"). */
  notifications: DispatchedNotificationAttempt[];
}

export interface DispatchedNotificationAttempt {
  notification_id: string;
  attempt: number;
}

export interface DispatchedAttempt {
  delivery_id: string;
  attempt: number;
}

export interface ReleaseRequest {
  /** `dlv-` ids, at most 1000. */
  delivery_ids: string[];
  /** `ntf-` ids of approval notifications, at most 1000. */
  notification_ids?: string[];
}

export interface ReleaseAnswer {
  released: number;
}

export interface AttemptRequest {
  /** 1 to 1000. */
  attempt: number;
}

/** What one call of the attempt endpoint did (the worker logs it and stores it as the job result). */
export interface AttemptReport {
  delivery_id: string;
  attempt: number;
  /**
   * `succeeded`: a 2xx answer. `retry_scheduled`: failed, another attempt is due at next_attempt_at.
   * `failed`: failed, no attempt left. `cancelled`: the subscription is disabled or deleted (nothing
   * was sent). `skipped`: this attempt was already run, or is not due: nothing was sent.
   */
  outcome: 'succeeded' | 'retry_scheduled' | 'failed' | 'cancelled' | 'skipped';
  status_code: number | null;
  error: string | null;
  delivery_status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  next_attempt_at: string | null;
}

/** What one call of the notification attempt endpoint did (docs/approvals.md "Notifications"). */
export interface NotificationAttemptReport {
  notification_id: string;
  attempt: number;
  /**
   * `sent`: the SMTP server or the chat webhook accepted it. `retry_scheduled`: failed, another attempt is due at
   * next_attempt_at. `failed`: failed, no attempt left. `cancelled`: an escalation whose approval is no longer
   * pending (nothing was sent). `skipped`: this attempt was already run, or is not due: nothing was sent.
   */
  outcome: 'sent' | 'retry_scheduled' | 'failed' | 'cancelled' | 'skipped';
  error: string | null;
  status: 'pending' | 'sent' | 'failed' | 'cancelled';
  next_attempt_at: string | null;
}
