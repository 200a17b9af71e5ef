import { Controller, Get, Path, Response, Route, Tags } from '@tsoa/runtime';
import { mintTenantId } from '@arbiter/auth';
import type { LedgerContext } from '../../context';
import { publishedKeySet } from '../../keys';
import type { ErrorBody } from '../../models/errors';
import type { CitedFact } from '../../models/internal';
import type { LedgerKeySet } from '../../models/ledger';

/**
 * A tenant's fact with the proof of it, for the verdict gateway's ledger citations (docs/ledger-formats.md
 * "Cited facts"), and the ledger's published keys the gateway checks the checkpoint with.
 */
@Route('internal/v1')
@Tags('Proofs')
@Response<ErrorBody>(401, 'UNAUTHORIZED: missing or invalid internal token (a tenant API key never passes)')
export class InternalCitationsController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /**
   * The fact of that tenant, the fact before it in its stream, its inclusion proof at the stream's
   * current size and the checkpoint of that size, signed now.
   * @param tenant_id The tenant the caller acts for: another tenant's fact is not found.
   * @param fact_id A fact id, `fct-` and 24 lowercase hex digits.
   */
  @Get('tenants/{tenant_id}/facts/{fact_id}')
  @Response<ErrorBody>(404, "NOT_FOUND: the tenant has no fact of that id (unknown, or another tenant's)")
  async cited(@Path() tenant_id: string, @Path() fact_id: string): Promise<CitedFact> {
    // Trust boundary: the calling service vouches for the tenant (it authenticated the tenant's key).
    return this.ctx.proofs.cited(mintTenantId(tenant_id), fact_id);
  }

  /** The key set of GET /.well-known/ledger-keys (every key ever used, with its window), without its rate limit. */
  @Get('ledger-keys')
  async ledgerKeys(): Promise<LedgerKeySet> {
    return publishedKeySet(this.ctx.keys, this.ctx.keyTransitions);
  }
}
