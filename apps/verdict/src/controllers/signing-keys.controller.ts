import { Body, Controller, Get, Path, Post, Query, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { VerdictContext } from '../context';
import type { ErrorBody } from '../models/errors';
import type { KeySet, RotateSigningKeyBody, SigningKeyRotation, SigningKeySetup } from '../models/keys';

@Route('{tenant_id}/v1/signing-keys')
@Tags('Verdict keys')
export class SigningKeysController extends Controller {
  constructor(private readonly ctx: VerdictContext) {
    super();
  }

  /**
   * The setup endpoint (docs/verdicts.md "Signing keys"): makes sure the tenant has a current ES256 key (kid
   * `<tenant_id>:<year>`), creating it when absent. Idempotent: 201 when a key was made, 200 when
   * one was already current. A key is also made on the first signed verdict. Needs `admin`
   * (a platform admin may name any tenant).
   * @summary Make sure the tenant has a verdict signing key
   * @param tenant_id The tenant id (`tnt-`); it must be the API key's own tenant.
   */
  @Post()
  @Security('apiKey', ['admin'])
  @SuccessResponse(201, 'A key was created')
  @Response<SigningKeySetup>(200, 'The tenant already had a current key')
  @Response<ErrorBody>(403, 'insufficient_permission, cross_tenant_forbidden')
  @Response<ErrorBody>(404, 'tenant_not_found')
  async setupSigningKeys(@Path() tenant_id: string, @Request() req: AuthedRequest): Promise<SigningKeySetup> {
    const setup = await this.ctx.signingKeys.setup(req.user, tenant_id);
    this.setStatus(setup.created ? 201 : 200);
    return setup;
  }

  /**
   * The tenant's keys, current and retired, as its JWKS publishes them. Needs `admin`.
   * @summary List the tenant's verdict keys
   * @param tenant_id The tenant id (`tnt-`); it must be the API key's own tenant.
   */
  @Get()
  @Security('apiKey', ['admin'])
  async listSigningKeys(@Path() tenant_id: string, @Request() req: AuthedRequest): Promise<KeySet> {
    return this.ctx.signingKeys.list(req.user, tenant_id);
  }

  /**
   * Scheduled or emergency rotation (docs/verdicts.md "Versioning"): a new key signs from now on; the old
   * one gets not_after = now and stays published, so verdicts it signed still verify. Every replica
   * switches at once (Redis), at the latest after 10 s. Also: `verdict-cli keys rotate`. Needs `admin`.
   * @summary Rotate the tenant's verdict signing key
   * @param tenant_id The tenant id (`tnt-`); it must be the API key's own tenant.
   */
  @Post('rotate')
  @Security('apiKey', ['admin'])
  @SuccessResponse(201, 'Rotated')
  @Response<ErrorBody>(409, "rotation_not_due: this year's scheduled key exists (use emergency)")
  async rotateSigningKey(
    @Path() tenant_id: string,
    @Request() req: AuthedRequest,
    @Body() body: RotateSigningKeyBody,
  ): Promise<SigningKeyRotation> {
    const rotation = await this.ctx.signingKeys.rotate(req.user, tenant_id, body.mode);
    this.setStatus(201);
    return rotation;
  }
}

@Route('v1/tenants')
@Tags('Verdict keys')
export class JwksController extends Controller {
  constructor(private readonly ctx: VerdictContext) {
    super();
  }

  /**
   * The tenant's verification keys, current and retired (every key it ever had), without
   * authentication. Cache-Control: public, max-age=300, immutable; add `?v=<n>` to bypass caches
   * after a rotation.
   * @param tenant_slug The tenant's slug, or its id (`tnt-…`, as in a verdict's kid). A `tnt-` value
   * is an id first; only when no tenant has that id is it read as a slug.
   * @param v Any value: a cache buster, otherwise ignored.
   * @summary The tenant's verdict verification keys (JWKS)
   */
  @Get('{tenant_slug}/jwks')
  @Response<ErrorBody>(404, 'tenant_not_found')
  @Response<ErrorBody>(500, 'no_keys_configured')
  async jwks(@Path() tenant_slug: string, @Query() v?: string): Promise<KeySet> {
    void v;
    const set = await this.ctx.signingKeys.jwksBySlug(await this.ctx.tenantRefs.slugOf(tenant_slug));
    this.setHeader('Cache-Control', 'public, max-age=300, immutable');
    return set;
  }
}
