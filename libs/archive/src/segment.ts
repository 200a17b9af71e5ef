import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, gunzipSync, gzipSync } from 'node:zlib';
import type { ArchiveStore } from './store';

/**
 * The segment format (docs/operations.md "Archive", ADR 0035): one object per (tenant, kind, partition), JSON Lines
 * ordered by id, written as a series of gzip members of at most MEMBER_LINES lines each (gunzip reads the object
 * whole), beside an index of the members (`<key>.idx.json`) and the manifest (`<key>.manifest.json`).
 */
export const MEMBER_LINES = 1000;

/** The kinds that are archived before their partition is dropped (docs/operations.md "Retention"). */
export const ARCHIVE_KINDS = ['consultations', 'deliveries', 'events'] as const;
export type ArchiveKind = (typeof ARCHIVE_KINDS)[number];

/** One line of a segment: its id (the ordering key) and its JSON text, written as given. */
export interface ArchiveLine {
  id: string;
  line: string;
}

/** One gzip member of a segment: the ids it holds, where its bytes are, and their digest. */
export interface MemberIndexEntry {
  first_id: string;
  last_id: string;
  offset: number;
  length: number;
  /** `sha256:<hex>` of the member's bytes; absent in indexes written before members were hashed. */
  sha256?: string;
}

/** What is sealed in `arbiter.<tenant_id>.archives` and stored as `<key>.manifest.json`. */
export interface SegmentManifest {
  tenant_id: string;
  kind: ArchiveKind;
  /** The partition's lower bound of `keep_until`, ISO 8601. */
  from: string;
  /** Its upper bound (exclusive). */
  to: string;
  count: number;
  /** `sha256:<hex>` of the segment object's bytes. */
  sha256: string;
  first_id: string | null;
  last_id: string | null;
  /** `sha256:<hex>` of the member index object's bytes (each member's digest in it); absent in older manifests. */
  index_sha256?: string;
}

/** What the writer (and the verifier, reading an object back) measured of a segment. */
export interface SegmentDigest {
  count: number;
  sha256: string;
  first_id: string | null;
  last_id: string | null;
  bytes: number;
}

/** `2026-11-27T14:00:00.000Z` → `2026-11-27T140000Z`: a timestamp without colons, usable in any object key. */
export function keyTime(at: Date | string): string {
  const d = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(d.getTime())) throw new Error(`archive: not a time: ${String(at)}`);
  const iso = d.toISOString();
  const ms = iso.slice(19, 23) === '.000' ? '' : iso.slice(19, 23);
  return `${iso.slice(0, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}${ms}Z`;
}

/** The segment's key: `<tenant_id>/<kind>/<from>--<to>.jsonl.gz` under the store's root. */
export function segmentKey(s: { tenant_id: string; kind: ArchiveKind; from: Date | string; to: Date | string }): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(s.tenant_id) || s.tenant_id.startsWith('.')) throw new Error(`archive: not a tenant id: ${s.tenant_id}`);
  return `${s.tenant_id}/${s.kind}/${keyTime(s.from)}--${keyTime(s.to)}.jsonl.gz`;
}

export const indexKey = (key: string): string => `${key}.idx.json`;
export const manifestKey = (key: string): string => `${key}.manifest.json`;

export const sha256Of = (bytes: Buffer): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/**
 * Writes a segment streaming: lines in (strictly ascending ids), gzip members of at most MEMBER_LINES lines out to the
 * store, then its member index. Memory holds one member at a time, whatever the number of lines.
 */
