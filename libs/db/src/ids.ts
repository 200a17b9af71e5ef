import { randomFillSync } from 'node:crypto';

const ID_BYTES = 12;
/** Random bytes drawn from the CSPRNG 256 ids at a time: one call per id cost ~6 µs on the check path. */
const POOL_IDS = 256;
const pool = Buffer.alloc(ID_BYTES * POOL_IDS);
let offset = pool.length;

/**
 * Record ids are a documented prefix (e.g. `tnt-`, `cns-`) followed by 24 lowercase hex characters:
 * 96 random bits from node:crypto's CSPRNG, so ids reveal nothing and never collide in practice.
 * Each id uses its own bytes of the pool; the pool is refilled when spent.
 */
export function newId(prefix: string): string {
  return `${prefix}${randomHex(ID_BYTES)}`;
}

/** `bytes` bytes of the pool as hex (at most ID_BYTES). */
function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}

/** The largest millisecond time 12 hex characters hold (year 10889). */
const MAX_MS = 0xffffffffffff;

/**
 * A time-ordered id (docs/operations.md "Archive"): the prefix, 12 hex characters of the millisecond Unix time
 * `at`, then 12 random hex characters (48 bits from the same CSPRNG pool). Same length and alphabet as `newId`, so
 * older random ids and these sit in one column; ids of different milliseconds sort by time, which lets an archive
 * segment's first and last ids bound the time it covers.
 */
export function newTimeOrderedId(prefix: string, at: Date | number): string {
  const ms = typeof at === 'number' ? at : at.getTime();
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > MAX_MS) throw new RangeError(`newTimeOrderedId: not a time: ${String(at)}`);
  return `${prefix}${ms.toString(16).padStart(12, '0')}${randomHex(ID_BYTES / 2)}`;
}

/** The millisecond time of a time-ordered id made by newTimeOrderedId (meaningless for a random one). */
export function timeOfOrderedId(id: string, prefix: string): number {
  return parseInt(id.slice(prefix.length, prefix.length + 12), 16);
}
