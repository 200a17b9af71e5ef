-- The authenticated principal that sealed each fact (docs/ledger-formats.md "sealed_by";
-- docs/adr/0016-ledger-sealers-and-stream-namespaces.md): the API key's principal id for a tenant's seal, service:internal
-- for the services' audit facts. NULL for the facts sealed before this column existed: nobody recorded
-- their sealer, and their fact_hash (which covers sealed_by when it is set) stays what it was.
-- A nullable column without a default: PostgreSQL adds it without rewriting the table.
ALTER TABLE "facts" ADD COLUMN "sealed_by" TEXT;
ALTER TABLE "facts" ADD CONSTRAINT "facts_sealed_by_check" CHECK ("sealed_by" IS NULL OR "sealed_by" <> '');
