-- Shadow rule disagreements (docs/verdicts.md "Shadow rules"): one row per entry of a consultation
-- record's `shadow` member, written by the statement that stores the consultation (a data-modifying
-- CTE, like the seal_outbox row), so a record and its rows commit together or not at all. The record
-- stays the evidence; this table only answers "how often did this shadow rule disagree" without
-- reading records: the count of one rule walks its own range of the index, never the whole table.
-- Hand-written (ADR 0003).
CREATE TABLE "shadow_disagreements" (
    "tenant_id" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "rule_version_id" TEXT NOT NULL,
    "consultation_id" TEXT NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL,
    "would_be" TEXT NOT NULL,
    CONSTRAINT "shadow_disagreements_pkey" PRIMARY KEY ("consultation_id", "rule_id")
);

-- GET /internal/v1/tenants/{tenant_id}/rules/{rule_id}/shadow: count and latest requested_at per
-- rule version, from this index alone (an index-only scan once the table is vacuumed).
CREATE INDEX "shadow_disagreements_rule_idx" ON "shadow_disagreements"("tenant_id", "rule_id", "rule_version_id", "requested_at");
