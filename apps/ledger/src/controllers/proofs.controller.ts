import { Controller, Example, Get, Middlewares, Path, Query, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { LedgerContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { Checkpoint, ConsistencyProof, InclusionProof } from '../models/proofs';
import { refuseUnstorable } from '../http/unstorable';

// The examples are the 7-leaf tree of docs/evidence.md "A worked example: a 7-leaf tree" (the signature is a stand-in).
const CHECKPOINT_EXAMPLE: Checkpoint = {
  stream_id: 'orders',
  tree_size: 7,
  root_hash: 'sha256:3ff35a18a6bf16c5bcf9a25545615a25d5492e74db785023e1928db3d772686c',
  created_at_ms: 1767225600000,
  key_id: 'ledger:2026',
  signature_alg: 'Ed25519',
  signature: 'O7Eu2jwpjbXeJVl/VNkk8uF+eKJq2JU+2CGO5oLwu76QIeLzAJ0VLJEb8fJexoOpAnFBZnZ6+9jlvQ+wEk7Lig==',
};

/**
 * Signed checkpoints and consistency proofs of a stream's Merkle tree (docs/evidence.md "Proofs").
 * Stream ids are the key's tenant's own (docs/ledger-formats.md "Stream identity"): an id only another tenant uses answers 404, as an unknown one does.
 */
@Middlewares(refuseUnstorable)
@Route('streams')
@Tags('Proofs')
@Response<ErrorBody>(401, 'UNAUTHORIZED: missing or invalid API key')
@Response<ErrorBody>(403, 'FORBIDDEN: missing permission')
@Response<ErrorBody>(404, 'NOT_FOUND: no such stream of this tenant')
@Response<ErrorBody>(
  429,
  "RATE_LIMITED: the token bucket (the key's, or the client address's without a valid key) is empty; Retry-After says when to retry",
)
@Response<ErrorBody>(500, 'INTERNAL_ERROR: the stored tree disagrees with the facts; nothing is signed')
export class StreamProofsController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /**
   * The signed tree head of the stream's first tree_size facts: RFC 9162 MTH over their leaves,
   * signed with the ledger's Ed25519 key (keys at /.well-known/ledger-keys).
   * @param tree_size from 1 to the stream's current number of facts; default: the current number
   * @summary Signed tree head of a stream
   * @param stream_id The stream id (chosen by the tenant, in its own namespace; 1 to 128 characters of letters, digits, `.`, `_`, `:`, `-`).
   * @isInt tree_size must be a positive integer
   * @minimum tree_size 1 must be a positive integer
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
   * @summary Consistency proof between two tree sizes
   * @param stream_id The stream id (chosen by the tenant, in its own namespace; 1 to 128 characters of letters, digits, `.`, `_`, `:`, `-`).
   * @isInt from must be a positive integer
   * @minimum from 1 must be a positive integer
   * @isInt to must be a positive integer
   * @minimum to 1 must be a positive integer
   */
  @Get('{stream_id}/consistency')
  @Security('apiKey', ['read'])
  @Example<ConsistencyProof>({
    from: 3,
    to: 7,
    consistency_path: [
      'sha256:dbc680b160742afad21479da9921ac92c6f45bea813c446c6252a48a311f7c0f',
      'sha256:74c716556f51843cb588145478303ae27e07ea764eec9d72f767b4f502a2a978',
      'sha256:ffc8b2d74ecd9c4f078662825872f7244e39456cfc989d6c59817287f79c52b2',
      'sha256:4d5684b0201605114fcf1d852f03143d1b4012ba7542e2eaf858da99b7354c7c',
    ],
  })
  @Response<ErrorBody>(
    400,
    'VALIDATION_ERROR: from or to missing, not an integer, or not 1 ≤ from ≤ to ≤ the current size (details name the parameter)',
  )
  async getConsistency(
    @Request() req: AuthedRequest,
    @Path() stream_id: string,
    @Query() from?: number,
    @Query() to?: number,
  ): Promise<ConsistencyProof> {
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
@Response<ErrorBody>(
  429,
  "RATE_LIMITED: the token bucket (the key's, or the client address's without a valid key) is empty; Retry-After says when to retry",
)
@Response<ErrorBody>(500, 'INTERNAL_ERROR: the stored tree disagrees with the facts; nothing is signed')
export class FactProofsController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /**
   * The RFC 9162 inclusion proof of the fact (leaf sequence − 1) in the tree of the stream's first
   * tree_size facts, with the signed checkpoint of that size.
   * @param tree_size from the fact's sequence to the stream's current number of facts; default: the current number
   * @summary Inclusion proof of a fact
   * @param fact_id The fact id (`fct-`).
   * @isInt tree_size must be a positive integer
   * @minimum tree_size 1 must be a positive integer
   */
  @Get('{fact_id}/inclusion')
  @Security('apiKey', ['read'])
  @Example<InclusionProof>({
    fact_id: 'fct-01J9Z8Q4W6E2R5T7Y9U1I3O5P7',
    leaf_index: 5,
    tree_size: 7,
    inclusion_path: [
      'sha256:96cad45f3a3395b51236a2fb4e083ce06f7cf76d8029633e4833ebff4030c621',
      'sha256:b16c270ae2dff57adff34a8b4d2027bf9985a9c2d3c8ae7daf3cd1476d45f26f',
      'sha256:d77905fbc4742270542bbfb139f4bbd51e4fbe50945e714f6b8c8ec8fdf2826f',
    ],
    checkpoint: CHECKPOINT_EXAMPLE,
  })
  @Response<ErrorBody>(
    400,
    "VALIDATION_ERROR: tree_size is not an integer from the fact's sequence to the current size (details name tree_size)",
  )
  async getInclusion(@Request() req: AuthedRequest, @Path() fact_id: string, @Query() tree_size?: number): Promise<InclusionProof> {
    return this.ctx.proofs.inclusion(req.user, fact_id, tree_size);
  }
}
