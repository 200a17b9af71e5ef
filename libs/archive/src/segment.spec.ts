import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PassThrough } from 'node:stream';
import { runInNewContext } from 'node:vm';
import { gunzipSync, gzipSync } from 'node:zlib';
import { setFlagsFromString } from 'node:v8';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { FileArchiveStore } from './file-store';
import type { ArchiveStore } from './store';
import { manifestMismatch, manifestOf, parseManifest } from './manifest';
import {
  digestSegment,
  findSegmentLine,
  indexKey,
  keyTime,
  memberFor,
  MEMBER_LINES,
  parseMemberIndex,
  readSegmentLines,
  SegmentAltered,
  segmentIndexMismatch,
  segmentKey,
  writeSegment,
  type ArchiveLine,
} from './segment';

const idOf = (n: number) => `cns-${n.toString(16).padStart(24, '0')}`;
function* rows(n: number, pad = 0): Generator<ArchiveLine> {
  for (let i = 1; i <= n; i++) {
    const id = idOf(i);
    yield { id, line: JSON.stringify({ id, requested_at: '2026-11-27T14:00:00.000Z', record: { id, n: i, pad: 'x'.repeat(pad) } }) };
  }
}

let dir: string;
let store: FileArchiveStore;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-segment-'));
  store = new FileArchiveStore(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe(segmentKey.name, () => {
  it('names a segment by tenant, kind and the partition bounds without colons', () => {
    expect(
      segmentKey({ tenant_id: 'acme', kind: 'consultations', from: '2026-11-27T14:00:00Z', to: new Date('2026-11-27T14:01:00Z') }),
    ).toBe('acme/consultations/2026-11-27T140000Z--2026-11-27T140100Z.jsonl.gz');
    expect(keyTime('2026-11-27T14:00:00.250Z')).toBe('2026-11-27T140000.250Z');
  });

  it('refuses a tenant id that could name another folder', () => {
    expect(() => segmentKey({ tenant_id: '../x', kind: 'events', from: 0 as never, to: 0 as never })).toThrow(/not a tenant id/);
  });
});

describe(writeSegment.name, () => {
  it('keeps no listener per gzip member on its stream while the store reads slowly (memory that would grow with the segment)', async () => {
    let most = 0;
    const slow = {
      url: 'memory:',
      urlOf: (key: string) => key,
      async put(_key: string, body: Buffer | NodeJS.ReadableStream) {
        if (Buffer.isBuffer(body)) return;
        for await (const _chunk of body) {
          most = Math.max(most, (body as PassThrough).listenerCount('error'));
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      },
    } as unknown as ArchiveStore;
    // Lines that gzip does not shrink to nothing: every member fills the stream's buffer and waits for it to drain.
    const lines = function* (): Generator<ArchiveLine> {
      for (let i = 1; i <= 60 * MEMBER_LINES; i++) {
        const id = idOf(i);
        yield { id, line: JSON.stringify({ id, noise: createHash('sha256').update(String(i)).digest('hex') }) };
      }
    };
    const written = await writeSegment(slow, 't/consultations/slow.jsonl.gz', lines());
    expect(written.index).toHaveLength(60);
    expect(most).toBeLessThan(5);
  });

  it('writes JSON Lines in gzip members of at most 1,000 lines that an independent gunzip reads whole', async () => {
    const sut = await writeSegment(store, 't/consultations/a.jsonl.gz', rows(2500));
    expect(sut.index.map((m) => [m.first_id, m.last_id])).toEqual([
      [idOf(1), idOf(MEMBER_LINES)],
      [idOf(1001), idOf(2000)],
      [idOf(2001), idOf(2500)],
    ]);
    const file = path.join(dir, 't/consultations/a.jsonl.gz');
    const text = execFileSync('gzip', ['-dc', file], { maxBuffer: 1 << 26 }).toString('utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2500);
    expect(JSON.parse(lines[1999]).record.n).toBe(2000);
    const bytes = await readFile(file);
    expect(sut.sha256).toBe(`sha256:${bytesToHex(sha256(bytes))}`);
    expect(sut).toMatchObject({ count: 2500, first_id: idOf(1), last_id: idOf(2500), bytes: bytes.length });
    expect(parseMemberIndex((await store.get(indexKey('t/consultations/a.jsonl.gz')))!.toString())).toEqual(sut.index);
  });

  it('refuses lines out of id order, and a line holding a newline', async () => {
    const bad = [...rows(3)].reverse();
    await expect(writeSegment(store, 't/consultations/b.jsonl.gz', bad)).rejects.toThrow(/out of order/);
    await expect(writeSegment(store, 't/consultations/c.jsonl.gz', [{ id: 'a', line: '{"id":"a"}\n' }])).rejects.toThrow(/newline/);
    expect(await store.head('t/consultations/b.jsonl.gz')).toBeNull();
  });

  it('does not grow the heap with the number of lines (200k lines streamed, heap compared at 20k and 200k)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap: Record<number, number> = {};
    async function* measured(): AsyncGenerator<ArchiveLine> {
      let n = 0;
      for (const r of rows(200_000, 400)) {
        n++;
        if (n === 20_000 || n === 200_000) {
          gc();
          heap[n] = process.memoryUsage().heapUsed;
        }
        yield r;
      }
    }
    const sut = await writeSegment(store, 't/consultations/big.jsonl.gz', measured());
    expect(sut.count).toBe(200_000);
    // 180k more lines of ~500 bytes would hold ~90 MB if anything kept them.
    expect(heap[200_000] - heap[20_000]).toBeLessThan(16 * 1024 * 1024);
  });
});

describe(findSegmentLine.name, () => {
  it('finds a line by id with one ranged read of its member, and answers null for an id the segment lacks', async () => {
    const key = 't/consultations/find.jsonl.gz';
    await writeSegment(store, key, rows(3001));
    const ranges: [number, number][] = [];
    const spy = {
      ...store,
      get: store.get.bind(store),
      getRange: (k: string, o: number, l: number) => (ranges.push([o, l]), store.getRange(k, o, l)),
    };
    const line = await findSegmentLine(spy as never, key, idOf(2345));
    expect(JSON.parse(line!).record.n).toBe(2345);
    expect(ranges).toHaveLength(1);
    expect(await findSegmentLine(store, key, idOf(9999))).toBeNull();
  });

  it('checks the index and the member it reads against the digest recorded of the index (SegmentAltered), when there is one', async () => {
    const key = 't/consultations/digests.jsonl.gz';
    const written = await writeSegment(store, key, rows(2500));
    // Digests as another implementation computes them: the index object's, and each member's bytes in the object.
    const hex = (b: Uint8Array) => `sha256:${bytesToHex(sha256(b))}`;
    const index = (await store.get(indexKey(key)))!;
    expect(written.index_sha256).toBe(hex(index));
    const members = JSON.parse(index.toString()) as Array<{ offset: number; length: number; sha256: string }>;
    expect(members).toHaveLength(3);
    const object = (await store.get(key))!;
    for (const m of members) expect(m.sha256).toBe(hex(object.subarray(m.offset, m.offset + m.length)));
    expect(await segmentIndexMismatch(store, key, written.index_sha256, object.length)).toBeNull();
    expect(JSON.parse((await findSegmentLine(store, key, idOf(1234), written.index_sha256))!).record.n).toBe(1234);

    // A line changed in its member (the member re-compressed in place of the old one, the index rewritten to fit).
    const second = members[1];
    const changed = gzipSync(
      gunzipSync(object.subarray(second.offset, second.offset + second.length))
        .toString()
        .replace('"n":1234', '"n":4321'),
    );
    const altered = Buffer.concat([object.subarray(0, second.offset), changed, object.subarray(second.offset + second.length)]);
    await store.put(key, altered);
    const shifted = members.map((m, i) =>
      i === 1
        ? { ...m, length: changed.length, sha256: hex(changed) }
        : i === 2
          ? { ...m, offset: m.offset - second.length + changed.length }
          : m,
    );
    await store.put(indexKey(key), Buffer.from(JSON.stringify(shifted)));
    await expect(findSegmentLine(store, key, idOf(1234), written.index_sha256)).rejects.toThrow(SegmentAltered);
    expect(await segmentIndexMismatch(store, key, written.index_sha256, altered.length)).toMatch(/its index is sha256:/);
    // The old index put back: the member read is not the one it records.
    await store.put(indexKey(key), index);
    await expect(findSegmentLine(store, key, idOf(1234), written.index_sha256)).rejects.toThrow(
      /member of .* is not the one its index records/,
    );
    expect(await segmentIndexMismatch(store, key, written.index_sha256, altered.length)).toMatch(/member at \d+ is not the one|covers/);
    // A segment recorded before digests (no recorded index digest) is read as it is.
    await store.put(indexKey(key), Buffer.from(JSON.stringify(shifted)));
    expect(JSON.parse((await findSegmentLine(store, key, idOf(1234), null))!).record.n).toBe(4321);
    // An index that does not cover the object.
    await store.put(key, object);
    await store.put(indexKey(key), index);
    expect(await segmentIndexMismatch(store, key, written.index_sha256, object.length + 1)).toMatch(/covers \d+ bytes of \d+/);
  });

  it('finds the member of an id by binary search', () => {
    const index = [
      { first_id: 'a', last_id: 'c', offset: 0, length: 1 },
      { first_id: 'e', last_id: 'g', offset: 1, length: 1 },
    ];
    expect(memberFor(index, 'f')).toBe(index[1]);
    expect(memberFor(index, 'd')).toBeNull();
    expect(() => parseMemberIndex('[{"first_id":1}]')).toThrow(/not a member index/);
  });
});

describe(digestSegment.name, () => {
  it('reads a segment back as the writer measured it, and a manifest matches it', async () => {
    const key = segmentKey({ tenant_id: 't', kind: 'consultations', from: '2026-11-27T14:00:00Z', to: '2026-11-27T14:01:00Z' });
    const written = await writeSegment(store, key, rows(1500));
    const sut = await digestSegment(store, key);
    const { index: _index, index_sha256: _indexSha256, ...measured } = written;
    expect(sut).toEqual(measured);
    const manifest = manifestOf({ tenant_id: 't', kind: 'consultations', from: '2026-11-27T14:00:00Z', to: '2026-11-27T14:01:00Z' }, sut);
    expect(parseManifest(JSON.parse(JSON.stringify(manifest)))).toEqual(manifest);
    expect(manifestMismatch(manifest, sut)).toBeNull();
    expect(manifestMismatch({ ...manifest, count: 1499 }, sut)).toMatch(/1500 lines/);
    let n = 0;
    for await (const line of readSegmentLines(store, key)) if (JSON.parse(line).id === idOf(++n)) continue;
    expect(n).toBe(1500);
  });

  it('sees a segment altered after it was written: re-compressed with a line changed, or damaged', async () => {
    const key = 't/consultations/altered.jsonl.gz';
    const written = await writeSegment(store, key, rows(10));
    const manifest = manifestOf({ tenant_id: 't', kind: 'consultations', from: 0 as never, to: 0 as never }, written);
    const text = gunzipSync((await store.get(key))!)
      .toString()
      .replace('"n":3', '"n":4');
    await store.put(key, gzipSync(text));
    expect(manifestMismatch(manifest, await digestSegment(store, key))).toMatch(/^sha256 /);
    const bytes = (await store.get(key))!;
    await store.put(key, bytes.subarray(0, bytes.length - 12));
    await expect(digestSegment(store, key)).rejects.toThrow(/unexpected end of file/);
  });

  it('refuses a manifest of another shape', () => {
    expect(() => parseManifest({ tenant_id: 't', kind: 'secrets' })).toThrow(/not a segment manifest/);
  });
});
