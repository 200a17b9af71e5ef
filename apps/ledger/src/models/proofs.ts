/**
 * Merkle proof shapes of the ledger (docs/evidence.md "Proofs"); tsoa validates and documents them.
 * Hashes are `sha256:<64 lowercase hex>` (RFC 9162 section 2.1 trees over the stream's facts).
 */

/** A signed tree head of a stream (docs/evidence.md "Checkpoints"). */
export interface Checkpoint {
  stream_id: string;
  /**
   * Number of leaves: the stream's first tree_size facts, in chain order.
   * @isInt
   */
  tree_size: number;
  /** MTH of those leaves (RFC 9162 2.1.1): `sha256:<64 hex>`. */
  root_hash: string;
  /**
   * Milliseconds since the epoch (an int64: it does not fit in 32 bits).
   * @isLong
   */
  created_at_ms: number;
  /** kid of the signing key, published at /.well-known/ledger-keys. */
  key_id: string;
  signature_alg: 'Ed25519';
  /** Base64 Ed25519 signature over the RFC 8785 JSON of this object without `signature`. */
  signature: string;
}

/** The inclusion proof of a fact in the tree of a stream's first tree_size facts (RFC 9162 2.1.3). */
export interface InclusionProof {
  fact_id: string;
  /**
   * The fact's position from 0: its sequence − 1.
   * @isInt
   */
  leaf_index: number;
  /** @isInt */
  tree_size: number;
  /** PATH(leaf_index, D[tree_size]): sibling subtree hashes from the leaf up. */
  inclusion_path: string[];
  /** The signed tree head of that size: the root the path leads to. */
  checkpoint: Checkpoint;
}

/** The consistency proof between the trees of a stream's first `from` and first `to` facts (RFC 9162 2.1.4). */
export interface ConsistencyProof {
  /** @isInt */
  from: number;
  /** @isInt */
  to: number;
  /** PROOF(from, D[to]); empty when from = to. */
  consistency_path: string[];
}
