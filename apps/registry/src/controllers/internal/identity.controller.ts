import { Body, Controller, Get, Middlewares, Path, Post, Response, Route, Tags } from '@tsoa/runtime';
import { AppError, shownId } from '@arbiter/http';
import type { RegistryContext } from '../../context';
import type { ErrorBody } from '../../models/identity';
import type { IntrospectionAnswer, IntrospectRequest, TenantRef } from '../../models/internal';
import { checked, introspectInput, slugInput } from './internal-input';

/** Who a key is, and which tenant a slug names: for verdict and ledger, which hold no identity data. */
@Route('internal/v1')
@Tags('Identity')
@Response<ErrorBody>(401, 'Missing or invalid internal token')
export class InternalIdentityController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /** What a key hash resolves to (docs/identity.md): inactive when unknown, revoked or expired. */
  @Post('introspect')
  @Middlewares(checked(introspectInput))
  @Response<ErrorBody>(400, 'key_hash is not 64 lowercase hex digits')
  async introspect(@Body() body: IntrospectRequest): Promise<IntrospectionAnswer> {
    return this.ctx.introspection.introspect(body.key_hash);
  }

  /** A tenant by its slug (the verdict gateway's JWKS endpoint is addressed by slug). */
  @Get('tenants/by-slug/{slug}')
  @Middlewares(checked(slugInput))
  @Response<ErrorBody>(400, 'Malformed slug')
  @Response<ErrorBody>(404, 'No such tenant')
  async tenantBySlug(@Path() slug: string): Promise<TenantRef> {
    const tenant = await this.ctx.identity.tenantBySlug(slug);
    if (!tenant) throw new AppError(404, 'not_found', `Tenant ${shownId(slug)} not found`);
    return tenant;
  }
}
