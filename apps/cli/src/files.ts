// How the CLI reads and writes files (docs/cli.md "Files and keys"). Reads are capped, so a file, a FIFO or
// /dev/zero named by mistake or by a hostile repository ends in a clear error, not an exhausted memory.
// Writes replace the file whole: a temporary file beside it (created exclusively, so nothing planted
// under its name is written through), then a rename over the target. A reader never sees half a file,
// and a symbolic link planted at the target (in /tmp, say) is replaced, never followed to overwrite
// what it points at. A new file gets the usual mode (0666 less the umask), a replaced one keeps its
// own, and a file holding a secret is 0600 whatever the umask.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { isUtf8 } from 'node:buffer';
import { invalidUtf8Offset } from '@arbiter/input';

/** The most the CLI reads from one input: far above any pack, bundle page or rules file. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

export class InputTooLargeError extends Error {
  constructor(limit: number) {
    super(`larger than ${limit / 1024 / 1024} MiB: not an input the CLI reads`);
  }
}

/**
 * The text of a stream, or InputTooLargeError past `limit` bytes (reading stops there). Bytes that are
 * not UTF-8 are refused rather than read as U+FFFD (docs/development.md "Storable JSON"): what the CLI
 * sends, hashes or verifies is what the file holds.
 */
export async function readCapped(stream: Readable | AsyncIterable<Uint8Array>, limit = MAX_INPUT_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Uint8Array).byteLength;
    if (size > limit) {
      (stream as Readable).destroy?.();
      throw new InputTooLargeError(limit);
    }
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  const bytes = Buffer.concat(chunks);
  if (!isUtf8(bytes)) throw new Error(`not UTF-8 text (byte ${invalidUtf8Offset(bytes)} is not), so not read`);
  return bytes.toString('utf8');
}

export const readFileCapped = (file: string, limit = MAX_INPUT_BYTES) => readCapped(createReadStream(file), limit);

export interface WriteOptions {
  /** The file holds a secret (an API key): mode 0600, whatever the umask and the file it replaces. */
  secret?: boolean;
}

/** Writes `data` to `file` as a whole (temporary file, then rename), never through a link at `file`. */
export async function writeFileAtomic(file: string, data: string, opts: WriteOptions = {}): Promise<void> {
  const existing = await lstat(file).catch(() => null);
  if (existing?.isDirectory()) throw new Error(`${file} is a directory`);
  const keepMode = !opts.secret && existing?.isFile() ? existing.mode & 0o777 : undefined;
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(tmp, 'wx', opts.secret ? 0o600 : 0o666);
  try {
    try {
      // The umask applies to open's mode; an explicit chmod does not go through it.
      if (opts.secret) await handle.chmod(0o600);
      else if (keepMode !== undefined) await handle.chmod(keepMode);
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}
