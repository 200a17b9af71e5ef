-- The rule fields that remember (docs/registry.md "Rules and versions", docs/verdicts.md "Budgets, rates and
-- sequences"). Hand-written (ADR 0003).
--
-- rule_versions: a rule version's `limit` ({count | sum, max, window, by}) and `requires_prior` ({action,
-- within, same}), each as the registry checked and stored it; NULL when not set (every earlier version).
ALTER TABLE "rule_versions" ADD COLUMN "limit" JSONB;
ALTER TABLE "rule_versions" ADD COLUMN "requires_prior" JSONB;
