import type { Logger } from 'pino';
import { QueueError } from './errors';
import type { AnyJobDefinition, PayloadOf, ResultOf } from './job';
import type { JobCatalog } from './job-catalog';

export interface JobContext {
  /** BullMQ job id: the producer's `jobId` when one was given. */
  readonly jobId: string;
  /** 1 on the first run, 2 on the first retry, ... */
  readonly attempt: number;
  /** The worker's logger with the job name, id and attempt bound. */
  readonly log: Logger;
  /** Aborted when shutdown's grace period runs out; pass it to fetch and the like. */
  readonly signal: AbortSignal;
  /** The producer's `traceLinks` (traceparents by item), while tracing is on; {} otherwise. */
  readonly traceLinks: Readonly<Record<string, string>>;
}

export type JobHandler<J extends AnyJobDefinition> = (payload: PayloadOf<J>, ctx: JobContext) => Promise<ResultOf<J>>;

/** Exactly one handler per job name of the catalog. */
export type HandlerMap<C extends JobCatalog> = { readonly [K in keyof C]: JobHandler<C[K]> };

/**
 * The startup check (Immich does the same): every catalog job has a handler and every
 * handler names a catalog job. Types already demand it; this catches casts and plain JS,
 * before any worker takes a job it could not run.
 */
export function checkHandlers(catalog: JobCatalog, handlers: Readonly<Record<string, unknown>>): void {
  const missing = Object.keys(catalog).filter((name) => typeof handlers[name] !== 'function' || !Object.hasOwn(handlers, name));
  const unknown = Object.keys(handlers).filter((name) => !Object.hasOwn(catalog, name));
  if (missing.length || unknown.length) {
    const parts = [
      missing.length ? `no handler for ${missing.join(', ')}` : '',
      unknown.length ? `handlers for jobs not in the catalog: ${unknown.join(', ')}` : '',
    ].filter(Boolean);
    throw new QueueError('handler_mismatch', `job handlers do not match the catalog: ${parts.join('; ')}`, { missing, unknown });
  }
}
