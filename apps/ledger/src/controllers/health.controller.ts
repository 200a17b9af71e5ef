import { Controller, Get, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { LedgerContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { Health } from '../models/ledger';

/**
 * Document 3 "Health check". Like every Document 3 endpoint it needs X-API-Key (any valid key,
 * no permission); orchestrators use /livez and /readyz, which need none (DESIGN.md section 8).
 */
@Route('health')
@Tags('Health')
export class HealthController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /** 200 with status ok when the database, Redis and the signing key answer; 503 with status degraded and the failing checks otherwise. */
  @Get()
  @Security('apiKey')
  @Response<Health>(503, 'A dependency is failing')
  @Response<ErrorBody>(401, 'UNAUTHORIZED')
  @Response<ErrorBody>(429, 'RATE_LIMITED: the key\'s token bucket is empty; Retry-After says when to retry')
  async health(@Request() _req: AuthedRequest): Promise<Health> {
    const { body, healthy } = await this.ctx.health.health();
    if (!healthy) this.setStatus(503);
    return body;
  }
}
