import type { Readable } from 'node:stream';

/**
 * Where archive segments are kept (docs/operations.md "Archive"): one interface, a directory (`file://`) or an S3
 * bucket (`s3://`). Keys are `/`-separated paths relative to the store's root (its directory, or its bucket and
 * prefix); a key never starts with `/` and never holds `.` or `..` segments.
 */
export interface ArchiveStore {
  /** The store's own URL (ARCHIVE_URL as configured). */
  readonly url: string;
  /** The URL of one object, as recorded in `archive_segments.url`. */
  urlOf(key: string): string;
  /** Writes an object whole, streaming: a reader never sees a partial object under the key. */
  put(key: string, body: Readable | Buffer): Promise<void>;
  /** The whole object, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** `length` bytes from `offset` (a ranged read). */
  getRange(key: string, offset: number, length: number): Promise<Buffer>;
  /** The object as a stream, or null when there is none. */
  getStream(key: string): Promise<Readable | null>;
  /** The object's size, or null when there is none. */
  head(key: string): Promise<{ size: number } | null>;
  /** The keys under a prefix (a `/`-ending folder of keys), sorted. */
  list(prefix: string): Promise<string[]>;
}

/** Refuses a key that could leave the store's root or name a folder. */
export function checkKey(key: string): string {
  const parts = key.split('/');
  if (key === '' || parts.some((p) => p === '' || p === '.' || p === '..') || key.includes('\\') || key.includes('\0')) {
    throw new Error(`archive: not a valid object key: ${JSON.stringify(key)}`);
  }
  return key;
}
