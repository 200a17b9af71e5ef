import { Controller, Get, Middlewares, Request, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { LedgerContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { Health } from '../models/ledger';
import { refuseUnstorable } from '../http/unstorable';

/**
 * docs/ledger-formats.md "Health check". Like every endpoint of the ledger contract it needs X-API-Key (any valid key,
 * no permission); orchestrators use /livez and /readyz, which need none (docs/ledger-formats.md).
 */
@Middlewares(refuseUnstorable)
@Route('health')
@Tags('Health')
export class HealthController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /**
   * 200 with status ok when the database, Redis and the signing key answer; 503 with status degraded and the failing checks otherwise.
   * @summary Health of the ledger and its dependencies
   */
  @Get()
  @Security('apiKey')
  @Response<Health>(503, 'A dependency is failing', {
    status: 'degraded',
    service: 'ledger',
    time_ms: 1764149400000,
    time_iso: '2026-11-26T09:30:00.000Z',
    checks: { database: 'ok', redis: 'connection refused', signing_key: 'ok' },
  })
  @Response<ErrorBody>(400, 'VALIDATION_ERROR: a query string holding U+0000')
  @Response<ErrorBody>(401, 'UNAUTHORIZED')
  @Response<ErrorBody>(
    429,
    "RATE_LIMITED: the token bucket (the key's, or the client address's without a valid key) is empty; Retry-After says when to retry",
  )
  async health(@Request() _req: AuthedRequest): Promise<Health> {
    const { body, healthy } = await this.ctx.health.health();
    if (!healthy) this.setStatus(503);
    return body;
  }
}
