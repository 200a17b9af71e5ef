import type { JobContext, JobHandler, webhookDeliverJob } from '@arbiter/queue';
import type { RegistryInternalClient } from '@arbiter/internal-api';

/**
 * A job that asks the registry to run one attempt of something it sends (a webhook delivery, an approval
 * notification): the registry claims, sends and records. A receiver's failure is a normal result
 * (`retry_scheduled`); only an unreachable registry fails the job, which BullMQ then retries — the registry
 * answers a repeat `skipped`. A scheduled retry is reported to `onRetryScheduled`, so the relay picks it up on
 * time rather than at its next poll.
 */
export const attemptJob =
  <P, R extends { outcome: string; next_attempt_at: string | null }>(
    run: (payload: P, signal: AbortSignal | undefined) => Promise<R>,
    onRetryScheduled?: (at: Date) => void,
  ) =>
  async (payload: P, ctx: JobContext): Promise<R> => {
    const result = await run(payload, ctx.signal);
    if (result.outcome === 'retry_scheduled' && result.next_attempt_at) onRetryScheduled?.(new Date(result.next_attempt_at));
    return result;
  };

/** webhook.v1.deliver: one attempt of a webhook delivery (the registry signs, sends and records). */
export const deliverWebhook = (
  registry: RegistryInternalClient,
  onRetryScheduled?: (at: Date) => void,
): JobHandler<typeof webhookDeliverJob> => attemptJob((p, signal) => registry.attempt(p.delivery_id, p.attempt, signal), onRetryScheduled);
