-- An approval decided `approve` without a grant authorises exactly the approved operation, once
-- (docs/approvals.md "The agent's loop"). Hand-written (ADR 0003).
--
-- operation_hash: sha256 of the RFC 8785 JSON of {action, resource, scope, parameters} of the
--   approval's consultation; a later check by the requester with the same hash is the operation.
-- authorizes_until: decided_at + APPROVAL_VALIDITY_SECONDS for an approval approved without a grant;
--   null otherwise (pending, rejected, or approved with a grant, which works through its override).
-- consumed_by / consumed_at: the consultation that used it. Set by one conditional UPDATE, so of two
--   simultaneous checks exactly one is allowed.
ALTER TABLE "approvals" ADD COLUMN "operation_hash" TEXT;
ALTER TABLE "approvals" ADD COLUMN "authorizes_until" TIMESTAMPTZ(3);
ALTER TABLE "approvals" ADD COLUMN "consumed_by" TEXT;
ALTER TABLE "approvals" ADD COLUMN "consumed_at" TIMESTAMPTZ(3);
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_consumed_check" CHECK (("consumed_by" IS NULL) = ("consumed_at" IS NULL));

-- The check's look-up: an unconsumed one-shot approval of this caller for this operation.
CREATE INDEX "approvals_one_shot_idx" ON "approvals"("tenant_id", "requester", "operation_hash")
  WHERE "authorizes_until" IS NOT NULL AND "consumed_by" IS NULL;
