-- Notifications of new and escalated approvals (docs/approvals.md "Notifications"; ADR 0030). Hand-written (ADR 0003).
-- One row per recipient channel (an email address, a chat webhook), written in the transaction that stores the
-- approval.requested event, so PostgreSQL is the truth and the queue only carries the work (as webhook_deliveries).
--
-- reason: requested (due at once, to the candidate deciders) or escalated (due at escalates_at, to the escalation
--   deciders, sent only if the approval is still pending then).
-- channel/recipient: email and the address, or slack/teams and the chat webhook URL, as they were when routed.
-- flow/scope_id: which approval API the approval belongs to (the console link), and the registry approval's scope.
CREATE TABLE "approval_notifications" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "approval_id" TEXT NOT NULL,
    "flow" TEXT NOT NULL,
    "scope_id" TEXT,
    "reason" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "principal_id" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dispatched_until" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "sent_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "approval_notifications_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "approval_notifications_status_check" CHECK ("status" IN ('pending', 'sent', 'failed', 'cancelled')),
    CONSTRAINT "approval_notifications_reason_check" CHECK ("reason" IN ('requested', 'escalated')),
    CONSTRAINT "approval_notifications_channel_check" CHECK ("channel" IN ('email', 'slack', 'teams')),
    CONSTRAINT "approval_notifications_flow_check" CHECK ("flow" IN ('verdict', 'registry')),
    CONSTRAINT "approval_notifications_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "events"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
-- One notification per (approval, reason, channel, recipient): an approval.requested event recorded again for the
-- same approval (under another idempotency key) notifies nobody twice; it may only add what is new (an escalation).
CREATE UNIQUE INDEX "approval_notifications_tenant_id_flow_approval_id_reason_channel_recipient_key"
    ON "approval_notifications"("tenant_id", "flow", "approval_id", "reason", "channel", "recipient");
-- The relay's scan for due notifications.
CREATE INDEX "approval_notifications_due_idx" ON "approval_notifications"("next_attempt_at") WHERE "status" = 'pending';
