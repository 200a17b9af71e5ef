-- A one-shot approval authorises the approved operation together with its context Facts (docs/approvals.md
-- "The agent's loop"). Hand-written (ADR 0003).
--
-- context_hash: the approved consultation's context_hash (sha256 of the RFC 8785 JSON of {action, resource, scope,
--   parameters, context}); a later check by the requester with the same context_hash is the approved operation.
--   It replaces operation_hash, which left the context out: that column is no longer read or written (a replica
--   of the previous version may still write it during a rolling upgrade; a later migration can drop it).
ALTER TABLE "approvals" ADD COLUMN "context_hash" TEXT;

-- Approvals opened before: bound to their consultation's context_hash, but only where the approval's requester
-- is the consultation's own caller. An approval opened by another principal (which no longer can be) stays
-- without one and so is never usable as a one-shot approval (fail closed).
UPDATE "approvals" a SET "context_hash" = c."record"->>'context_hash'
FROM "consultations" c
WHERE c."id" = a."consultation_id" AND c."tenant_id" = a."tenant_id" AND c."caller_principal_id" = a."requester";

DROP INDEX IF EXISTS "approvals_one_shot_idx";
CREATE INDEX "approvals_one_shot_idx" ON "approvals"("tenant_id", "requester", "context_hash")
  WHERE "authorizes_until" IS NOT NULL AND "consumed_by" IS NULL;
