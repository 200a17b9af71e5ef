import { jobCatalog, pingJob } from './catalog';
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
});
