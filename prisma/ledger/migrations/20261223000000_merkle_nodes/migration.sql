-- Stored subtree hashes of each stream's Merkle tree (docs/evidence.md "The tree"; docs/adr/0009-merkle-storage.md).
--
-- The leaves are not stored here: leaf i of a stream is derived from the fact at seq = i + 1. A row
-- is the root of one perfect subtree at a level that is a multiple of 4 (4, 8, 12, ...): node idx
-- of level L covers the leaves [idx * 2^L, (idx + 1) * 2^L). Any other subtree hash is then folded
-- from at most 16 rows of one level (fact hashes below level 4). Facts are append-only, so a row
-- never changes once written: writers insert with ON CONFLICT DO NOTHING and compare on conflict.
CREATE TABLE "merkle_nodes" (
    "stream_id" TEXT NOT NULL,
    "level" SMALLINT NOT NULL,
    "idx" BIGINT NOT NULL,
    "hash" BYTEA NOT NULL,
    CONSTRAINT "merkle_nodes_pkey" PRIMARY KEY ("stream_id", "level", "idx"),
    CONSTRAINT "merkle_nodes_level_check" CHECK ("level" >= 4 AND "level" % 4 = 0),
    CONSTRAINT "merkle_nodes_idx_check" CHECK ("idx" >= 0),
    CONSTRAINT "merkle_nodes_hash_check" CHECK (octet_length("hash") = 32),
    CONSTRAINT "merkle_nodes_stream_id_fkey" FOREIGN KEY ("stream_id") REFERENCES "streams"("stream_id") ON DELETE RESTRICT ON UPDATE RESTRICT
);
