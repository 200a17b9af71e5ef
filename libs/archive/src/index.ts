export { type ArchiveStore, checkKey } from './store';
export { FileArchiveStore } from './file-store';
export { S3ArchiveStore, type S3Options } from './s3-store';
export { openArchiveStore, archiveUrlProblem, type ArchiveEnv } from './open-store';
export {
  ARCHIVE_KINDS,
  MEMBER_LINES,
  type ArchiveKind,
  type ArchiveLine,
  type MemberIndexEntry,
  type SegmentManifest,
  type SegmentDigest,
  keyTime,
  segmentKey,
  indexKey,
  manifestKey,
  sha256Of,
  writeSegment,
  readSegmentLines,
  digestSegment,
  lineId,
  memberFor,
  parseMemberIndex,
  findSegmentLine,
  segmentIndexMismatch,
  SegmentAltered,
} from './segment';
export { manifestOf, parseManifest, manifestMismatch } from './manifest';
export { archiveConfigSchema } from './config';
