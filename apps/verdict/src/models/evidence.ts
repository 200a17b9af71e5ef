/** A checkpoint of a ledger stream (docs/evidence.md "Checkpoints"), signed by the ledger. */
export interface LedgerCheckpoint {
  stream_id: string;
  /** @isInt */
  tree_size: number;
  /** `sha256:<64 hex>` */
  root_hash: string;
  /**
   * Milliseconds since the epoch (an int64: it does not fit in 32 bits).
   * @isLong
   */
  created_at_ms: number;
  key_id: string;
  signature_alg: 'Ed25519';
  /** Base64 Ed25519 signature over the RFC 8785 JSON of the checkpoint without `signature`. */
  signature: string;
}

/** A sealed ledger fact, as the ledger's GET /facts/{fact_id} shows it (docs/ledger-formats.md "Fact"). */
export interface LedgerFact {
  fact_id: string;
  stream_id: string;
  tenant_id: string;
  actor: string;
  /** Who sealed it, as the ledger authenticated it (`service:internal` for the services' audit facts); null before the ledger recorded it. */
  sealed_by: string | null;
  /**
   * Milliseconds since the epoch (an int64: it does not fit in 32 bits).
   * @isLong
   */
  sealed_at_ms: number;
  sealed_at_iso: string;
  custom_payload: { [key: string]: unknown };
  /** `sha256:<64 hex>`, recomputable from the members above and prev_hash (docs/ledger-formats.md "fact_hash"). */
  fact_hash: string;
  prev_hash: string;
  parent_fact_id: string | null;
  /** @isInt */
  sequence: number;
  client_ref: string | null;
}

/** One of the ledger's published Ed25519 keys (RFC 8037 JWK) with its validity window. */
export interface LedgerPublicKey {
  kid: string;
  kty: string;
  crv: string;
  x: string;
  alg: string;
  use: string;
  not_before: string;
  not_after: string | null;
}

/** GET /<tenant>/v1/consultations/<id>/evidence (docs/evidence.md "Evidence of a consultation"). */
export interface ConsultationEvidence {
  consultation_id: string;
  /** True when the consultation was read from the archive (docs/verdicts.md "Consultations"): its proof is the same. */
  archived?: boolean;
  ledger: {
    /** `arbiter.<tenant_id>.consultations` */
    stream_id: string;
    fact_id: string;
    /** `sha256:<64 hex>`; the leaf is SHA-256(0x00 ‖ its 32 bytes). */
    fact_hash: string;
    /** @isInt */
    leaf_index: number;
    /** @isInt */
    tree_size: number;
    /** Sibling subtree hashes from the leaf up (RFC 9162 2.1.3). */
    inclusion_path: string[];
    checkpoint: LedgerCheckpoint;
    /** The fact itself, so that a verifier without access to the ledger recomputes fact_hash and compares its payload with the record. */
    fact: LedgerFact;
    /**
     * The ledger's published keys (its GET /.well-known/ledger-keys) when the answer was made. Keys served by
     * the service whose answer is checked are not trust: a verifier checks against its own (docs/evidence.md "Trusted keys").
     */
    keys: { keys: LedgerPublicKey[]; transitions?: { [key: string]: unknown }[] };
  };
}
