-- docs/operations.md "Archive": the digest of a segment's member index (which holds each member's digest), recorded
-- when the segment is recorded, so that a read checks the member it reads. Null for segments recorded before.
ALTER TABLE "archive_segments" ADD COLUMN "index_sha256" TEXT;
