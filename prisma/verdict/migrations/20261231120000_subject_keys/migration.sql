-- Sensitive fields and erasure (docs/verdicts.md "Sensitive fields", docs/operations.md "Erasure", ADR 0036).
-- Hand-written (ADR 0003).
--
-- subject_secrets: one random secret per tenant, wrapped under KEY_ENCRYPTION_KEY (AAD: the tenant id). A data
--   subject is stored only as HMAC-SHA256 of its value under it; a window key holds a sensitive value only as a
--   digest under it.
-- subject_keys: one row per (tenant, subject digest): the subject's MAC key (commitments) and encryption key
--   (sealed values), 64 bytes wrapped under KEY_ENCRYPTION_KEY (AAD: tenant id and digest). An erasure deletes it.
-- erasures: the first erasure of each subject (a second one answers it); sealed in arbiter.<tenant_id>.erasures.
-- consultations.sealed_values / resolve_sessions.sealed_values: the plain sensitive values of the row, AES-256-GCM
--   ciphertext beside what is hashed (NULL when the row has none).
CREATE TABLE "subject_secrets" (
    "tenant_id" TEXT NOT NULL,
    "wrapped_secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "subject_secrets_pkey" PRIMARY KEY ("tenant_id")
);

CREATE TABLE "subject_keys" (
    "tenant_id" TEXT NOT NULL,
    "subject_digest" TEXT NOT NULL,
    "wrapped_keys" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "subject_keys_pkey" PRIMARY KEY ("tenant_id", "subject_digest")
);

CREATE TABLE "erasures" (
    "tenant_id" TEXT NOT NULL,
    "subject_digest" TEXT NOT NULL,
    "erased_at" TIMESTAMPTZ(3) NOT NULL,
    "erased_by" TEXT NOT NULL,
    CONSTRAINT "erasures_pkey" PRIMARY KEY ("tenant_id", "subject_digest")
);

ALTER TABLE consultations ADD COLUMN sealed_values json;
ALTER TABLE resolve_sessions ADD COLUMN sealed_values json;
