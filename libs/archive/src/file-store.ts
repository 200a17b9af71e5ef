import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { checkKey, type ArchiveStore } from './store';

const isMissing = (err: unknown): boolean => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** An archive in a directory (`file://<absolute dir>`): one file per key, written to a temporary name then renamed. */
export class FileArchiveStore implements ArchiveStore {
  readonly url: string;

  constructor(private readonly dir: string) {
    if (!path.isAbsolute(dir)) throw new Error(`archive: the directory must be absolute: ${dir}`);
    this.url = pathToFileURL(dir).href;
  }

  private pathOf(key: string): string {
    return path.join(this.dir, ...checkKey(key).split('/'));
  }

  urlOf(key: string): string {
    return pathToFileURL(this.pathOf(key)).href;
  }

  async put(key: string, body: Readable | Buffer): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(tmp, { flags: 'wx' }));
      const fh = await open(tmp, 'r');
      try {
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async getRange(key: string, offset: number, length: number): Promise<Buffer> {
    const fh = await open(this.pathOf(key), 'r');
    try {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await fh.read(buf, 0, length, offset);
      return buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  }

  async getStream(key: string): Promise<Readable | null> {
    const file = this.pathOf(key);
    if ((await this.head(key)) === null) return null;
    return createReadStream(file);
  }

  async head(key: string): Promise<{ size: number } | null> {
    try {
      const s = await stat(this.pathOf(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async list(prefix: string): Promise<string[]> {
    const out: string[] = [];
    const walk = async (rel: string): Promise<void> => {
      let entries;
      try {
        entries = await readdir(path.join(this.dir, ...rel.split('/').filter(Boolean)), { withFileTypes: true });
      } catch (err) {
        if (isMissing(err)) return;
        throw err;
      }
      for (const e of entries) {
        const key = rel === '' ? e.name : `${rel}/${e.name}`;
        if (e.isDirectory()) await walk(key);
        else if (e.isFile() && !e.name.endsWith('.tmp')) out.push(key);
      }
    };
    const folder = prefix.replace(/\/+$/, '');
    if (folder !== '') checkKey(folder);
    await walk(folder);
    return out.sort();
  }
}
