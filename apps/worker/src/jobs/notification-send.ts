import type { JobHandler, notificationSendJob } from '@arbiter/queue';
import type { RegistryInternalClient } from '@arbiter/internal-api';

/**
 * notification.v1.send: asks the registry to run this attempt of an approval notification (it builds the
 * message, sends it and records the result; docs/approvals.md "Notifications"). A failing SMTP server or chat
 * webhook is a normal result (`retry_scheduled`); only an unreachable registry fails the job. A scheduled
 * retry is reported to `onRetryScheduled`, so the relay picks it up on time.
 */
export const sendNotification =
  (registry: RegistryInternalClient, onRetryScheduled?: (at: Date) => void): JobHandler<typeof notificationSendJob> =>
  async (payload, ctx) => {
    const result = await registry.notificationAttempt(payload.notification_id, payload.attempt, ctx.signal);
    if (result.outcome === 'retry_scheduled' && result.next_attempt_at) onRetryScheduled?.(new Date(result.next_attempt_at));
    return result;
  };
