import { checkHandlers, jobCatalog, type JobContext } from '@arbiter/queue';
import pino from 'pino';
import { jobHandlers } from '.';

describe('jobHandlers', () => {
  it('has exactly one handler per catalog job', () => {
    expect(() => checkHandlers(jobCatalog, jobHandlers)).not.toThrow();
  });

  it('answers a ping with its message', async () => {
    const ctx: JobContext = { jobId: '1', attempt: 1, log: pino({ level: 'silent' }), signal: new AbortController().signal };

    const sut = await jobHandlers['system.v1.ping']({ message: 'hi', sent_at: '2026-01-01T00:00:00Z' }, ctx);

    expect(sut).toEqual({ pong: 'hi', received_at: expect.any(String) });
  });
});
