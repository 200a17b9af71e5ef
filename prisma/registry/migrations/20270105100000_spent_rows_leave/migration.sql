-- Spent rows leave: approval notifications with their approval.requested event's retention, console sign-in links and
-- sessions once expired (docs/operations.md "Retention"). Hand-written (ADR 0003).
--
-- A notification row names a person's address and an approval; it was kept for ever, past the retention of the
-- event that announced it. It now carries that event's keep_until, and the registry's pruner deletes it once that
-- time has passed and it is no longer pending (an unsent row waits until it is sent, fails or is cancelled).
-- Rows written before this migration take their event's keep_until; a row whose event has already left (its
-- retention ran out) takes its own created_at, so it leaves at the first pruning round once not pending.
SET LOCAL lock_timeout = '5s';

ALTER TABLE "approval_notifications" ADD COLUMN "keep_until" TIMESTAMPTZ(3);
UPDATE "approval_notifications" n
   SET "keep_until" = COALESCE((SELECT e."keep_until" FROM "events" e WHERE e."id" = n."event_id" LIMIT 1), n."created_at");
ALTER TABLE "approval_notifications" ALTER COLUMN "keep_until" SET NOT NULL;
CREATE INDEX "approval_notifications_keep_until_idx" ON "approval_notifications"("keep_until");

-- An expired link or session is refused whatever else it holds; deleting it changes no answer.
CREATE INDEX "console_links_expires_at_idx" ON "console_links"("expires_at");
CREATE INDEX "console_sessions_expires_at_idx" ON "console_sessions"("expires_at");
