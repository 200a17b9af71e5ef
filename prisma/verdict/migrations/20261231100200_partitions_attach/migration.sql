-- Partitions, step 3 of 3 (docs/operations.md "Partitions"; ADR 0034). Hand-written (ADR 0003).
--
-- Each table is renamed, a partitioned table takes its name, and the old table becomes its partition holding every
-- row written before partitioning. Its primary key becomes the unique index step 2 built, and the CHECK constraint
-- validated in step 2 proves the partition bounds, so nothing here rewrites or scans a table: the locks taken are
-- held for the time of the catalog changes only. Each partitioned table gets its DEFAULT partition, so no write is
-- ever refused for want of a partition; the worker's maintenance job creates the others ahead.
--
-- Bounds of the partitions made of the old tables (written by step 1 into their CHECK constraints):
-- consultations and shadow disagreements: [the migration's minute + 90 days, one minute later), named after their
-- lower bound like every partition; the seal outbox and resolve sessions: everything below a day after the
-- migration (seal_outbox_legacy, resolve_sessions_legacy). The first literal of each constraint is that bound.
-- Locks first, in the order the gateway's writes take them, under a lock timeout (see step 1).
SET LOCAL lock_timeout = '5s';
LOCK TABLE consultations, shadow_disagreements, seal_outbox, resolve_sessions IN ACCESS EXCLUSIVE MODE;
CREATE FUNCTION pg_temp.legacy_bound(constraint_name text) RETURNS timestamptz LANGUAGE sql AS $$
  SELECT substring(pg_get_constraintdef(oid) FROM '''([^'']+)''')::timestamptz FROM pg_constraint WHERE conname = constraint_name
$$;

-- Consultations: partitioned by keep_until.
DO $$
DECLARE
  keep timestamptz := pg_temp.legacy_bound('consultations_legacy_bounds');
  legacy text := 'consultations_p' || to_char(keep AT TIME ZONE 'UTC', 'YYYYMMDD"t"HH24MI');
BEGIN
  EXECUTE format('ALTER TABLE consultations RENAME TO %I', legacy);
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT consultations_pkey, ADD CONSTRAINT %I PRIMARY KEY USING INDEX consultations_id_keep_until_key',
    legacy, legacy || '_pkey');
  EXECUTE format('ALTER INDEX consultations_tenant_id_requested_at_id_idx RENAME TO %I', legacy || '_tenant_id_requested_at_id_idx');
  EXECUTE format('ALTER TABLE %I RENAME CONSTRAINT consultations_legacy_bounds TO %I', legacy, legacy || '_bounds');
  CREATE TABLE consultations (
    id                  TEXT NOT NULL,
    tenant_id           TEXT NOT NULL,
    caller_principal_id TEXT NOT NULL,
    requested_at        TIMESTAMPTZ(3) NOT NULL,
    action              TEXT NOT NULL,
    verdict             TEXT NOT NULL,
    dominating_rule_id  TEXT,
    record              JSON NOT NULL,
    explanation_basis   JSON,
    -- The gateway writes requested_at + the tenant's retention; a replica of the previous version writes none and
    -- gets the default retention.
    keep_until          TIMESTAMPTZ(3) NOT NULL DEFAULT (CURRENT_TIMESTAMP + interval '90 days'),
    CONSTRAINT consultations_pkey PRIMARY KEY (id, keep_until)
  ) PARTITION BY RANGE (keep_until);
  -- As before: records stay uncompressed (partitions are created WITH (toast_tuple_target = 8160)).
  ALTER TABLE consultations ALTER COLUMN record SET STORAGE EXTERNAL;
  CREATE INDEX consultations_tenant_id_requested_at_id_idx ON consultations (tenant_id, requested_at, id);
  EXECUTE format('ALTER TABLE consultations ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', legacy, keep, keep + interval '1 minute');
  CREATE TABLE consultations_default PARTITION OF consultations DEFAULT WITH (toast_tuple_target = 8160);
END $$;

-- Shadow disagreements: partitioned by their consultation's keep_until.
DO $$
DECLARE
  keep timestamptz := pg_temp.legacy_bound('shadow_disagreements_legacy_bounds');
  legacy text := 'shadow_disagreements_p' || to_char(keep AT TIME ZONE 'UTC', 'YYYYMMDD"t"HH24MI');
