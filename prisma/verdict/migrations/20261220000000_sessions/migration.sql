-- Session cookies (docs/verdicts.md "Authentication", docs/identity.md "Session cookie"): a cookie stands
-- for the API key that opened it and authenticates check and resolve only. Only the SHA-256 of the
-- cookie value is stored, as for API keys. `key_hash` is the key's own hash (never its plaintext):
-- each use re-resolves the key through the gateway's auth cache, so a revoked or expired key ends its
-- sessions at once and a session never holds more than its key holds at that moment.
CREATE TABLE "cookie_sessions" (
    "token_hash" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "principal_id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "cookie_sessions_pkey" PRIMARY KEY ("token_hash")
);
-- The hourly sweep of expired sessions.
CREATE INDEX "cookie_sessions_expires_at_idx" ON "cookie_sessions"("expires_at");
