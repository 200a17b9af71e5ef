import { mintTenantId } from '@arbiter/auth';
import { applyMigrations, createPool } from '@arbiter/db';
import { createTestDatabase } from '@arbiter/testing';
import type { WindowNeed } from '@arbiter/policy';
import type { Pool } from 'pg';
import { verdictMigrationsDir } from '../src/context';
import { WindowRepository } from '../src/repositories/windows.repository';
import { FORCED_MAX, storeNeeds } from '../src/services/windows.service';

jest.setTimeout(60_000);

let db: Awaited<ReturnType<typeof createTestDatabase>>;
/** One connection, so that a pinned clock (SET arbiter.window_now) holds for every statement of a test. */
let pool: Pool;
let repo: WindowRepository;

beforeAll(async () => {
  db = await createTestDatabase('verdict_windows');
  await applyMigrations(db.url, verdictMigrationsDir());
  pool = createPool({ url: db.url, max: 1, timeoutMs: 2_000 });
  repo = new WindowRepository(pool);
});
afterAll(async () => {
  await pool.end();
  await db.drop();
});

const T0 = Date.parse('2031-03-01T10:00:00Z');
/** Pins PostgreSQL's window clock at T0 + ms (microseconds are kept: '.000001'). */
const at = async (ms: number, micros = 0) => {
  const iso = new Date(T0 + ms).toISOString().replace('Z', `${String(micros).padStart(3, '0')}Z`);
  await pool.query(`SELECT set_config('arbiter.window_now', $1, false)`, [iso]);
};
afterEach(() => pool.query(`SELECT set_config('arbiter.window_now', '', false)`));

let n = 0;
const need = (over: Partial<WindowNeed> = {}): WindowNeed => ({
  rule_id: 'rul-count',
  rule_version_id: 'rv-1',
  key: '{}',
  window: '1h',
  window_ms: 3_600_000,
  amount: 1,
  max: 3,
  ...over,
});
const cns = () => `cns-w-${++n}`;

