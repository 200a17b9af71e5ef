-- Override conditions become CEL expressions that are evaluated (ADR 0007; docs/registry.md
-- "Conditional overrides"). Until now `conditions` was stored and never read, so every conditional
-- override acted as an unconditional one. Hand-written (ADR 0003).
--
-- conditions_error: why the override can never apply (its conditions do not parse as CEL, or a
--   conditional override has none); such an override is listed with status `invalid_conditions` and
--   neutralises nothing.
-- conditions_checked: whether conditions_error has been decided. SQL cannot parse CEL, so rows with
--   conditions written before this migration are checked by the registry when it starts
--   (services/override-conditions.ts); the verdict gateway refuses to apply an expression it cannot
--   compile in the meantime (fail closed).
ALTER TABLE "overrides" ADD COLUMN "conditions_error" TEXT;
ALTER TABLE "overrides" ADD COLUMN "conditions_checked" BOOLEAN NOT NULL DEFAULT false;

UPDATE "overrides" SET "conditions_checked" = true
 WHERE "conditions" IS NULL OR btrim("conditions") = '';

UPDATE "overrides"
   SET "conditions_error" = 'a conditional override without conditions never applies'
 WHERE "override_type" = 'conditional' AND ("conditions" IS NULL OR btrim("conditions") = '');

CREATE INDEX "overrides_conditions_unchecked_idx" ON "overrides"("id") WHERE NOT "conditions_checked";
