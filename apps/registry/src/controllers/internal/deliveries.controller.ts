import { Body, Controller, Middlewares, Path, Post, Response, Route, Tags } from '@tsoa/runtime';
import type { RegistryContext } from '../../context';
import type { ErrorBody } from '../../models/identity';
import type {
  AttemptReport,
  AttemptRequest,
  NotificationAttemptReport,
  RelayAnswer,
  RelayRequest,
  ReleaseAnswer,
  ReleaseRequest,
} from '../../models/internal';
import { attemptInput, checked, notificationAttemptInput, relayInput, releaseInput } from './internal-input';

/** The worker's half of webhook delivery (ADR 0005): the registry claims, signs, sends and records. */
@Route('internal/v1')
@Tags('Deliveries')
@Response<ErrorBody>(401, 'Missing or invalid internal token')
@Response<ErrorBody>(400, 'Malformed request')
export class InternalDeliveriesController extends Controller {
  constructor(private readonly ctx: RegistryContext) {
    super();
  }

  /** The worker's relay step: fan the outbox out and lease due deliveries to the caller. */
  @Post('outbox/relay')
  @Middlewares(checked(relayInput))
  async relayOutbox(@Body() body?: RelayRequest): Promise<RelayAnswer> {
    const relayed = await this.ctx.relay.relay(body?.limit ?? 100);
    this.ctx.metrics.outboxRelayed.inc(relayed.fanned_out);
    return relayed;
  }

  /** Deliveries the worker could not enqueue (Redis down): due again at the next relay. */
  @Post('outbox/release')
  @Middlewares(checked(releaseInput))
  async releaseDeliveries(@Body() body: ReleaseRequest): Promise<ReleaseAnswer> {
    return this.ctx.relay.release(body.delivery_ids, body.notification_ids ?? []);
  }

  /** Runs attempt `attempt` of a delivery (at most once; a repeat is answered `skipped`). */
  @Post('webhook-deliveries/{delivery_id}/attempts')
  @Middlewares(checked(attemptInput))
  @Response<ErrorBody>(404, 'Unknown delivery')
  @Response<ErrorBody>(422, 'attempt is missing')
  async runAttempt(@Path() delivery_id: string, @Body() body: AttemptRequest): Promise<AttemptReport> {
    const report = await this.ctx.deliveries.attempt(delivery_id, body.attempt);
    this.ctx.metrics.webhookDeliveries.inc({ outcome: report.outcome });
    return report;
  }

  /** Runs attempt `attempt` of an approval notification (docs/approvals.md "Notifications"; a repeat is answered `skipped`). */
  @Post('approval-notifications/{notification_id}/attempts')
  @Middlewares(checked(notificationAttemptInput))
  @Response<ErrorBody>(404, 'Unknown notification')
  @Response<ErrorBody>(422, 'attempt is missing')
  async runNotificationAttempt(@Path() notification_id: string, @Body() body: AttemptRequest): Promise<NotificationAttemptReport> {
    return this.ctx.notifier.attempt(notification_id, body.attempt);
  }
}
