// What the gateway keeps of sensitive values beside its rows (docs/verdicts.md "Sensitive fields").

/**
 * The `sealed_values` column of a consultation: the subject's digest (null: a one-off key, thrown away), the
 * locations committed in the record, and their plain values as AES-256-GCM ciphertext under the subject's key (null
 * with a one-off key).
 */
export interface SealedValues {
  subject: string | null;
  paths: string[];
  values: string | null;
  /** The keyId of the subject's keys that sealed `values` (absent in rows sealed before it was kept). */
  key?: string;
}

/** A resolve session's Facts that hold sensitive values: encrypted under KEY_ENCRYPTION_KEY, never in its `context`. */
export interface SealedSessionFacts {
  subject: string | null;
  facts: string;
}

/** What a read shows of a sensitive value once its key is gone. */
export const ERASED = 'erased';

/**
 * What a read shows of a sensitive value whose ciphertext does not open though its subject's key is there, or whose
 * `sealed_values` is not of the stored shape: an integrity failure, never an erasure (docs/verdicts.md "Sensitive fields").
 */
export const UNREADABLE = 'unreadable';

const isDigest = (v: unknown): boolean => v === null || (typeof v === 'string' && v.length > 0);

/** The `sealed_values` column as stored, or null when it is not of that shape (an altered or corrupted row). */
export function parseSealedValues(raw: unknown): SealedValues | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const { subject, paths, values, key } = raw as Record<string, unknown>;
  if (!isDigest(subject) || !isDigest(values) || (key !== undefined && typeof key !== 'string')) return null;
  if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string')) return null;
  return {
    subject: subject as string | null,
    paths: paths as string[],
    values: values as string | null,
    ...(key === undefined ? {} : { key }),
  };
}

/** The locations a malformed `sealed_values` still names (its `paths`, when that is a list of strings), else none. */
export function pathsOf(raw: unknown): string[] {
  const paths = raw !== null && typeof raw === 'object' ? (raw as { paths?: unknown }).paths : undefined;
  return Array.isArray(paths) ? paths.filter((p): p is string => typeof p === 'string') : [];
}
