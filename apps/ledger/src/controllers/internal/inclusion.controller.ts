import { Controller, Get, Query, Response, Route, Tags } from '@tsoa/runtime';
import type { LedgerContext } from '../../context';
import type { ErrorBody } from '../../models/errors';
import type { AuditInclusion } from '../../models/internal';

/** Proofs of the services' own audit facts (docs/evidence.md "Evidence of a consultation"). */
@Route('internal/v1')
@Tags('Proofs')
@Response<ErrorBody>(401, 'UNAUTHORIZED: missing or invalid internal token (a tenant API key never passes)')
@Response<ErrorBody>(400, 'VALIDATION_ERROR: a missing parameter, a stream_id that is no audit stream, or a tree_size out of range')
export class InternalInclusionController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /**
   * The fact sealed under client_ref in the stream, with its inclusion proof at tree_size (default
   * the current size) and the checkpoint of that size, signed now. The stream is the one of that id in
   * the namespace of the tenant it names (a stream of the same id in another tenant's namespace is never read).
   * @param stream_id An audit stream, `arbiter.<tenant_id>.<kind>`.
   * @param client_ref The entity id the fact was sealed under.
   */
  @Get('inclusion')
  @Response<ErrorBody>(404, 'NOT_FOUND: no fact of the stream has that client_ref (not sealed yet)')
  async inclusion(@Query() stream_id: string, @Query() client_ref: string, @Query() tree_size?: number): Promise<AuditInclusion> {
    return this.ctx.proofs.byClientRefAnyTenant(stream_id, client_ref, tree_size);
  }
}
