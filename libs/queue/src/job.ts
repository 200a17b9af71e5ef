import Ajv, { type ErrorObject, type JSONSchemaType, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { KeepJobs as BullKeepJobs } from 'bullmq';
import { QueueError } from './errors';

/**
 * Versioned job names, `<area>.v<N>.<verb>` (docs/development.md "Conventions"): a payload change that old
 * workers cannot read gets a new version, so jobs already queued keep their meaning.
 * snake_case words, like the event types (`rule.created`) and payload fields.
 */
export const JOB_NAME_PATTERN = /^[a-z][a-z0-9_]*\.v[1-9][0-9]*\.[a-z][a-z0-9_]*$/;

/** BullMQ refuses ':' in queue names (it separates the parts of its Redis keys). */
export const QUEUE_NAME_PATTERN = /^[a-z][a-z0-9_-]*$/;

export interface RetryPolicy {
  /** Total runs, the first included (BullMQ `attempts`). */
  readonly attempts: number;
  /**
   * BullMQ backoff before retry n (n = 1, 2, ...): `fixed` waits `delay` ms every time,
   * `exponential` waits `delay * 2^(n-1)` ms.
   */
  readonly backoff: { readonly type: 'exponential' | 'fixed'; readonly delay: number };
}

/**
 * BullMQ retention: true removes at once, a number keeps the newest N, `{ age }` is in seconds.
 * BullMQ trims only when a later job of the queue finishes, so it is an upper bound, not a timer.
 */
export type KeepJobs = boolean | number | BullKeepJobs;

export interface JobSpec<P> {
  readonly name: string;
  readonly queue: string;
  readonly schema: JSONSchemaType<P>;
  readonly retry: RetryPolicy;
  readonly removeOnComplete?: KeepJobs;
  readonly removeOnFail?: KeepJobs;
}

/**
 * A job as the catalog holds it. `P` is the payload, `R` what the handler returns
 * (stored by BullMQ as the job's return value).
 */
export interface JobDefinition<P = unknown, R = unknown> {
  readonly name: string;
  readonly queue: string;
  readonly schema: object;
  readonly retry: RetryPolicy;
  readonly removeOnComplete: KeepJobs;
  readonly removeOnFail: KeepJobs;
  /** Returns the payload typed, or throws QueueError `invalid_payload` listing every problem. */
  parse(payload: unknown): P;
  /** Type-only carrier of the result type; never set. */
  readonly __result?: R;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJobDefinition = JobDefinition<any, any>;
export type PayloadOf<J> = J extends JobDefinition<infer P, unknown> ? P : never;
export type ResultOf<J> = J extends { readonly __result?: infer R } ? R : never;

/**
 * Completed jobs are kept a day (at most 10,000 per queue): BullMQ ignores an add whose
 * jobId is still stored, so this retention is also the window of idempotent enqueue.
 * Failed jobs are kept a week for inspection and manual retry.
 */
export const DEFAULT_REMOVE_ON_COMPLETE: KeepJobs = { age: 24 * 3600, count: 10_000 };
export const DEFAULT_REMOVE_ON_FAIL: KeepJobs = { age: 7 * 24 * 3600 };

// One validator instance for every job; strict mode turns schema typos into errors at definition.
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);

/** Defines a job: checks the name, the queue and the retry policy, and compiles the payload schema once. */
export function defineJob<P, R = unknown>(spec: JobSpec<P>): JobDefinition<P, R> {
  if (!JOB_NAME_PATTERN.test(spec.name)) {
    throw new QueueError('invalid_job_name', `job name ${JSON.stringify(spec.name)} must look like <area>.v<N>.<verb>`);
  }
  if (!QUEUE_NAME_PATTERN.test(spec.queue)) {
    throw new QueueError(
      'invalid_job_definition',
      `${spec.name}: queue name ${JSON.stringify(spec.queue)} must match ${QUEUE_NAME_PATTERN}`,
    );
  }
  const { attempts, backoff } = spec.retry;
  if (!Number.isInteger(attempts) || attempts < 1) {
    throw new QueueError('invalid_job_definition', `${spec.name}: retry.attempts must be an integer of at least 1`);
  }
  if (!Number.isFinite(backoff.delay) || backoff.delay < 0) {
    throw new QueueError('invalid_job_definition', `${spec.name}: retry.backoff.delay must be a non-negative number of ms`);
  }
  let validate: ValidateFunction<P>;
  try {
    validate = ajv.compile<P>(spec.schema);
  } catch (err) {
    throw new QueueError('invalid_job_definition', `${spec.name}: invalid payload schema: ${(err as Error).message}`);
  }
  const name = spec.name;
  return Object.freeze({
    name,
    queue: spec.queue,
    schema: spec.schema,
    retry: spec.retry,
    removeOnComplete: spec.removeOnComplete ?? DEFAULT_REMOVE_ON_COMPLETE,
    removeOnFail: spec.removeOnFail ?? DEFAULT_REMOVE_ON_FAIL,
    parse(payload: unknown): P {
      if (validate(payload)) return payload;
      const problems = (validate.errors ?? []).map(problemText);
      throw new QueueError('invalid_payload', `invalid payload for ${name}: ${problems.join('; ')}`, problems);
    },
  });
}

function problemText(error: ErrorObject): string {
  const where = error.instancePath || '(payload)';
  if (error.keyword === 'additionalProperties') {
    return `${where} has unknown property ${JSON.stringify((error.params as { additionalProperty: string }).additionalProperty)}`;
  }
  return `${where} ${error.message ?? 'is invalid'}`;
}
