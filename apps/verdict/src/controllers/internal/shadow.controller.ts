import { Controller, Get, Middlewares, Path, Response, Route, Tags } from '@tsoa/runtime';
import { mintTenantId } from '@arbiter/auth';
import type { VerdictContext } from '../../context';
import { pathIdsChecked, TENANT_ID } from './internal-input';
import type { ErrorBody } from '../../models/errors';
import type { ShadowDisagreements } from '../../models/shadow';

/** The path's ids must look like ids before anything is read (400 invalid_request). */
const idsChecked = pathIdsChecked({
  tenant_id: { pattern: TENANT_ID, what: 'a tenant id (tnt-…)' },
  rule_id: { pattern: /^rul-[0-9a-z_.-]{1,100}$/, what: 'a rule id (rul-…)' },
});

/** Shadow rules (docs/verdicts.md "Shadow rules"): what the registry's GET /v1/rules/{rule_id}/shadow reports. */
@Route('internal/v1/tenants/{tenant_id}/rules')
@Tags('Shadow rules')
@Response<ErrorBody>(401, 'Missing or invalid internal token')
@Response<ErrorBody>(400, 'Malformed id')
export class InternalShadowController extends Controller {
  constructor(private readonly ctx: VerdictContext) {
    super();
  }

  /** How many consultations a rule disagreed with while in shadow mode, per rule version (zero when none). */
  @Get('{rule_id}/shadow')
  @Middlewares(idsChecked)
  async shadowDisagreements(@Path() tenant_id: string, @Path() rule_id: string): Promise<ShadowDisagreements> {
    // /internal/v1 vouches for the caller (a service of this deployment); the form was checked above.
    return this.ctx.shadow.disagreements(mintTenantId(tenant_id), rule_id);
  }
}
