import { jobCatalog, ledgerSealJob, ledgerSealJobId, pingJob, webhookDeliverJob, webhookDeliverJobId } from './catalog';
import { JOB_NAME_PATTERN } from './job';

describe('jobCatalog', () => {
  it('holds only versioned names, each under its own key', () => {
    for (const [key, job] of Object.entries(jobCatalog)) {
      expect(job.name).toBe(key);
      expect(JOB_NAME_PATTERN.test(key)).toBe(true);
    }
  });

  it('declares system.v1.ping on queue system', () => {
    expect(jobCatalog['system.v1.ping']).toBe(pingJob);
    expect(pingJob.queue).toBe('system');
  });

  it('accepts a ping payload and rejects one without sent_at', () => {
    expect(pingJob.parse({ message: 'hi', sent_at: '2026-05-01T12:00:00.000Z' })).toEqual({
      message: 'hi',
      sent_at: '2026-05-01T12:00:00.000Z',
    });
    expect(() => pingJob.parse({ message: 'hi' })).toThrow(expect.objectContaining({ code: 'invalid_payload' }));
  });

  it('declares webhook.v1.deliver on queue webhook with retries for an unreachable registry', () => {
    expect(jobCatalog['webhook.v1.deliver']).toBe(webhookDeliverJob);
    expect(webhookDeliverJob.queue).toBe('webhook');
    expect(webhookDeliverJob.retry.attempts).toBeGreaterThan(1);
  });

  it('accepts a delivery attempt and rejects a malformed one', () => {
    const payload = { delivery_id: 'dlv-0123456789abcdef01234567', attempt: 2 };
    expect(webhookDeliverJob.parse(payload)).toEqual(payload);
    expect(() => webhookDeliverJob.parse({ delivery_id: 'dlv-x', attempt: 2 })).toThrow(
      expect.objectContaining({ code: 'invalid_payload' }),
    );
    expect(() => webhookDeliverJob.parse({ delivery_id: payload.delivery_id, attempt: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_payload' }),
    );
  });

  it('names a delivery attempt job after the delivery and the attempt, a valid BullMQ id', () => {
    expect(webhookDeliverJobId({ delivery_id: 'dlv-0123456789abcdef01234567', attempt: 3 })).toBe('dlv-0123456789abcdef01234567.3');
  });

  const seal = (id: string) => ({
    id,
    seal: {
      stream_id: 'arbiter.ten-1.consultations',
      tenant_id: 'ten-1',
      actor: 'service:verdict',
      custom_payload: { consultation_id: `cns-${id}` },
      client_ref: `cns-${id}`,
    },
  });

  it('declares ledger.v1.seal on queue ledger with retries, and accepts a batch of seals', () => {
    expect(jobCatalog['ledger.v1.seal']).toBe(ledgerSealJob);
    expect(ledgerSealJob.queue).toBe('ledger');
    expect(ledgerSealJob.retry.attempts).toBeGreaterThan(1);
    const payload = { owner: 'verdict' as const, leased_until: '2026-05-01T12:00:00.000Z', items: [seal('1'), seal('2')] };
    expect(ledgerSealJob.parse(payload)).toEqual(payload);
    expect(() => ledgerSealJob.parse({ ...payload, items: [] })).toThrow(expect.objectContaining({ code: 'invalid_payload' }));
    expect(() => ledgerSealJob.parse({ ...payload, owner: 'ledger' })).toThrow(expect.objectContaining({ code: 'invalid_payload' }));
    expect(() => ledgerSealJob.parse({ ...payload, items: [{ ...seal('1'), seal: { ...seal('1').seal, client_ref: '' } }] })).toThrow(
      expect.objectContaining({ code: 'invalid_payload' }),
    );
  });

  it('names a seal batch after its owner, lease and rows: the same lease gives the same id, another lease another', () => {
    const batch = { owner: 'registry' as const, leased_until: '2026-05-01T12:00:00.000Z', items: [seal('7'), seal('9')] };
    const id = ledgerSealJobId(batch);
    expect(id).toMatch(/^seal\.registry\.[0-9a-f]{32}$/);
    expect(ledgerSealJobId({ ...batch, items: [seal('7'), seal('9')] })).toBe(id);
    expect(ledgerSealJobId({ ...batch, leased_until: '2026-05-01T12:01:00.000Z' })).not.toBe(id);
    expect(ledgerSealJobId({ ...batch, items: [seal('7')] })).not.toBe(id);
    expect(ledgerSealJobId({ ...batch, owner: 'verdict' })).not.toBe(id);
  });
});
