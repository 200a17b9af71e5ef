import { createHash } from 'node:crypto';
import { defineJob } from './job';
import { defineCatalog } from './job-catalog';

/**
 * The project's job catalog (docs/development.md "Conventions"): every job the worker runs, with its queue,
 * payload schema and retry policy. apps/worker must register exactly one handler per name.
 */

export interface PingPayload {
  message: string;
  /** RFC 3339 date-time of the enqueue. */
  sent_at: string;
}

export interface PingResult {
  pong: string;
  received_at: string;
}

/** End-to-end check of the queue path: the worker answers with the message it got. */
export const pingJob = defineJob<PingPayload, PingResult>({
  name: 'system.v1.ping',
  queue: 'system',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['message', 'sent_at'],
    properties: {
      message: { type: 'string', maxLength: 1000 },
      sent_at: { type: 'string', format: 'date-time' },
    },
  },
  retry: { attempts: 3, backoff: { type: 'exponential', delay: 1000 } },
  removeOnComplete: { age: 3600, count: 1000 },
});

export interface WebhookDeliverPayload {
  /** The registry's delivery (`dlv-`): one event for one subscription. */
  delivery_id: string;
  /** Which attempt of the delivery this job runs (1 for the first). */
  attempt: number;
}

/** What the registry answered for the attempt (docs/webhooks.md, "Internal API used by the worker"). */
export interface WebhookDeliverResult {
  delivery_id: string;
  attempt: number;
  outcome: 'succeeded' | 'retry_scheduled' | 'failed' | 'cancelled' | 'skipped';
  status_code: number | null;
  error: string | null;
  delivery_status: string;
  next_attempt_at: string | null;
}

/**
 * One attempt of one webhook delivery, run by the registry (which holds the signing key) at the
 * worker's request. The job id is `<delivery_id>.<attempt>`, so enqueueing an attempt twice adds
 * one job. The webhook's own retry schedule (at least 8 attempts over hours, docs/webhooks.md)
 * is kept by the registry in its database and each retry is a new job; this job's BullMQ retries
 * only cover the worker failing to reach the registry, and a retried job whose attempt already ran
 * is answered `skipped` by the registry, so it never sends twice.
 */
export const webhookDeliverJob = defineJob<WebhookDeliverPayload, WebhookDeliverResult>({
  name: 'webhook.v1.deliver',
  queue: 'webhook',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['delivery_id', 'attempt'],
    properties: {
      delivery_id: { type: 'string', pattern: '^dlv-[0-9a-f]{24}$' },
      attempt: { type: 'integer', minimum: 1, maximum: 1000 },
    },
  },
  retry: { attempts: 5, backoff: { type: 'exponential', delay: 2000 } },
});

/** The job id of an attempt: one job per (delivery, attempt) while BullMQ keeps it. */
export function webhookDeliverJobId(payload: WebhookDeliverPayload): string {
  return `${payload.delivery_id}.${payload.attempt}`;
}

export interface NotificationSendPayload {
  /** The registry's approval notification (`ntf-`): one message to one email address or chat webhook. */
  notification_id: string;
  /** Which attempt of the notification this job runs (1 for the first). */
  attempt: number;
}

/** What the registry answered for the attempt (docs/approvals.md "Notifications"). */
export interface NotificationSendResult {
  notification_id: string;
  attempt: number;
  outcome: 'sent' | 'retry_scheduled' | 'failed' | 'cancelled' | 'skipped';
  error: string | null;
  status: string;
  next_attempt_at: string | null;
}

/**
 * One attempt of one approval notification (docs/approvals.md "Notifications"; ADR 0030), run by the registry
 * (which builds the message and sends it) at the worker's request, as `webhook.v1.deliver` is: the job id is
 * `<notification_id>.<attempt>`, the retry schedule lives in the registry's database, and a repeated job is
 * answered `skipped`.
 */
export const notificationSendJob = defineJob<NotificationSendPayload, NotificationSendResult>({
  name: 'notification.v1.send',
  queue: 'notification',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['notification_id', 'attempt'],
    properties: {
      notification_id: { type: 'string', pattern: '^ntf-[0-9a-f]{24}$' },
      attempt: { type: 'integer', minimum: 1, maximum: 1000 },
    },
  },
  retry: { attempts: 5, backoff: { type: 'exponential', delay: 2000 } },
});

/** The job id of a notification attempt: one job per (notification, attempt) while BullMQ keeps it. */
export function notificationSendJobId(payload: NotificationSendPayload): string {
  return `${payload.notification_id}.${payload.attempt}`;
}

/** One seal of a batch, as the ledger's `POST /internal/v1/seals` takes it. */
export interface LedgerSealItem {
  /** The owner's seal_outbox row id (a decimal integer). */
  id: string;
  seal: {
    stream_id: string;
    tenant_id: string;
    actor: string;
    custom_payload: { [key: string]: unknown };
    client_ref: string;
  };
}

export interface LedgerSealPayload {
  /** The service whose seal_outbox the rows come from (it is told `done` afterwards). */
  owner: 'verdict' | 'registry';
  /** The lease the rows were taken under (the owner's answer). */
  leased_until: string;
  items: LedgerSealItem[];
}

