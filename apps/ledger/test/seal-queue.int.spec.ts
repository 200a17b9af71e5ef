import type { Pool } from 'pg';
import { applyMigrations, createPool } from '@arbiter/db';
import { createTestDatabase } from '@arbiter/testing';
import { ledgerMigrationsDir } from '../src/context';
import { LedgerRepository, type FactRecord, type OwnedStream } from '../src/repositories/ledger.repository';
import { SealQueue, type SealRequest } from '../src/services/seal-queue';
import { VerifyService } from '../src/services/verify.service';

const request = (streamId: string, i: number, extra: Partial<SealRequest> = {}): SealRequest => ({
  tenantId: 'tnt-a',
  streamId,
  actor: 'agent:a',
  payloadText: `{"i":${i}}`,
  clientRef: null,
  ...extra,
});

describe(SealQueue.name, () => {
  let db: { url: string; drop(): Promise<void> };
  const pools: Pool[] = [];
  const pool = () => {
    const p = createPool({ url: db.url, max: 3 });
    pools.push(p);
    return p;
  };
  let n = 0;
  const streamName = (label: string) => `${label}-${++n}`;

  beforeAll(async () => {
    db = await createTestDatabase('seal_queue');
    await applyMigrations(db.url, ledgerMigrationsDir());
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await db.drop();
  });

  const verifyStream = async (streamId: string, tenantId = 'tnt-a') => {
    const repo = new LedgerRepository(pool());
    const stream = (await repo.findStream(tenantId, streamId))!;
    return { stream, report: await new VerifyService(repo, 1000).walk(stream) };
  };

  // optimistic: false sends every flush down the locked path, which must behave the same.
  describe.each([
    ['optimistic statements', true],
    ['locked transactions', false],
  ])('through %s', (_label, optimistic) => {
    const queue = (p = pool(), maxBatch = 5) => new SealQueue(p, new LedgerRepository(p), { maxBatch, concurrency: 2, optimistic });

    it('keeps one chain per stream when several queues (as replicas, each with its own pool) append to the same streams', async () => {
      const sut = [queue(), queue(), queue()];
      const streams = [streamName('shared'), streamName('shared')];
      const outcomes = await Promise.all(Array.from({ length: 120 }, (_, i) => sut[i % 3].seal(request(streams[i % 2], i))));
      expect(outcomes.every((o) => o.created)).toBe(true);
      for (const s of streams) {
        const { stream, report } = await verifyStream(s);
        expect(stream.head_seq).toBe(60);
        expect(report).toMatchObject({ factsVerified: 60, broken: null });
      }
    });

    it('answers a retry inside one batch with the fact the batch creates', async () => {
      const s = streamName('dupes');
      const sut = queue(pool(), 100);
      const [a, b, c] = await Promise.all([sut.seal(request(s, 1, { clientRef: 'r' })), sut.seal(request(s, 2, { clientRef: 'r' })), sut.seal(request(s, 3))]);
      expect(a.created).toBe(true);
      expect(b).toEqual({ fact: a.fact, created: false });
      expect(c.fact.seq).toBe(2);
    });

    it('answers a client_ref sealed earlier by another replica with that fact', async () => {
      const s = streamName('ref');
      const first = await queue().seal(request(s, 1, { clientRef: 'pay-1' }));
      const other = queue();
      const [again, fresh] = await Promise.all([other.seal(request(s, 2, { clientRef: 'pay-1' })), other.seal(request(s, 3, { clientRef: 'pay-2' }))]);
      expect(again).toEqual({ fact: first.fact, created: false });
      expect(fresh).toMatchObject({ created: true, fact: { seq: 2, parent_fact_id: first.fact.fact_id } });
    });

    it("refuses another tenant's appends with NOT_FOUND without disturbing the owner's in the same batch", async () => {
      const s = streamName('owned');
      const sut = queue(pool(), 100);
      const results = await Promise.allSettled([sut.seal(request(s, 1)), sut.seal(request(s, 2, { tenantId: 'tnt-b' })), sut.seal(request(s, 3))]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ status: 404, code: 'NOT_FOUND' });
      expect((results[2] as PromiseFulfilledResult<{ fact: FactRecord }>).value.fact.seq).toBe(2);
      const later = await queue().seal(request(s, 4, { tenantId: 'tnt-b' })).catch((e) => e);
      expect(later).toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  it('commits a burst over many streams in far fewer statements than seals (group commit)', async () => {
    const p = pool();
    const repo = new LedgerRepository(p);
    let statements = 0;
    const counting = Object.create(repo) as LedgerRepository;
    counting.appendStreams = (groups, nowMs) => {
      statements++;
      return repo.appendStreams(groups, nowMs);
    };
    const sut = new SealQueue(p, counting, { maxBatch: 256, concurrency: 2 });
    const streams = Array.from({ length: 8 }, () => streamName('burst'));
    await Promise.all(Array.from({ length: 200 }, (_, i) => sut.seal(request(streams[i % 8], i))));
    expect(statements).toBeLessThan(20);
    for (const s of streams) expect((await verifyStream(s)).report).toMatchObject({ factsVerified: 25, broken: null });
  });

  it('settles every queued seal before idle() resolves', async () => {
    const sut = new SealQueue(pool(), new LedgerRepository(pool()), { maxBatch: 3, concurrency: 1 });
    const s = streamName('idle');
    const seals = Array.from({ length: 10 }, (_, i) => sut.seal(request(s, i)));
    await sut.idle();
    const settled = await Promise.race([Promise.allSettled(seals), new Promise((r) => setImmediate(() => r('pending')))]);
    expect(settled).not.toBe('pending');
  });
});

describe(VerifyService.name, () => {
  it('reads a long stream one page at a time, never more than a page of facts', async () => {
    const db = await createTestDatabase('verify_pages');
    const p = createPool({ url: db.url, max: 2 });
    try {
      await applyMigrations(db.url, ledgerMigrationsDir());
      const repo = new LedgerRepository(p);
      const queue = new SealQueue(p, repo, { maxBatch: 50 });
      await Promise.all(Array.from({ length: 25 }, (_, i) => queue.seal(request('long', i))));
      const pages: number[] = [];
      const counting = Object.create(repo) as LedgerRepository;
      counting.chainPage = async (stream: OwnedStream, after: number, upto: number, limit: number) => {
        const rows = await repo.chainPage(stream, after, upto, limit);
        pages.push(rows.length);
        return rows;
      };
      const stream = (await repo.findStream('tnt-a', 'long'))!;
      const result = await new VerifyService(counting, 4).verify(stream);
      expect(result).toMatchObject({ valid: true, facts_verified: 25 });
      expect(pages).toEqual([4, 4, 4, 4, 4, 4, 1]);
    } finally {
      await p.end();
      await db.drop();
    }
  });
});
