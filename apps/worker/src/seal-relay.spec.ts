import pino from 'pino';
import type { Producer } from '@arbiter/queue';
import type { SealLease } from '@arbiter/internal-api';
import { SealRelay, type SealOwner, type SealOwnerName } from './seal-relay';

/** Owners answering `rows[name]` rows to every lease (none by default); the leases they were asked for. */
function owners(rows: Partial<Record<SealOwnerName, number>> = {}) {
  const asked: SealOwnerName[] = [];
  let next = 1;
  const owner = (name: SealOwnerName): SealOwner => ({
    async leaseSeals(): Promise<SealLease> {
      asked.push(name);
      const items = Array.from({ length: rows[name] ?? 0 }, () => {
        const id = String(next++);
        return {
          id,
          attempts: 1,
          seal: {
            stream_id: `arbiter.tnt-1.${name === 'verdict' ? 'consultations' : 'rules'}`,
            tenant_id: 'tnt-1',
            actor: `service:${name}`,
            custom_payload: {},
            client_ref: `ref-${id}`,
          },
        };
      });
      return { leased_until: '2030-01-01T00:00:00.000Z', items };
    },
    sealsDone: async () => ({ deleted: 0 }),
    releaseSeals: async () => ({ released: 0 }),
  });
  return { asked, all: { verdict: owner('verdict'), registry: owner('registry') } };
}

const producer = { enqueue: async () => 'job-1' } as unknown as Producer;
const logger = pino({ level: 'silent' });

describe(SealRelay.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const settle = async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };

  it('pass() asks every owner', async () => {
    const o = owners({ verdict: 2, registry: 1 });
    const sut = new SealRelay(o.all, producer, { intervalMs: 10_000, batchSize: 100, leaseMs: 60_000 }, logger);
    expect(await sut.pass()).toEqual({ leased: { verdict: 2, registry: 1 }, enqueued: 2, released: 0 });
    expect(o.asked.sort()).toEqual(['registry', 'verdict']);
  });

  it('a nudge passes the owner that nudged, and the fallback poll every owner', async () => {
    const o = owners();
    const sut = new SealRelay(o.all, producer, { intervalMs: 10_000, batchSize: 100, leaseMs: 60_000, gatherMs: 250 }, logger);
    sut.start();
    jest.advanceTimersByTime(0);
    await settle();
    expect(o.asked.splice(0).sort()).toEqual(['registry', 'verdict']);
    jest.advanceTimersByTime(1_000);
    sut.wake('verdict');
    jest.advanceTimersByTime(0);
    await settle();
    expect(o.asked.splice(0)).toEqual(['verdict']);
    // The registry, not asked for the fallback interval, is asked again then (a nudge of it may have been lost).
    jest.advanceTimersByTime(10_000);
    await settle();
    expect(o.asked.splice(0).sort()).toEqual(['registry', 'verdict']);
    await sut.stop();
  });

  it('an owner nudging all the time does not keep the other from its fallback poll', async () => {
    const o = owners();
    const sut = new SealRelay(o.all, producer, { intervalMs: 1_000, batchSize: 100, leaseMs: 60_000, gatherMs: 100 }, logger);
    sut.start();
    jest.advanceTimersByTime(0);
    await settle();
    o.asked.splice(0);
    for (let t = 0; t < 1_200; t += 100) {
      sut.wake('verdict');
      jest.advanceTimersByTime(100);
      await settle();
    }
    expect(o.asked).toContain('registry');
    await sut.stop();
  });

  it('goes on at once with the owner whose batch was full, without waiting for the gap', async () => {
    const o = owners({ verdict: 3 });
    const sut = new SealRelay(o.all, producer, { intervalMs: 10_000, batchSize: 3, leaseMs: 60_000, gatherMs: 5_000 }, logger);
    sut.start();
    jest.advanceTimersByTime(0);
    await settle();
    o.asked.splice(0);
    jest.advanceTimersByTime(0);
    await settle();
    expect(o.asked).toEqual(['verdict']);
    await sut.stop();
  });
});
