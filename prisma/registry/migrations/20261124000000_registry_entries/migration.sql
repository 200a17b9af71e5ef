-- The registry (docs/registry.md): scopes, namespaces, decisions, invariants, versioned rules, overrides, references,
-- links and the event feed (docs/registry.md "Entries", "Events"). Hand-written (ADR 0003).

CREATE TABLE "tenant_heads" (
    "tenant_id" TEXT NOT NULL,
    "revision" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "tenant_heads_pkey" PRIMARY KEY ("tenant_id"),
    CONSTRAINT "tenant_heads_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

CREATE TABLE "scopes" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "selector" JSONB NOT NULL DEFAULT '{}',
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT,
    CONSTRAINT "scopes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "scopes_selector_object" CHECK (jsonb_typeof("selector") = 'object'),
    CONSTRAINT "scopes_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "scopes_tenant_id_name_key" ON "scopes"("tenant_id", "name");
CREATE INDEX "scopes_tenant_id_created_at_id_idx" ON "scopes"("tenant_id", "created_at", "id");

CREATE TABLE "namespaces" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "scope_id" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "parent_id" TEXT,
    "depth" INTEGER NOT NULL,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT,
    CONSTRAINT "namespaces_pkey" PRIMARY KEY ("id"),
    -- docs/registry.md "Limits": a root (depth 0) plus at most two levels below it.
    CONSTRAINT "namespaces_depth_check" CHECK ("depth" BETWEEN 0 AND 2),
    CONSTRAINT "namespaces_scope_id_fkey" FOREIGN KEY ("scope_id") REFERENCES "scopes"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "namespaces_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "namespaces"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "namespaces_scope_id_path_key" ON "namespaces"("scope_id", "path");
CREATE INDEX "namespaces_tenant_id_scope_id_created_at_id_idx" ON "namespaces"("tenant_id", "scope_id", "created_at", "id");

CREATE TABLE "decisions" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "scope_id" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "context" TEXT,
    "reasoning" TEXT,
    "author" TEXT NOT NULL,
    "author_type" TEXT NOT NULL,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "namespace" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT,
    "search" tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english'::regconfig, coalesce("decision", '')), 'A') ||
        setweight(to_tsvector('english'::regconfig, coalesce("context", '')), 'B') ||
        setweight(to_tsvector('english'::regconfig, coalesce("reasoning", '')), 'C')
    ) STORED,
    CONSTRAINT "decisions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "decisions_scope_id_fkey" FOREIGN KEY ("scope_id") REFERENCES "scopes"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "decisions_tenant_id_scope_id_created_at_id_idx" ON "decisions"("tenant_id", "scope_id", "created_at", "id");
CREATE INDEX "decisions_search_idx" ON "decisions" USING GIN ("search");

CREATE TABLE "invariants" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "scope_id" TEXT NOT NULL,
    "constraint_text" TEXT NOT NULL,
    "rationale" TEXT,
    "requires_approval" BOOLEAN NOT NULL DEFAULT false,
    "author" TEXT NOT NULL,
    "author_type" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "revoked_at" TIMESTAMPTZ(3),
    "revoked_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT,
    "search" tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english'::regconfig, coalesce("constraint_text", '')), 'A') ||
        setweight(to_tsvector('english'::regconfig, coalesce("rationale", '')), 'B')
    ) STORED,
    CONSTRAINT "invariants_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "invariants_status_check" CHECK ("status" IN ('active', 'revoked')),
    CONSTRAINT "invariants_scope_id_fkey" FOREIGN KEY ("scope_id") REFERENCES "scopes"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "invariants_tenant_id_scope_id_created_at_id_idx" ON "invariants"("tenant_id", "scope_id", "created_at", "id");
CREATE INDEX "invariants_search_idx" ON "invariants" USING GIN ("search");

CREATE TABLE "rules" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "scope_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "version" INTEGER NOT NULL,
    "current_version_id" TEXT,
    "archived_at" TIMESTAMPTZ(3),
    "archived_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT,
    CONSTRAINT "rules_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "rules_status_check" CHECK ("status" IN ('active', 'archived')),
    CONSTRAINT "rules_scope_id_fkey" FOREIGN KEY ("scope_id") REFERENCES "scopes"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "rules_current_version_id_key" ON "rules"("current_version_id");
CREATE INDEX "rules_tenant_id_scope_id_created_at_id_idx" ON "rules"("tenant_id", "scope_id", "created_at", "id");

CREATE TABLE "rule_versions" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "scope_id" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "directive" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "verdict" TEXT,
    "applies_to" JSONB,
    "conditions" JSONB NOT NULL DEFAULT '[]',
    "condition_mode" TEXT NOT NULL DEFAULT 'all',
    "requires" JSONB NOT NULL DEFAULT '[]',
    "deciders" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "priority" INTEGER,
    "author" TEXT NOT NULL,
    "author_type" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT,
    "search" tsvector GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, coalesce("directive", '')), 'A')) STORED,
    CONSTRAINT "rule_versions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "rule_versions_severity_check" CHECK ("severity" IN ('MANDATORY', 'REQUIRES_APPROVAL', 'ADVISORY', 'ALLOW')),
    CONSTRAINT "rule_versions_condition_mode_check" CHECK ("condition_mode" IN ('all', 'any')),
    CONSTRAINT "rule_versions_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "rules"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "rule_versions_rule_id_version_key" ON "rule_versions"("rule_id", "version");
