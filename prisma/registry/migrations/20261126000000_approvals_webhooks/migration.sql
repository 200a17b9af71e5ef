-- Registry approvals (docs/approvals.md), webhook subscriptions and their delivery, the transactional outbox, and the
-- webhook signing key ring (docs/webhooks.md, docs/operations.md "Keys and their rotation"; ADR 0005). Hand-written (ADR 0003).

-- Events recorded for another service (the verdict gateway's approvals) say so, and may
-- carry the caller's idempotency key: a retried POST answers the event already written.
ALTER TABLE "events" ADD COLUMN "source" TEXT NOT NULL DEFAULT 'registry';
ALTER TABLE "events" ADD COLUMN "idempotency_key" TEXT;
ALTER TABLE "events" ADD CONSTRAINT "events_source_check" CHECK ("source" IN ('registry', 'verdict'));
CREATE UNIQUE INDEX "events_tenant_id_idempotency_key_key" ON "events"("tenant_id", "idempotency_key");

-- One row per event still to be fanned out to webhook subscriptions. Written in the transaction of
-- the change that wrote the event; the relay deletes it in the transaction that creates the
-- event's deliveries, so an event is fanned out exactly once.
CREATE TABLE "outbox" (
    "id" BIGSERIAL NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "outbox_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "outbox_event_id_key" ON "outbox"("event_id");

CREATE TABLE "approvals" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "scope_id" TEXT NOT NULL,
    "trigger_id" TEXT NOT NULL,
    "trigger_type" TEXT NOT NULL,
    "trigger_version_id" TEXT,
    "requires_approval" BOOLEAN NOT NULL,
    "intended_action" TEXT NOT NULL,
    "justification" TEXT,
    "requested_by" TEXT NOT NULL,
    "requested_by_type" TEXT NOT NULL,
    "candidate_deciders" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" TEXT NOT NULL DEFAULT 'pending',
    "decision" TEXT,
    "comment" TEXT,
    "decided_by" TEXT,
    "decider_principal_id" TEXT,
    "decided_at" TIMESTAMPTZ(3),
    "override_id" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT,
    CONSTRAINT "approvals_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "approvals_trigger_type_check" CHECK ("trigger_type" IN ('invariant', 'rule')),
    CONSTRAINT "approvals_status_check" CHECK ("status" IN ('pending', 'approved', 'rejected')),
    -- Decided exactly when a decision is recorded, and the decision is the status.
    CONSTRAINT "approvals_decision_matches_status" CHECK (
        ("status" = 'pending' AND "decision" IS NULL AND "decided_at" IS NULL) OR
        ("status" <> 'pending' AND "decision" = "status" AND "decided_at" IS NOT NULL)
    ),
    CONSTRAINT "approvals_scope_id_fkey" FOREIGN KEY ("scope_id") REFERENCES "scopes"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "approvals_override_id_fkey" FOREIGN KEY ("override_id") REFERENCES "overrides"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "approvals_tenant_id_scope_id_created_at_id_idx" ON "approvals"("tenant_id", "scope_id", "created_at", "id");
CREATE UNIQUE INDEX "approvals_override_id_key" ON "approvals"("override_id");

CREATE TABLE "webhook_subscriptions" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "scope_id" TEXT,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "description" TEXT,
    "deciders" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" TEXT NOT NULL DEFAULT 'active',
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "disabled_at" TIMESTAMPTZ(3),
    "disabled_reason" TEXT,
    "last_success_at" TIMESTAMPTZ(3),
    "last_failure_at" TIMESTAMPTZ(3),
    "deleted_at" TIMESTAMPTZ(3),
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT,
    CONSTRAINT "webhook_subscriptions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_subscriptions_status_check" CHECK ("status" IN ('active', 'disabled')),
    CONSTRAINT "webhook_subscriptions_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "webhook_subscriptions_scope_id_fkey" FOREIGN KEY ("scope_id") REFERENCES "scopes"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "webhook_subscriptions_tenant_id_created_at_id_idx" ON "webhook_subscriptions"("tenant_id", "created_at", "id");

-- One delivery per (subscription, event): the relay may run twice over an event, never deliver it twice.
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dispatched_until" TIMESTAMPTZ(3),
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'succeeded', 'failed', 'cancelled')),
    CONSTRAINT "webhook_deliveries_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "webhook_subscriptions"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "webhook_deliveries_subscription_id_event_id_key" ON "webhook_deliveries"("subscription_id", "event_id");
CREATE INDEX "webhook_deliveries_subscription_id_created_at_id_idx" ON "webhook_deliveries"("subscription_id", "created_at", "id");
-- The relay's scan for due deliveries.
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries"("next_attempt_at") WHERE "status" = 'pending';

-- One row per attempt; the unique (delivery_id, attempt) makes a second run of one attempt impossible.
CREATE TABLE "webhook_attempts" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL DEFAULT 'in_flight',
    "status_code" INTEGER,
    "error" TEXT,
    "duration_ms" INTEGER,
    "key_id" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_attempts_outcome_check" CHECK ("outcome" IN ('in_flight', 'succeeded', 'failed', 'interrupted')),
    CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "webhook_attempts_delivery_id_attempt_key" ON "webhook_attempts"("delivery_id", "attempt");

-- The registry's webhook signing keys (ECDSA P-256), one ring with epochs (docs/operations.md "Keys and their rotation").
-- The private half is encrypted with AES-256-GCM under KEY_ENCRYPTION_KEY, the kid as AAD.
CREATE TABLE "webhook_signing_keys" (
    "kid" TEXT NOT NULL,
    "owner_id" TEXT NOT NULL,
    "epoch" TEXT NOT NULL,
    "algorithm" TEXT NOT NULL,
    "public_jwk" JSONB NOT NULL,
    "encrypted_private_key" TEXT NOT NULL,
    "not_before" TIMESTAMPTZ(3) NOT NULL,
    "not_after" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "webhook_signing_keys_pkey" PRIMARY KEY ("kid")
);
CREATE UNIQUE INDEX "webhook_signing_keys_owner_id_epoch_key" ON "webhook_signing_keys"("owner_id", "epoch");
