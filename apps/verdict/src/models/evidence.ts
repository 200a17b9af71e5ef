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

/** GET /<tenant>/v1/consultations/<id>/evidence (docs/evidence.md "Evidence of a consultation"). */
export interface ConsultationEvidence {
  consultation_id: string;
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
  };
}
