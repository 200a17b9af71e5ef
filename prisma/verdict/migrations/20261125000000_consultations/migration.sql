-- Consultation records (docs/verdicts.md "Consultation record") and resolve sessions (docs/verdicts.md "The resolve loop").
CREATE TABLE "consultations" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "caller_principal_id" TEXT NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL,
    "action" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "dominating_rule_id" TEXT,
    "record" JSONB NOT NULL,
    CONSTRAINT "consultations_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "consultations_tenant_id_requested_at_id_idx" ON "consultations"("tenant_id", "requested_at", "id");

CREATE TABLE "resolve_sessions" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "caller_principal_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "scope" JSONB NOT NULL,
    "context" JSONB NOT NULL,
    "rounds" INTEGER NOT NULL DEFAULT 0,
    "history" JSONB NOT NULL DEFAULT '[]',
    "correlation" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    CONSTRAINT "resolve_sessions_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "resolve_sessions_tenant_id_idx" ON "resolve_sessions"("tenant_id");
