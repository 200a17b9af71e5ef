import { Body, Controller, Get, Patch, Path, Post, Query, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { RegistryContext } from '../context';
import type { AuthedRequest } from '@arbiter/auth';
import type { CreateTenantBody, ErrorBody, Page, Tenant, UpdateTenantBody } from '../models/identity';

@Route('api/v1/tenants')
@Tags('Tenants')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
export class TenantsController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * Creates a tenant (platform admins).
   * @summary Create a tenant
   */
  @Post()
  @Security('bearer', ['platform_admin'])
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(409, 'Slug already taken')
  @Response<ErrorBody>(422, 'Missing field, or a settings.retention outside RETENTION_MIN..RETENTION_MAX (docs/operations.md "Retention")')
  async createTenant(@Request() req: AuthedRequest, @Body() body: CreateTenantBody): Promise<Tenant> {
    this.setStatus(201);
    return this.ctx.identity.createTenant(req.user, body);
  }

  /**
   * Lists tenants: every tenant for platform admins, the caller's own otherwise.
   * @summary List tenants
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   */
  @Get()
  @Security('bearer', ['read'])
  async listTenants(@Request() req: AuthedRequest, @Query() limit?: number, @Query() cursor?: string): Promise<Page<Tenant>> {
    return this.ctx.identity.listTenants(req.user, { limit, cursor });
  }

  /**
   * @summary Get a tenant
   * @param tenant_id The tenant id (`tnt-`).
   */
  @Get('{tenant_id}')
  @Security('bearer', ['read'])
  @Response<ErrorBody>(404, 'Not found')
  async getTenant(@Request() req: AuthedRequest, @Path() tenant_id: string): Promise<Tenant> {
    return this.ctx.identity.getTenant(req.user, tenant_id);
  }

  /**
   * Updates name and settings (platform admins, or the tenant's admins with a key valid for every
   * scope). `settings.rate_limit`, the ledger tier, is the platform admins' to set.
   * @summary Update a tenant
   * @param tenant_id The tenant id (`tnt-`).
   */
  @Patch('{tenant_id}')
  @Security('bearer', ['admin'])
  @Response<ErrorBody>(403, 'Missing permission, settings.rate_limit from a tenant admin, or a key restricted to some scopes')
  @Response<ErrorBody>(404, 'Not found')
  @Response<ErrorBody>(422, 'A settings.retention outside RETENTION_MIN..RETENTION_MAX (docs/operations.md "Retention")')
  async updateTenant(@Request() req: AuthedRequest, @Path() tenant_id: string, @Body() body: UpdateTenantBody): Promise<Tenant> {
    return this.ctx.identity.updateTenant(req.user, tenant_id, body);
  }
}
