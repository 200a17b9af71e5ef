-- Approval grants are bound to the rule versions they lift (docs/approvals.md "Grants"). Hand-written (ADR 0003).
--
-- target_version_ids: for an approval_grant over rules, the rule versions (rv-) it was made for: it neutralises a
--   target only while that rule's current version is one of them, so a rule changed since (made MANDATORY, say)
--   is not lifted by an older grant. Empty for every other override (and for grants made before this column),
--   which target their rules whatever the version.
ALTER TABLE "overrides" ADD COLUMN "target_version_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
