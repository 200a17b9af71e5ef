// Property tests of the window arithmetic (fast-check) against a naive model that keeps every event and
// sums the live ones at each question: the running total with its expiry cursor (running-window.ts), the
// exact decimals under it, and the ledger's all-or-nothing take (window-ledger.ts).
import fc from 'fast-check';
import { compare, decimalOf, minus, plus, toNumber } from './decimal';
import { RunningWindow } from './running-window';
import { WindowLedger } from './window-ledger';
import type { PriorMark, PriorNeed, WindowNeed } from './window-rules';

/** Amounts in thousandths, so that the model sums integers (BigInt) and never rounds. */
const thousandths = fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.constantFrom(0, 1, 100, 200, 300, 1_000_000_000));
const asAmount = (t: number): number => t / 1000;

/** The model: every event, live iff now - window < at and not given back. */
class NaiveWindow {
  readonly events: { at: number; thousandths: bigint; id: string; givenBack: boolean; forced?: boolean }[] = [];
  now = -Infinity;
  constructor(readonly windowMs: number) {}
  at(t: number): number {
    this.now = Math.max(this.now, t);
    return this.now;
  }
  /** The live events' sum: of one consultation's when `id` is given; of the unforced ones only when `unforced`. */
  live(id?: string, unforced = false): bigint {
    let sum = 0n;
    for (const e of this.events)
      if (this.now - this.windowMs < e.at && !e.givenBack && (id === undefined || e.id === id) && !(unforced && e.forced))
        sum += e.thousandths;
    return sum;
  }
}

const usedOf = (t: bigint): number => Number(t) / 1000;

type Op =
  { kind: 'add'; dt: number; amount: number; id: number } | { kind: 'giveBack'; dt: number; id: number } | { kind: 'advance'; dt: number };

const WINDOW = 1_000;
/** Steps of time, events exactly one window old among them; negative steps test that the clock never goes back. */
const dt = fc.oneof(fc.constantFrom(0, 1, WINDOW - 1, WINDOW, WINDOW + 1, -1, -WINDOW), fc.integer({ min: 0, max: 3 * WINDOW }));
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('add' as const), dt, amount: thousandths, id: fc.integer({ min: 0, max: 6 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('giveBack' as const), dt, id: fc.integer({ min: 0, max: 6 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), dt }) },
);

describe('decimal', () => {
  const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
  it('reads a number as its shortest decimal and gives it back unchanged', () => {
    fc.assert(fc.property(finite, (x) => toNumber(decimalOf(x)) === x));
  });
  it('adds and subtracts exactly: (a + b) - b is a, and 0.1 + 0.2 is 0.3', () => {
    fc.assert(fc.property(finite, finite, (a, b) => compare(minus(plus(decimalOf(a), decimalOf(b)), decimalOf(b)), decimalOf(a)) === 0));
    expect(compare(plus(decimalOf(0.1), decimalOf(0.2)), decimalOf(0.3))).toBe(0);
  });
  it('orders as the numbers do', () => {
    fc.assert(fc.property(finite, finite, (a, b) => Math.sign(compare(decimalOf(a), decimalOf(b))) === Math.sign(a - b)));
  });
  it('sums integers as integers do', () => {
    const int = fc.integer({ min: -1e12, max: 1e12 });
    fc.assert(fc.property(int, int, (a, b) => toNumber(plus(decimalOf(a), decimalOf(b))) === a + b));
  });
});

