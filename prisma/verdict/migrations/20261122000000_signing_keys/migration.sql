-- Signing keys with epochs (docs/operations.md "Keys and their rotation"); private halves encrypted at rest.
CREATE TABLE "signing_keys" (
    "kid" TEXT NOT NULL,
    "owner_id" TEXT NOT NULL,
    "epoch" TEXT NOT NULL,
    "algorithm" TEXT NOT NULL,
    "public_jwk" JSONB NOT NULL,
    "encrypted_private_key" TEXT NOT NULL,
    "not_before" TIMESTAMPTZ(3) NOT NULL,
    "not_after" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "signing_keys_pkey" PRIMARY KEY ("kid")
);
CREATE UNIQUE INDEX "signing_keys_owner_id_epoch_key" ON "signing_keys"("owner_id", "epoch");
