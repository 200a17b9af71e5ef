-- The consultation record is kept as the exact JSON text that was hashed and signed: `json` stores
-- its input verbatim (jsonb would re-order keys and refuse some strings, e.g. U+0000).
ALTER TABLE "consultations" ALTER COLUMN "record" TYPE JSON USING "record"::json;
-- No TOAST compression of records: compressing every record costs PostgreSQL about as much CPU as
-- the rest of the insert (measured: bench/verdict, docs/benchmarks.md). Records of a few KB stay in
-- the row; larger ones (large precedence traces) go out of line, uncompressed. Disk is traded for CPU.
ALTER TABLE "consultations" SET (toast_tuple_target = 8160);
ALTER TABLE "consultations" ALTER COLUMN "record" SET STORAGE EXTERNAL;

-- Resolve sessions (docs/verdicts.md "The resolve loop"): which request variant opened the session, the consultation
-- that completed it, and when it expires.
ALTER TABLE "resolve_sessions" ADD COLUMN "variant" TEXT NOT NULL DEFAULT 'detailed';
ALTER TABLE "resolve_sessions" ADD COLUMN "consultation_id" TEXT;
ALTER TABLE "resolve_sessions" ADD COLUMN "expires_at" TIMESTAMPTZ(3) NOT NULL DEFAULT (CURRENT_TIMESTAMP + interval '1 day');
CREATE INDEX "resolve_sessions_expires_at_idx" ON "resolve_sessions"("expires_at");
