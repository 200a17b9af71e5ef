import { CryptoError } from './errors';

// Shared by this library's *.spec.ts files only; not exported from index.ts.

/** Runs fn and returns the CryptoError it throws, failing the test when it throws nothing else. */
export function catchCryptoError(fn: () => unknown): CryptoError {
  try {
    fn();
  } catch (err) {
    if (err instanceof CryptoError) return err;
    throw err;
  }
  throw new Error('expected a CryptoError, nothing was thrown');
}

export async function catchCryptoErrorAsync(fn: () => Promise<unknown>): Promise<CryptoError> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof CryptoError) return err;
    throw err;
  }
  throw new Error('expected a CryptoError, nothing was thrown');
}

/** A copy of bytes with one bit flipped at index i. */
export function flipBit(bytes: Uint8Array, i: number): Uint8Array {
  const copy = Uint8Array.from(bytes);
  copy[i] = copy[i]! ^ 0x01;
  return copy;
}

/** A compact-JWS/base64url string with one character of segment `segment` changed. */
export function tamperSegment(jws: string, segment: number): string {
  const parts = jws.split('.');
  const s = parts[segment]!;
  const i = Math.floor(s.length / 2);
  parts[segment] = s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  return parts.join('.');
}
