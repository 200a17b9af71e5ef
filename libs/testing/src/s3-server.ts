import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** A real S3 API server (s3rver) on a temporary folder, with one bucket; the environment a service reaches it with. */
export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** S3_ENDPOINT, S3_FORCE_PATH_STYLE and the credentials s3rver accepts. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startS3Server(bucket = 'arbiter-archive'): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'arbiter-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
