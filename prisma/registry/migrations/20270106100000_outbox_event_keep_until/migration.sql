-- An outbox row names its event's keep_until (the events' partition key), so the relay reads a batch's events from
-- the partitions they lie in instead of looking for each id in every partition (docs/operations.md "A webhook
-- attempt"). Hand-written (ADR 0003). Rows written before this migration have none (the outbox holds an event for
-- seconds): the relay looks for their events in every partition, as before.
SET LOCAL lock_timeout = '5s';

ALTER TABLE "outbox" ADD COLUMN "event_keep_until" TIMESTAMPTZ(3);
