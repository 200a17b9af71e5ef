-- The trace a seal_outbox row was written in (docs/operations.md "Tracing"): the W3C traceparent of
-- the request's span when tracing was on and the span sampled, else null. The worker's seal job links
-- to it and records a span in that trace, so a decision's trace reaches its sealing. Hand-written (ADR 0003).
ALTER TABLE "seal_outbox" ADD COLUMN "traceparent" TEXT;
