import { bool, str } from '@arbiter/config';
import { archiveUrlProblem } from './open-store';

/**
 * The variables of every process that reads or writes the archive (docs/operations.md "Archive"): the worker writes
 * segments, the verdict gateway reads archived consultations. Unset ARCHIVE_URL: nothing of an archived kind is ever
 * dropped, and archived reads answer as if the row did not exist.
 */
export const archiveConfigSchema = {
  ARCHIVE_URL: {
    ...str({ optional: true, doc: 'where archive segments are: file://<absolute dir> or s3://<bucket>/<prefix>' }),
    parse(raw: string) {
      const problem = archiveUrlProblem(raw);
      if (problem) throw new Error(problem);
      return raw;
    },
  },
  S3_ENDPOINT: str({ optional: true, pattern: /^https?:\/\/\S+$/, doc: 'an S3-compatible server (MinIO, s3rver); unset for AWS' }),
  S3_REGION: str({ default: 'us-east-1', doc: 'the S3 region' }),
  S3_FORCE_PATH_STYLE: bool({ default: false, doc: 'path-style S3 URLs (true for MinIO and s3rver)' }),
  AWS_ACCESS_KEY_ID: str({ optional: true, secret: true, doc: "S3 credentials; unset: the AWS SDK's default chain" }),
  AWS_SECRET_ACCESS_KEY: str({ optional: true, secret: true, doc: 'S3 credentials, with AWS_ACCESS_KEY_ID' }),
};
