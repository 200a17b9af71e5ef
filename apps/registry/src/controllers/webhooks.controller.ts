import {
  Body,
  Controller,
  Delete,
  Get,
  Patch,
  Path,
  Post,
  Query,
  Request,
  Response,
  Route,
  Security,
  SuccessResponse,
  Tags,
} from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import type { RegistryContext } from '../context';
import { rotateWebhookKey, webhookKeySet } from '../keys';
import type { ErrorBody, Page } from '../models/identity';
import type {
  CreatedWebhookSubscription,
  CreateWebhookBody,
  RotateWebhookKeyBody,
  RotateWebhookSecretBody,
  UpdateWebhookBody,
  WebhookDelivery,
  WebhookKeyRotation,
  WebhookKeySet,
  WebhookSecretRotation,
  WebhookSubscription,
} from '../models/webhooks';

@Route('api/v1/scopes/{scope_id}/webhooks')
@Tags('Webhooks')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
@Response<ErrorBody>(404, 'Scope not found')
export class ScopeWebhooksController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * Subscribes a URL to events of the scope (admin). The URL's host is resolved and checked. The
   * answer holds the subscription's Standard Webhooks `secret`, shown this once.
   * @summary Subscribe a URL to a scope's events
   * @param scope_id The scope id (`scp-`).
   */
  @Post()
  @Security('bearer', ['admin'])
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(400, 'Bad URL (scheme, an address that is not public unicast, unresolvable host) or unknown event type')
  @Response<ErrorBody>(422, 'Missing field')
  async createScopeWebhook(
    @Request() req: AuthedRequest,
    @Path() scope_id: string,
    @Body() body: CreateWebhookBody,
  ): Promise<CreatedWebhookSubscription> {
    this.setStatus(201);
    return this.ctx.webhooks.create(req.user, scope_id, body);
  }

  /**
   * @summary List a scope's webhook subscriptions
   * @param scope_id The scope id (`scp-`).
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   */
  @Get()
  @Security('bearer', ['read'])
  async listScopeWebhooks(
    @Request() req: AuthedRequest,
    @Path() scope_id: string,
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<Page<WebhookSubscription>> {
    return this.ctx.webhooks.list(req.user, scope_id, { limit, cursor });
  }
}

