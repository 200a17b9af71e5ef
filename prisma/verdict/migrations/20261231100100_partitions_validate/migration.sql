-- arbiter:no-transaction
-- Partitions, step 2 of 3 (ADR 0034). Runs outside a transaction, one statement at a time (libs/db
-- migrations.ts), so that nothing here holds a lock that blocks reads or writes: VALIDATE CONSTRAINT scans under
-- SHARE UPDATE EXCLUSIVE, CREATE INDEX CONCURRENTLY builds without blocking writes. The indexes are the primary
-- keys of the partitioned tables (a key must hold the partition key), taken over by step 3. Each statement may run
-- again: a failed run leaves no record and the next start runs this migration from the top.
ALTER TABLE consultations VALIDATE CONSTRAINT consultations_legacy_bounds;
ALTER TABLE shadow_disagreements VALIDATE CONSTRAINT shadow_disagreements_legacy_bounds;
ALTER TABLE seal_outbox VALIDATE CONSTRAINT seal_outbox_legacy_bounds;
ALTER TABLE resolve_sessions VALIDATE CONSTRAINT resolve_sessions_legacy_bounds;
DROP INDEX CONCURRENTLY IF EXISTS consultations_id_keep_until_key;
CREATE UNIQUE INDEX CONCURRENTLY consultations_id_keep_until_key ON consultations (id, keep_until);
DROP INDEX CONCURRENTLY IF EXISTS shadow_disagreements_keep_until_key;
CREATE UNIQUE INDEX CONCURRENTLY shadow_disagreements_keep_until_key ON shadow_disagreements (consultation_id, rule_id, keep_until);
DROP INDEX CONCURRENTLY IF EXISTS seal_outbox_id_created_at_key;
CREATE UNIQUE INDEX CONCURRENTLY seal_outbox_id_created_at_key ON seal_outbox (id, created_at);
DROP INDEX CONCURRENTLY IF EXISTS resolve_sessions_id_expires_at_key;
CREATE UNIQUE INDEX CONCURRENTLY resolve_sessions_id_expires_at_key ON resolve_sessions (id, expires_at);
