import { checkHandlers, jobCatalog, type JobContext } from '@arbiter/queue';
import pino from 'pino';
import { LedgerInternalClient, RegistryInternalClient, VerdictInternalClient } from '@arbiter/internal-api';
import { createJobHandlers } from '.';

describe(createJobHandlers.name, () => {
  const sut = createJobHandlers({
    registry: new RegistryInternalClient({ baseUrl: 'http://127.0.0.1:9', token: 'token-token-token-1', timeoutMs: 1000 }),
    verdict: new VerdictInternalClient({ baseUrl: 'http://127.0.0.1:9', token: 'token-token-token-1', timeoutMs: 1000 }),
    ledger: new LedgerInternalClient({ baseUrl: 'http://127.0.0.1:9', token: 'token-token-token-1', timeoutMs: 1000 }),
  });
  const ctx: JobContext = { jobId: '1', attempt: 1, log: pino({ level: 'silent' }), signal: new AbortController().signal, traceLinks: {} };

  it('has exactly one handler per catalog job', () => {
    expect(() => checkHandlers(jobCatalog, sut)).not.toThrow();
  });

  it('answers a ping with its message', async () => {
    expect(await sut['system.v1.ping']({ message: 'hi', sent_at: '2026-01-01T00:00:00Z' }, ctx)).toEqual({
      pong: 'hi',
      received_at: expect.any(String),
    });
  });

  it('fails a delivery job while the registry is unreachable, so BullMQ retries it', async () => {
    await expect(sut['webhook.v1.deliver']({ delivery_id: 'dlv-0123456789abcdef01234567', attempt: 1 }, ctx)).rejects.toMatchObject({
      code: 'registry_unreachable',
    });
  });

  it('fails a seal job while the ledger is unreachable, so BullMQ retries it', async () => {
    const item = {
      id: '1',
      seal: { stream_id: 'arbiter.ten-1.rules', tenant_id: 'ten-1', actor: 'service:registry', custom_payload: {}, client_ref: 'rv-1' },
    };
    await expect(
      sut['ledger.v1.seal']({ owner: 'registry', leased_until: '2026-01-01T00:00:00.000Z', items: [item] }, ctx),
    ).rejects.toMatchObject({ code: 'ledger_unreachable' });
  });
});
