// Erasure of a data subject (docs/operations.md "Erasure"); tsoa validates the body and writes both shapes into openapi.json.

/** POST /<tenant_id>/v1/erasures: exactly one of `subject` and `subject_commitment`. */
export interface ErasureBody {
  /**
   * The data subject: the value its checks carried at the tenant's `settings.data_subject_field` (a non-empty
   * string of at most 1024 characters, or a number), e.g. the customer id. A number names the subject its JSON text
   * names: 42 and "42" are one subject.
   */
  subject?: string | number;
  /**
   * The subject as an earlier erasure answered it (`hmac-sha256:<hex>`): how an operator erases again, after restoring
   * a backup, a subject whose value is not at hand (docs/operations.md "Erasure").
   */
  subject_commitment?: string;
}

export interface Erasure {
  /**
   * `hmac-sha256:<hex>`: the subject as the gateway stores it (HMAC-SHA256 under the tenant's secret), the
   * `subject_commitment` sealed in `arbiter.<tenant_id>.erasures`. Never the subject itself.
   */
  subject_commitment: string;
  /** When the subject was first erased (ISO 8601); a later erasure of the same subject answers this one. */
  erased_at: string;
  /** The principal that first erased it. */
  erased_by: string;
  /** The ledger stream the erasure is sealed in. */
  stream_id: string;
}

/** The answer of POST /<tenant_id>/v1/erasures: the (first) erasure, and what this call deleted. */
export interface ErasureResult extends Erasure {
  /**
   * How many key rows of the subject this call deleted: 1 when checks had named the subject (since its last erasure),
   * 0 when there was nothing to delete (a subject no check ever named, a value that differs from the one the checks
   * carried, or one already erased).
   */
  keys_deleted: number;
}

export interface ErasureList {
  /** Newest first. */
  items: Erasure[];
  /** Pass as `cursor` for the next page; null on the last one. */
  next_cursor: string | null;
}
