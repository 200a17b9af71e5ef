-- The seal outbox (docs/operations.md "Seal relay"): one row per rule version and per approval
-- decision to be sealed in the ledger, written in the transaction that makes it, relayed by the
-- worker to the ledger's internal seal endpoint and deleted once the ledger acknowledged it. The
-- verdict database has the same table. Hand-written (ADR 0003).
--
-- stream_id / client_ref: where the ledger seals the row and under which reference; the ledger keeps
--   (stream_id, client_ref) unique, so a row relayed twice is sealed once.
-- payload: the fact's custom_payload, kept as the JSON text it was written as.
-- attempts: how many times the row was leased; leased_until: the lease of the worker relaying it
--   (null: never leased). A row is free when the lease is null or past.
-- The lease query walks the primary key (oldest first, ORDER BY id) and skips leased rows, so the
-- primary key is its index; an index on leased_until would not serve that order.
CREATE TABLE "seal_outbox" (
    "id" BIGSERIAL NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "stream_id" TEXT NOT NULL,
    "client_ref" TEXT NOT NULL,
    "payload" JSON NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leased_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "seal_outbox_pkey" PRIMARY KEY ("id")
);
