import fc from 'fast-check';
import type { Pool } from 'pg';
import { mintTenantId } from '@arbiter/auth';
import { testPool } from '@arbiter/testing';
import { WindowLedger, type PriorNeed, type WindowNeed } from '@arbiter/policy';
import { WindowRepository } from '../../apps/verdict/src/repositories/windows.repository';
import { startStack, type Stack } from './stack';

jest.setTimeout(240_000);

// The gateway's window store (docs/verdicts.md "Windows and outcomes") against the engine's in-memory model,
// WindowLedger (docs/verdicts.md "Budgets, rates and sequences"), on real PostgreSQL: random sequences of takes,
// give-backs, peeks and prior look-ups at controlled times must give the same answers from both, step by step.
//
// Time: the store reads PostgreSQL's clock through window_now(), which a session may pin with
// `arbiter.window_now`; this test pins it before every step (one connection, so the setting holds for the
// step's statement) and gives the model the same millisecond. So the comparison is exact, not only of
// order-independent invariants: each step's answer, including the boundary `now - window < t` (times step
// by 0 ms, 1 ms and whole windows, so events land exactly one window old).

const START = Date.parse('2026-01-01T00:00:00.000Z');

/** The rules of the sequences: a count and a sum, two windows (one shared length), and the priors' actions. */
const RULES = {
  count: { rule_id: 'rul-count', rule_version_id: 'rv-count', window: '10s', window_ms: 10_000, max: 4 },
  sum: { rule_id: 'rul-sum', rule_version_id: 'rv-sum', window: '7s', window_ms: 7_000, max: 100 },
};
const KEYS = ['{}', '{"principal":"agn-1"}', '{"principal":"agn-2"}'];
const ACTIONS = ['orders.review', 'orders.cancel'];
/** The marks are kept longer than any `within` looked up. */
const KEEP_MS = 60_000;

type Step =
  | { kind: 'wait'; ms: number }
  | { kind: 'take'; count: number | null; sum: { key: number; amount: number } | null; marks: Array<{ action: number; key: number }> }
  | { kind: 'peek'; count: number | null; sum: number | null }
  | { kind: 'priors'; needs: Array<{ action: number; key: number; within_ms: number }> }
  | { kind: 'giveBack'; which: number };

const key = fc.integer({ min: 0, max: KEYS.length - 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.constantFrom(0, 1, 999, 1_000, 2_500, 7_000, 10_000) }) },
  {
    weight: 6,
    arbitrary: fc
      .record({
        kind: fc.constant('take' as const),
        count: fc.option(key, { nil: null }),
        // Amounts with cents (exact decimals on both sides) and zero.
        sum: fc.option(
          fc.record({
            key,
            amount: fc.oneof(
              fc.integer({ min: 0, max: 60 }),
              fc.integer({ min: 1, max: 6000 }).map((c) => c / 100),
            ),
          }),
          {
            nil: null,
          },
        ),
        marks: fc.uniqueArray(fc.record({ action: fc.integer({ min: 0, max: ACTIONS.length - 1 }), key }), {
          maxLength: 2,
          selector: (m) => `${m.action} ${m.key}`,
        }),
      })
      .filter((t) => t.count !== null || t.sum !== null || t.marks.length > 0),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('peek' as const), count: fc.option(key, { nil: null }), sum: fc.option(key, { nil: null }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('priors' as const),
      needs: fc.array(
        fc.record({ action: fc.integer({ min: 0, max: ACTIONS.length - 1 }), key, within_ms: fc.constantFrom(1_000, 5_000, 10_000) }),
        { minLength: 1, maxLength: 2 },
      ),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('giveBack' as const), which: fc.nat() }) },
);

const countNeed = (k: number): WindowNeed => ({ ...RULES.count, key: KEYS[k], amount: 1 });
const sumNeed = (k: number, amount: number): WindowNeed => ({ ...RULES.sum, key: KEYS[k], amount });
const priorNeed = (n: { action: number; key: number; within_ms: number }): PriorNeed => ({
  rule_id: `rul-prior-${n.action}-${n.within_ms}`,
  rule_version_id: 'rv-prior',
  action: ACTIONS[n.action],
  key: KEYS[n.key],
  within: `${n.within_ms / 1000}s`,
  within_ms: n.within_ms,
});

describe('WindowRepository against WindowLedger', () => {
  let stack: Stack;
  let pool: Pool;
  let sut: WindowRepository;
  let run = 0;

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
    // One connection: the pinned clock of a step and its statement share a session.
    pool = testPool(stack.databaseUrl('verdict'), 1);
    sut = new WindowRepository(pool);
  });
  afterAll(async () => {
    await pool.end();
    await stack.stop();
  });

  it('answers every take, peek, prior look-up and give-back as the model does, at the same times', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 40 }), async (steps) => {
        // A tenant per sequence: the store's rows of earlier sequences are another tenant's, never read.
        const tenant = mintTenantId(`ten-model-${++run}-${Date.now()}`);
        const model = new WindowLedger();
        const taken: string[] = [];
        let now = START;
        const at = async () => pool.query("SELECT set_config('arbiter.window_now', $1, false)", [new Date(now).toISOString()]);
        for (const [i, s] of steps.entries()) {
          const where = `step ${i} (${JSON.stringify(s)}) at +${now - START} ms`;
          if (s.kind === 'wait') {
            now += s.ms;
          } else if (s.kind === 'take') {
            const needs = [...(s.count !== null ? [countNeed(s.count)] : []), ...(s.sum ? [sumNeed(s.sum.key, s.sum.amount)] : [])];
            const marks = s.marks.map((m) => ({ action: ACTIONS[m.action], key: KEYS[m.key] }));
            const id = `csl-${run}-${i}`;
            await at();
            const got = await sut.take(
              tenant,
              id,
              needs,
              marks.map((m) => ({ ...m, keep_ms: KEEP_MS })),
            );
            const want = model.take(id, needs, marks, now);
            expect({ where, ...got }).toEqual({ where, ...want });
            if (want.taken) taken.push(id);
          } else if (s.kind === 'peek') {
            const needs = [...(s.count !== null ? [countNeed(s.count)] : []), ...(s.sum !== null ? [sumNeed(s.sum, 0)] : [])];
            await at();
            expect({ where, used: await sut.peek(tenant, needs) }).toEqual({ where, used: model.peek(needs, now) });
          } else if (s.kind === 'priors') {
            const needs = s.needs.map(priorNeed);
            await at();
            expect({ where, found: await sut.priors(tenant, needs) }).toEqual({ where, found: model.priors(needs, now) });
          } else if (taken.length > 0) {
            // A give-back of a consultation that took something (some of them a second time: once only).
            const id = taken[s.which % taken.length];
            await at();
            // Amounts of 0 left out on both sides: the store answers a zero-amount event still in its window as
            // given back (0), the model does not; either way nothing changes in the window.
            const order = (l: Array<{ rule_id: string; key: string; amount: number }>) =>
              l.filter((g) => g.amount !== 0).sort((a, b) => `${a.rule_id} ${a.key}`.localeCompare(`${b.rule_id} ${b.key}`));
            const got = order(await sut.giveBack(tenant, id));
            const want = order(model.giveBack(id, now));
            expect({ where, given_back: got }).toEqual({ where, given_back: want });
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
