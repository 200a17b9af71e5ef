import { randomBytes } from 'node:crypto';

/**
 * Record ids are a documented prefix (e.g. `tnt-`, `cns-`) followed by 24 lowercase hex characters:
 * 96 random bits, so ids reveal nothing and never collide in practice.
 */
export function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}
