-- Stream ids per tenant (docs/ledger-formats.md "Stream identity"; docs/adr/0016-ledger-sealers-and-stream-namespaces.md):
-- a stream is identified by (tenant_id, stream_id), so two tenants may each have a stream `orders`.
-- Fact and bundle ids stay globally unique. Until now stream ids were global: every existing stream
-- keeps its id, in the namespace of the tenant that owns it, and its facts, bundles and Merkle nodes
-- follow it. Nothing that fact_hash covers changes, so every existing chain, bundle and proof verifies as before.

-- Every fact and bundle must already name its stream's tenant (the seal queue wrote both alike). A row
-- that does not is refused here, loudly, rather than moved into a namespace it never belonged to: fix it
-- by hand (it fails `POST /streams/{id}/verify` already) and run the migration again.
DO $$
DECLARE
  bad bigint;
BEGIN
  SELECT count(*) INTO bad FROM "facts" f JOIN "streams" s ON s."stream_id" = f."stream_id" WHERE f."tenant_id" <> s."tenant_id";
  IF bad > 0 THEN
    RAISE EXCEPTION 'streams_per_tenant: % fact(s) name another tenant than their stream''s owner', bad;
  END IF;
  SELECT count(*) INTO bad FROM "bundles" b JOIN "streams" s ON s."stream_id" = b."stream_id" WHERE b."tenant_id" <> s."tenant_id";
  IF bad > 0 THEN
    RAISE EXCEPTION 'streams_per_tenant: % bundle(s) name another tenant than their stream''s owner', bad;
  END IF;
END $$;

-- Merkle nodes learn their stream's tenant while stream ids are still unique.
ALTER TABLE "merkle_nodes" ADD COLUMN "tenant_id" TEXT;
UPDATE "merkle_nodes" m SET "tenant_id" = s."tenant_id" FROM "streams" s WHERE s."stream_id" = m."stream_id";
ALTER TABLE "merkle_nodes" ALTER COLUMN "tenant_id" SET NOT NULL;

-- The keys that named a stream by its id alone.
ALTER TABLE "facts" DROP CONSTRAINT "facts_stream_id_fkey";
ALTER TABLE "bundles" DROP CONSTRAINT "bundles_stream_id_fkey";
ALTER TABLE "merkle_nodes" DROP CONSTRAINT "merkle_nodes_stream_id_fkey";
ALTER TABLE "merkle_nodes" DROP CONSTRAINT "merkle_nodes_pkey";
ALTER TABLE "streams" DROP CONSTRAINT "streams_pkey";
DROP INDEX "facts_stream_id_seq_key";
DROP INDEX "facts_stream_id_client_ref_key";
DROP INDEX "bundles_stream_id_created_at_ms_bundle_id_idx";

-- The same keys on (tenant_id, stream_id). A seal locks its stream's head row by this key, and the
-- unique (tenant_id, stream_id, seq) and (tenant_id, stream_id, client_ref) indexes refuse a fork, a
-- duplicate position or a second fact per client_ref in each tenant's stream.
ALTER TABLE "streams" ADD CONSTRAINT "streams_pkey" PRIMARY KEY ("tenant_id", "stream_id");
CREATE UNIQUE INDEX "facts_tenant_id_stream_id_seq_key" ON "facts"("tenant_id", "stream_id", "seq");
-- NULLs are distinct in a unique index: facts without client_ref never collide.
CREATE UNIQUE INDEX "facts_tenant_id_stream_id_client_ref_key" ON "facts"("tenant_id", "stream_id", "client_ref");
ALTER TABLE "facts" ADD CONSTRAINT "facts_tenant_id_stream_id_fkey" FOREIGN KEY ("tenant_id", "stream_id") REFERENCES "streams"("tenant_id", "stream_id") ON DELETE RESTRICT ON UPDATE RESTRICT;
CREATE INDEX "bundles_tenant_id_stream_id_created_at_ms_bundle_id_idx" ON "bundles"("tenant_id", "stream_id", "created_at_ms", "bundle_id");
ALTER TABLE "bundles" ADD CONSTRAINT "bundles_tenant_id_stream_id_fkey" FOREIGN KEY ("tenant_id", "stream_id") REFERENCES "streams"("tenant_id", "stream_id") ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE "merkle_nodes" ADD CONSTRAINT "merkle_nodes_pkey" PRIMARY KEY ("tenant_id", "stream_id", "level", "idx");
ALTER TABLE "merkle_nodes" ADD CONSTRAINT "merkle_nodes_tenant_id_stream_id_fkey" FOREIGN KEY ("tenant_id", "stream_id") REFERENCES "streams"("tenant_id", "stream_id") ON DELETE RESTRICT ON UPDATE RESTRICT;
