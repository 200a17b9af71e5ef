-- Quorum, escalation and expiry of approvals (docs/approvals.md "Quorum, escalation and expiry"). Hand-written (ADR 0003).
--
-- rule_versions: the approval fields of a REQUIRES_APPROVAL rule; NULL / empty when not set (every earlier version).
ALTER TABLE "rule_versions" ADD COLUMN "approvals_required" INTEGER;
ALTER TABLE "rule_versions" ADD COLUMN "escalate_after" INTEGER;
ALTER TABLE "rule_versions" ADD COLUMN "escalation_deciders" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "rule_versions" ADD COLUMN "approval_expires_after" INTEGER;

-- approvals: the terms frozen when the approval was requested, and the approvals given so far
-- ([{decider, decided_at, notes}], oldest first). expires_at NULL (approvals requested before this
-- migration): requested (created_at) + APPROVAL_TTL_SECONDS, computed on read.
ALTER TABLE "approvals" ADD COLUMN "approvals_required" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "approvals" ADD COLUMN "approvals" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "approvals" ADD COLUMN "expires_at" TIMESTAMPTZ(3);
ALTER TABLE "approvals" ADD COLUMN "escalates_at" TIMESTAMPTZ(3);
ALTER TABLE "approvals" ADD COLUMN "escalation_deciders" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];

-- expired: a pending approval past expires_at, stored when next touched. Undecided: no decision, no decided_at.
ALTER TABLE "approvals" DROP CONSTRAINT "approvals_status_check";
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_status_check" CHECK ("status" IN ('pending', 'approved', 'rejected', 'expired'));
ALTER TABLE "approvals" DROP CONSTRAINT "approvals_decision_matches_status";
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_decision_matches_status" CHECK (
    ("status" IN ('pending', 'expired') AND "decision" IS NULL AND "decided_at" IS NULL) OR
    ("status" IN ('approved', 'rejected') AND "decision" = "status" AND "decided_at" IS NOT NULL)
);
