-- arbiter:no-transaction
-- Partitions, step 2 of 3 (ADR 0034). Runs outside a transaction, one statement at a time (libs/db
-- migrations.ts), so that nothing here holds a lock that blocks reads or writes: VALIDATE CONSTRAINT scans under
-- SHARE UPDATE EXCLUSIVE, CREATE INDEX CONCURRENTLY builds without blocking writes. The indexes are those of the
-- partitioned tables that the old ones lack (a key must hold the partition key), taken over by step 3. Each
-- statement may run again: a failed run leaves no record and the next start runs this migration from the top.
ALTER TABLE events VALIDATE CONSTRAINT events_legacy_bounds;
ALTER TABLE webhook_deliveries VALIDATE CONSTRAINT webhook_deliveries_legacy_bounds;
ALTER TABLE webhook_attempts VALIDATE CONSTRAINT webhook_attempts_legacy_bounds;
ALTER TABLE seal_outbox VALIDATE CONSTRAINT seal_outbox_legacy_bounds;
DROP INDEX CONCURRENTLY IF EXISTS events_id_keep_until_key;
CREATE UNIQUE INDEX CONCURRENTLY events_id_keep_until_key ON events (id, keep_until);
DROP INDEX CONCURRENTLY IF EXISTS events_tenant_id_idempotency_key_idx;
CREATE INDEX CONCURRENTLY events_tenant_id_idempotency_key_idx ON events (tenant_id, idempotency_key);
DROP INDEX CONCURRENTLY IF EXISTS webhook_deliveries_id_keep_until_key;
CREATE UNIQUE INDEX CONCURRENTLY webhook_deliveries_id_keep_until_key ON webhook_deliveries (id, keep_until);
DROP INDEX CONCURRENTLY IF EXISTS webhook_deliveries_subscription_event_keep_until_key;
CREATE UNIQUE INDEX CONCURRENTLY webhook_deliveries_subscription_event_keep_until_key ON webhook_deliveries (subscription_id, event_id, keep_until);
DROP INDEX CONCURRENTLY IF EXISTS webhook_attempts_id_keep_until_key;
CREATE UNIQUE INDEX CONCURRENTLY webhook_attempts_id_keep_until_key ON webhook_attempts (id, keep_until);
DROP INDEX CONCURRENTLY IF EXISTS webhook_attempts_delivery_attempt_keep_until_key;
CREATE UNIQUE INDEX CONCURRENTLY webhook_attempts_delivery_attempt_keep_until_key ON webhook_attempts (delivery_id, attempt, keep_until);
DROP INDEX CONCURRENTLY IF EXISTS seal_outbox_id_created_at_key;
CREATE UNIQUE INDEX CONCURRENTLY seal_outbox_id_created_at_key ON seal_outbox (id, created_at);