export interface LedgerSealResult {
  /** Seals the ledger acknowledged (new facts and client_ref repeats). */
  sealed: number;
  /** Of which new facts. */
  created: number;
  /** Seals the ledger refused on their own (they stay in the outbox and come back after the lease). */
  refused: number;
  /** Rows the owner deleted. */
  done: number;
}

/**
 * One batch of leased seal_outbox rows for the ledger (docs/operations.md "Seal relay"): one
 * `POST /internal/v1/seals` for the whole batch, then `done` to the owner for the acknowledged
 * rows. The job id is derived from the rows and the lease, so enqueueing one lease twice adds one
 * job. A failed ledger call fails the job and BullMQ retries it; once the retries are spent (or
 * the worker died) the rows' lease runs out and they come out again in a later batch. Whatever the
 * repeats, the ledger seals one fact per (stream_id, client_ref).
 */
export const ledgerSealJob = defineJob<LedgerSealPayload, LedgerSealResult>({
  name: 'ledger.v1.seal',
  queue: 'ledger',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['owner', 'leased_until', 'items'],
    properties: {
      owner: { type: 'string', enum: ['verdict', 'registry'] },
      leased_until: { type: 'string', format: 'date-time' },
      items: {
        type: 'array',
        minItems: 1,
        maxItems: 1000,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'seal'],
          properties: {
            id: { type: 'string', pattern: '^[1-9][0-9]{0,17}$' },
            seal: {
              type: 'object',
              additionalProperties: false,
              required: ['stream_id', 'tenant_id', 'actor', 'custom_payload', 'client_ref'],
              properties: {
                stream_id: { type: 'string', minLength: 1, maxLength: 512 },
                tenant_id: { type: 'string', minLength: 1, maxLength: 200 },
                actor: { type: 'string', minLength: 1, maxLength: 256 },
                custom_payload: { type: 'object' },
                client_ref: { type: 'string', minLength: 1, maxLength: 255 },
              },
            },
          },
        },
      },
    },
  },
  retry: { attempts: 8, backoff: { type: 'exponential', delay: 1000 } },
  // A job holds its whole batch (up to 1000 seals, ~0.5 MB): keep few. A lease is enqueued once, so
  // its id needs no long memory; a later lease of the same rows is another job, and the ledger's
  // client_ref makes its seals no-ops.
  removeOnComplete: { age: 600, count: 100 },
});

/** The job id of a batch: `seal.<owner>.<sha256 of the lease and the row ids, 32 hex>`. */
export function ledgerSealJobId(
  payload: Pick<LedgerSealPayload, 'owner' | 'leased_until'> & { items: ReadonlyArray<{ id: string }> },
): string {
  const digest = createHash('sha256')
    .update(`${payload.leased_until}\n${payload.items.map((i) => i.id).join(',')}`)
    .digest('hex');
  return `seal.${payload.owner}.${digest.slice(0, 32)}`;
}

/** maintenance.v1.run takes nothing: each run asks the services what is due now. */
export type MaintenancePayload = Record<string, never>;

/** What one maintenance run did, per service (docs/operations.md "Partitions"). */
export interface MaintenanceResult {
  /** Past partitions the services listed. */
  due: number;
  /** Of which dropped. */
  dropped: number;
  /** Of which kept, by reason (`not_archived`, `not_empty`, `pending_rows`, `busy`...). */
  kept: { [reason: string]: number };
}

/**
 * Partition maintenance (docs/operations.md "Partitions"): the verdict gateway and the registry create their
 * partitions ahead and list the past ones; those of an archived kind are archived, then each is dropped if the
 * service's gate opens. A repeatable job (one BullMQ job scheduler, `maintenance`, every MAINTENANCE_INTERVAL).
 * Runs that overlap are harmless: each service serialises its work per table under an advisory lock. No BullMQ
 * retry: the next run is the retry.
 */
export const maintenanceJob = defineJob<MaintenancePayload, MaintenanceResult>({
  name: 'maintenance.v1.run',
  queue: 'maintenance',
  schema: { type: 'object', additionalProperties: false, required: [], properties: {} },
  retry: { attempts: 1, backoff: { type: 'fixed', delay: 1000 } },
  removeOnComplete: { age: 3600, count: 100 },
});

/** The id of the maintenance job scheduler: one schedule, whatever the number of workers. */
export const MAINTENANCE_SCHEDULER_ID = 'maintenance';

export const jobCatalog = defineCatalog({
  'system.v1.ping': pingJob,
  'webhook.v1.deliver': webhookDeliverJob,
  'ledger.v1.seal': ledgerSealJob,
  'notification.v1.send': notificationSendJob,
  'maintenance.v1.run': maintenanceJob,
  // The outbox relay is not a job: each worker process runs it as a polling loop over the
  // registry's internal API, which claims rows with FOR UPDATE SKIP LOCKED (ADR 0005). Approval
  // routing is webhook fan-out (tenant subscriptions filtered by candidate deciders) and the
  // approval notifications the same relay leases (docs/approvals.md "Notifications").
});

export type ArbiterJobCatalog = typeof jobCatalog;
export type ArbiterJobName = keyof ArbiterJobCatalog & string;
