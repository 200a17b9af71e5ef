import {
  Body,
  Controller,
  Get,
  Middlewares,
  Path,
  Post,
  Query,
  Request,
  Response,
  Route,
  Security,
  SuccessResponse,
  Tags,
} from '@tsoa/runtime';
import type { AuthedRequest, AuthenticatedIdentity } from '@arbiter/auth';
import { ownBody } from '@arbiter/http';
import type { LedgerContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { BundlePage, Fact, FactList, ProofBundle, SealFactBody, VerificationResult } from '../models/ledger';
import { refuseUnstorable } from '../http/unstorable';

/**
 * Stream endpoints (docs/ledger-formats.md "Contract"). Stream ids live in the key's tenant's namespace
 * ("Stream identity"): a stream id is only ever looked up among the caller's own streams, so a name only
 * another tenant uses answers exactly as a name nobody uses.
 */
@Middlewares(refuseUnstorable)
@Route('streams')
@Tags('Streams')
@Response<ErrorBody>(400, 'VALIDATION_ERROR')
@Response<ErrorBody>(401, 'UNAUTHORIZED: missing or invalid API key')
@Response<ErrorBody>(403, 'FORBIDDEN: missing permission')
@Response<ErrorBody>(
  429,
  "RATE_LIMITED: the token bucket (the key's, or the client address's without a valid key) is empty; Retry-After says when to retry",
)
export class StreamsController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /**
   * Seals a fact at the end of the stream's chain, creating the stream in the key's tenant's namespace
   * with its first fact. With a client_ref already used in this stream, answers the original fact with
   * 200 and creates none. The fact's `sealed_by` is the key's principal, whatever `actor` says.
   * @summary Seal a fact into a stream
   * @param stream_id The stream id (chosen by the tenant, in its own namespace; 1 to 128 characters of letters, digits, `.`, `_`, `:`, `-`).
   */
  @Post('{stream_id}/facts')
  @Security('apiKey', ['seal'])
  @SuccessResponse(201, 'Sealed')
  @Response<Fact>(200, 'A retry: the fact first sealed with this client_ref')
  @Response<ErrorBody>(
    403,
    "FORBIDDEN: missing permission, tenant_id is not the key's tenant, or the stream id starts with `arbiter.` in any case (the services' audit streams: tenant keys read them, only the services seal into them)",
  )
  // The route's one handler, on both doors: the fast lane (http/seal-route.ts, ADR 0006) calls it, and
  // the tsoa route runs it through ownBody, so the body arrives as sent and FactsService.seal parses it
  // once, instead of tsoa's generic validation.
  @Middlewares(ownBody(StreamsController, (c, req) => c.sealFact(req as never, String(req.params.stream_id), req.body)))
  async sealFact(@Request() req: { user: AuthenticatedIdentity }, @Path() stream_id: string, @Body() body: SealFactBody): Promise<Fact> {
    const { fact, created } = await this.ctx.facts.seal(req.user, stream_id, body);
    this.setStatus(created ? 201 : 200);
    return fact;
  }

  /**
   * Facts in chain order. `count` is the number of facts in the whole stream.
   * @param limit 1 to 1000, default 50
   * @param offset facts to skip from the start of the chain, default 0
   * @summary List a stream's facts
   * @param stream_id The stream id (chosen by the tenant, in its own namespace; 1 to 128 characters of letters, digits, `.`, `_`, `:`, `-`).
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @isInt offset must be an integer from 0
   * @minimum offset 0 must be an integer from 0
   */
  @Get('{stream_id}/facts')
  @Security('apiKey', ['read'])
  @Response<ErrorBody>(404, 'NOT_FOUND')
  async listFacts(
    @Request() req: AuthedRequest,
    @Path() stream_id: string,
    @Query() limit?: number,
    @Query() offset?: number,
  ): Promise<FactList> {
    return this.ctx.facts.listFacts(req.user, stream_id, { limit, offset });
  }

  /**
   * Signs a proof bundle of the stream up to its current head, after checking the stored chain.
   * No body. Needs `read`: a bundle changes no stream, and auditors with read-only keys export them.
   * @summary Sign a proof bundle of a stream
   * @param stream_id The stream id (chosen by the tenant, in its own namespace; 1 to 128 characters of letters, digits, `.`, `_`, `:`, `-`).
   */
  @Post('{stream_id}/bundles')
  @Security('apiKey', ['read'])
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(404, 'NOT_FOUND')
  @Response<ErrorBody>(500, 'INTERNAL_ERROR: the stored chain does not verify; nothing is signed')
  async createBundle(@Request() req: AuthedRequest, @Path() stream_id: string): Promise<ProofBundle> {
    this.setStatus(201);
    const bundle = await this.ctx.bundles.create(req.user, stream_id);
    this.ctx.metrics.bundles.inc();
    return bundle;
  }

  /**
   * Bundles of the stream, oldest first, without their manifests (GET /bundles/{bundle_id} has them).
   * @param limit 1 to 1000, default 50
   * @param cursor next_cursor of the previous page
   * @summary List a stream's bundles
   * @param stream_id The stream id (chosen by the tenant, in its own namespace; 1 to 128 characters of letters, digits, `.`, `_`, `:`, `-`).
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   */
  @Get('{stream_id}/bundles')
  @Security('apiKey', ['read'])
  @Response<ErrorBody>(404, 'NOT_FOUND')
  async listBundles(
    @Request() req: AuthedRequest,
    @Path() stream_id: string,
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<BundlePage> {
    return this.ctx.bundles.list(req.user, stream_id, { limit, cursor });
  }

  /**
   * Walks the stored chain; a broken chain answers 200 with valid false and the fact where it breaks. No body.
   * @summary Verify a stream's chain
   * @param stream_id The stream id (chosen by the tenant, in its own namespace; 1 to 128 characters of letters, digits, `.`, `_`, `:`, `-`).
   */
  @Post('{stream_id}/verify')
  @Security('apiKey', ['read'])
  @Response<ErrorBody>(404, 'NOT_FOUND')
  async verifyStream(@Request() req: AuthedRequest, @Path() stream_id: string): Promise<VerificationResult> {
    return this.ctx.verify.verify(await this.ctx.facts.ownedStream(req.user, stream_id));
  }
}
