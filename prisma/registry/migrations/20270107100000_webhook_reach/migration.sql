-- The scopes a subscription's events may concern (docs/webhooks.md "Events"): those of the key that created it, or
-- last changed where its deliveries go, when that key was restricted to some scopes; empty, every scope. An event that
-- concerns another scope too is not delivered to it, as the event feed leaves it out for that key. Subscriptions made
-- before keep the empty default. Hand-written (ADR 0003).
SET LOCAL lock_timeout = '5s';

ALTER TABLE "webhook_subscriptions" ADD COLUMN "reach_scope_ids" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
