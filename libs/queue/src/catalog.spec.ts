import { jobCatalog, pingJob, webhookDeliverJob, webhookDeliverJobId } from './catalog';
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
    expect(pingJob.parse({ message: 'hi', sent_at: '2026-05-01T12:00:00.000Z' })).toEqual({ message: 'hi', sent_at: '2026-05-01T12:00:00.000Z' });
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
    expect(() => webhookDeliverJob.parse({ delivery_id: 'dlv-x', attempt: 2 })).toThrow(expect.objectContaining({ code: 'invalid_payload' }));
    expect(() => webhookDeliverJob.parse({ delivery_id: payload.delivery_id, attempt: 0 })).toThrow(expect.objectContaining({ code: 'invalid_payload' }));
  });

  it('names a delivery attempt job after the delivery and the attempt, a valid BullMQ id', () => {
    expect(webhookDeliverJobId({ delivery_id: 'dlv-0123456789abcdef01234567', attempt: 3 })).toBe('dlv-0123456789abcdef01234567.3');
  });
});
