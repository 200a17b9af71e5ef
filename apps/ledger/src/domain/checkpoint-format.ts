import { canonicalJson } from '@arbiter/canonical';

/** The signature algorithm of checkpoints (docs/evidence.md "Checkpoints"). */
export const CHECKPOINT_SIGNATURE_ALG = 'Ed25519';

/** Every field of a checkpoint except `signature`: exactly what the signature covers. */
export interface UnsignedCheckpoint {
  stream_id: string;
  tree_size: number;
  root_hash: string;
  created_at_ms: number;
  key_id: string;
  signature_alg: typeof CHECKPOINT_SIGNATURE_ALG;
}

/**
 * docs/evidence.md "Checkpoints": Ed25519 over the UTF-8 bytes of the RFC 8785 JSON of the
 * checkpoint without `signature`, as proof bundles are signed (docs/ledger-formats.md). key_id and
 * signature_alg are inside, so neither can be swapped after signing.
 */
export function checkpointSigningInput(c: UnsignedCheckpoint): string {
  const { stream_id, tree_size, root_hash, created_at_ms, key_id, signature_alg } = c;
  return canonicalJson({ stream_id, tree_size, root_hash, created_at_ms, key_id, signature_alg });
}
