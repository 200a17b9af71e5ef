-- The console's sessions and one-time sign-in links (docs/identity.md "Console sign-in", ADR 0029). Hand-written (ADR 0003).
--
-- console_sessions: one signed-in browser. token_hash is the SHA-256 of the cookie's value and credential_hash that
--   of the credential the console's forwarders present for it (derived from the cookie's value); neither secret is
--   stored. The session holds no permissions: they are the principal's console_permissions, read at each use.
--   ended_at: signed out. A session past expires_at (absolute lifetime) or ended is dead.
-- console_links: one-time sign-in links, stored as the SHA-256 of their token; used_at marks the one use.
CREATE TABLE "console_sessions" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "principal_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "credential_hash" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "console_sessions_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "console_sessions_principal_id_fkey" FOREIGN KEY ("principal_id") REFERENCES "principals"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "console_sessions_token_hash_key" ON "console_sessions"("token_hash");
CREATE UNIQUE INDEX "console_sessions_credential_hash_key" ON "console_sessions"("credential_hash");
CREATE INDEX "console_sessions_tenant_id_principal_id_idx" ON "console_sessions"("tenant_id", "principal_id");

CREATE TABLE "console_links" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "principal_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    CONSTRAINT "console_links_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "console_links_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "console_links_principal_id_fkey" FOREIGN KEY ("principal_id") REFERENCES "principals"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "console_links_token_hash_key" ON "console_links"("token_hash");
CREATE INDEX "console_links_tenant_id_principal_id_idx" ON "console_links"("tenant_id", "principal_id");

-- The bootstrap admin's console holds what its key holds (a bootstrap admin created from now on gets it at creation).
UPDATE "principals" SET "console_permissions" = ARRAY['platform_admin']::TEXT[]
WHERE "console_permissions" = ARRAY[]::TEXT[]
  AND "id" IN (SELECT "principal_id" FROM "api_keys" WHERE "bootstrap" AND "revoked_at" IS NULL);
