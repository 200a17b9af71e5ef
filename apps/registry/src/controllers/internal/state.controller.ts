import { Controller, Get, Middlewares, Path, Query, Response, Route, Tags } from '@tsoa/runtime';
import type { RegistryContext } from '../../context';
import type { ErrorBody } from '../../models/identity';
import type { InternalRuleVersion } from '../../models/internal';
import type { StateHash, TenantState } from '../../models/state';
import { checked, internalTenant, ruleVersionInput, tenantInput } from './internal-input';

/** What the verdict gateway evaluates checks against (docs/registry.md "Internal API"). */
@Route('internal/v1')
@Tags('State')
@Response<ErrorBody>(401, 'Missing or invalid internal token')
@Response<ErrorBody>(400, 'Malformed id')
@Response<ErrorBody>(404, 'Not found')
export class InternalStateController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /** A tenant's whole evaluable state with its content hash (cached until it changes). */
  @Get('tenants/{tenant_id}/state')
  @Middlewares(checked(tenantInput))
  async tenantState(@Path() tenant_id: string): Promise<TenantState> {
    return this.ctx.state.state(internalTenant(tenant_id));
  }

  /** The cheap change check: one primary-key read while the cached state is current. */
  @Get('tenants/{tenant_id}/state-hash')
  @Middlewares(checked(tenantInput))
  async tenantStateHash(@Path() tenant_id: string): Promise<StateHash> {
    return this.ctx.state.stateHash(internalTenant(tenant_id));
  }

  /** Any rule version, current or superseded; with `tenant_id`, 404 for another tenant's. */
  @Get('rule-versions/{rule_version_id}')
  @Middlewares(checked(ruleVersionInput))
  async ruleVersion(@Path() rule_version_id: string, @Query() tenant_id?: string): Promise<InternalRuleVersion> {
    return this.ctx.state.ruleVersion(rule_version_id, tenant_id ? internalTenant(tenant_id) : undefined);
  }
}
