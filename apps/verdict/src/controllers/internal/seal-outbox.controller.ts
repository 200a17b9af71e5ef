import { Body, Controller, Middlewares, Post, Response, Route, Tags } from '@tsoa/runtime';
import {
  SEAL_LEASE_LIMITS,
  sealDoneProblem,
  sealLeaseProblem,
  sealReleaseProblem,
  type SealDoneAnswer,
  type SealDoneRequest,
  type SealLease,
  type SealLeaseRequest,
  type SealReleaseAnswer,
  type SealReleaseRequest,
} from '@arbiter/db';
import type { NextFunction, Request, RequestHandler, Response as ExpressResponse } from 'express';
import type { VerdictContext } from '../../context';
import { badRequest } from '../../domain/errors';
import type { ErrorBody } from '../../models/errors';

/** Runs a body check of libs/db's seal outbox before tsoa's own validation, so the caller gets its words. */
function checked(problem: (body: unknown) => string | null): RequestHandler {
  return (req: Request, _res: ExpressResponse, next: NextFunction) => {
    const found = problem(req.body);
    if (found) throw badRequest('invalid_request', found);
    next();
  };
}

/**
 * The worker's half of sealing (docs/operations.md "Seal relay"): it leases the consultations' and
 * verdict approvals' seal_outbox rows, has the ledger seal them, then says which are done.
 */
@Route('internal/v1/seal-outbox')
@Tags('Seal outbox')
@Response<ErrorBody>(401, 'Missing or invalid internal token')
@Response<ErrorBody>(400, 'Malformed request')
export class InternalSealOutboxController extends Controller {
  constructor(private readonly ctx: VerdictContext) {
    super();
  }

  /** Leases up to `limit` free rows, oldest first, to the caller until `leased_until` (FOR UPDATE SKIP LOCKED). */
  @Post('lease')
  @Middlewares(checked(sealLeaseProblem))
  async leaseSeals(@Body() body?: SealLeaseRequest): Promise<SealLease> {
    return this.ctx.sealOutbox.leaseAnyTenant(
      body?.limit ?? SEAL_LEASE_LIMITS.limit.default,
      body?.lease_ms ?? SEAL_LEASE_LIMITS.leaseMs.default,
    );
  }

  /** Deletes the rows the ledger acknowledged. */
  @Post('done')
  @Middlewares(checked(sealDoneProblem))
  async sealsDone(@Body() body: SealDoneRequest): Promise<SealDoneAnswer> {
    return { deleted: await this.ctx.sealOutbox.doneAnyTenant(body.ids) };
  }

  /** Hands leased rows back at once (the worker could not enqueue them). */
  @Post('release')
  @Middlewares(checked(sealReleaseProblem))
  async releaseSeals(@Body() body: SealReleaseRequest): Promise<SealReleaseAnswer> {
    return { released: await this.ctx.sealOutbox.releaseAnyTenant(body.ids, new Date(body.leased_until)) };
  }
}
