export { initTracing, installSpanProcessor, tracer, tracesEndpoint, tracingEnabled, TRACER_NAME } from './tracing';
export type { TracingHandle } from './tracing';
export {
  activeTraceparent,
  contextFromHeaders,
  contextFromJobMetadata,
  inSpan,
  injectHeaders,
  jobCarrier,
  jobTelemetry,
  markFailed,
  recordInTrace,
  spanContextOf,
  SpanKind,
  untraced,
} from './propagation';
export type { Attributes, Context, Link, RemoteSpanOptions, Span, SpanContext, SpanOptions } from './propagation';
export { context as otelContext, trace as otelTrace, SpanStatusCode } from '@opentelemetry/api';
