-- Key transition statements of the ledger's own Ed25519 ring (docs/ledger-formats.md "Key transitions";
-- docs/adr/0017-trust-held-by-the-verifier.md). Each rotation writes one row, in the transaction that
-- creates the new key: the new public key and the keys it retires, signed by each retired key and by the
-- new key. A verifier who trusts an older ledger key accepts the newer one through these statements.
-- Rows are never changed or deleted; `kid` is the new key's.
CREATE TABLE "ledger_key_transitions" (
    "kid" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "statement" JSONB NOT NULL,
    CONSTRAINT "ledger_key_transitions_pkey" PRIMARY KEY ("kid"),
    CONSTRAINT "ledger_key_transitions_kid_fkey" FOREIGN KEY ("kid") REFERENCES "signing_keys"("kid") ON DELETE RESTRICT ON UPDATE RESTRICT
);
