import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_FORMAT = /^ak-[0-9a-f]{64}$/;

/** `ak-` + 32 random bytes in hex (docs/identity.md). */
export function generateApiKey(): string {
  return `ak-${randomBytes(32).toString('hex')}`;
}

export function isApiKeyFormat(value: string): boolean {
  return KEY_FORMAT.test(value);
}

/** Keys are stored as a SHA-256 hash only; the plaintext is shown once. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** What may be displayed of a key: its first characters. */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, 11);
}

/** Constant-time comparison of two secrets of any length (compares their digests). */
export function secretsEqual(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}
