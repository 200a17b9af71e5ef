import { Controller, Example, Get, Middlewares, Path, Query, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { LedgerContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { Checkpoint, ConsistencyProof, InclusionProof } from '../models/proofs';
import { refuseUnstorable } from '../http/unstorable';

const CHECKPOINT_EXAMPLE: Checkpoint = {
  stream_id: 'orders',
  tree_size: 7,
  root_hash: 'sha256:2ae4e84c4ed2a8b2e9e4c3b4a4c5a0ff1b5d0a7b4e0cfe7c3a2d0f8a3c6e9b11',
  created_at_ms: 1767225600000,
  key_id: 'ledger:2026',
  signature_alg: 'Ed25519',
  signature: 'mV3c0Qe0bZ0m5K1s8kq3a8bWkCq0p8Qe1o0v7zE4V3p1kq2r9rjx5sQ0mXoWb8oS9yYw3W2yYk2l6n9p3b5dBA==',
};

/**
 * Signed checkpoints and consistency proofs of a stream's Merkle tree (docs/evidence.md "Proofs").
 * Another tenant's stream answers 404, as an unknown one does.
 */
@Middlewares(refuseUnstorable)
@Route('streams')
@Tags('Proofs')
@Response<ErrorBody>(401, 'UNAUTHORIZED: missing or invalid API key')
@Response<ErrorBody>(403, 'FORBIDDEN: missing permission')
@Response<ErrorBody>(404, 'NOT_FOUND: no such stream of this tenant')
@Response<ErrorBody>(429, 'RATE_LIMITED: the token bucket (the key\'s, or the client address\'s without a valid key) is empty; Retry-After says when to retry')
@Response<ErrorBody>(500, 'INTERNAL_ERROR: the stored tree disagrees with the facts; nothing is signed')
export class StreamProofsController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /**
   * The signed tree head of the stream's first tree_size facts: RFC 9162 MTH over their leaves,
   * signed with the ledger's Ed25519 key (keys at /.well-known/ledger-keys).
   * @param tree_size from 1 to the stream's current number of facts; default: the current number
   */
  @Get('{stream_id}/checkpoint')
  @Security('apiKey', ['read'])
  @Example<Checkpoint>(CHECKPOINT_EXAMPLE)
  @Response<ErrorBody>(400, 'VALIDATION_ERROR: tree_size is not an integer from 1 to the current size (details name tree_size)')
  async getCheckpoint(@Request() req: AuthedRequest, @Path() stream_id: string, @Query() tree_size?: number): Promise<Checkpoint> {
    return this.ctx.proofs.checkpoint(req.user, stream_id, tree_size);
  }

  /**
   * The RFC 9162 consistency proof that the tree of the first `from` facts is a prefix of the tree
   * of the first `to` facts; check it against two checkpoints of those sizes.
   * @param from from 1 to `to`
   * @param to from `from` to the stream's current number of facts
   */
  @Get('{stream_id}/consistency')
  @Security('apiKey', ['read'])
  @Example<ConsistencyProof>({
    from: 3,
    to: 7,
    consistency_path: [
      'sha256:1f0f1e3c5c0b1b0d57f3a8c8e2a7b8b6c3e8a1d4c5f6e7d8c9b0a1f2e3d4c5b6',
      'sha256:8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b',
      'sha256:0e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6a7f8e9d0c1b2a3f4e5d6c7b8a9f0e1d',
    ],
  })
  @Response<ErrorBody>(400, 'VALIDATION_ERROR: from or to missing, not an integer, or not 1 ≤ from ≤ to ≤ the current size (details name the parameter)')
  async getConsistency(@Request() req: AuthedRequest, @Path() stream_id: string, @Query() from?: number, @Query() to?: number): Promise<ConsistencyProof> {
    return this.ctx.proofs.consistency(req.user, stream_id, from, to);
  }
}

/** Inclusion proofs of facts (docs/evidence.md "Proofs"). Another tenant's fact answers 404. */
@Middlewares(refuseUnstorable)
@Route('facts')
@Tags('Proofs')
@Response<ErrorBody>(401, 'UNAUTHORIZED: missing or invalid API key')
@Response<ErrorBody>(403, 'FORBIDDEN: missing permission')
@Response<ErrorBody>(404, 'NOT_FOUND: no such fact of this tenant')
@Response<ErrorBody>(429, 'RATE_LIMITED: the token bucket (the key\'s, or the client address\'s without a valid key) is empty; Retry-After says when to retry')
@Response<ErrorBody>(500, 'INTERNAL_ERROR: the stored tree disagrees with the facts; nothing is signed')
export class FactProofsController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /**
   * The RFC 9162 inclusion proof of the fact (leaf sequence − 1) in the tree of the stream's first
   * tree_size facts, with the signed checkpoint of that size.
   * @param tree_size from the fact's sequence to the stream's current number of facts; default: the current number
   */
  @Get('{fact_id}/inclusion')
  @Security('apiKey', ['read'])
  @Example<InclusionProof>({
    fact_id: 'fct-01J9Z8Q4W6E2R5T7Y9U1I3O5P7',
    leaf_index: 5,
    tree_size: 7,
    inclusion_path: [
      'sha256:3c5b6a7f8e9d0c1b2a3f4e5d6c7b8a9f0e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b',
      'sha256:9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8c',
      'sha256:4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b',
    ],
    checkpoint: CHECKPOINT_EXAMPLE,
  })
  @Response<ErrorBody>(400, 'VALIDATION_ERROR: tree_size is not an integer from the fact\'s sequence to the current size (details name tree_size)')
  async getInclusion(@Request() req: AuthedRequest, @Path() fact_id: string, @Query() tree_size?: number): Promise<InclusionProof> {
    return this.ctx.proofs.inclusion(req.user, fact_id, tree_size);
  }
}
