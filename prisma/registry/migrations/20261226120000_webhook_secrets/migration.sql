-- Standard Webhooks (docs/webhooks.md "Standard Webhooks"): each subscription has its own HMAC
-- secret, besides the service-wide ECDSA key. Hand-written (ADR 0003).
--
-- secret_ciphertext: the current secret (32 random bytes), AES-256-GCM under KEY_ENCRYPTION_KEY with
--   the subscription id as associated data (the format of @arbiter/crypto encryptSecret). Shown once,
--   in the answer that made it (creation or rotation), never stored or logged in clear.
-- previous_secret_ciphertext / previous_secret_expires_at: the secret a rotation replaced; deliveries
--   are signed with it too until it expires, then it is dropped.
-- Subscriptions made before this migration have no secret: SQL cannot encrypt under the
--   application's key, so the registry makes one at their first delivery (lazily), and an admin
--   learns a secret with POST /api/v1/webhooks/{id}/secret/rotate. Adding nullable columns rewrites
--   no row.
ALTER TABLE "webhook_subscriptions"
    ADD COLUMN "secret_ciphertext" TEXT,
    ADD COLUMN "secret_created_at" TIMESTAMPTZ(3),
    ADD COLUMN "previous_secret_ciphertext" TEXT,
    ADD COLUMN "previous_secret_expires_at" TIMESTAMPTZ(3);
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_secret_check"
    CHECK (("secret_ciphertext" IS NULL) = ("secret_created_at" IS NULL));
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_previous_secret_check"
    CHECK (("previous_secret_ciphertext" IS NULL) = ("previous_secret_expires_at" IS NULL));
