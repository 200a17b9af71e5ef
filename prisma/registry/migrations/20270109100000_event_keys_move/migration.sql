-- An event moved by partition maintenance keeps its idempotency key (docs/operations.md "Partitions"). Hand-written
-- (ADR 0003).
--
-- Partition maintenance moves the rows the DEFAULT partition caught (a retention changed since put an event past the
-- partitions made ahead) by deleting them and inserting them again, the same rows, in one transaction. The key
-- trigger of 20270106110000_event_keys then found its key row naming an event that exists (the row just inserted
-- again) and refused the insert as a duplicate key: every maintenance run of the registry failed, for every tenant,
-- until that event's keep_until. The row naming this very event is the event's own key, not a duplicate.
SET LOCAL lock_timeout = '5s';

CREATE OR REPLACE FUNCTION event_keys_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A key of an event that already left is replaced; the key of this same event (moved between partitions) stays;
  -- a key of another live event is a duplicate and fails the insert.
  INSERT INTO event_keys (tenant_id, idempotency_key, event_id, keep_until)
  VALUES (NEW.tenant_id, NEW.idempotency_key, NEW.id, NEW.keep_until)
  ON CONFLICT (tenant_id, idempotency_key) DO UPDATE
     SET event_id = EXCLUDED.event_id, keep_until = EXCLUDED.keep_until
   WHERE event_keys.event_id = EXCLUDED.event_id OR event_keys.keep_until < now() OR NOT EXISTS (
         SELECT 1 FROM events e WHERE e.id = event_keys.event_id AND e.keep_until = event_keys.keep_until);
  IF NOT FOUND THEN
    RAISE EXCEPTION 'idempotency key % of tenant % names a stored event', NEW.idempotency_key, NEW.tenant_id
      USING ERRCODE = 'unique_violation';
  END IF;
  RETURN NEW;
END $$;
