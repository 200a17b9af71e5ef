import { SpanKind } from '@arbiter/telemetry';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { RunningWorker } from '../../apps/worker/src/worker';
import { outboxRows, startFakeLedger, type FakeLedger } from './seal-harness';
import { createVerdictTenant, verdictApi, type VerdictTenant } from './verdict-harness';
import { eventually, installTestTracing, type TestTracing } from '@arbiter/testing';
import { startStack, type Stack } from './stack';

/**
 * One check, one trace (docs/operations.md "Tracing"): the verdict gateway's server span and its
 * verdict.check span, the registry's server spans of the internal calls the check made (through
 * traceparent on those requests), and the worker's span of the seal job the check caused (through the
 * traceparent stored in its seal_outbox row). Every process runs here, all spans in one in-memory exporter.
 */
describe('tracing across the services', () => {
  let tracing: TestTracing;
  let stack: Stack;
  let ledger: FakeLedger;
  let t: VerdictTenant;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    tracing = installTestTracing();
    stack = await startStack({ verdict: true });
    ledger = await startFakeLedger();
    t = await createVerdictTenant(stack, 'traced');
  });
  afterAll(async () => {
    await worker?.close();
    await ledger?.close();
    await stack?.stop();
    await tracing.shutdown();
  });

  const spans = () => tracing.exporter.getFinishedSpans();
  const attr = (s: ReadableSpan, name: string) => s.attributes[name];
  const inTrace = (traceId: string) => spans().filter((s) => s.spanContext().traceId === traceId);
  const parentOf = (s: ReadableSpan) => spans().find((p) => p.spanContext().spanId === s.parentSpanContext?.spanId);

  it('covers the check, the registry calls it made and the seal job it caused', async () => {
    // The agent's key was never used: the gateway asks the registry about it (introspection), and
    // reads the tenant's state from it.
    const res = await verdictApi(stack, t.agent.key, t.id)
      .check({ action: 'payments.transfer', resource: 'acct:1', scope: { region: 'eu', env: 'prod' } })
      .expect(200);
    const consultationId = res.headers['x-consultation-id'] as string;

    const server = await eventually(
      "the gateway's server span",
      async () => {
        const found = spans().find(
          (s) => s.kind === SpanKind.SERVER && attr(s, 'arbiter.service') === 'verdict' && s.name === 'POST /:tenant_id/v1/check',
        );
        expect(found).toBeDefined();
        return found!;
      },
      { timeoutMs: 5_000 },
    );
    const traceId = server.spanContext().traceId;
    expect(server.parentSpanContext).toBeUndefined(); // the caller sent no traceparent
    expect(server.attributes).toMatchObject({ 'http.route': '/:tenant_id/v1/check', 'http.response.status_code': 200 });

    const check = inTrace(traceId).find((s) => s.name === 'verdict.check')!;
    expect(check.attributes).toMatchObject({
      'arbiter.tenant_id': t.id,
      'arbiter.principal_id': t.agent.id,
      'arbiter.consultation_id': consultationId,
      'arbiter.verdict': res.body.verdict,
    });
    expect(parentOf(check)).toBe(server);

    // The registry continued the trace: each of its server spans is the child of the gateway's client span of that call.
    const registryServer = inTrace(traceId).filter((s) => s.kind === SpanKind.SERVER && attr(s, 'arbiter.service') === 'registry');
    expect(registryServer.length).toBeGreaterThanOrEqual(1);
    expect(registryServer.map((s) => s.name)).toContain('POST /internal/v1/introspect');
    for (const s of registryServer) {
      const client = parentOf(s)!;
      expect(client.kind).toBe(SpanKind.CLIENT);
      expect(client.name).toMatch(/^registry /);
      expect(client.attributes['arbiter.peer.service']).toBe('registry');
    }

    // The consultation's seal_outbox row keeps the context of the check span it was written in.
    const [row] = await outboxRows(stack.databaseUrl('verdict'), 'client_ref = $1', [consultationId]);
    expect(row).toBeDefined();

    worker = await stack.addWorker({ LEDGER_URL: ledger.url });
    await eventually('the consultation sealed', () => outboxRows(stack.databaseUrl('verdict'), 'client_ref = $1', [consultationId]), {
      until: (rows) => expect(rows).toEqual([]),
      timeoutMs: 20_000,
      intervalMs: 100,
    });
    expect(ledger.facts.map((f) => f.client_ref)).toContain(consultationId);

    const item = await eventually(
      "the seal job's span",
      async () => {
        // (The check also made the tenant's first key, whose seal is traced in the same trace: take the consultation's.)
        const found = inTrace(traceId).find(
          (s) => s.name === 'ledger.v1.seal item' && s.attributes['arbiter.seal.client_ref'] === consultationId,
        );
        expect(found).toBeDefined();
        return found!;
      },
      { timeoutMs: 5_000 },
    );
    expect(item.kind).toBe(SpanKind.CONSUMER);
    expect(item.parentSpanContext?.spanId).toBe(check.spanContext().spanId);
    expect(item.attributes).toMatchObject({
      'arbiter.seal.client_ref': consultationId,
      'arbiter.seal.outcome': 'sealed',
      'arbiter.seal.stream_id': `arbiter.${t.id}.consultations`,
    });

    // The job's own span (the batch) links to the check and is the one the item span links back to.
    const job = spans().find((s) => s.name === 'process ledger.v1.seal' && s.spanContext().spanId === item.links[0]?.context.spanId)!;
    expect(job).toBeDefined();
    expect(job.kind).toBe(SpanKind.CONSUMER);
    expect(job.attributes).toMatchObject({ 'messaging.system': 'bullmq', 'arbiter.job.name': 'ledger.v1.seal', 'arbiter.job.attempt': 1 });
    expect(job.links.map((l) => l.context.spanId)).toContain(check.spanContext().spanId);
    // The relay's polls (leases, several a second) are recorded on neither side.
    expect(
      spans().filter((s) => /seal-outbox\/lease|outbox\/relay/.test(s.name) || /lease|relay/.test(String(s.attributes['url.path'] ?? ''))),
    ).toEqual([]);
    // The job's ledger request is a client span under the job span.
    expect(
      spans().some(
        (s) => s.kind === SpanKind.CLIENT && s.name.startsWith('ledger ') && s.parentSpanContext?.spanId === job.spanContext().spanId,
      ),
    ).toBe(true);
  });

  it("continues a caller's traceparent", async () => {
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const traceparent = `00-${callerTrace}-00f067aa0ba902b7-01`;
    await verdictApi(stack, t.agent.key, t.id)
      .check({ action: 'payments.transfer', resource: 'acct:2', scope: { region: 'eu', env: 'prod' } }, { traceparent })
      .expect(200);
    const server = await eventually(
      "the gateway's server span",
      async () => {
        const found = inTrace(callerTrace).find((s) => s.kind === SpanKind.SERVER && attr(s, 'arbiter.service') === 'verdict');
        expect(found).toBeDefined();
        return found!;
      },
      { timeoutMs: 5_000 },
    );
    expect(server.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(inTrace(callerTrace).map((s) => s.name)).toContain('verdict.check');
  });
});
