import { Body, Controller, Middlewares, Path, Post, Response, Route, SuccessResponse, Tags } from '@tsoa/runtime';
import type { RegistryContext } from '../../context';
import type { RegistryEvent } from '../../models/events';
import type { ErrorBody } from '../../models/identity';
import type { ApprovalGrantBody, ForeignEventBody } from '../../models/internal';
import type { Override } from '../../models/overrides';
import { checked, foreignEvent, foreignEventInput, grantInput, grantRequest, internalTenant } from './internal-input';

/** What the verdict gateway's approvals write into the registry (docs/approvals.md, docs/webhooks.md). */
@Route('internal/v1/tenants/{tenant_id}')
@Tags('Approvals')
@Response<ErrorBody>(401, 'Missing or invalid internal token')
@Response<ErrorBody>(400, 'Malformed or unknown field')
@Response<ErrorBody>(404, 'Unknown tenant or target')
@Response<ErrorBody>(422, 'Missing field')
export class InternalApprovalsController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /** An approval grant: an approval_grant override over the triggering rules, which may lie in several scopes. */
  @Post('overrides')
  @Middlewares(checked(grantInput))
  @SuccessResponse(201, 'Created')
  async createGrant(@Path() tenant_id: string, @Body() body: ApprovalGrantBody): Promise<Override> {
    const override = await this.ctx.overrides.createGrant(internalTenant(tenant_id), grantRequest(body));
    this.setStatus(201);
    return override;
  }

  /**
   * An event of another service, recorded in the feed and outbox so it reaches tenant webhooks
   * (docs/webhooks.md). 201 when written, 200 when the idempotency_key was seen before (the stored
   * event is answered).
   */
  @Post('events')
  @Middlewares(checked(foreignEventInput))
  @SuccessResponse(201, 'Created')
  @Response<RegistryEvent>(200, 'Recorded before under this idempotency_key')
  async recordEvent(@Path() tenant_id: string, @Body() body: ForeignEventBody): Promise<RegistryEvent> {
    const { event, created } = await this.ctx.tenantEvents.record(internalTenant(tenant_id), foreignEvent(body));
    this.setStatus(created ? 201 : 200);
    return event;
  }
}
