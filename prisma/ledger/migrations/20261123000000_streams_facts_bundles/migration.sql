-- Streams, sealed facts and proof bundles of the ledger (docs/ledger-formats.md).
--
-- A stream's head row is the lock that linearises appends: every seal transaction takes it
-- FOR UPDATE, reads (head_seq, head_hash), appends seq = head_seq + 1 ... and moves the head.
-- The unique (stream_id, seq) and (stream_id, client_ref) indexes are the backstop: whatever a
-- replica does, the database refuses a fork, a duplicate position or a second fact per client_ref.
CREATE TABLE "streams" (
    "stream_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "head_seq" BIGINT NOT NULL DEFAULT 0,
    "head_fact_id" TEXT,
    "head_hash" TEXT NOT NULL,
    "head_sealed_at_ms" BIGINT NOT NULL DEFAULT 0,
    "created_at_ms" BIGINT NOT NULL,
    "updated_at_ms" BIGINT NOT NULL,
    CONSTRAINT "streams_pkey" PRIMARY KEY ("stream_id"),
    CONSTRAINT "streams_head_seq_check" CHECK ("head_seq" >= 0)
);
CREATE INDEX "streams_tenant_id_created_at_ms_stream_id_idx" ON "streams"("tenant_id", "created_at_ms", "stream_id");

-- custom_payload is `json`, not `jsonb`: it keeps the exact RFC 8785 text the hash was computed
-- over (jsonb would re-render numbers and key order, and refuses \u0000).
CREATE TABLE "facts" (
    "fact_id" TEXT NOT NULL,
    "stream_id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "sealed_at_ms" BIGINT NOT NULL,
    "custom_payload" JSON NOT NULL,
    "prev_hash" TEXT NOT NULL,
    "fact_hash" TEXT NOT NULL,
    "parent_fact_id" TEXT,
    "client_ref" TEXT,
    CONSTRAINT "facts_pkey" PRIMARY KEY ("fact_id"),
    CONSTRAINT "facts_seq_check" CHECK ("seq" >= 1),
    CONSTRAINT "facts_stream_id_fkey" FOREIGN KEY ("stream_id") REFERENCES "streams"("stream_id") ON DELETE RESTRICT ON UPDATE RESTRICT
);
CREATE UNIQUE INDEX "facts_stream_id_seq_key" ON "facts"("stream_id", "seq");
-- NULLs are distinct in a unique index: facts without client_ref never collide.
CREATE UNIQUE INDEX "facts_stream_id_client_ref_key" ON "facts"("stream_id", "client_ref");

CREATE TABLE "bundles" (
    "bundle_id" TEXT NOT NULL,
    "stream_id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "bundle_version" INTEGER NOT NULL,
    "head_fact_id" TEXT NOT NULL,
    "head_hash" TEXT NOT NULL,
    "fact_count" BIGINT NOT NULL,
    "facts_manifest" TEXT[] NOT NULL,
    "created_at_ms" BIGINT NOT NULL,
    "signature" TEXT NOT NULL,
    "signature_alg" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    CONSTRAINT "bundles_pkey" PRIMARY KEY ("bundle_id"),
    CONSTRAINT "bundles_stream_id_fkey" FOREIGN KEY ("stream_id") REFERENCES "streams"("stream_id") ON DELETE RESTRICT ON UPDATE RESTRICT,
    CONSTRAINT "bundles_key_id_fkey" FOREIGN KEY ("key_id") REFERENCES "signing_keys"("kid") ON DELETE RESTRICT ON UPDATE RESTRICT
);
CREATE INDEX "bundles_stream_id_created_at_ms_bundle_id_idx" ON "bundles"("stream_id", "created_at_ms", "bundle_id");
