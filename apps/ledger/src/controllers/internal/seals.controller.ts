import { Body, Controller, Middlewares, Post, Response, Route, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../models/errors';
import type { ServiceSealAnswer, ServiceSealRequest } from '../../models/internal';
import { serviceSealsRoute } from '../../http/seal-route';

/** The services' audit facts (docs/ledger-formats.md "Service seals"), relayed by the worker from their outboxes. */
@Route('internal/v1')
@Tags('Seals')
@Response<ErrorBody>(401, 'UNAUTHORIZED: missing or invalid internal token (a tenant API key never passes)')
@Response<ErrorBody>(400, 'VALIDATION_ERROR: a malformed body or an invalid seal, named seals[i].<field>; nothing is sealed')
export class InternalSealsController extends Controller {
  /**
   * Seals 1 to 1000 audit facts into the tenants' `arbiter.<tenant_id>.*` streams through the
   * ledger's group commit. Answers one result per seal, in request order: the fact (`created`
   * false when its client_ref was sealed before: the original fact), or `ok: false` for a seal the
   * database refused on its own, the others being committed. A 500 (nothing is known of any seal)
   * is retried whole: client_ref makes that safe.
   */
  @Post('seals')
  // The contract only: serviceSealsRoute (http/seal-route.ts), the method's middleware, answers.
  @Middlewares(serviceSealsRoute)
  /* eslint-disable @typescript-eslint/no-unused-vars -- the parameter declares the contract */
  async seal(@Body() body: ServiceSealRequest): Promise<ServiceSealAnswer> {
    throw new Error('POST /internal/v1/seals is answered by its middleware (serviceSealsRoute)');
  }
  /* eslint-enable @typescript-eslint/no-unused-vars */
}
