-- Partitions, step 3 of 3 (docs/operations.md "Partitions"; ADR 0034). Hand-written (ADR 0003).
--
-- Each table is renamed, a partitioned table takes its name, and the old table becomes its partition holding every
-- row written before partitioning. Its primary key becomes the unique index step 2 built, the CHECK constraint
-- validated in step 2 proves the partition bounds, and the indexes and foreign keys of the partitioned table match
-- those the old table has, so nothing here rewrites or scans a table. Each partitioned table gets its DEFAULT
-- partition, so no write is ever refused for want of a partition; the worker's maintenance job creates the others.
--
-- What the old unique constraints guarded and the partitioned tables cannot (a unique index must hold the partition
-- key) holds by construction: an event's idempotency key is looked up while the tenant's head row is locked (every
-- registry write takes that lock first) and its seq comes from one sequence; a delivery's keep_until is its
-- event's time plus the retention, so a repeated fan-out of the same event meets the same key; an attempt carries
-- its delivery's keep_until. The old table keeps its own unique indexes until it is dropped.
-- Locks first, in the order the registry's writes take them, under a lock timeout (see step 1): an event's
-- sequence number is taken before its row is written, so the sequence comes first (ALTER SEQUENCE locks it).
SET LOCAL lock_timeout = '5s';
ALTER SEQUENCE events_seq_seq OWNED BY NONE;
LOCK TABLE events, webhook_deliveries, webhook_attempts, seal_outbox IN ACCESS EXCLUSIVE MODE;
CREATE FUNCTION pg_temp.legacy_bound(constraint_name text) RETURNS timestamptz LANGUAGE sql AS $$
  SELECT substring(pg_get_constraintdef(oid) FROM '''([^'']+)''')::timestamptz FROM pg_constraint WHERE conname = constraint_name
$$;

-- Events: partitioned by keep_until.
DO $$
DECLARE
  keep timestamptz := pg_temp.legacy_bound('events_legacy_bounds');
  legacy text := 'events_p' || to_char(keep AT TIME ZONE 'UTC', 'YYYYMMDD"t"HH24MI');
BEGIN
  EXECUTE format('ALTER TABLE events RENAME TO %I', legacy);
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT events_pkey, ADD CONSTRAINT %I PRIMARY KEY USING INDEX events_id_keep_until_key', legacy, legacy || '_pkey');
  EXECUTE format('ALTER INDEX events_scope_ids_idx RENAME TO %I', legacy || '_scope_ids_idx');
  EXECUTE format('ALTER INDEX events_tenant_id_seq_idx RENAME TO %I', legacy || '_tenant_id_seq_idx');
  EXECUTE format('ALTER INDEX events_seq_key RENAME TO %I', legacy || '_seq_key');
  EXECUTE format('ALTER INDEX events_tenant_id_idempotency_key_key RENAME TO %I', legacy || '_tenant_id_idempotency_key_key');
  EXECUTE format('ALTER INDEX events_tenant_id_idempotency_key_idx RENAME TO %I', legacy || '_tenant_id_idempotency_key_idx');
  EXECUTE format('ALTER TABLE %I RENAME CONSTRAINT events_legacy_bounds TO %I', legacy, legacy || '_bounds');
  CREATE TABLE events (
    id              TEXT NOT NULL,
    seq             BIGINT NOT NULL DEFAULT nextval('events_seq_seq'),
    tenant_id       TEXT NOT NULL,
    scope_id        TEXT,
    scope_ids       TEXT[],
    type            TEXT NOT NULL,
    entity_type     TEXT NOT NULL,
    entity_id       TEXT NOT NULL,
    data            JSONB NOT NULL,
    actor_id        TEXT,
    created_at      TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    source          TEXT NOT NULL DEFAULT 'registry',
    idempotency_key TEXT,
    -- The registry writes created_at + the tenant's retention of events; a replica of the previous version writes
    -- none and gets the default retention.
    keep_until      TIMESTAMPTZ(3) NOT NULL DEFAULT (CURRENT_TIMESTAMP + interval '90 days'),
    CONSTRAINT events_pkey PRIMARY KEY (id, keep_until),
    CONSTRAINT events_id_matches_seq CHECK (id = ('evt-' || lpad(to_hex(seq), 16, '0'))),
    CONSTRAINT events_source_check CHECK (source IN ('registry', 'verdict')),
    CONSTRAINT events_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants(id) ON UPDATE CASCADE ON DELETE RESTRICT
  ) PARTITION BY RANGE (keep_until);
  ALTER SEQUENCE events_seq_seq OWNED BY events.seq;
  CREATE INDEX events_scope_ids_idx ON events USING GIN (scope_ids);
  CREATE INDEX events_tenant_id_seq_idx ON events (tenant_id, seq);
  CREATE INDEX events_tenant_id_idempotency_key_idx ON events (tenant_id, idempotency_key);
  EXECUTE format('ALTER TABLE events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', legacy, keep, keep + interval '1 minute');
  CREATE TABLE events_default PARTITION OF events DEFAULT;
END $$;

-- Webhook deliveries: partitioned by keep_until.
DO $$
DECLARE
  keep timestamptz := pg_temp.legacy_bound('webhook_deliveries_legacy_bounds');
  legacy text := 'webhook_deliveries_p' || to_char(keep AT TIME ZONE 'UTC', 'YYYYMMDD"t"HH24MI');
