import type { ServerFields } from './common';
import type { DeciderId } from './rules';

/**
 * A webhook subscription (docs/webhooks.md): of one scope, or of the whole tenant
 * (`scope_id` null: every event of the tenant, including those the verdict gateway records).
 */
export interface WebhookSubscription extends ServerFields {
  /** `whk-` prefix */
  id: string;
  /** null for a tenant-level subscription. */
  scope_id: string | null;
  url: string;
  /** Event types (e.g. `approval.requested`), or `*` for every type. */
  events: string[];
  description: string | null;
  /**
   * Approval routing: when not empty, only events whose `data.candidate_deciders` holds one of
   * these principal or role ids are sent.
   */
  deciders: string[];
  /** `disabled` after WEBHOOK_MAX_CONSECUTIVE_FAILURES failed attempts in a row, or by PATCH. */
  status: 'active' | 'disabled';
  consecutive_failures: number;
  disabled_at: string | null;
  disabled_reason: string | null;
  last_success_at: string | null;
  last_failure_at: string | null;
  /**
   * When the current Standard Webhooks secret was made (creation or rotation); null for a
   * subscription made before secrets existed that has had no delivery and no rotation yet. The
   * secret itself is only in the answer that made it.
   */
  secret_created_at: string | null;
  /**
   * Until when deliveries are also signed with the secret the last rotation replaced; null when
   * there is none. A past time: the overlap is over (the next delivery forgets that secret).
   */
  previous_secret_expires_at: string | null;
}

/** The answer to a create: the subscription, and its secret, shown this once. */
export interface CreatedWebhookSubscription extends WebhookSubscription {
  /**
   * The Standard Webhooks secret (`whsec_` + base64 of 32 bytes) that signs the `webhook-signature`
   * header. Store it now: no later answer shows it (rotate to get a new one).
   */
  secret: string;
}

export interface RotateWebhookSecretBody {
  /**
   * How long the replaced secret still signs deliveries beside the new one, in seconds; 0 drops it
   * at once. Default: WEBHOOK_SECRET_OVERLAP_SECONDS (24 h).
   * @isInt
   * @minimum 0
   * @maximum 604800
   */
  overlap_seconds?: number;
}

/** The answer to a rotation: the new secret, shown this once. */
export interface WebhookSecretRotation {
  subscription_id: string;
  /** `whsec_` + base64 of 32 bytes. */
  secret: string;
  secret_created_at: string;
  /** Until when the replaced secret still signs (a second `v1,` entry); null when it was dropped at once or there was none. */
  previous_secret_expires_at: string | null;
}

/** An event type such as `approval.requested` (the service checks the name), or `*`. @minLength 1 @maxLength 100 */
export type EventTypeName = string;

export interface CreateWebhookBody {
  /**
   * http or https; every address the host resolves to must be public unicast (private, loopback,
   * link-local, NAT64, 6to4, IPv4-mapped and other special ranges are refused unless allowed by config).
   * @maxLength 2048
   */
  url: string;
  /** @minItems 1 @maxItems 50 */
  events: EventTypeName[];
  /** @maxLength 2000 */
  description?: string;
  /** @maxItems 100 */
  deciders?: DeciderId[];
}

export interface UpdateWebhookBody {
  /** Checked as at creation. @maxLength 2048 */
  url?: string;
  /** @minItems 1 @maxItems 50 */
  events?: EventTypeName[];
  /** @maxLength 2000 */
  description?: string;
  /** @maxItems 100 */
  deciders?: DeciderId[];
  /** true re-enables a disabled subscription (its failure count restarts at 0); false disables it. */
  active?: boolean;
}

/** One try of a delivery, as logged. */
export interface WebhookAttempt {
  /** 1 for the first try. */
  attempt: number;
  /** `in_flight` while running; `interrupted` when the attempt never reported back (a crash). */
  outcome: 'in_flight' | 'succeeded' | 'failed' | 'interrupted';
  /** The receiver's HTTP status, or null when none came (timeout, refused connection, refused address). */
  status_code: number | null;
  error: string | null;
  /** @isInt */
  duration_ms: number | null;
  /** The signing key's kid (X-Service-Key-Id). */
  key_id: string | null;
  started_at: string;
  finished_at: string | null;
}

/** One event for one subscription, with every attempt. */
export interface WebhookDelivery {
  /** `dlv-` prefix; sent as X-Service-Delivery, the same on every attempt. */
  id: string;
  tenant_id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  /**
   * `pending` (an attempt is due or scheduled), `succeeded` (a 2xx answer), `failed` (every attempt
   * failed), `cancelled` (the subscription was disabled or deleted first).
   */
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  /** @isInt */
  attempt_count: number;
  max_attempts: number;
  /** When the next attempt is due; null unless pending. */
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
  attempts: WebhookAttempt[];
}

/** A public webhook verification key (docs/webhooks.md). */
export interface WebhookPublicKey {
  /** `webhooks:<epoch>`, sent as X-Service-Key-Id. */
  kid: string;
  alg: 'ES256';
  /** RFC 7517 public JWK (EC, P-256). */
  jwk: { kty: string; crv: string; x: string; y: string; kid: string; alg: string; use: string };
  /** SPKI PEM of the same key. */
  pem: string;
  not_before: string;
  /** null for the current key; retired keys stay listed. */
  not_after: string | null;
}

/** GET /.well-known/webhook-key: the current key at the top level, and every key ever used. */
export interface WebhookKeySet extends WebhookPublicKey {
  keys: WebhookPublicKey[];
}

export interface RotateWebhookKeyBody {
  /** `scheduled` makes this year's key (400 when it exists); `emergency` makes a new key at once. */
  mode: 'scheduled' | 'emergency';
}

export interface WebhookKeyRotation {
  mode: 'scheduled' | 'emergency';
  kid: string;
  retired: string[];
  keys: WebhookPublicKey[];
}
