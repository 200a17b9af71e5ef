import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable } from 'node:stream';
import { checkKey, type ArchiveStore } from './store';

export interface S3Options {
  /** S3_ENDPOINT: another S3-compatible server (s3rver, MinIO); unset for AWS. */
  endpoint?: string;
  /** S3_REGION (default us-east-1). */
  region?: string;
  /** S3_FORCE_PATH_STYLE: `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint>/<key>`. */
  forcePathStyle?: boolean;
  /** Explicit credentials; by default the SDK's chain (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, profiles, roles). */
  credentials?: S3ClientConfig['credentials'];
}

const isNotFound = (err: unknown): boolean => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/** An archive in an S3 bucket under a prefix (`s3://<bucket>/<prefix>`). */
export class S3ArchiveStore implements ArchiveStore {
  readonly url: string;
  private readonly client: S3Client;
  private readonly prefix: string;

  constructor(
    private readonly bucket: string,
    prefix: string,
    opts: S3Options = {},
  ) {
    this.prefix = prefix.replace(/^\/+|\/+$/g, '');
    this.url = `s3://${bucket}/${this.prefix}`;
    this.client = new S3Client({
      region: opts.region ?? 'us-east-1',
      ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
      forcePathStyle: opts.forcePathStyle ?? false,
      ...(opts.credentials ? { credentials: opts.credentials } : {}),
    });
  }

  private objectKey(key: string): string {
    checkKey(key);
    return this.prefix === '' ? key : `${this.prefix}/${key}`;
  }

  urlOf(key: string): string {
    return `s3://${this.bucket}/${this.objectKey(key)}`;
  }

  async put(key: string, body: Readable | Buffer): Promise<void> {
    // lib-storage sends a stream of unknown length as a multipart upload of 5 MiB parts: memory stays bounded.
    await new Upload({ client: this.client, params: { Bucket: this.bucket, Key: this.objectKey(key), Body: body } }).done();
  }

  async get(key: string): Promise<Buffer | null> {
    const stream = await this.getStream(key);
    if (stream === null) return null;
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  async getRange(key: string, offset: number, length: number): Promise<Buffer> {
    if (length <= 0) return Buffer.alloc(0);
    const out = await this.client.send(
      new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Range: `bytes=${offset}-${offset + length - 1}` }),
    );
    return Buffer.from(await out.Body!.transformToByteArray());
  }

  async getStream(key: string): Promise<Readable | null> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return out.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: out.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async list(prefix: string): Promise<string[]> {
    const folder = prefix.replace(/\/+$/, '');
    if (folder !== '') checkKey(folder);
    const full = [this.prefix, folder].filter(Boolean).join('/');
    const strip = this.prefix === '' ? 0 : this.prefix.length + 1;
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: full === '' ? undefined : `${full}/`, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) out.push(o.Key.slice(strip));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out.sort();
  }

  /** Closes the client's sockets. */
  destroy(): void {
    this.client.destroy();
  }
}
