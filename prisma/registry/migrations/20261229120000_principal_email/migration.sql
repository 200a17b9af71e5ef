-- A human principal's optional email address, where approval notifications are sent (docs/approvals.md
-- "Notifications"). Hand-written (ADR 0003). NULL: no email; only human principals may hold one (the API checks it).
ALTER TABLE "principals" ADD COLUMN "email" TEXT;
