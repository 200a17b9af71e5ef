// W3C trace context across the process boundaries Arbiter has: internal HTTP calls (the traceparent
// and tracestate headers), BullMQ jobs (the job's `opts.telemetry.metadata`, a JSON carrier, where
// BullMQ's own telemetry keeps it too) and outbox rows (a stored traceparent, read back when the row
// is relayed). Every function is a cheap no-op while tracing is off.
import { randomBytes } from 'node:crypto';
import {
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
} from '@opentelemetry/api';
import { tracer, tracingEnabled } from './tracing';

export { SpanKind };
export type { Attributes, Context, Link, Span, SpanContext };

/** What a span callback gets while tracing is off: records nothing. */
const NOOP_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

type HeaderValue = string | string[] | undefined;

const NODE_HEADERS = {
  get(carrier: Record<string, HeaderValue>, key: string): string | undefined {
    const value = carrier[key];
    return Array.isArray(value) ? value[0] : value;
  },
  keys: (carrier: Record<string, HeaderValue>) => Object.keys(carrier),
};

const FETCH_HEADERS = {
  set(carrier: Headers, key: string, value: string): void {
    carrier.set(key, value);
  },
};

/** The context a request's traceparent/tracestate headers carry (node:http's lower-cased headers); the root context without them. */
export function contextFromHeaders(headers: Record<string, HeaderValue>): Context {
  return propagation.extract(ROOT_CONTEXT, headers, NODE_HEADERS);
}

/** Adds traceparent (and tracestate) of the active span to an outgoing fetch request's headers. */
export function injectHeaders(headers: Headers): void {
  if (tracingEnabled()) propagation.inject(context.active(), headers, FETCH_HEADERS);
}

/**
 * The W3C traceparent of the active span, to be stored with work done later (an outbox row); null
 * when tracing is off or the span is not sampled (its later work would not be either).
 */
export function activeTraceparent(): string | null {
  if (!tracingEnabled()) return null;
  const span = trace.getActiveSpan()?.spanContext();
  if (!span || !(span.traceFlags & TraceFlags.SAMPLED)) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** The span context a stored traceparent names (for a link or a parent); undefined when it names none. */
export function spanContextOf(traceparent: string | null | undefined): SpanContext | undefined {
  if (!traceparent) return undefined;
  return trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent }));
}

/**
 * BullMQ job options carrying the active context and `extra` (`opts.telemetry.metadata`); undefined
 * when tracing is off or there is nothing to carry (no active span, no extra).
 */
export function jobTelemetry(extra?: Record<string, unknown>): { metadata: string } | undefined {
  if (!tracingEnabled()) return undefined;
  const carrier: Record<string, unknown> = { ...extra };
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length ? { metadata: JSON.stringify(carrier) } : undefined;
}

/** The carrier of a job's `opts.telemetry.metadata` (written by jobTelemetry); {} when absent or unreadable. */
export function jobCarrier(metadata: string | undefined): Record<string, unknown> {
  if (!metadata) return {};
  try {
    const carrier: unknown = JSON.parse(metadata);
    return carrier && typeof carrier === 'object' && !Array.isArray(carrier) ? (carrier as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The context a job's metadata carries (root context without one). */
export function contextFromJobMetadata(metadata: string | undefined): Context {
  const carrier = jobCarrier(metadata);
  return propagation.extract(ROOT_CONTEXT, carrier, {
    get: (c, key) => (typeof c[key] === 'string' ? (c[key] as string) : undefined),
    keys: (c) => Object.keys(c),
  });
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent context; default the active one. */
  parent?: Context;
  links?: Link[];
}

/**
 * Runs `fn` in a new active span, ended when `fn` settles; a throw is recorded on the span (status
 * ERROR) and rethrown. While tracing is off, `fn` runs at once with a span that records nothing.
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  if (!tracingEnabled()) return fn(NOOP_SPAN);
  const parent = options.parent ?? context.active();
  const span = tracer().startSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links: options.links },
    parent,
  );
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await fn(span);
    } catch (err) {
      markFailed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Records a failure on a span: the exception event and status ERROR. */
export function markFailed(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}

export interface RemoteSpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** When the work began (ms since the epoch); default now. */
  startTime?: number;
  /** Marks the span failed with this message. */
  error?: string;
}

/**
 * Records a finished span in the trace a stored traceparent names (a row written in a request, done
 * later in a batch): its parent is that remote span, and it links to the active span (the batch's).
 * Does nothing while tracing is off or without a valid traceparent.
 */
export function recordInTrace(name: string, traceparent: string | null | undefined, options: RemoteSpanOptions = {}): void {
  if (!tracingEnabled()) return;
  const remote = spanContextOf(traceparent);
  if (!remote) return;
  const active = trace.getActiveSpan()?.spanContext();
  const span = tracer().startSpan(
    name,
    {
      kind: options.kind ?? SpanKind.INTERNAL,
      attributes: options.attributes,
      startTime: options.startTime,
      links: active ? [{ context: active }] : [],
    },
    trace.setSpanContext(ROOT_CONTEXT, remote),
  );
  if (options.error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: options.error });
  span.end();
}

/**
 * Runs `fn` so that nothing it calls is recorded, on either side of an internal call: background
 * polls (relay leases, state-hash checks) that would otherwise make a trace every few hundred
 * milliseconds. Its context holds an unsampled span; spans started under it are not sampled (the
 * default samplers follow the parent) and the traceparent it sends says so. Work the poll finds
 * (a job) is enqueued outside `fn` and starts its own trace.
 */
export function untraced<T>(fn: () => T): T {
  if (!tracingEnabled()) return fn();
  const unsampled: SpanContext = {
    traceId: randomBytes(16).toString('hex'),
    spanId: randomBytes(8).toString('hex'),
    traceFlags: TraceFlags.NONE,
  };
  return context.with(trace.setSpanContext(ROOT_CONTEXT, unsampled), fn);
}
