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
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('hex', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return `${prefix}${id}`;
}
