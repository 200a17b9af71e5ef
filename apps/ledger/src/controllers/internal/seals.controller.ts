import { Body, Controller, Middlewares, Post, Response, Route, Tags } from '@tsoa/runtime';
import { ownBody } from '@arbiter/http';
import type { LedgerContext } from '../../context';
import type { ErrorBody } from '../../models/errors';
import type { ServiceSealAnswer, ServiceSealRequest } from '../../models/internal';

/** The services' audit facts (docs/ledger-formats.md "Service seals"), relayed by the worker from their outboxes. */
@Route('internal/v1')
@Tags('Seals')
@Response<ErrorBody>(401, 'UNAUTHORIZED: missing or invalid internal token (a tenant API key never passes)')
@Response<ErrorBody>(400, 'VALIDATION_ERROR: a malformed body or an invalid seal, named seals[i].<field>; nothing is sealed')
export class InternalSealsController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /**
   * Seals 1 to 1000 audit facts into the tenants' `arbiter.<tenant_id>.*` streams through the
   * ledger's group commit. Answers one result per seal, in request order: the fact (`created`
   * false when its client_ref was sealed before: the original fact), or `ok: false` for a seal the
   * database refused on its own, the others being committed. A 500 (nothing is known of any seal)
   * is retried whole: client_ref makes that safe.
   */
  @Post('seals')
  // Through ownBody, the body arrives as sent: FactsService.sealForServices reads it once and names every
  // error `seals[i].<field>` (tsoa's own validation would name it otherwise, and walk every payload a
  // second time).
  @Middlewares(ownBody(InternalSealsController, (c, req) => c.seal(req.body)))
  async seal(@Body() body: ServiceSealRequest): Promise<ServiceSealAnswer> {
    return this.ctx.facts.sealForServices(body);
  }
}
