-- Archive segments (docs/operations.md "Archive"): one row per tenant, kind and partition whose rows the worker wrote
-- to the archive, read back, verified and sealed in the ledger (fact_id: the fact of the manifest in
-- arbiter.<tenant_id>.archives). Hand-written (ADR 0003). A partition of an archived kind is dropped only when every
-- tenant with rows in it has a row here with the same count (ADR 0035).
CREATE TABLE "archive_segments" (
  "tenant_id"  TEXT NOT NULL,
  "kind"       TEXT NOT NULL,
  "partition"  TEXT NOT NULL,
  "url"        TEXT NOT NULL,
  "from"       TIMESTAMPTZ(3) NOT NULL,
  "to"         TIMESTAMPTZ(3) NOT NULL,
  "count"      INTEGER NOT NULL,
  "sha256"     TEXT NOT NULL,
  "first_id"   TEXT,
  "last_id"    TEXT,
  "fact_id"    TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "archive_segments_pkey" PRIMARY KEY ("tenant_id", "kind", "partition"),
  CONSTRAINT "archive_segments_kind_check" CHECK ("kind" IN ('consultations', 'deliveries', 'events')),
  CONSTRAINT "archive_segments_count_check" CHECK ("count" >= 0)
);
-- The gate reads a partition's segments; an archived read, the segments whose id range holds an id.
CREATE INDEX "archive_segments_partition_idx" ON "archive_segments" ("partition");
CREATE INDEX "archive_segments_ids_idx" ON "archive_segments" ("kind", "first_id" COLLATE "C", "last_id" COLLATE "C");