BEGIN
  EXECUTE format('ALTER TABLE shadow_disagreements RENAME TO %I', legacy);
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT shadow_disagreements_pkey, ADD CONSTRAINT %I PRIMARY KEY USING INDEX shadow_disagreements_keep_until_key',
    legacy, legacy || '_pkey');
  EXECUTE format('ALTER INDEX shadow_disagreements_rule_idx RENAME TO %I', legacy || '_rule_idx');
  EXECUTE format('ALTER TABLE %I RENAME CONSTRAINT shadow_disagreements_legacy_bounds TO %I', legacy, legacy || '_bounds');
  CREATE TABLE shadow_disagreements (
    tenant_id       TEXT NOT NULL,
    rule_id         TEXT NOT NULL,
    rule_version_id TEXT NOT NULL,
    consultation_id TEXT NOT NULL,
    requested_at    TIMESTAMPTZ(3) NOT NULL,
    would_be        TEXT NOT NULL,
    keep_until      TIMESTAMPTZ(3) NOT NULL DEFAULT (CURRENT_TIMESTAMP + interval '90 days'),
    CONSTRAINT shadow_disagreements_pkey PRIMARY KEY (consultation_id, rule_id, keep_until)
  ) PARTITION BY RANGE (keep_until);
  CREATE INDEX shadow_disagreements_rule_idx ON shadow_disagreements (tenant_id, rule_id, rule_version_id, requested_at);
  EXECUTE format('ALTER TABLE shadow_disagreements ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', legacy, keep, keep + interval '1 minute');
  CREATE TABLE shadow_disagreements_default PARTITION OF shadow_disagreements DEFAULT;
END $$;

-- The seal outbox: partitioned by created_at; its id sequence now belongs to the partitioned table.
DO $$
DECLARE
  until timestamptz := pg_temp.legacy_bound('seal_outbox_legacy_bounds');
BEGIN
  ALTER TABLE seal_outbox RENAME TO seal_outbox_legacy;
  ALTER TABLE seal_outbox_legacy DROP CONSTRAINT seal_outbox_pkey, ADD CONSTRAINT seal_outbox_legacy_pkey PRIMARY KEY USING INDEX seal_outbox_id_created_at_key;
  ALTER TABLE seal_outbox_legacy RENAME CONSTRAINT seal_outbox_legacy_bounds TO seal_outbox_legacy_bounds_check;
  CREATE TABLE seal_outbox (
    id           BIGINT NOT NULL DEFAULT nextval('seal_outbox_id_seq'),
    tenant_id    TEXT NOT NULL,
    stream_id    TEXT NOT NULL,
    client_ref   TEXT NOT NULL,
    payload      JSON NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    leased_until TIMESTAMPTZ(3),
    created_at   TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    traceparent  TEXT,
    CONSTRAINT seal_outbox_pkey PRIMARY KEY (id, created_at)
  ) PARTITION BY RANGE (created_at);
  ALTER SEQUENCE seal_outbox_id_seq OWNED BY seal_outbox.id;
  EXECUTE format('ALTER TABLE seal_outbox ATTACH PARTITION seal_outbox_legacy FOR VALUES FROM (MINVALUE) TO (%L)', until);
  CREATE TABLE seal_outbox_default PARTITION OF seal_outbox DEFAULT;
END $$;

-- Resolve sessions: partitioned by expires_at.
DO $$
DECLARE
  until timestamptz := pg_temp.legacy_bound('resolve_sessions_legacy_bounds');
BEGIN
  ALTER TABLE resolve_sessions RENAME TO resolve_sessions_legacy;
  ALTER TABLE resolve_sessions_legacy DROP CONSTRAINT resolve_sessions_pkey,
    ADD CONSTRAINT resolve_sessions_legacy_pkey PRIMARY KEY USING INDEX resolve_sessions_id_expires_at_key;
  ALTER INDEX resolve_sessions_tenant_id_idx RENAME TO resolve_sessions_legacy_tenant_id_idx;
  ALTER INDEX resolve_sessions_expires_at_idx RENAME TO resolve_sessions_legacy_expires_at_idx;
  ALTER TABLE resolve_sessions_legacy RENAME CONSTRAINT resolve_sessions_legacy_bounds TO resolve_sessions_legacy_bounds_check;
  CREATE TABLE resolve_sessions (
    id                  TEXT NOT NULL,
    tenant_id           TEXT NOT NULL,
    caller_principal_id TEXT NOT NULL,
    action              TEXT NOT NULL,
    resource            TEXT NOT NULL,
    scope               JSONB NOT NULL,
    context             JSONB NOT NULL,
    rounds              INTEGER NOT NULL DEFAULT 0,
    history             JSONB NOT NULL DEFAULT '[]',
    correlation         JSONB,
    created_at          TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at          TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    completed_at        TIMESTAMPTZ(3),
    variant             TEXT NOT NULL DEFAULT 'detailed',
    consultation_id     TEXT,
    expires_at          TIMESTAMPTZ(3) NOT NULL DEFAULT (CURRENT_TIMESTAMP + interval '1 day'),
    CONSTRAINT resolve_sessions_pkey PRIMARY KEY (id, expires_at)
  ) PARTITION BY RANGE (expires_at);
  CREATE INDEX resolve_sessions_tenant_id_idx ON resolve_sessions (tenant_id);
  CREATE INDEX resolve_sessions_expires_at_idx ON resolve_sessions (expires_at);
  EXECUTE format('ALTER TABLE resolve_sessions ATTACH PARTITION resolve_sessions_legacy FOR VALUES FROM (MINVALUE) TO (%L)', until);
  CREATE TABLE resolve_sessions_default PARTITION OF resolve_sessions DEFAULT;
END $$;
DROP FUNCTION pg_temp.legacy_bound(text);