CREATE INDEX "rule_versions_tenant_id_idx" ON "rule_versions"("tenant_id");
CREATE INDEX "rule_versions_search_idx" ON "rule_versions" USING GIN ("search");
ALTER TABLE "rules" ADD CONSTRAINT "rules_current_version_id_fkey" FOREIGN KEY ("current_version_id") REFERENCES "rule_versions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Rule versions are immutable evidence (consultation records cite them by id, docs/verdicts.md "Rule version"): refuse any change.
CREATE FUNCTION "rule_versions_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'rule versions are immutable' USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER "rule_versions_no_update" BEFORE UPDATE OR DELETE ON "rule_versions"
    FOR EACH ROW EXECUTE FUNCTION "rule_versions_immutable"();

CREATE TABLE "overrides" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "scope_id" TEXT NOT NULL,
    "scope_ids" TEXT[],
    "target_id" TEXT NOT NULL,
    "target_ids" TEXT[],
    "target_type" TEXT NOT NULL,
    "override_type" TEXT NOT NULL,
    "justification" TEXT NOT NULL,
    "conditions" TEXT,
    "approved_by" TEXT,
    "applies_to_scope" JSONB,
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "revoked_by" TEXT,
    "approval_id" TEXT,
    "consultation_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT,
    CONSTRAINT "overrides_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "overrides_target_type_check" CHECK ("target_type" IN ('invariant', 'rule')),
    CONSTRAINT "overrides_scope_id_fkey" FOREIGN KEY ("scope_id") REFERENCES "scopes"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "overrides_tenant_id_created_at_id_idx" ON "overrides"("tenant_id", "created_at", "id");
CREATE INDEX "overrides_scope_ids_idx" ON "overrides" USING GIN ("scope_ids");

CREATE TABLE "entry_references" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "scope_id" TEXT NOT NULL,
    "entry_id" TEXT NOT NULL,
    "entry_type" TEXT NOT NULL,
    "context_type" TEXT NOT NULL,
    "context_ref" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reason" TEXT,
    "author" TEXT NOT NULL,
    "author_type" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT,
    CONSTRAINT "entry_references_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "entry_references_status_check" CHECK ("status" IN ('cited', 'followed', 'verified', 'diverged')),
    -- docs/registry.md "References and links": a diverged reference must say why.
    CONSTRAINT "entry_references_diverged_reason" CHECK ("status" <> 'diverged' OR coalesce(btrim("reason"), '') <> ''),
    CONSTRAINT "entry_references_scope_id_fkey" FOREIGN KEY ("scope_id") REFERENCES "scopes"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "entry_references_tenant_id_scope_id_created_at_id_idx" ON "entry_references"("tenant_id", "scope_id", "created_at", "id");
CREATE INDEX "entry_references_tenant_id_entry_id_idx" ON "entry_references"("tenant_id", "entry_id");
CREATE INDEX "entry_references_tenant_id_context_ref_idx" ON "entry_references"("tenant_id", "context_ref");

CREATE TABLE "links" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "from_id" TEXT NOT NULL,
    "from_type" TEXT NOT NULL,
    "from_scope_id" TEXT NOT NULL,
    "to_id" TEXT NOT NULL,
    "to_type" TEXT NOT NULL,
    "to_scope_id" TEXT NOT NULL,
    "relation" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT,
    CONSTRAINT "links_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "links_relation_check" CHECK ("relation" IN ('depends_on', 'supersedes', 'contradicts', 'in_tension_with', 'creates')),
    CONSTRAINT "links_not_self" CHECK ("from_id" <> "to_id"),
    CONSTRAINT "links_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "links_tenant_id_from_id_to_id_relation_key" ON "links"("tenant_id", "from_id", "to_id", "relation");
CREATE INDEX "links_tenant_id_to_id_idx" ON "links"("tenant_id", "to_id");

CREATE TABLE "events" (
    "id" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "scope_id" TEXT,
    "scope_ids" TEXT[],
    "type" TEXT NOT NULL,
    "entity_type" TEXT NOT NULL,
    "entity_id" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "actor_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "events_pkey" PRIMARY KEY ("id"),
    -- The id is the sequence number in fixed-width hex, so lexical order is numeric order.
    CONSTRAINT "events_id_matches_seq" CHECK ("id" = 'evt-' || lpad(to_hex("seq"), 16, '0')),
    CONSTRAINT "events_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "events_seq_key" ON "events"("seq");
CREATE INDEX "events_tenant_id_seq_idx" ON "events"("tenant_id", "seq");
CREATE INDEX "events_scope_ids_idx" ON "events" USING GIN ("scope_ids");
