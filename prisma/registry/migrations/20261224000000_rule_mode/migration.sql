-- Shadow rules (docs/verdicts.md "Shadow rules"): each rule version is enforced or only observed.
-- Hand-written (ADR 0003).
--
-- mode: `enforce` (every version made before this migration, and the default) or `shadow` (the
--   verdict gateway evaluates the version beside the enforced rules and reports where it would have
--   decided otherwise, but never lets it decide). A shadow rule is promoted by a PUT with mode
--   enforce, which makes a new version like any other PUT. Versions stay immutable: adding a column
--   with a constant default rewrites no row and fires no UPDATE trigger.
ALTER TABLE "rule_versions" ADD COLUMN "mode" TEXT NOT NULL DEFAULT 'enforce';
ALTER TABLE "rule_versions" ADD CONSTRAINT "rule_versions_mode_check" CHECK ("mode" IN ('enforce', 'shadow'));
