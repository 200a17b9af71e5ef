import type { Pool } from 'pg';
import { mintTenantId } from '@arbiter/auth';
import { canonicalJson, type CanonicalText } from '@arbiter/canonical';
import { applyMigrations, createPool } from '@arbiter/db';
import { createTestDatabase } from '@arbiter/testing';
import { ledgerMigrationsDir } from '../src/context';
import { LedgerRepository, type OwnedStream } from '../src/repositories/ledger.repository';
import { SealQueue, type SealOutcome, type SealRequest } from '../src/services/seal-queue.service';
import { VerifyService } from '../src/services/verify.service';

const TENANT_A = mintTenantId('tnt-a');
const TENANT_B = mintTenantId('tnt-b');

const request = (streamId: string, i: number, extra: Partial<SealRequest> = {}): SealRequest => ({
  tenantId: TENANT_A,
  streamId,
  actor: 'agent:a',
  sealedBy: 'agn-000000000000000000000001',
  payloadText: canonicalJson({ i }),
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
    // A row the database refuses for a reason that is not the caller's data (isolation tests).
    await pool().query(`ALTER TABLE facts ADD CONSTRAINT test_no_poison CHECK (actor <> 'poison')`);
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await db.drop();
  });

  const verifyStream = async (streamId: string, tenantId = TENANT_A) => {
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
      const [a, b, c] = await Promise.all([
        sut.seal(request(s, 1, { clientRef: 'r' })),
        sut.seal(request(s, 2, { clientRef: 'r' })),
        sut.seal(request(s, 3)),
      ]);
      expect(a.created).toBe(true);
      expect(b).toEqual({ fact: a.fact, created: false });
      expect(c.fact.seq).toBe(2);
    });

    it('answers a client_ref sealed earlier by another replica with that fact', async () => {
      const s = streamName('ref');
      const first = await queue().seal(request(s, 1, { clientRef: 'pay-1' }));
      const other = queue();
      const [again, fresh] = await Promise.all([
        other.seal(request(s, 2, { clientRef: 'pay-1' })),
        other.seal(request(s, 3, { clientRef: 'pay-2' })),
      ]);
      expect(again).toEqual({ fact: first.fact, created: false });
      expect(fresh).toMatchObject({ created: true, fact: { seq: 2, parent_fact_id: first.fact.fact_id } });
    });

    // docs/ledger-formats.md: one request's bad row never fails another. The rows here fail in the
    // database itself (HTTP validation would refuse them earlier): a payload text that is not JSON
    // (22P02), a NUL byte in a text column (22021), and a CHECK constraint this test database adds
    // (23514, not the caller's data: a server error).
    it('commits every other seal of a batch around rows the database refuses, answering only those', async () => {
      const p = pool();
      const repo = new LedgerRepository(p);
      const statements: number[] = [];
      const counting = Object.create(repo) as LedgerRepository;
      counting.appendStreams = (groups, nowMs) => {
        statements.push(groups.reduce((n, g) => n + g.facts.length, 0));
        return repo.appendStreams(groups, nowMs);
      };
      counting.appendLocked = (client, groups, nowMs) => {
        statements.push(groups.reduce((n, g) => n + g.facts.length, 0));
        return repo.appendLocked(client, groups, nowMs);
      };
      const sut = new SealQueue(p, counting, { maxBatch: 100, concurrency: 1, optimistic });
      const streams = [streamName('iso'), streamName('iso'), streamName('iso')];
      const bad: Record<number, Partial<SealRequest>> = {
        // Not JSON (forged past the type on purpose): PostgreSQL refuses it in the insert.
        7: { payloadText: '{"i":' as CanonicalText },
        13: { actor: 'agent:\u0000' },
        22: { actor: 'poison' },
      };
      const results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => sut.seal(request(streams[i % 3], i, bad[i]))));
      // All 30 went into the first statement together; the isolation then took a few more.
      expect(statements[0]).toBe(30);
      expect(statements.length).toBeGreaterThan(1);
      results.forEach((r, i) => {
        if (!(i in bad)) expect(r).toMatchObject({ status: 'fulfilled', value: { created: true } });
      });
      expect((results[7] as PromiseRejectedResult).reason).toMatchObject({
        status: 400,
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(/^The database cannot store this seal: invalid input syntax for type json/),
      });
      expect((results[13] as PromiseRejectedResult).reason).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      expect((results[22] as PromiseRejectedResult).reason).toMatchObject({ code: '23514' });
      for (const [k, s] of streams.entries()) {
        const { stream, report } = await verifyStream(s);
        const expected = Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 3 === k && !(i in bad));
        expect(report).toMatchObject({ factsVerified: expected.length, broken: null });
        // Each stream keeps its callers' arrival order around the refused seals.
        const { rows } = await p.query(`SELECT (custom_payload->>'i')::int AS i FROM facts WHERE stream_id = $1 ORDER BY seq`, [s]);
        expect(rows.map((r: { i: number }) => r.i)).toEqual(expected);
        expect(stream.head_seq).toBe(expected.length);
      }
    });

    it('keeps client_ref idempotency around a refused seal in the same batch', async () => {
      const s = streamName('iso-ref');
      const sut = queue(pool(), 100);
      const [first, refused, retry, fresh] = await Promise.allSettled([
        sut.seal(request(s, 1, { clientRef: 'r-1' })),
        sut.seal(request(s, 2, { clientRef: 'r-2', payloadText: '{' as CanonicalText })),
        sut.seal(request(s, 3, { clientRef: 'r-1' })),
        sut.seal(request(s, 4, { clientRef: 'r-2' })),
      ]);
      expect(refused).toMatchObject({ status: 'rejected', reason: { status: 400 } });
      const a = (first as PromiseFulfilledResult<SealOutcome>).value;
      expect(a.created).toBe(true);
      expect((retry as PromiseFulfilledResult<SealOutcome>).value).toEqual({ fact: a.fact, created: false });
      // r-2 was never stored, so its next seal is a first seal.
      expect((fresh as PromiseFulfilledResult<SealOutcome>).value).toMatchObject({
        created: true,
        fact: { seq: 2, parent_fact_id: a.fact.fact_id },
      });
      expect(await queue().seal(request(s, 5, { clientRef: 'r-1' }))).toEqual({ fact: a.fact, created: false });
    });

    it('keeps two tenants\' streams of the same id apart, in one batch and after (docs/ledger-formats.md "Stream identity")', async () => {
      const s = streamName('same-name');
      const sut = queue(pool(), 100);
      const b = (i: number, extra: Partial<SealRequest> = {}) =>
        request(s, i, { tenantId: TENANT_B, sealedBy: 'agn-00000000000000000000000b', ...extra });
      const results = await Promise.all([
        sut.seal(request(s, 1, { clientRef: 'r-1' })),
        sut.seal(b(2, { clientRef: 'r-1' })),
        sut.seal(request(s, 3)),
        sut.seal(b(4)),
      ]);
      expect(results.map((r) => [r.fact.tenant_id, r.fact.seq, r.created])).toEqual([
        [TENANT_A, 1, true],
        [TENANT_B, 1, true],
        [TENANT_A, 2, true],
        [TENANT_B, 2, true],
      ]);
      expect(results[1].fact.sealed_by).toBe('agn-00000000000000000000000b');
      // The same client_ref in the other tenant's stream of that id is that tenant's own.
      expect(await queue().seal(b(5, { clientRef: 'r-1' }))).toEqual({ fact: results[1].fact, created: false });
      for (const tenant of [TENANT_A, TENANT_B]) {
        const { stream, report } = await verifyStream(s, tenant);
        expect({ tenant: stream.tenant_id, head: stream.head_seq, broken: report.broken }).toEqual({ tenant, head: 2, broken: null });
      }
    });
  });

  it("fails the waiting seals at once, without isolating, when the failure is no row's (the database is away)", async () => {
    const p = pool();
    const repo = new LedgerRepository(p);
    let statements = 0;
    const away = Object.create(repo) as LedgerRepository;
    away.appendStreams = async () => {
      statements++;
      throw Object.assign(new Error('Connection terminated unexpectedly'), { code: undefined });
    };
    const sut = new SealQueue(p, away, { maxBatch: 100, concurrency: 1 });
    const s = streamName('away');
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => sut.seal(request(s, i))));
    expect(results.every((r) => r.status === 'rejected' && /Connection terminated/.test((r.reason as Error).message))).toBe(true);
    expect(statements).toBe(1);
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

  it.each([
    ['gather for the next flush while fewer than parallelFrom wait', undefined, ['flush 1', 'first committed', 'flush 10']],
    ['start a flush beside the one in flight once parallelFrom wait', 5, ['flush 1', 'flush 10', 'first committed']],
  ])('seals arriving during a flush %s', async (_label, parallelFrom, expected) => {
    const events: string[] = [];
    const p = pool();
    const sut = new SealQueue(p, new LedgerRepository(p), {
      maxBatch: 100,
      concurrency: 4,
      parallelFrom,
      onFlush: (size) => events.push(`flush ${size}`),
    });
    const stream = streamName('gather');
    const first = sut.seal(request(`${stream}-0`, 0)).then(() => events.push('first committed'));
    await new Promise((resolve) => setImmediate(resolve)); // the first flush is in flight
    const rest = Array.from({ length: 10 }, (_, i) => sut.seal(request(`${stream}-${i + 1}`, i)));
    await Promise.all([first, ...rest]);
    expect(events).toEqual(expected);
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
      const stream = (await repo.findStream(TENANT_A, 'long'))!;
      const result = await new VerifyService(counting, 4).verify(stream);
      expect(result).toMatchObject({ valid: true, facts_verified: 25 });
      expect(pages).toEqual([4, 4, 4, 4, 4, 4, 1]);
    } finally {
      await p.end();
      await db.drop();
    }
  });
});
