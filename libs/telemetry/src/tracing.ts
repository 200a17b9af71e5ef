// Tracing for every process (docs/operations.md "Tracing"): one setup, read from the standard
// OpenTelemetry variables. Without an OTLP endpoint nothing is installed: the API's global tracer stays
// the no-op one and `tracingEnabled()` is false, which the hot paths test before doing any tracing work.
import { context, propagation, trace, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

/** The instrumentation scope of every span Arbiter makes. */
export const TRACER_NAME = 'arbiter';

let enabled = false;
let installed: NodeTracerProvider | undefined;

/** Whether spans are being recorded (an exporter is installed). False: callers skip all tracing work. */
export function tracingEnabled(): boolean {
  return enabled;
}

/** The tracer of Arbiter's spans (the API's no-op tracer while tracing is off). */
export function tracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

export interface TracingHandle {
  /** Whether an exporter was installed. */
  readonly enabled: boolean;
  /** Where spans go: the OTLP traces URL, or null when tracing is off. */
  readonly endpoint: string | null;
  /** Exports what is buffered and uninstalls the provider (graceful shutdown). */
  shutdown(): Promise<void>;
}

const OFF: TracingHandle = { enabled: false, endpoint: null, shutdown: async () => undefined };

/** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces (as the exporter reads them). */
export function tracesEndpoint(env: NodeJS.ProcessEnv): string | null {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return null;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * Starts tracing for a process when an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) and OTEL_SDK_DISABLED is not `true`; otherwise does nothing.
 * The service name is OTEL_SERVICE_NAME, else `arbiter-<service>`. Sampling follows OTEL_TRACES_SAMPLER
 * and OTEL_TRACES_SAMPLER_ARG (the SDK reads them; default parentbased_always_on); headers, timeout and
 * compression of the export follow the other OTEL_EXPORTER_OTLP_* variables. Spans are exported in
 * batches over OTLP/HTTP with JSON bodies.
 */
export function initTracing(service: string, env: NodeJS.ProcessEnv = process.env, version?: string): TracingHandle {
  const endpoint = tracesEndpoint(env);
  if (!endpoint || env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return OFF;
  const exporter = new OTLPTraceExporter({ url: endpoint });
  const name = env.OTEL_SERVICE_NAME?.trim() || `arbiter-${service}`;
  const provider = install(name, new BatchSpanProcessor(exporter), version);
  return {
    enabled: true,
    endpoint,
    shutdown: () => uninstall(provider),
  };
}

/**
 * Installs a tracer provider that hands every span to `processor`, for all the services running in
 * this process (initTracing does it with its OTLP exporter; the test kit, @arbiter/testing's
 * installTestTracing, with an in-memory one). Undo with the handle's `shutdown()`.
 */
export function installSpanProcessor(service: string, processor: SpanProcessor): { shutdown(): Promise<void> } {
  const provider = install(service, processor);
  return { shutdown: () => uninstall(provider) };
}

function install(serviceName: string, processor: SpanProcessor, version?: string): NodeTracerProvider {
  if (installed) throw new Error('tracing is already installed in this process');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName, ...(version ? { [ATTR_SERVICE_VERSION]: version } : {}) }),
    spanProcessors: [processor],
  });
  // Sets the global tracer provider, the AsyncLocalStorage context manager and the propagator.
  provider.register({ propagator: new W3CTraceContextPropagator() });
  installed = provider;
  enabled = true;
  return provider;
}

async function uninstall(provider: NodeTracerProvider): Promise<void> {
  if (installed !== provider) return;
  enabled = false;
  installed = undefined;
  try {
    await provider.shutdown();
  } finally {
    trace.disable();
    context.disable();
    propagation.disable();
  }
}
