import { defineJob } from './job';
import { defineCatalog } from './job-catalog';

/**
 * The project's job catalog (STYLE.md "Jobs"): every job the worker runs, with its queue,
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

export const jobCatalog = defineCatalog({
  'system.v1.ping': pingJob,
  // Added by later issues, each with its payload schema and retry policy:
  // 'outbox.v1.relay'    (queue 'outbox'): move committed outbox rows to BullMQ (DESIGN.md section 1)
  // 'webhook.v1.deliver' (queue 'webhook'): at least 8 attempts over hours (DESIGN.md section 7)
  // 'approval.v1.route'  (queue 'approval'): notify the candidate deciders (DESIGN.md section 7)
});

export type ArbiterJobCatalog = typeof jobCatalog;
export type ArbiterJobName = keyof ArbiterJobCatalog & string;