export async function writeSegment(
  store: ArchiveStore,
  key: string,
  lines: AsyncIterable<ArchiveLine> | Iterable<ArchiveLine>,
): Promise<SegmentDigest & { index: MemberIndexEntry[]; index_sha256: string }> {
  const out = new PassThrough();
  // The upload reports a destroyed stream's error; this listener only keeps it from being "unhandled" meanwhile.
  out.on('error', () => undefined);
  const upload = store.put(key, out);
  // A failed upload must not leave the loop below waiting on a stream nobody reads.
  let uploadError: unknown;
  upload.catch((err: unknown) => {
    uploadError = err;
    out.destroy(err as Error);
  });
  const hash = createHash('sha256');
  const index: MemberIndexEntry[] = [];
  let offset = 0;
  let count = 0;
  let first: string | null = null;
  let last: string | null = null;
  let member: string[] = [];
  let memberFirst = '';

  const flush = async (): Promise<void> => {
    if (member.length === 0) return;
    const gz = gzipSync(Buffer.from(member.join(''), 'utf8'));
    index.push({ first_id: memberFirst, last_id: last!, offset, length: gz.length, sha256: sha256Of(gz) });
    offset += gz.length;
    hash.update(gz);
    member = [];
    // events.once removes both of its listeners when either fires: one pair per wait would otherwise stay on the
    // stream, a pair per member, growing with the segment.
    if (!out.write(gz)) await once(out, 'drain');
  };

  try {
    for await (const { id, line } of lines) {
      if (uploadError) throw uploadError;
      if (last !== null && !(id > last)) throw new Error(`archive: lines out of order: ${id} after ${last}`);
      if (line.includes('\n')) throw new Error(`archive: line of ${id} holds a newline`);
      if (member.length === 0) memberFirst = id;
      member.push(`${line}\n`);
      first ??= id;
      last = id;
      count++;
      if (member.length >= MEMBER_LINES) await flush();
    }
    await flush();
    out.end();
  } catch (err) {
    out.destroy(err as Error);
    await upload.catch(() => undefined);
    throw err;
  }
  await upload;
  const indexBytes = Buffer.from(JSON.stringify(index));
  await store.put(indexKey(key), indexBytes);
  return {
    count,
    sha256: `sha256:${hash.digest('hex')}`,
    first_id: first,
    last_id: last,
    bytes: offset,
    index,
    index_sha256: sha256Of(indexBytes),
  };
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** A stored segment or index that is not what was recorded of it: altered in the archive (never a reason to retry). */
export class SegmentAltered extends Error {
  constructor(message: string) {
    super(`archive: ${message}`);
    this.name = 'SegmentAltered';
  }
}

/** The segment's lines as stored, streaming (gunzip reads the members one after the other). */
export async function* readSegmentLines(store: ArchiveStore, key: string): AsyncGenerator<string> {
  const stream = await store.getStream(key);
  if (stream === null) throw new Error(`archive: no segment ${key}`);
  yield* linesOf(gunzipped(stream));
}

/** A stream through gunzip, the source's errors passed on (a truncated or corrupt object fails the reader). */
function gunzipped(stream: Readable): Readable {
  const gunzip = createGunzip();
  stream.on('error', (err) => gunzip.destroy(err));
  return stream.pipe(gunzip);
}

/** The non-empty lines of a UTF-8 stream; its errors are thrown. */
async function* linesOf(stream: Readable): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of stream) {
    const parts = (rest + decoder.write(chunk as Buffer)).split('\n');
    rest = parts.pop()!;
    for (const p of parts) if (p !== '') yield p;
  }
  rest += decoder.end();
  if (rest !== '') yield rest;
}

/**
 * Reads a stored segment back whole and measures it as the writer did: its bytes' sha256, its line count and its first
 * and last ids (each line's `id`), refusing lines out of order. What the worker checks before sealing, and verify after.
 */
export async function digestSegment(store: ArchiveStore, key: string): Promise<SegmentDigest> {
  const stream = await store.getStream(key);
  if (stream === null) throw new Error(`archive: no segment ${key}`);
  const hash = createHash('sha256');
  let bytes = 0;
  stream.on('data', (c: Buffer) => {
    hash.update(c);
    bytes += c.length;
  });
  let count = 0;
  let first: string | null = null;
  let last: string | null = null;
  for await (const line of linesOf(gunzipped(stream))) {
    const id = lineId(line);
    if (last !== null && !(id > last)) throw new Error(`archive: segment ${key} holds ${id} after ${last}`);
    first ??= id;
    last = id;
    count++;
  }
  return { count, sha256: `sha256:${hash.digest('hex')}`, first_id: first, last_id: last, bytes };
}

