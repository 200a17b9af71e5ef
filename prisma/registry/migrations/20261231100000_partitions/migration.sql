-- Partitions, step 1 of 3 (docs/operations.md "Partitions"; ADR 0034). Hand-written (ADR 0003).
--
-- Events (approval events included) and webhook deliveries and attempts are partitioned by keep_until (when a row
-- may leave: its time plus the tenant's retention when it was written), the seal outbox by created_at. As in the
-- verdict database, each existing table becomes one partition of the new partitioned table (step 3) without being
-- rewritten or scanned under a lock that blocks reads or writes: keep_until is added with a constant default (the
-- migration's minute plus the default retention: 90 days for events, 30 for deliveries and their attempts), and a
-- CHECK constraint saying what the partition bounds will say is added NOT VALID here and validated in step 2.
--
-- The foreign keys that point at events and webhook deliveries go: PostgreSQL cannot reference a partitioned table
-- by id alone, and a partition dropped whole must not be held back by a row elsewhere. What they guarded is written
-- by the registry itself in the same transactions (an outbox row, a delivery and its attempts name the event and
-- delivery they are written with); the foreign keys from these tables to tenants and subscriptions stay.
--
-- The locks are taken first, all at once and in the order the registry's writes take them, under a lock timeout: a
-- migration that cannot have them soon gives up (the applier tries it again) rather than queue every request behind
-- it or deadlock with one.
SET LOCAL lock_timeout = '5s';
LOCK TABLE events, outbox, approval_notifications, webhook_deliveries, webhook_attempts, seal_outbox IN ACCESS EXCLUSIVE MODE;
ALTER TABLE approval_notifications DROP CONSTRAINT approval_notifications_event_id_fkey;
ALTER TABLE outbox DROP CONSTRAINT outbox_event_id_fkey;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_id_fkey;
ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_delivery_id_fkey;

DO $$
DECLARE
  events_keep timestamptz := date_trunc('minute', now()) + interval '90 days';
  deliveries_keep timestamptz := date_trunc('minute', now()) + interval '30 days';
  outbox_until timestamptz := date_trunc('minute', now()) + interval '1 day';
BEGIN
  EXECUTE format('ALTER TABLE events ADD COLUMN keep_until TIMESTAMPTZ(3) NOT NULL DEFAULT %L', events_keep);
  EXECUTE format('ALTER TABLE webhook_deliveries ADD COLUMN keep_until TIMESTAMPTZ(3) NOT NULL DEFAULT %L', deliveries_keep);
  EXECUTE format('ALTER TABLE webhook_attempts ADD COLUMN keep_until TIMESTAMPTZ(3) NOT NULL DEFAULT %L', deliveries_keep);
  EXECUTE format('ALTER TABLE events ADD CONSTRAINT events_legacy_bounds CHECK (keep_until >= %L AND keep_until < %L) NOT VALID',
    events_keep, events_keep + interval '1 minute');
  EXECUTE format(
    'ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_legacy_bounds CHECK (keep_until >= %L AND keep_until < %L) NOT VALID',
    deliveries_keep, deliveries_keep + interval '1 minute');
  EXECUTE format(
    'ALTER TABLE webhook_attempts ADD CONSTRAINT webhook_attempts_legacy_bounds CHECK (keep_until >= %L AND keep_until < %L) NOT VALID',
    deliveries_keep, deliveries_keep + interval '1 minute');
  EXECUTE format('ALTER TABLE seal_outbox ADD CONSTRAINT seal_outbox_legacy_bounds CHECK (created_at < %L) NOT VALID', outbox_until);
END $$;
