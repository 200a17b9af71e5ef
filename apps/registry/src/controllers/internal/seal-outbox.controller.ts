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
import type { Request } from 'express';
import type { RegistryContext } from '../../context';
import type { ErrorBody } from '../../models/identity';
import { badRequest } from '../../domain/errors';
import { checked } from './internal-input';

/** A body check of libs/db's seal outbox, answered in the registry's words. */
const bodyCheck = (problem: (body: unknown) => string | null) => (req: Request) => {
  const found = problem(req.body);
  if (found) throw badRequest(found);
};

/**
 * The worker's half of sealing (docs/operations.md "Seal relay"): it leases the rule versions' and
 * registry approval decisions' seal_outbox rows, has the ledger seal them, then says which are done.
 */
@Route('internal/v1/seal-outbox')
@Tags('Seal outbox')
@Response<ErrorBody>(401, 'Missing or invalid internal token')
@Response<ErrorBody>(400, 'Malformed request')
export class InternalSealOutboxController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /** Leases up to `limit` free rows, oldest first, to the caller until `leased_until` (FOR UPDATE SKIP LOCKED). */
  @Post('lease')
  @Middlewares(checked(bodyCheck(sealLeaseProblem)))
  async leaseSeals(@Body() body?: SealLeaseRequest): Promise<SealLease> {
    return this.ctx.sealOutbox.leaseAnyTenant(
      body?.limit ?? SEAL_LEASE_LIMITS.limit.default,
      body?.lease_ms ?? SEAL_LEASE_LIMITS.leaseMs.default,
    );
  }

  /** Deletes the rows the ledger acknowledged. */
  @Post('done')
  @Middlewares(checked(bodyCheck(sealDoneProblem)))
  async sealsDone(@Body() body: SealDoneRequest): Promise<SealDoneAnswer> {
    return { deleted: await this.ctx.sealOutbox.doneAnyTenant(body.ids) };
  }

  /** Hands leased rows back at once (the worker could not enqueue them). */
  @Post('release')
  @Middlewares(checked(bodyCheck(sealReleaseProblem)))
  async releaseSeals(@Body() body: SealReleaseRequest): Promise<SealReleaseAnswer> {
    return { released: await this.ctx.sealOutbox.releaseAnyTenant(body.ids, new Date(body.leased_until)) };
  }
}
