-- A human principal's console sign-in (docs/identity.md "Console sign-in"). Hand-written (ADR 0003).
--
-- oidc_issuer, oidc_subject: the OpenID Connect identity bound to the principal, both or neither; one
--   principal per (issuer, subject) across the platform, so an ID token names at most one principal.
-- console_permissions: what a console session of this principal holds (empty: it may sign in and do nothing).
ALTER TABLE "principals" ADD COLUMN "oidc_issuer" TEXT;
ALTER TABLE "principals" ADD COLUMN "oidc_subject" TEXT;
ALTER TABLE "principals" ADD COLUMN "console_permissions" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "principals" ADD CONSTRAINT "principals_oidc_pair" CHECK (("oidc_issuer" IS NULL) = ("oidc_subject" IS NULL));
CREATE UNIQUE INDEX "principals_oidc_issuer_oidc_subject_key" ON "principals"("oidc_issuer", "oidc_subject");