BEGIN
  EXECUTE format('ALTER TABLE webhook_deliveries RENAME TO %I', legacy);
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT webhook_deliveries_pkey, ADD CONSTRAINT %I PRIMARY KEY USING INDEX webhook_deliveries_id_keep_until_key',
    legacy, legacy || '_pkey');
  EXECUTE format('ALTER INDEX webhook_deliveries_due_idx RENAME TO %I', legacy || '_due_idx');
  EXECUTE format('ALTER INDEX webhook_deliveries_subscription_id_created_at_id_idx RENAME TO %I', legacy || '_subscription_id_created_at_id_idx');
  EXECUTE format('ALTER INDEX webhook_deliveries_subscription_id_event_id_key RENAME TO %I', legacy || '_subscription_id_event_id_key');
  EXECUTE format('ALTER INDEX webhook_deliveries_subscription_event_keep_until_key RENAME TO %I', legacy || '_subscription_event_keep_until_key');
  EXECUTE format('ALTER TABLE %I RENAME CONSTRAINT webhook_deliveries_legacy_bounds TO %I', legacy, legacy || '_bounds');
  CREATE TABLE webhook_deliveries (
    id               TEXT NOT NULL,
    tenant_id        TEXT NOT NULL,
    subscription_id  TEXT NOT NULL,
    event_id         TEXT NOT NULL,
    event_type       TEXT NOT NULL,
    status           TEXT NOT NULL DEFAULT 'pending',
    attempt_count    INTEGER NOT NULL DEFAULT 0,
    max_attempts     INTEGER NOT NULL,
    next_attempt_at  TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    dispatched_until TIMESTAMPTZ(3),
    last_status_code INTEGER,
    last_error       TEXT,
    delivered_at     TIMESTAMPTZ(3),
    created_at       TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at       TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    keep_until       TIMESTAMPTZ(3) NOT NULL DEFAULT (CURRENT_TIMESTAMP + interval '30 days'),
    CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (id, keep_until),
    CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled')),
    CONSTRAINT webhook_deliveries_subscription_id_fkey FOREIGN KEY (subscription_id) REFERENCES webhook_subscriptions(id)
      ON UPDATE CASCADE ON DELETE RESTRICT
  ) PARTITION BY RANGE (keep_until);
  CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
  CREATE INDEX webhook_deliveries_subscription_id_created_at_id_idx ON webhook_deliveries (subscription_id, created_at, id);
  CREATE UNIQUE INDEX webhook_deliveries_subscription_event_keep_until_key ON webhook_deliveries (subscription_id, event_id, keep_until);
  EXECUTE format('ALTER TABLE webhook_deliveries ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', legacy, keep, keep + interval '1 minute');
  CREATE TABLE webhook_deliveries_default PARTITION OF webhook_deliveries DEFAULT;
END $$;

-- Webhook attempts: partitioned by their delivery's keep_until.
DO $$
DECLARE
  keep timestamptz := pg_temp.legacy_bound('webhook_attempts_legacy_bounds');
  legacy text := 'webhook_attempts_p' || to_char(keep AT TIME ZONE 'UTC', 'YYYYMMDD"t"HH24MI');
BEGIN
  EXECUTE format('ALTER TABLE webhook_attempts RENAME TO %I', legacy);
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT webhook_attempts_pkey, ADD CONSTRAINT %I PRIMARY KEY USING INDEX webhook_attempts_id_keep_until_key',
    legacy, legacy || '_pkey');
  EXECUTE format('ALTER INDEX webhook_attempts_delivery_id_attempt_key RENAME TO %I', legacy || '_delivery_id_attempt_key');
  EXECUTE format('ALTER INDEX webhook_attempts_delivery_attempt_keep_until_key RENAME TO %I', legacy || '_delivery_attempt_keep_until_key');
  EXECUTE format('ALTER TABLE %I RENAME CONSTRAINT webhook_attempts_legacy_bounds TO %I', legacy, legacy || '_bounds');
  CREATE TABLE webhook_attempts (
    id              TEXT NOT NULL,
    tenant_id       TEXT NOT NULL,
    delivery_id     TEXT NOT NULL,
    subscription_id TEXT NOT NULL,
    attempt         INTEGER NOT NULL,
    outcome         TEXT NOT NULL DEFAULT 'in_flight',
    status_code     INTEGER,
    error           TEXT,
    duration_ms     INTEGER,
    key_id          TEXT,
    started_at      TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    finished_at     TIMESTAMPTZ(3),
    keep_until      TIMESTAMPTZ(3) NOT NULL DEFAULT (CURRENT_TIMESTAMP + interval '30 days'),
    CONSTRAINT webhook_attempts_pkey PRIMARY KEY (id, keep_until),
    CONSTRAINT webhook_attempts_outcome_check CHECK (outcome IN ('in_flight', 'succeeded', 'failed', 'interrupted'))
  ) PARTITION BY RANGE (keep_until);
  CREATE UNIQUE INDEX webhook_attempts_delivery_attempt_keep_until_key ON webhook_attempts (delivery_id, attempt, keep_until);
  EXECUTE format('ALTER TABLE webhook_attempts ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', legacy, keep, keep + interval '1 minute');
  CREATE TABLE webhook_attempts_default PARTITION OF webhook_attempts DEFAULT;
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
DROP FUNCTION pg_temp.legacy_bound(text);
