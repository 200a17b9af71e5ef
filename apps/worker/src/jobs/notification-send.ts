import type { JobHandler, notificationSendJob } from '@arbiter/queue';
import type { RegistryInternalClient } from '@arbiter/internal-api';
import { attemptJob } from './webhook-deliver';

/**
 * notification.v1.send: one attempt of an approval notification (docs/approvals.md "Notifications"): the
 * registry builds the message, sends it by email or to the chat webhook, and records the result. A failing SMTP
 * server or chat webhook is a normal result (`retry_scheduled`); only an unreachable registry fails the job.
 */
export const sendNotification = (
  registry: RegistryInternalClient,
  onRetryScheduled?: (at: Date) => void,
): JobHandler<typeof notificationSendJob> =>
  attemptJob((p, signal) => registry.notificationAttempt(p.notification_id, p.attempt, signal), onRetryScheduled);
