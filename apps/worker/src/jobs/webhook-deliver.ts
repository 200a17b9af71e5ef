import type { JobHandler, webhookDeliverJob } from '@arbiter/queue';
import type { RegistryInternalClient } from '@arbiter/internal-api';

/**
 * webhook.v1.deliver: asks the registry to run this attempt (it signs, sends and records). A
 * receiver's failure is a normal result (`retry_scheduled`); only an unreachable registry fails
 * the job, which BullMQ then retries — the registry answers a repeat `skipped`.
 */
export const deliverWebhook =
  (registry: RegistryInternalClient): JobHandler<typeof webhookDeliverJob> =>
  (payload, ctx) =>
    registry.attempt(payload.delivery_id, payload.attempt, ctx.signal);