describe(WindowRepository.name, () => {
  it('takes every window or none, and answers each window use before the take', async () => {
    const tenant = mintTenantId('tnt-all');
    const a = need({ rule_id: 'rul-a', max: 2 });
    const b = need({ rule_id: 'rul-b', max: 1 });
    await at(0);
    expect(await repo.take(tenant, cns(), [a, b], [])).toEqual({ taken: true, used_before: [0, 0] });
    // b is full: neither window is consumed.
    expect(await repo.take(tenant, cns(), [a, b], [])).toEqual({ taken: false, used_before: [1, 1] });
    expect(await repo.peek(tenant, [a, b])).toEqual([1, 1]);
    // a alone still fits once.
    expect(await repo.take(tenant, cns(), [a], [])).toEqual({ taken: true, used_before: [1] });
    expect(await repo.take(tenant, cns(), [a], [])).toEqual({ taken: false, used_before: [2] });
    // Another tenant's window of the same rule and key is its own.
    expect(await repo.take(mintTenantId('tnt-other'), cns(), [a, b], [])).toEqual({ taken: true, used_before: [0, 0] });
  });

  it('sums amounts up to max inclusive and refuses what would pass it', async () => {
    const tenant = mintTenantId('tnt-sum');
    const sum = (amount: number) => need({ rule_id: 'rul-sum', amount, max: 100 });
    await at(0);
    expect((await repo.take(tenant, cns(), [sum(60.5)], [])).taken).toBe(true);
    expect((await repo.take(tenant, cns(), [sum(39.6)], [])).taken).toBe(false);
    expect(await repo.take(tenant, cns(), [sum(39.5)], [])).toEqual({ taken: true, used_before: [60.5] });
    expect(await repo.take(tenant, cns(), [sum(0)], [])).toEqual({ taken: true, used_before: [100] });
    expect(await repo.peek(tenant, [sum(0)])).toEqual([100]);
  });

  it("takes a forced need (the gateway's max for a neutralised rule) whatever its window holds, the others still all or nothing", async () => {
    const tenant = mintTenantId('tnt-forced');
    const sum = (amount: number, over: Partial<WindowNeed> = {}) => need({ rule_id: 'rul-forced', amount, max: 100, ...over });
    const forced = (amount: number) => storeNeeds([sum(amount, { forced: true })])[0];
    const rate = need({ rule_id: 'rul-rate', max: 2 });
    await at(0);
    expect(forced(1).max).toBe(FORCED_MAX);
    expect(await repo.take(tenant, cns(), [sum(90)], [])).toEqual({ taken: true, used_before: [0] });
    expect(await repo.take(tenant, cns(), [sum(500)], [])).toEqual({ taken: false, used_before: [90] });
    expect(await repo.take(tenant, cns(), [forced(500), rate], [])).toEqual({ taken: true, used_before: [90, 0] });
    expect(await repo.take(tenant, cns(), [forced(1e15), rate], [])).toEqual({ taken: true, used_before: [590, 1] });
    // The rate is full: nothing is taken, the forced window included.
    expect(await repo.take(tenant, cns(), [forced(10), rate], [])).toEqual({ taken: false, used_before: [1e15 + 590, 2] });
    expect(await repo.peek(tenant, [sum(0)])).toEqual([1e15 + 590]);
    expect(await repo.take(tenant, cns(), [sum(10)], [])).toEqual({ taken: false, used_before: [1e15 + 590] });
  });

  it('lets an event leave exactly one window after it happened (now - window < at), to the microsecond', async () => {
    const tenant = mintTenantId('tnt-edge');
    const w = need({ rule_id: 'rul-edge', window: '90s', window_ms: 90_000, max: 1 });
    await at(0, 5);
    expect((await repo.take(tenant, cns(), [w], [])).taken).toBe(true);
    await at(90_000, 4); // one microsecond before the event has been in for a whole window
    expect(await repo.peek(tenant, [w])).toEqual([1]);
    expect(await repo.take(tenant, cns(), [w], [])).toEqual({ taken: false, used_before: [1] });
    await at(90_000, 5); // exactly one window later: it has left
    expect(await repo.peek(tenant, [w])).toEqual([0]);
    expect(await repo.take(tenant, cns(), [w], [])).toEqual({ taken: true, used_before: [0] });
  });

  it('slides: each event leaves on its own, the running total following the naive sum', async () => {
    const tenant = mintTenantId('tnt-slide');
    const w = (amount: number) => need({ rule_id: 'rul-slide', window: '1m', window_ms: 60_000, amount, max: 10 });
    const events: [number, number][] = [
      [0, 4],
      [20_000, 3],
      [40_000, 2],
    ];
    for (const [t, amount] of events) {
      await at(t);
      expect((await repo.take(tenant, cns(), [w(amount)], [])).taken).toBe(true);
    }
    for (const t of [50_000, 60_000, 70_000, 80_000, 99_999, 100_000, 130_000]) {
      await at(t);
      const live = events.filter(([e]) => t - 60_000 < e).reduce((s, [, a]) => s + a, 0);
      expect(await repo.take(tenant, cns(), [w(0)], [])).toEqual({ taken: true, used_before: [live] });
    }
  });

  it('gives a consultation back once, and an event that already left its window changes nothing', async () => {
    const tenant = mintTenantId('tnt-back');
    const w = need({ rule_id: 'rul-back', max: 2 });
    const short = need({ rule_id: 'rul-short', window: '10s', window_ms: 10_000, max: 5 });
    await at(0);
    const first = cns();
    expect((await repo.take(tenant, first, [w, short], [{ action: 'review', key: '{}', keep_ms: 3_600_000 }])).taken).toBe(true);
    expect((await repo.take(tenant, cns(), [w], [])).taken).toBe(true);
    expect((await repo.take(tenant, cns(), [w], [])).taken).toBe(false);
    await at(20_000); // the short window's event has left
    expect(await repo.priors(tenant, [prior('review')])).toEqual([true]);
    expect(await repo.giveBack(tenant, first)).toEqual([{ rule_id: 'rul-back', key: '{}', window: '1h', amount: 1 }]);
    expect(await repo.giveBack(tenant, first)).toEqual([]);
    expect(await repo.peek(tenant, [w, short])).toEqual([1, 0]);
    expect(await repo.priors(tenant, [prior('review')])).toEqual([false]);
    expect(await repo.take(tenant, cns(), [w], [])).toEqual({ taken: true, used_before: [1] });
    // The short window's total stays right after the give-back of an event it had expired.
    expect(await repo.take(tenant, cns(), [short], [])).toEqual({ taken: true, used_before: [0] });
  });

  it('finds a mark of the action on the same key within the period only', async () => {
    const tenant = mintTenantId('tnt-prior');
    await at(0);
    await repo.take(tenant, cns(), [], [{ action: 'review', key: '{"parameters.order_id":"o-1"}', keep_ms: 3_600_000 }]);
    await at(3_599_999);
    expect(
      await repo.priors(tenant, [
        prior('review', '{"parameters.order_id":"o-1"}'),
        prior('review', '{"parameters.order_id":"o-2"}'),
        prior('refund', '{"parameters.order_id":"o-1"}'),
      ]),
    ).toEqual([true, false, false]);
    expect(await repo.priors(mintTenantId('tnt-elsewhere'), [prior('review', '{"parameters.order_id":"o-1"}')])).toEqual([false]);
    await at(3_600_000);
    expect(await repo.priors(tenant, [prior('review', '{"parameters.order_id":"o-1"}')])).toEqual([false]);
  });

  it('rebuilds a window whose length changed from the events still in it', async () => {
    const tenant = mintTenantId('tnt-len');
    const hour = need({ rule_id: 'rul-len', max: 10 });
    const minute = need({ rule_id: 'rul-len', window: '1m', window_ms: 60_000, max: 10 });
    await at(0);
    await repo.take(tenant, cns(), [hour], []);
    await at(120_000);
    await repo.take(tenant, cns(), [hour], []);
    await at(150_000);
    expect(await repo.take(tenant, cns(), [minute], [])).toEqual({ taken: true, used_before: [1] });
    expect(await repo.take(tenant, cns(), [hour], [])).toEqual({ taken: true, used_before: [3] });
  });

  it('prunes idle totals and events past expires_at without changing any window', async () => {
    const tenant = mintTenantId('tnt-prune');
    const w = need({ rule_id: 'rul-prune', window: '1m', window_ms: 60_000, max: 5 });
    await at(-30 * 86_400_000);
    await repo.take(tenant, cns(), [w], [{ action: 'old', key: '{}', keep_ms: 60_000 }]);
    await at(0);
    await repo.take(tenant, cns(), [w], []);
    const before = await count(tenant);
    let pruned = { totals: 0, events: 0 };
    for (let r = await repo.pruneAnyTenant(1); r.totals + r.events > 0; r = await repo.pruneAnyTenant(1))
      pruned = { totals: pruned.totals + r.totals, events: pruned.events + r.events };
    expect(pruned.events).toBeGreaterThanOrEqual(2);
    expect(await count(tenant)).toBe(before - 2);
    expect(await repo.take(tenant, cns(), [w], [])).toEqual({ taken: true, used_before: [1] });
  });

  it('fails when the window is locked past the timeout, and leaves it as it was', async () => {
    const tenant = mintTenantId('tnt-lock');
    const w = need({ rule_id: 'rul-lock', max: 5 });
    await repo.take(tenant, cns(), [w], []);
    const other = createPool({ url: db.url, max: 1 });
    const holder = await other.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM window_totals WHERE tenant_id = $1 FOR UPDATE`, [tenant]);
      const fast = createPool({ url: db.url, max: 1, timeoutMs: 200 });
      await expect(new WindowRepository(fast).take(tenant, cns(), [w], [])).rejects.toThrow(/timeout/);
      await fast.end();
      await holder.query('ROLLBACK');
    } finally {
      holder.release();
      await other.end();
    }
    expect(await repo.peek(tenant, [w])).toEqual([1]);
  });

  it('never takes a window past max under concurrent takes on many connections, and gives back exactly what was taken', async () => {
    const tenant = mintTenantId('tnt-race');
    const many = createPool({ url: db.url, max: 8, timeoutMs: 10_000 });
    try {
      const racing = new WindowRepository(many);
      const w = need({ rule_id: 'rul-race', max: 25 });
      const other = need({ rule_id: 'rul-race-2', max: 1000 });
      const ids = Array.from({ length: 100 }, () => cns());
      const results = await Promise.all(ids.map((id) => racing.take(tenant, id, [other, w], [])));
      expect(results.filter((r) => r.taken)).toHaveLength(25);
      expect(await racing.peek(tenant, [w, other])).toEqual([25, 25]);
      // Every use a take saw was one the window really held before it: the takes were serialised.
      expect(
        results
          .filter((r) => r.taken)
          .map((r) => r.used_before[1])
          .sort((a, b) => a - b),
      ).toEqual(Array.from({ length: 25 }, (_, i) => i));
      await Promise.all(ids.map((id) => racing.giveBack(tenant, id)));
      expect(await racing.peek(tenant, [w, other])).toEqual([0, 0]);
    } finally {
      await many.end();
    }
  });

  describe('gathered takes', () => {
    /** A repository on its own pool that reports each batch's size; the first take goes out alone, the next ones queue behind it. */
    const gathering = (timeoutMs = 10_000, max = 2) => {
      const own = createPool({ url: db.url, max, timeoutMs });
      const sizes: number[] = [];
      return { own, sizes, repo: new WindowRepository(own, { onBatch: (size) => sizes.push(size) }) };
    };

    it('decides the takes of one batch in arrival order, each all or nothing, tenants apart', async () => {
      const { own, sizes, repo: batched } = gathering();
      try {
        const tenant = mintTenantId('tnt-batch-order');
        const elsewhere = mintTenantId('tnt-batch-else');
        const w = need({ rule_id: 'rul-batch', max: 2 });
        const other = need({ rule_id: 'rul-batch-2', max: 10 });
        const first = batched.take(tenant, cns(), [other], []);
        const results = await Promise.all([
          batched.take(tenant, cns(), [w], []),
          batched.take(tenant, cns(), [other, w], [{ action: 'pay', key: '{}', keep_ms: 3_600_000 }]),
          batched.take(elsewhere, cns(), [w], []),
          batched.take(tenant, cns(), [w, other], [{ action: 'ship', key: '{}', keep_ms: 3_600_000 }]),
          batched.take(tenant, cns(), [other], []),
        ]);
        expect(await first).toEqual({ taken: true, used_before: [0] });
        expect(sizes).toEqual([1, 5]);
        expect(results).toEqual([
          { taken: true, used_before: [0] },
          { taken: true, used_before: [1, 1] },
          { taken: true, used_before: [0] },
          // w is full: neither window is consumed, and its mark is not left.
          { taken: false, used_before: [2, 2] },
          { taken: true, used_before: [2] },
        ]);
        expect(await batched.peek(tenant, [w, other])).toEqual([2, 3]);
        expect(await batched.peek(elsewhere, [w, other])).toEqual([1, 0]);
        expect(await batched.priors(tenant, [prior('pay'), prior('ship')])).toEqual([true, false]);
      } finally {
        await own.end();
      }
    });

    it('reads the events an earlier take of the batch kept when a later one rebuilds the window', async () => {
      const { own, sizes, repo: batched } = gathering();
      try {
        const tenant = mintTenantId('tnt-batch-len');
        const hour = need({ rule_id: 'rul-batch-len', max: 10 });
        const minute = need({ rule_id: 'rul-batch-len', window: '1m', window_ms: 60_000, max: 10 });
        const first = batched.take(tenant, cns(), [need({ rule_id: 'rul-batch-len-first' })], []);
        const results = await Promise.all([
          batched.take(tenant, cns(), [hour], []),
          batched.take(tenant, cns(), [minute], []),
          batched.take(tenant, cns(), [hour], []),
        ]);
        await first;
        expect(sizes).toEqual([1, 3]);
        expect(results.map((r) => r.used_before)).toEqual([[0], [1], [2]]);
        expect(await batched.peek(tenant, [hour])).toEqual([3]);
      } finally {
        await own.end();
      }
    });

    it('lets an event an earlier take of the batch kept leave the window of a later take at a later time', async () => {
      // One connection, so that the clock pinned on it holds for the batches.
      const { own, sizes, repo: batched } = gathering(10_000, 1);
      const pin = (ms: number) => own.query(`SELECT set_config('arbiter.window_now', $1, false)`, [new Date(T0 + ms).toISOString()]);
      try {
        const tenant = mintTenantId('tnt-batch-leave');
        const short = need({ rule_id: 'rul-batch-short', window: '2s', window_ms: 2_000, max: 10 });
        const hour = need({ rule_id: 'rul-batch-hour', max: 10 });
        await pin(10_000);
        expect(await batched.take(tenant, cns(), [hour], [])).toEqual({ taken: true, used_before: [0] });
        // PostgreSQL's clock steps back 5 s: an operation on `hour` still takes at 10 s, one on `short` alone at 5 s.
        await pin(5_000);
        sizes.length = 0;
        const first = batched.take(tenant, cns(), [need({ rule_id: 'rul-batch-other' })], []);
        const [alone, both] = await Promise.all([batched.take(tenant, cns(), [short], []), batched.take(tenant, cns(), [short, hour], [])]);
        await first;
        expect(sizes).toEqual([1, 2]);
        expect(alone).toEqual({ taken: true, used_before: [0] });
        // At 10 s the event taken at 5 s by the same batch has left the 2 s window.
        expect(both).toEqual({ taken: true, used_before: [0, 1] });
        await pin(10_000);
        expect(await batched.peek(tenant, [short, hour])).toEqual([1, 2]);
      } finally {
        await own.query(`SELECT set_config('arbiter.window_now', '', false)`);
        await own.end();
      }
    });

    it('fails every take of a batch that fails, and consumes nothing of it', async () => {
      const tenant = mintTenantId('tnt-batch-fail');
      const locked = need({ rule_id: 'rul-batch-locked', max: 5 });
      const free = need({ rule_id: 'rul-batch-free', max: 5 });
      await repo.take(tenant, cns(), [locked], []);
      const { own, sizes, repo: batched } = gathering(200);
      const other = createPool({ url: db.url, max: 1 });
      const holder = await other.connect();
      try {
        await holder.query('BEGIN');
        await holder.query(`SELECT 1 FROM window_totals WHERE tenant_id = $1 AND window_key LIKE 'limit rul-batch-locked %' FOR UPDATE`, [
          tenant,
        ]);
        const first = batched.take(tenant, cns(), [need({ rule_id: 'rul-batch-before' })], []);
        const results = await Promise.allSettled([
          batched.take(tenant, cns(), [free], []),
          batched.take(tenant, cns(), [locked], []),
          batched.take(mintTenantId('tnt-batch-fail-2'), cns(), [free], [{ action: 'pay', key: '{}', keep_ms: 3_600_000 }]),
        ]);
        expect((await first).taken).toBe(true);
        expect(sizes).toEqual([1, 3]);
        expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
        await holder.query('ROLLBACK');
      } finally {
        holder.release();
        await other.end();
        await own.end();
      }
      expect(await repo.peek(tenant, [free, locked])).toEqual([0, 1]);
      expect(await repo.peek(mintTenantId('tnt-batch-fail-2'), [free])).toEqual([0]);
      expect(await repo.priors(mintTenantId('tnt-batch-fail-2'), [prior('pay')])).toEqual([false]);
    });

    it('gathers the peeks in flight into one call apart from the takes, tenants apart', async () => {
      const { own, sizes, repo: batched } = gathering();
      try {
        const [tenant, elsewhere] = ['tnt-batch-peek', 'tnt-batch-peek-else'].map((id) => mintTenantId(id));
        const [w, other] = ['rul-batch-peek', 'rul-batch-peek-2'].map((rule_id) => need({ rule_id, max: 5 }));
        await batched.take(tenant, cns(), [w], []);
        await batched.take(elsewhere, cns(), [w, other], []);
        sizes.length = 0;
        const query = jest.spyOn(own, 'query');
        const first = batched.peek(tenant, [w]);
        const [peekA, peekB, peekElsewhere] = await Promise.all([
          batched.peek(tenant, [w, other]),
          batched.peek(tenant, [other]),
          batched.peek(elsewhere, [other, w]),
        ]);
        expect(await first).toEqual([1]);
        // Two calls: the first peek alone, then the three others together; no take.
        expect(query).toHaveBeenCalledTimes(2);
        expect(sizes).toEqual([]);
        expect(peekA).toEqual([1, 0]);
        expect(peekB).toEqual([0]);
        expect(peekElsewhere).toEqual([1, 1]);
        query.mockClear();
        const [taken, peeked] = await Promise.all([batched.take(tenant, cns(), [w, other], []), batched.peek(tenant, [w, other])]);
        // A take and a peek in flight at once go out as two calls, neither waiting for the other.
        expect(query).toHaveBeenCalledTimes(2);
        expect(taken).toEqual({ taken: true, used_before: [1, 0] });
        expect([
          [1, 0],
          [2, 1],
        ]).toContainEqual(peeked);
        expect(await batched.peek(tenant, [w, other])).toEqual([2, 1]);
      } finally {
        await own.end();
      }
    });

    it('writes nothing for a batch of peeks alone, and reads a window it has never seen as empty', async () => {
      const tenant = mintTenantId('tnt-batch-peek-only');
      const w = need({ rule_id: 'rul-batch-peek-only', max: 5 });
      const before = await pool.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
      expect(await Promise.all([repo.peek(tenant, [w]), repo.peek(tenant, [w, need({ rule_id: 'rul-batch-peek-only-2' })])])).toEqual([
        [0],
        [0, 0],
      ]);
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM window_totals WHERE tenant_id = $1', [tenant]);
      expect(rows[0].n).toBe(0);
      expect(await count(tenant)).toBe(0);
      const after = await pool.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
      expect(after.rows[0].lsn).toBe(before.rows[0].lsn);
    });

    it('fails every peek of a batch when the store cannot be read (their rules fire closed)', async () => {
      const tenant = mintTenantId('tnt-batch-peek-fail');
      const w = need({ rule_id: 'rul-batch-peek-fail', max: 5 });
      await repo.take(tenant, cns(), [w], []);
      const url = new URL(db.url);
      url.port = '1'; // nothing listens there: every connection is refused
      const nowhere = createPool({ url: url.toString(), max: 1, timeoutMs: 200 });
      try {
        const unreadable = new WindowRepository(nowhere);
        const results = await Promise.allSettled([
          unreadable.peek(tenant, [w]),
          unreadable.peek(tenant, [w]),
          unreadable.peek(tenant, [w]),
        ]);
        expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
      } finally {
        await nowhere.end();
      }
      expect(await repo.peek(tenant, [w])).toEqual([1]);
    });

    it('refuses an amount that is negative or not a number, a max that is not a number and a window length that is not whole, before any batch', async () => {
      const tenant = mintTenantId('tnt-batch-bad');
      const w = need({ rule_id: 'rul-batch-bad', max: 5 });
      await expect(repo.take(tenant, cns(), [{ ...w, amount: -1 }], [])).rejects.toThrow(/amount/);
      await expect(repo.take(tenant, cns(), [{ ...w, amount: Number.NaN }], [])).rejects.toThrow(/amount/);
      await expect(repo.take(tenant, cns(), [{ ...w, max: Number.POSITIVE_INFINITY }], [])).rejects.toThrow(/max/);
      // A window length the database would refuse as a bigint would fail a whole batch, other tenants' operations with it.
      await expect(repo.take(tenant, cns(), [{ ...w, window_ms: 1.5 }], [])).rejects.toThrow(/window_ms/);
      await expect(repo.peek(tenant, [{ ...w, window_ms: 1.5 }])).rejects.toThrow(/window_ms/);
      await expect(repo.peek(tenant, [{ ...w, window_ms: 0 }])).rejects.toThrow(/window_ms/);
      expect(await repo.peek(tenant, [w])).toEqual([0]);
    });

    it('never takes past max and never deadlocks when two gateways batch takes of overlapping windows in opposite orders', async () => {
      const a = gathering(10_000, 1);
      const b = gathering(10_000, 1);
      try {
        const tenants = [mintTenantId('tnt-batch-race-1'), mintTenantId('tnt-batch-race-2')];
        const x = need({ rule_id: 'rul-race-x', max: 30 });
        const y = need({ rule_id: 'rul-race-y', max: 45 });
        const z = need({ rule_id: 'rul-race-z', max: 1000 });
        const orders = [[x, y, z], [z, y, x], [y, x], [z, x], [y]];
        const runs = Array.from({ length: 400 }, (_, i) => {
          const gateway = i % 2 === 0 ? a.repo : b.repo;
          const needs = orders[i % orders.length];
          const tenant = tenants[Math.floor(i / 2) % 2];
          return gateway.take(tenant, cns(), needs, []).then((r) => ({ tenant, needs, r }));
        });
        const done = await Promise.all(runs);
        expect(a.sizes.length + b.sizes.length).toBeLessThan(400);
        for (const tenant of tenants) {
          const mine = done.filter((d) => d.tenant === tenant && d.r.taken);
          const usedOf = (w: WindowNeed) => mine.filter((d) => d.needs.includes(w)).length;
          expect(usedOf(x)).toBe(30);
          expect(usedOf(y)).toBe(45);
          expect(await repo.peek(tenant, [x, y, z])).toEqual([30, 45, usedOf(z)]);
          // Each window's uses seen by the takes that took it are 0, 1, 2, ...: serialised, none lost.
          for (const w of [x, y, z]) {
            const seen = mine
              .filter((d) => d.needs.includes(w))
              .map((d) => d.r.used_before[d.needs.indexOf(w)])
              .sort((p, q) => p - q);
            expect(seen).toEqual(Array.from({ length: usedOf(w) }, (_, i) => i));
          }
        }
      } finally {
        await a.own.end();
        await b.own.end();
      }
    });

    it("reads and writes only its batch's windows, each by its key, however many windows there are", async () => {
      // One connection: the statistics of the batches' server process are flushed on demand before they are read.
      const { own, sizes, repo: batched } = gathering(10_000, 1);
      const scansOfTotals = async () => {
        await own.query('SELECT pg_stat_force_next_flush()'); // flushed when that connection goes idle, before it answers
        const { rows } = await pool.query<{ seq_scan: string }>(`SELECT seq_scan FROM pg_stat_user_tables WHERE relname = 'window_totals'`);
        return Number(rows[0].seq_scan);
      };
      try {
        const tenant = mintTenantId('tnt-batch-by-key');
        // Two thousand windows of one tenant, their table analysed as autovacuum would.
        const many = Array.from({ length: 2_000 }, (_, i) => need({ rule_id: `rul-many-${i}`, max: 5 }));
        expect((await batched.take(tenant, cns(), many, [])).taken).toBe(true);
        await pool.query('ANALYZE window_totals');
        const before = await scansOfTotals();
        sizes.length = 0;
        const [w, other] = [many[7], many[1_500]];
        const first = batched.take(tenant, cns(), [w], []);
        const takes = await Promise.all([
          batched.take(tenant, cns(), [w, other], []),
          batched.take(tenant, cns(), [other], []),
          batched.take(tenant, cns(), [need({ rule_id: 'rul-many-new', max: 5 })], []),
        ]);
        const [peekFirst, ...peeks] = await Promise.all([
          batched.peek(tenant, [w]),
          batched.peek(tenant, [other, w]),
          batched.peek(tenant, [many[3]]),
        ]);
        expect(await first).toEqual({ taken: true, used_before: [1] });
        expect(sizes).toEqual([1, 3]);
        expect(takes).toEqual([
          { taken: true, used_before: [2, 1] },
          { taken: true, used_before: [2] },
          { taken: true, used_before: [0] },
        ]);
        expect([peekFirst, ...peeks]).toEqual([[3], [3, 3], [1]]);
        // Not one scan of the whole window_totals table: each row was found by its primary key.
        expect((await scansOfTotals()) - before).toBe(0);
      } finally {
        await own.end();
      }
    });
  });

  it('records an outcome once: executed false gives back, the same report answers the same', async () => {
    const tenant = mintTenantId('tnt-outcome');
    const w = need({ rule_id: 'rul-out', max: 1 });
    const id = cns();
    await repo.take(tenant, id, [w], []);
    const first = await repo.reportOutcome(tenant, id, false);
    expect(first.created).toBe(true);
    expect(first.outcome.given_back).toEqual([{ rule_id: 'rul-out', key: '{}', window: '1h', amount: 1 }]);
    const again = await repo.reportOutcome(tenant, id, false);
    expect(again).toEqual({ created: false, outcome: first.outcome });
    expect((await repo.reportOutcome(tenant, id, true)).outcome.executed).toBe(false);
    expect(await repo.peek(tenant, [w])).toEqual([0]);
    expect(await repo.findOutcome(mintTenantId('tnt-x'), id)).toBeNull();
  });
});

function prior(action: string, key = '{}') {
  return { rule_id: 'rul-p', rule_version_id: 'rv-p', action, key, within: '1h', within_ms: 3_600_000 };
}

async function count(tenant: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM window_events WHERE tenant_id = $1', [tenant]);
  return rows[0].n;
}
