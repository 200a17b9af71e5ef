-- An event's idempotency key in a table of its own (docs/operations.md "Partitions", "An event by its idempotency
-- key"). Hand-written (ADR 0003).
--
-- The verdict gateway records its approval events under an idempotency key, and the registry looked the key up in
-- `events`, whose index on (tenant_id, idempotency_key) is one per partition: twice per event, under the tenant's
-- write lock, each planned and probed over every partition (90 at the default retention of events). A key names no
-- time, so the lookup cannot say where the event lies. Here each key is one row of a table that is not partitioned,
-- unique by its primary key, naming its event and the event's keep_until; the registry reads the key there and the
-- event in its partition. A trigger writes the row with the event, so any writer of keyed events (a replica of an
-- older release during a rolling upgrade included) keeps the table whole. A key row whose event already left (its
-- partition dropped) is ignored and replaced; the registry's pruner deletes key rows past their keep_until.
SET LOCAL lock_timeout = '5s';

CREATE TABLE "event_keys" (
  "tenant_id"       TEXT NOT NULL,
  "idempotency_key" TEXT NOT NULL,
  "event_id"        TEXT NOT NULL,
  "keep_until"      TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "event_keys_pkey" PRIMARY KEY ("tenant_id", "idempotency_key")
);
CREATE INDEX "event_keys_keep_until_idx" ON "event_keys"("keep_until");

CREATE FUNCTION event_keys_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A key of an event that already left is replaced; a key of a live event is a duplicate and fails the insert.
  INSERT INTO event_keys (tenant_id, idempotency_key, event_id, keep_until)
  VALUES (NEW.tenant_id, NEW.idempotency_key, NEW.id, NEW.keep_until)
  ON CONFLICT (tenant_id, idempotency_key) DO UPDATE
     SET event_id = EXCLUDED.event_id, keep_until = EXCLUDED.keep_until
   WHERE event_keys.keep_until < now() OR NOT EXISTS (
         SELECT 1 FROM events e WHERE e.id = event_keys.event_id AND e.keep_until = event_keys.keep_until);
  IF NOT FOUND THEN
    RAISE EXCEPTION 'idempotency key % of tenant % names a stored event', NEW.idempotency_key, NEW.tenant_id
      USING ERRCODE = 'unique_violation';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER event_keys_insert AFTER INSERT ON events
  FOR EACH ROW WHEN (NEW.idempotency_key IS NOT NULL) EXECUTE FUNCTION event_keys_insert();

-- The keys of the events stored so far (a key is unique per tenant among them: the registry checked it under the
-- tenant's write lock).
INSERT INTO event_keys (tenant_id, idempotency_key, event_id, keep_until)
SELECT tenant_id, idempotency_key, id, keep_until FROM events WHERE idempotency_key IS NOT NULL
ON CONFLICT DO NOTHING;
