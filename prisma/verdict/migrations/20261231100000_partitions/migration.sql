-- Partitions, step 1 of 3 (docs/operations.md "Partitions"; ADR 0034). Hand-written (ADR 0003).
--
-- Consultations and their shadow disagreements are partitioned by keep_until (when a row may leave: its time plus
-- the tenant's retention when it was written), resolve sessions by expires_at, the seal outbox by created_at.
-- Each existing table becomes one partition of the new partitioned table (step 3) without being rewritten or
-- scanned under a lock that blocks reads or writes:
--
-- - keep_until is added with a constant default: PostgreSQL stores it once in the catalog (no rewrite), and every
--   row written before partitioning leaves at the same moment, the migration's minute plus the default retention
--   of consultations (90 days): what was kept forever is kept as long as a record written today.
-- - a CHECK constraint says what the partition bounds of step 3 will say. It is added NOT VALID here (instant) and
--   validated in step 2, outside this transaction, under a lock that lets reads and writes go on.
-- - the bounds of the seal outbox and of resolve sessions leave a day of margin for rows written by replicas of the
--   previous version while the migration runs.
--
-- The locks are taken first, all at once and in the order the gateway's writes take them, under a lock timeout: a
-- migration that cannot have them soon gives up (the applier tries it again) rather than queue every request behind
-- it or deadlock with one.
SET LOCAL lock_timeout = '5s';
LOCK TABLE consultations, shadow_disagreements, seal_outbox, resolve_sessions IN ACCESS EXCLUSIVE MODE;
DO $$
DECLARE
  legacy_keep timestamptz := date_trunc('minute', now()) + interval '90 days';
  outbox_until timestamptz := date_trunc('minute', now()) + interval '1 day';
  sessions_until timestamptz := date_trunc('minute', greatest(now(), (SELECT max(expires_at) FROM resolve_sessions))) + interval '1 day';
BEGIN
  EXECUTE format('ALTER TABLE consultations ADD COLUMN keep_until TIMESTAMPTZ(3) NOT NULL DEFAULT %L', legacy_keep);
  EXECUTE format('ALTER TABLE shadow_disagreements ADD COLUMN keep_until TIMESTAMPTZ(3) NOT NULL DEFAULT %L', legacy_keep);
  EXECUTE format(
    'ALTER TABLE consultations ADD CONSTRAINT consultations_legacy_bounds CHECK (keep_until >= %L AND keep_until < %L) NOT VALID',
    legacy_keep, legacy_keep + interval '1 minute');
  EXECUTE format(
    'ALTER TABLE shadow_disagreements ADD CONSTRAINT shadow_disagreements_legacy_bounds CHECK (keep_until >= %L AND keep_until < %L) NOT VALID',
    legacy_keep, legacy_keep + interval '1 minute');
  EXECUTE format('ALTER TABLE seal_outbox ADD CONSTRAINT seal_outbox_legacy_bounds CHECK (created_at < %L) NOT VALID', outbox_until);
  EXECUTE format('ALTER TABLE resolve_sessions ADD CONSTRAINT resolve_sessions_legacy_bounds CHECK (expires_at < %L) NOT VALID', sessions_until);
END $$;
