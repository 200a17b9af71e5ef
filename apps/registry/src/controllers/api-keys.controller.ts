import { Body, Controller, Delete, Get, Path, Post, Query, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { RegistryContext } from '../context';
import type { AuthedRequest } from '@arbiter/auth';
import type { ApiKey, CreateApiKeyBody, CreatedApiKey, ErrorBody, Page } from '../models/identity';
import { Instants } from '../http/instants';

@Route('api/v1/api-keys')
@Tags('API keys')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
export class ApiKeysController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * Mints a key for a principal. The plaintext `key` is in this response only; it is stored as a
   * SHA-256 hash. A key never gets more than its creator's key holds: permissions, scopes, lifetime.
   * @summary Mint an API key
   */
  @Post()
  @Security('bearer', ['admin'])
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(
    403,
    'Missing permission, or more than the creating key holds (permission, scopes, lifetime), or a platform admin principal',
  )
  @Response<ErrorBody>(400, 'A bad field, or expires_at without Z or an offset')
  @Response<ErrorBody>(404, 'Principal not found')
  @Response<ErrorBody>(422, 'Missing field')
  @Instants('expires_at')
  async createApiKey(@Request() req: AuthedRequest, @Body() body: CreateApiKeyBody): Promise<CreatedApiKey> {
    this.setStatus(201);
    return this.ctx.identity.createKey(req.user, body);
  }

  /**
   * Lists keys (never their plaintext). A key restricted to some scopes sees only keys restricted to scopes among its
   * own (the keys it may revoke); the others, and keys valid for every scope, are left out.
   * @summary List API keys
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   * @param tenant_id Platform admins: the tenant to list (default: the caller's own).
   * @param principal_id Only keys of this principal.
   */
  @Get()
  @Security('bearer', ['admin'])
  async listApiKeys(
    @Request() req: AuthedRequest,
    @Query() limit?: number,
    @Query() cursor?: string,
    @Query() tenant_id?: string,
    @Query() principal_id?: string,
  ): Promise<Page<ApiKey>> {
    return this.ctx.identity.listKeys(req.user, { limit, cursor, tenant_id, principal_id });
  }

  /**
   * Revokes a key at once on every service (Redis pub/sub; caches live at most 30 s anyway).
   * @summary Revoke an API key
   * @param key_id The API key id (`key-`).
   */
  @Delete('{key_id}')
  @Security('bearer', ['admin'])
  @Response<ErrorBody>(403, "Missing permission, a platform_admin key, or a key outside a restricted caller's scopes")
  @Response<ErrorBody>(404, 'Not found')
  async revokeApiKey(@Request() req: AuthedRequest, @Path() key_id: string): Promise<ApiKey> {
    return this.ctx.identity.revokeKey(req.user, key_id);
  }
}
