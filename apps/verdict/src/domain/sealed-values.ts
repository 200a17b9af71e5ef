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
}

/** A resolve session's Facts that hold sensitive values: encrypted under KEY_ENCRYPTION_KEY, never in its `context`. */
export interface SealedSessionFacts {
  subject: string | null;
  facts: string;
}

/** What a read shows of a sensitive value once its key is gone. */
export const ERASED = 'erased';
