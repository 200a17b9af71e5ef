import { AppError } from './errors';

/** Opaque list cursors (docs/verdicts.md "Errors"): base64url JSON, tampering gives a 400. */
export function encodeCursor(position: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

export function decodeCursor<T extends Record<string, unknown>>(cursor: string | undefined, invalid: () => AppError): T | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as T;
  } catch {
    /* fall through */
  }
  throw invalid();
}

/** limit: default 50, maximum 1000 (docs/verdicts.md "Errors"). */
export function parseLimit(limit: number | undefined, invalid: () => AppError, max = 1000, dflt = 50): number {
  if (limit === undefined) return dflt;
  if (!Number.isInteger(limit) || limit < 1 || limit > max) throw invalid();
  return limit;
}
