import { Body, Controller, Get, Patch, Path, Post, Query, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { RegistryContext } from '../context';
import type { AuthedRequest } from '@arbiter/auth';
import type { ConsoleLinkCreated, CreatePrincipalBody, ErrorBody, Page, Principal, UpdatePrincipalBody } from '../models/identity';
import { publicBaseOf } from '../http/public-base';

@Route('api/v1/principals')
@Tags('Principals')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
export class PrincipalsController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * Creates an agent (`agn-`) or human (`hum-`) principal in the caller's tenant (or `tenant_id`, platform admins).
   * @summary Create a principal
   */
  @Post()
  @Security('bearer', ['admin'])
  @Response<ErrorBody>(
    403,
    'Missing permission, another tenant, a key restricted to some scopes, or oidc_issuer/oidc_subject without platform_admin',
  )
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(422, 'Missing field')
  async createPrincipal(@Request() req: AuthedRequest, @Body() body: CreatePrincipalBody): Promise<Principal> {
    this.setStatus(201);
    return this.ctx.identity.createPrincipal(req.user, body);
  }

  /**
   * @summary List principals
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   * @param tenant_id Platform admins: the tenant to list (default: the caller's own).
   */
  @Get()
  @Security('bearer', ['admin'])
  async listPrincipals(
    @Request() req: AuthedRequest,
    @Query() limit?: number,
    @Query() cursor?: string,
    @Query() tenant_id?: string,
  ): Promise<Page<Principal>> {
    return this.ctx.identity.listPrincipals(req.user, { limit, cursor, tenant_id });
  }

  /**
   * @summary Get a principal
   * @param principal_id The principal id (`agn-` or `hum-`).
   */
  @Get('{principal_id}')
  @Security('bearer', ['admin'])
  @Response<ErrorBody>(404, 'Not found')
  async getPrincipal(@Request() req: AuthedRequest, @Path() principal_id: string): Promise<Principal> {
    return this.ctx.identity.getPrincipal(req.user, principal_id);
  }

  /**
   * Deactivates or reactivates a principal, renames it or replaces its roles; caches everywhere drop it at once.
   * @summary Update or deactivate a principal
   * @param principal_id The principal id (`agn-` or `hum-`).
   */
  @Patch('{principal_id}')
  @Security('bearer', ['admin'])
  @Response<ErrorBody>(
    403,
    'Missing permission, a key restricted to some scopes, a principal holding platform_admin, or oidc_issuer/oidc_subject without platform_admin',
  )
  @Response<ErrorBody>(404, 'Not found')
  async updatePrincipal(
    @Request() req: AuthedRequest,
    @Path() principal_id: string,
    @Body() body: UpdatePrincipalBody,
  ): Promise<Principal> {
    return this.ctx.identity.updatePrincipal(req.user, principal_id, body);
  }

  /**
   * A one-time sign-in link to the console for a human principal of the caller's tenant (docs/identity.md "Console
   * sign-in"): valid 10 minutes, for one use; the session it opens holds the principal's console_permissions.
   * @summary Create a console sign-in link
   * @param principal_id The human principal (`hum-`) to sign in as.
   */
  @Post('{principal_id}/console-links')
  @Security('bearer', ['admin'])
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(
    403,
    'Missing permission, a key restricted to some scopes, a console session, a principal whose console holds more than the caller, or (for a tenant admin) a principal holding platform_admin',
  )
  @Response<ErrorBody>(404, 'Not found (or in another tenant)')
  @Response<ErrorBody>(422, 'Not a human principal, or deactivated')
  async createConsoleLink(@Request() req: AuthedRequest, @Path() principal_id: string): Promise<ConsoleLinkCreated> {
    this.setStatus(201);
    return this.ctx.console.createLink(req.user, principal_id, publicBaseOf(req, this.ctx.config));
  }
}
