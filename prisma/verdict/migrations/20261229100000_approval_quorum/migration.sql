-- Expiry of verdict approvals (docs/approvals.md "Quorum, escalation and expiry"). Hand-written (ADR 0003).
--
-- expires_at: when a pending approval expires (also in the body, with approvals_required, approvals,
-- escalates_at and escalation_deciders). NULL for approvals requested before this migration: their
-- expiry is requested_at + APPROVAL_TTL_SECONDS, computed on read and in the list's status filter.
ALTER TABLE "approvals" ADD COLUMN "expires_at" TIMESTAMPTZ(3);

-- expired: a pending approval past expires_at, stored when next touched; like pending it has no decided_at.
ALTER TABLE "approvals" DROP CONSTRAINT "approvals_status_check";
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_status_check" CHECK ("status" IN ('pending', 'approved', 'rejected', 'expired'));
ALTER TABLE "approvals" DROP CONSTRAINT "approvals_decided_check";
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_decided_check" CHECK (("status" IN ('pending', 'expired')) = ("decided_at" IS NULL));
