-- The seal outbox's partitions filled to half their pages (ADR 0039). Hand-written (ADR 0003).
-- Measured: docs/benchmarks.md "The outbox row's lease".
--
-- A seal_outbox row is inserted with the change it records, updated once by the relay's lease (leased_until,
-- attempts) and deleted when the ledger acknowledged it. With every page filled on insert, the lease found no room on
-- the row's page and wrote a second copy of the row elsewhere with a second primary-key entry (about as much WAL as
-- the insert). With half of each page left free, the lease, which changes no indexed column, is a HOT update on the
-- row's own page, logged as the bytes it changes. The service makes its new partitions alike (libs/db
-- SEAL_OUTBOX_PARTITIONS); this sets the existing ones. Rows already stored stay where they are (no rewrite), and
-- nothing a row holds changes.
SET LOCAL lock_timeout = '5s';
DO $$
DECLARE
  p regclass;
BEGIN
  FOR p IN SELECT relid FROM pg_partition_tree('seal_outbox') WHERE isleaf LOOP
    EXECUTE format('ALTER TABLE %s SET (fillfactor = 50)', p);
  END LOOP;
END $$;
