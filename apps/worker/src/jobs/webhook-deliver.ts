import type { JobHandler, webhookDeliverJob } from '@arbiter/queue';
import type { RegistryInternalClient } from '@arbiter/internal-api';

/**
 * webhook.v1.deliver: asks the registry to run this attempt (it signs, sends and records). A
 * receiver's failure is a normal result (`retry_scheduled`); only an unreachable registry fails
 * the job, which BullMQ then retries — the registry answers a repeat `skipped`. A scheduled retry
 * is reported to `onRetryScheduled`, so the relay picks it up on time rather than at its next poll.
 */
export const deliverWebhook =
  (registry: RegistryInternalClient, onRetryScheduled?: (at: Date) => void): JobHandler<typeof webhookDeliverJob> =>
  async (payload, ctx) => {
    const result = await registry.attempt(payload.delivery_id, payload.attempt, ctx.signal);
    if (result.outcome === 'retry_scheduled' && result.next_attempt_at) onRetryScheduled?.(new Date(result.next_attempt_at));
    return result;
  };