@Route('api/v1/webhooks')
@Tags('Webhooks')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
export class WebhooksController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * A tenant-level subscription (admin): every event of the tenant of the listed types, whatever
   * the scope, including the verdict gateway's approvals. `deciders` routes approvals by their
   * candidate deciders. The answer holds the Standard Webhooks `secret`, shown this once.
   * @summary Subscribe a URL to every event of the tenant
   */
  @Post()
  @Security('bearer', ['admin'])
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>(400, 'Bad URL (scheme, an address that is not public unicast, unresolvable host) or unknown event type')
  @Response<ErrorBody>(422, 'Missing field')
  async createTenantWebhook(@Request() req: AuthedRequest, @Body() body: CreateWebhookBody): Promise<CreatedWebhookSubscription> {
    this.setStatus(201);
    return this.ctx.webhooks.create(req.user, null, body);
  }

  /**
   * Every subscription of the tenant the key may see; `level=tenant` only the tenant-level ones.
   * @summary List webhook subscriptions
   * @param level `tenant`: only the tenant-level subscription; `all` (default): every subscription.
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   */
  @Get()
  @Security('bearer', ['read'])
  async listWebhooks(
    @Request() req: AuthedRequest,
    @Query() level?: 'tenant' | 'all',
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<Page<WebhookSubscription>> {
    return this.ctx.webhooks.list(req.user, null, { level, limit, cursor });
  }

  /**
   * @summary Get a webhook subscription
   * @param subscription_id The webhook subscription id (`whk-`).
   */
  @Get('{subscription_id}')
  @Security('bearer', ['read'])
  @Response<ErrorBody>(404, 'Not found')
  async getWebhook(@Request() req: AuthedRequest, @Path() subscription_id: string): Promise<WebhookSubscription> {
    return this.ctx.webhooks.get(req.user, subscription_id);
  }

  /**
   * Updates the subscription (admin); `active: true` re-enables a disabled one.
   * @summary Update a webhook subscription
   * @param subscription_id The webhook subscription id (`whk-`).
   */
  @Patch('{subscription_id}')
  @Security('bearer', ['admin'])
  @Response<ErrorBody>(400, 'Bad URL (scheme, an address that is not public unicast, unresolvable host) or unknown event type')
  @Response<ErrorBody>(404, 'Not found')
  async updateWebhook(
    @Request() req: AuthedRequest,
    @Path() subscription_id: string,
    @Body() body: UpdateWebhookBody,
  ): Promise<WebhookSubscription> {
    return this.ctx.webhooks.update(req.user, subscription_id, body);
  }

  /**
   * Deletes the subscription (admin); its pending deliveries are cancelled.
   * @summary Delete a webhook subscription
   * @param subscription_id The webhook subscription id (`whk-`).
   */
  @Delete('{subscription_id}')
  @Security('bearer', ['admin'])
  @SuccessResponse(204, 'Deleted')
  @Response<ErrorBody>(404, 'Not found')
  async deleteWebhook(@Request() req: AuthedRequest, @Path() subscription_id: string): Promise<void> {
    await this.ctx.webhooks.remove(req.user, subscription_id);
    this.setStatus(204);
  }

  /**
   * Rotates the subscription's Standard Webhooks secret (admin) and answers the new one, this once.
   * Deliveries are signed with both (two `v1,` entries in webhook-signature) for `overlap_seconds`
   * (default WEBHOOK_SECRET_OVERLAP_SECONDS, 24 h), then with the new one only. A rotation during an
   * overlap drops the older previous secret.
   * @summary Rotate a subscription's signing secret
   * @param subscription_id The webhook subscription id (`whk-`).
   */
  @Post('{subscription_id}/secret/rotate')
  @Security('bearer', ['admin'])
  @Response<ErrorBody>(400, 'overlap_seconds not an integer from 0 to 604800')
  @Response<ErrorBody>(404, 'Not found')
  async rotateWebhookSecret(
    @Request() req: AuthedRequest,
    @Path() subscription_id: string,
    @Body() body?: RotateWebhookSecretBody,
  ): Promise<WebhookSecretRotation> {
    return this.ctx.webhooks.rotateSecret(req.user, subscription_id, body ?? {});
  }

  /**
   * The delivery log, oldest first: each delivery with every attempt (status code, error, duration).
   * @summary List a subscription's deliveries
   * @param subscription_id The webhook subscription id (`whk-`).
   * @param status Only deliveries of this status.
   * @param limit Page size, an integer from 1 to 1000; default 50.
   * @isInt limit must be an integer from 1 to 1000
   * @minimum limit 1 must be an integer from 1 to 1000
   * @maximum limit 1000 must be an integer from 1 to 1000
   * @param cursor next_cursor of the previous page; absent for the first page.
   */
  @Get('{subscription_id}/deliveries')
  @Security('bearer', ['read'])
  @Response<ErrorBody>(404, 'Not found')
  async listWebhookDeliveries(
    @Request() req: AuthedRequest,
    @Path() subscription_id: string,
    @Query() status?: 'pending' | 'succeeded' | 'failed' | 'cancelled',
    @Query() limit?: number,
    @Query() cursor?: string,
  ): Promise<Page<WebhookDelivery>> {
    return this.ctx.webhooks.listDeliveries(req.user, subscription_id, { status, limit, cursor });
  }

  /**
   * @summary Get one delivery with its attempts
   * @param subscription_id The webhook subscription id (`whk-`).
   * @param delivery_id The delivery id (`dlv-`).
   */
  @Get('{subscription_id}/deliveries/{delivery_id}')
  @Security('bearer', ['read'])
  @Response<ErrorBody>(404, 'Not found')
  async getWebhookDelivery(
    @Request() req: AuthedRequest,
    @Path() subscription_id: string,
    @Path() delivery_id: string,
  ): Promise<WebhookDelivery> {
    return this.ctx.webhooks.getDelivery(req.user, subscription_id, delivery_id);
  }

  /**
   * Sends the delivery once more, now (admin); 409 while it is pending or the subscription is disabled.
   * @summary Send a delivery again
   * @param subscription_id The webhook subscription id (`whk-`).
   * @param delivery_id The delivery id (`dlv-`).
   */
  @Post('{subscription_id}/deliveries/{delivery_id}/redeliver')
  @Security('bearer', ['admin'])
  @SuccessResponse(202, 'Scheduled')
  @Response<ErrorBody>(404, 'Not found')
  @Response<ErrorBody>(409, 'Pending, or subscription disabled')
  async redeliverWebhook(
    @Request() req: AuthedRequest,
    @Path() subscription_id: string,
    @Path() delivery_id: string,
  ): Promise<WebhookDelivery> {
    this.setStatus(202);
    return this.ctx.webhooks.redeliver(req.user, subscription_id, delivery_id);
  }
}

/** The public webhook verification key (docs/webhooks.md): no authentication. */
@Route('.well-known')
@Tags('Webhooks')
export class WebhookKeyController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * The current key as JWK and PEM, and in `keys` every key ever used (retired ones with
   * `not_after`), so a delivery signed just before a rotation still verifies. Match
   * X-Service-Key-Id against `kid`.
   * @summary Webhook signature verification keys
   */
  @Get('webhook-key')
  async webhookKey(): Promise<WebhookKeySet> {
    // New keys appear at rotation, so caches must not keep this for long.
    this.setHeader('Cache-Control', 'public, max-age=300');
    return webhookKeySet(this.ctx.keys);
  }
}

@Route('api/v1/admin/webhook-key')
@Tags('Webhooks')
@Response<ErrorBody>(401, 'Missing or invalid API key')
@Response<ErrorBody>(403, 'Missing permission')
export class WebhookKeyAdminController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /**
   * Rotates the webhook signing key (platform admins). `scheduled` makes this year's key (400 when
   * it exists); `emergency` makes `webhooks:<year>.<n>` at once. The old key is retired (not_after =
   * now) and stays published.
   * @summary Rotate the webhook signing key
   */
  @Post('rotate')
  @Security('bearer', ['platform_admin'])
  @SuccessResponse(201, 'Rotated')
  @Response<ErrorBody>(400, 'A scheduled rotation that is not due')
  async rotateWebhookKey(@Body() body: RotateWebhookKeyBody): Promise<WebhookKeyRotation> {
    this.setStatus(201);
    const rotation = await rotateWebhookKey(this.ctx.keys, body.mode);
    this.ctx.metrics.keyRotations.inc({ mode: body.mode });
    return rotation;
  }
}
