import { fileURLToPath } from 'node:url';
import { FileArchiveStore } from './file-store';
import { S3ArchiveStore } from './s3-store';
import type { ArchiveStore } from './store';

/** The environment an archive is opened from (docs/operations.md "Archive"). */
export interface ArchiveEnv {
  ARCHIVE_URL?: string;
  S3_ENDPOINT?: string;
  S3_REGION?: string;
  S3_FORCE_PATH_STYLE?: boolean | string;
  /** When both are given they are used; otherwise the SDK's default chain (which reads them from process.env too). */
  AWS_ACCESS_KEY_ID?: string;
  AWS_SECRET_ACCESS_KEY?: string;
}

/** Checks an ARCHIVE_URL without opening it: answers an error message, or null when it is usable. */
export function archiveUrlProblem(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'must be a URL (file://<absolute dir> or s3://<bucket>/<prefix>)';
  }
  if (u.protocol === 'file:') return u.host === '' || u.host === 'localhost' ? null : 'a file:// URL names a local directory';
  if (u.protocol === 's3:') return u.hostname === '' ? 's3:// needs a bucket' : null;
  return 'must use file:// or s3://';
}

/** Opens the archive ARCHIVE_URL names; null when it is unset (then nothing of an archived kind is ever dropped). */
export function openArchiveStore(env: ArchiveEnv): ArchiveStore | null {
  const raw = env.ARCHIVE_URL;
  if (raw === undefined || raw === '') return null;
  const problem = archiveUrlProblem(raw);
  if (problem) throw new Error(`ARCHIVE_URL ${problem}`);
  const u = new URL(raw);
  if (u.protocol === 'file:') return new FileArchiveStore(fileURLToPath(u));
  const force = env.S3_FORCE_PATH_STYLE;
  return new S3ArchiveStore(u.hostname, decodeURIComponent(u.pathname), {
    endpoint: env.S3_ENDPOINT || undefined,
    region: env.S3_REGION || undefined,
    forcePathStyle: force === true || force === 'true' || force === '1',
    ...(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY } }
      : {}),
  });
}