/** The `id` member of a segment line. */
export function lineId(line: string): string {
  const parsed = JSON.parse(line) as { id?: unknown };
  if (typeof parsed.id !== 'string') throw new Error('archive: a segment line without a string id');
  return parsed.id;
}

/** The member of an index that may hold an id (members are ordered and disjoint), or null. */
export function memberFor(index: readonly MemberIndexEntry[], id: string): MemberIndexEntry | null {
  let lo = 0;
  let hi = index.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const m = index[mid];
    if (id < m.first_id) hi = mid - 1;
    else if (id > m.last_id) lo = mid + 1;
    else return m;
  }
  return null;
}

/** Parses a stored member index, refusing anything else. */
export function parseMemberIndex(text: string): MemberIndexEntry[] {
  const v = JSON.parse(text) as unknown;
  const ok =
    Array.isArray(v) &&
    v.every(
      (m: Record<string, unknown>) =>
        typeof m?.first_id === 'string' &&
        typeof m.last_id === 'string' &&
        Number.isSafeInteger(m.offset) &&
        Number.isSafeInteger(m.length) &&
        (m.offset as number) >= 0 &&
        (m.length as number) > 0 &&
        (m.sha256 === undefined || (typeof m.sha256 === 'string' && DIGEST.test(m.sha256))),
    );
  if (!ok) throw new Error('archive: not a member index');
  return v as MemberIndexEntry[];
}

/**
 * One line of a segment by id, with one ranged read of the member that holds it (found in the segment's index);
 * null when the segment does not hold it. With `indexSha256` (what was recorded of the segment when it was written),
 * the index must have that digest and the member the digest the index gives it, else SegmentAltered: a line is then
 * the one written, byte for byte, whatever else it holds beside what its own signature covers.
 */
export async function findSegmentLine(store: ArchiveStore, key: string, id: string, indexSha256?: string | null): Promise<string | null> {
  const idx = await store.get(indexKey(key));
  if (idx === null) throw new Error(`archive: no index for ${key}`);
  if (indexSha256 && sha256Of(idx) !== indexSha256) throw new SegmentAltered(`the index of ${key} is not the one recorded`);
  const m = memberFor(parseMemberIndex(idx.toString('utf8')), id);
  if (m === null) return null;
  const bytes = await store.getRange(key, m.offset, m.length);
  if (indexSha256 && (m.sha256 === undefined || sha256Of(bytes) !== m.sha256))
    throw new SegmentAltered(`the member of ${key} at ${m.offset} is not the one its index records`);
  const lines = gunzipSync(bytes).toString('utf8').split('\n');
  for (const line of lines) if (line !== '' && lineId(line) === id) return line;
  return null;
}

/**
 * Whether a stored segment's index is the one recorded (`indexSha256`) and describes the object: members one after
 * the other from 0 to `bytes`, each with the digest of its bytes. Answers the first difference, or null.
 */
export async function segmentIndexMismatch(store: ArchiveStore, key: string, indexSha256: string, bytes: number): Promise<string | null> {
  const idx = await store.get(indexKey(key));
  if (idx === null) return 'its index is missing';
  if (sha256Of(idx) !== indexSha256) return `its index is ${sha256Of(idx)}, the manifest says ${indexSha256}`;
  let index: MemberIndexEntry[];
  try {
    index = parseMemberIndex(idx.toString('utf8'));
  } catch (err) {
    return (err as Error).message;
  }
  let offset = 0;
  for (const m of index) {
    if (m.offset !== offset) return `its index has a member at ${m.offset}, expected ${offset}`;
    if (m.sha256 === undefined || sha256Of(await store.getRange(key, m.offset, m.length)) !== m.sha256)
      return `its member at ${m.offset} is not the one its index records`;
    offset += m.length;
  }
  return offset === bytes ? null : `its index covers ${offset} bytes of ${bytes}`;
}
