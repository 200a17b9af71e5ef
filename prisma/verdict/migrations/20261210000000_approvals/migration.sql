-- Verdict approvals and the verdict-side outbox of their events (docs/approvals.md).
CREATE TABLE "approvals" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "consultation_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "requester" TEXT NOT NULL,
    "requester_principal" TEXT NOT NULL,
    "dominating_rule_id" TEXT,
    "candidate_deciders" TEXT[],
    "requested_at" TIMESTAMPTZ(3) NOT NULL,
    "decided_at" TIMESTAMPTZ(3),
    "body" JSONB NOT NULL,
    CONSTRAINT "approvals_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "approvals_status_check" CHECK ("status" IN ('pending', 'approved', 'rejected')),
    -- A decided approval always records when (the one-decision rule is enforced by the row lock).
    CONSTRAINT "approvals_decided_check" CHECK (("status" = 'pending') = ("decided_at" IS NULL))
);
-- One approval per consultation: a retried POST finds the first one instead of opening a second.
CREATE UNIQUE INDEX "approvals_tenant_id_consultation_id_key" ON "approvals"("tenant_id", "consultation_id");
CREATE INDEX "approvals_tenant_id_requested_at_id_idx" ON "approvals"("tenant_id", "requested_at", "id");
-- The list's assignee filter (candidate_deciders @> ARRAY[...]).
CREATE INDEX "approvals_candidate_deciders_idx" ON "approvals" USING GIN ("candidate_deciders");

CREATE TABLE "approval_outbox" (
    "id" BIGSERIAL NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "event" JSONB NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "approval_outbox_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "approval_outbox_idempotency_key_key" ON "approval_outbox"("idempotency_key");
CREATE INDEX "approval_outbox_next_attempt_at_id_idx" ON "approval_outbox"("next_attempt_at", "id");