describe(RunningWindow.name, () => {
  it('holds the sum of the live events after every operation', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const sut = new RunningWindow(WINDOW);
        const model = new NaiveWindow(WINDOW);
        let t = 0;
        for (const o of ops) {
          t += o.dt;
          const now = model.at(t);
          if (o.kind === 'add') {
            sut.add(t, asAmount(o.amount), `c${o.id}`);
            model.events.push({ at: now, thousandths: BigInt(o.amount), id: `c${o.id}`, givenBack: false });
          } else if (o.kind === 'giveBack') {
            const expected = model.live(`c${o.id}`);
            for (const e of model.events) if (e.id === `c${o.id}`) e.givenBack = true;
            expect(sut.giveBack(`c${o.id}`, t)).toBe(usedOf(expected));
          } else sut.advance(t);
          expect(sut.used).toBe(usedOf(model.live()));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('lets an event exactly one window old leave, and keeps one a millisecond younger', () => {
    const sut = new RunningWindow(WINDOW);
    sut.add(0, 5, 'a');
    sut.add(1, 7, 'b');
    sut.advance(WINDOW);
    expect(sut.used).toBe(7);
    sut.advance(WINDOW + 1);
    expect(sut.used).toBe(0);
  });

  it('changes nothing when an event that already left is given back', () => {
    const sut = new RunningWindow(WINDOW);
    sut.add(0, 5, 'a');
    sut.add(500, 7, 'b');
    expect(sut.giveBack('a', WINDOW)).toBe(0);
    expect(sut.used).toBe(7);
    expect(sut.giveBack('b', WINDOW)).toBe(7);
    expect(sut.giveBack('b', WINDOW)).toBe(0);
    expect(sut.used).toBe(0);
  });
});

describe(WindowLedger.name, () => {
  /** Three windows of two rules, two keys, different lengths and budgets. */
  const WINDOWS: WindowNeed[] = [
    { rule_id: 'rul-a', rule_version_id: 'rv-a', key: '{}', window: '1s', window_ms: 1_000, amount: 0, max: 3 },
    { rule_id: 'rul-b', rule_version_id: 'rv-b', key: '{"principal":"p1"}', window: '2s', window_ms: 2_000, amount: 0, max: 2.5 },
    { rule_id: 'rul-b', rule_version_id: 'rv-b', key: '{"principal":"p2"}', window: '2s', window_ms: 2_000, amount: 0, max: 2.5 },
  ];
  const MARK: PriorMark = { action: 'orders.review', key: '{"parameters.order_id":"o-1"}' };
  const PRIOR: PriorNeed = {
    rule_id: 'rul-p',
    rule_version_id: 'rv-p',
    action: MARK.action,
    key: MARK.key,
    within: '1s',
    within_ms: 1_000,
  };

  type LedgerOp =
    | { kind: 'take'; dt: number; windows: number[]; amounts: number[]; forced: boolean[]; mark: boolean }
    | { kind: 'giveBack'; dt: number; take: number }
    | { kind: 'peek'; dt: number };
  const ledgerOp: fc.Arbitrary<LedgerOp> = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('take' as const),
        dt,
        windows: fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { minLength: 0, maxLength: 3 }),
        amounts: fc.array(fc.integer({ min: 0, max: 1500 }), { minLength: 3, maxLength: 3 }),
        // A forced need: a neutralised rule's window, consumed whatever it holds.
        forced: fc.array(
          fc.integer({ min: 0, max: 3 }).map((x) => x === 0),
          { minLength: 3, maxLength: 3 },
        ),
        mark: fc.boolean(),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('giveBack' as const), dt, take: fc.nat(40) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('peek' as const), dt }) },
  );

  it('takes all or nothing, past max only through forced needs, and answers priors as the model does', () => {
    fc.assert(
      fc.property(fc.array(ledgerOp, { maxLength: 60 }), (ops) => {
        const sut = new WindowLedger();
        const models = WINDOWS.map((w) => new NaiveWindow(w.window_ms));
        const marks: { at: number; id: string; withdrawn: boolean }[] = [];
        let t = 0;
        let takes = 0;
        for (const o of ops) {
          t += o.dt;
          const now = Math.max(...models.map((m) => m.at(t)));
          if (o.kind === 'take') {
            const id = `c${takes++}`;
            const needs: WindowNeed[] = o.windows.map((i) => ({
              ...WINDOWS[i],
              amount: asAmount(o.amounts[i]),
              ...(o.forced[i] ? { forced: true as const } : {}),
            }));
            const before = o.windows.map((i) => models[i].live());
            // A forced need never makes a take fail: only the others are held against their max.
            const fits = o.windows.every(
              (i, k) => o.forced[i] || before[k] + BigInt(o.amounts[i]) <= BigInt(Math.round(WINDOWS[i].max * 1000)),
            );
            const priorBefore = marks.some((m) => !m.withdrawn && now - PRIOR.within_ms < m.at);
            expect(sut.priors([PRIOR], t)).toEqual([priorBefore]);
            const r = sut.take(id, needs, o.mark ? [MARK, MARK] : [], t);
            expect(r).toEqual({ taken: fits, used_before: before.map(usedOf) });
            if (fits) {
              o.windows.forEach((i) =>
                models[i].events.push({ at: now, thousandths: BigInt(o.amounts[i]), id, givenBack: false, forced: o.forced[i] }),
              );
              if (o.mark) marks.push({ at: now, id, withdrawn: false });
            }
          } else if (o.kind === 'giveBack') {
            const id = `c${o.take}`;
            // WINDOWS is in (rule_id, key) order: the order giveBack answers in.
            const expected = WINDOWS.map((w, i) => ({ i, amount: models[i].live(id) })).filter((x) => x.amount > 0n);
            for (const m of models) for (const e of m.events) if (e.id === id) e.givenBack = true;
            for (const m of marks) if (m.id === id) m.withdrawn = true;
            const back = sut.giveBack(id, t);
            expect(back).toEqual(
              expected.map(({ i, amount }) => ({
                amount: usedOf(amount),
                key: WINDOWS[i].key,
                rule_id: WINDOWS[i].rule_id,
                window: WINDOWS[i].window,
              })),
            );
          } else {
            expect(sut.peek(WINDOWS, t)).toEqual(models.map((m) => usedOf(m.live())));
          }
          // The invariant the store guarantees: no window holds more than its max but through forced needs (what
          // was let through by an override, a grant or an approval), so its unforced events alone never do.
          models.forEach((m, i) => {
            const max = BigInt(Math.round(WINDOWS[i].max * 1000));
            expect(m.live(undefined, true)).toBeLessThanOrEqual(max);
            if (m.live() > max) expect(m.events.some((e) => e.forced && m.now - m.windowMs < e.at && !e.givenBack)).toBe(true);
          });
        }
      }),
      { numRuns: 500 },
    );
  });

  it('gives a consultation back once', () => {
    const sut = new WindowLedger();
    const need = { ...WINDOWS[0], amount: 2 };
    expect(sut.take('c1', [need], [MARK], 0)).toEqual({ taken: true, used_before: [0] });
    expect(sut.priors([PRIOR], 1)).toEqual([true]);
    expect(sut.giveBack('c1', 2)).toEqual([{ amount: 2, key: '{}', rule_id: 'rul-a', window: '1s' }]);
    expect(sut.giveBack('c1', 3)).toEqual([]);
    expect(sut.peek([need], 4)).toEqual([0]);
    expect(sut.priors([PRIOR], 5)).toEqual([false]);
  });

  it('finds a mark younger than the period only', () => {
    const sut = new WindowLedger();
    sut.take('c1', [], [MARK], 0);
    expect(sut.priors([PRIOR], 999)).toEqual([true]);
    expect(sut.priors([PRIOR], 1000)).toEqual([false]);
    expect(sut.priors([{ ...PRIOR, key: '{"parameters.order_id":"o-2"}' }], 1000)).toEqual([false]);
  });
});
