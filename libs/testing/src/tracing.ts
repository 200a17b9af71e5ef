// In-memory tracing for tests (docs/adr/0013-tracing.md): every span of every service running in the
// test's process, exported as it ends (no batching), for assertions on names, kinds and parents.
import { installSpanProcessor } from '@arbiter/telemetry';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface TestTracing {
  /** Every span ended since the install (or the last reset). */
  readonly exporter: InMemorySpanExporter;
  shutdown(): Promise<void>;
}

/** Records every span in memory for all the services running in this process. Undo with `shutdown()`. */
export function installTestTracing(service = 'arbiter-test'): TestTracing {
  const exporter = new InMemorySpanExporter();
  const { shutdown } = installSpanProcessor(service, new SimpleSpanProcessor(exporter));
  return { exporter, shutdown };
}
