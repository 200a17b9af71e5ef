import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { startS3Server, type TestS3Server } from '@arbiter/testing';
import { FileArchiveStore } from './file-store';
import { openArchiveStore, archiveUrlProblem } from './open-store';
import { S3ArchiveStore } from './s3-store';
import type { ArchiveStore } from './store';

function behavesAsAnArchiveStore(name: string, open: () => ArchiveStore) {
  describe(name, () => {
    let sut: ArchiveStore;
    beforeAll(() => {
      sut = open();
    });

    it('puts a stream and gets it back whole, by range and as a stream', async () => {
      const body = Buffer.from('0123456789'.repeat(1000));
      await sut.put('t-1/consultations/a.jsonl.gz', Readable.from([body.subarray(0, 4000), body.subarray(4000)]));
      expect((await sut.get('t-1/consultations/a.jsonl.gz'))!.equals(body)).toBe(true);
      expect((await sut.getRange('t-1/consultations/a.jsonl.gz', 5, 7)).toString()).toBe('5678901');
      expect(await sut.head('t-1/consultations/a.jsonl.gz')).toEqual({ size: 10000 });
      const chunks: Buffer[] = [];
      for await (const c of (await sut.getStream('t-1/consultations/a.jsonl.gz'))!) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks).equals(body)).toBe(true);
    });

    it('answers null for an object it does not hold', async () => {
      expect(await sut.get('t-1/none')).toBeNull();
      expect(await sut.head('t-1/none')).toBeNull();
      expect(await sut.getStream('t-1/none')).toBeNull();
    });

    it('lists the keys under a folder, sorted, and nothing of another folder', async () => {
      await sut.put('t-2/events/b', Buffer.from('b'));
      await sut.put('t-2/events/a', Buffer.from('a'));
      await sut.put('t-22/events/c', Buffer.from('c'));
      expect(await sut.list('t-2/')).toEqual(['t-2/events/a', 't-2/events/b']);
      expect(await sut.list('t-3')).toEqual([]);
    });

    it('refuses a key that could leave its root', async () => {
      await expect(sut.put('../x', Buffer.from('x'))).rejects.toThrow(/not a valid object key/);
      await expect(sut.get('a/../../x')).rejects.toThrow(/not a valid object key/);
      await expect(sut.get('/abs')).rejects.toThrow(/not a valid object key/);
    });
  });
}

let dir: string;
let s3: TestS3Server;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-archive-'));
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.stop();
  await rm(dir, { recursive: true, force: true });
});

behavesAsAnArchiveStore(FileArchiveStore.name, () => new FileArchiveStore(dir));
behavesAsAnArchiveStore(S3ArchiveStore.name, () => openArchiveStore({ ARCHIVE_URL: `s3://${s3.bucket}/archive/v1`, ...s3.env })!);

describe(openArchiveStore.name, () => {
  it('opens nothing without ARCHIVE_URL, a directory for file://, a bucket and prefix for s3://', () => {
    expect(openArchiveStore({})).toBeNull();
    expect(openArchiveStore({ ARCHIVE_URL: 'file:///var/arbiter/archive' })!.urlOf('t/k')).toBe('file:///var/arbiter/archive/t/k');
    expect(openArchiveStore({ ARCHIVE_URL: 's3://bkt/some/prefix/' })!.urlOf('t/k')).toBe('s3://bkt/some/prefix/t/k');
  });

  it('refuses another scheme, a remote file host and a bucketless s3 URL', () => {
    expect(archiveUrlProblem('http://x/y')).toMatch(/file:\/\/ or s3:\/\//);
    expect(archiveUrlProblem('file://host/dir')).toMatch(/local directory/);
    expect(archiveUrlProblem('s3:///prefix')).toMatch(/bucket/);
    expect(() => openArchiveStore({ ARCHIVE_URL: 'ftp://x' })).toThrow(/ARCHIVE_URL/);
  });

  it('writes objects an S3 client other than the store reads back (the object is what was put)', async () => {
    const store = openArchiveStore({ ARCHIVE_URL: `s3://${s3.bucket}/other`, ...s3.env })!;
    await store.put('t/x', Buffer.from('hello'));
    const res = await fetch(`${s3.endpoint}/${s3.bucket}/other/t/x`);
    expect(await res.text()).toBe('hello');
  });
});
