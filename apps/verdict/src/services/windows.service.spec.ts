import pino from 'pino';
import { mintTenantId } from '@arbiter/auth';
import {
  compilePolicy,
  evaluate,
  windowPlan,
  WindowLedger,
  type CompleteEvaluation,
  type EngineRule,
  type EvaluationRequest,
  type WindowNeed,
} from '@arbiter/policy';
import type { StoredMark } from '../repositories/windows.repository';
import { FORCED_MAX, WindowsService, type WindowStore } from './windows.service';

const T0 = '2026-01-01T00:00:00Z';
const NOW = Date.parse('2026-06-01T00:00:00Z');
const tenant = mintTenantId('tnt-1');

const rule = (id: string, extra: Partial<EngineRule> = {}): EngineRule => ({
  rule_id: `rul-${id}`,
  rule_version_id: `rv-${id}`,
  selector: {},
  severity: 'MANDATORY',
  version_created_at: T0,
  ...extra,
});
const budget = rule('budget', { limit: { sum: 'parameters.amount', max: 100, window: '1h', by: ['principal'] } });
const flag = rule('flag', { severity: 'ADVISORY', limit: { count: true, max: 1, window: '1h', by: [] } });
const review = rule('review', {
  applies_to: { actions: ['payments.refund'] },
  requires_prior: { action: 'orders.review', within: '2h', same: ['parameters.order_id'] },
});
const marker = rule('marker', {
  applies_to: { actions: ['other'] },
  requires_prior: { action: 'payments.refund', within: '30d', same: ['parameters.order_id'] },
});

const refund = (amount: number): EvaluationRequest => ({
  mode: 'check',
  action: 'payments.refund',
  resource: 'order:o-1',
  scope: {},
  parameters: { amount, order_id: 'o-1' },
  principal: 'agn-1',
});

/**
 * The engine's in-memory ledger as the store (the gateway store's semantics), with faults to inject: an
 * operation that throws, or takes that find every window full as another replica took meanwhile.
 */
class LedgerStore implements WindowStore {
  readonly ledger = new WindowLedger();
  failing = new Set<string>();
  /** Takes left that answer "not taken" with these uses (as if another replica filled the windows meanwhile). */
  raced: number[][] = [];
  takes: WindowNeed[][] = [];
  marks: StoredMark[][] = [];

  private fault(op: string): void {
    if (this.failing.has(op)) throw new Error(`${op} failed`);
  }
  async take(_t: unknown, consultationId: string, needs: readonly WindowNeed[], marks: readonly StoredMark[]) {
    this.fault('take');
    this.takes.push([...needs]);
    this.marks.push([...marks]);
    const raced = this.raced.shift();
    if (raced) return { taken: false, used_before: raced };
    return this.ledger.take(consultationId, needs, marks, NOW);
  }
  async peek(_t: unknown, needs: readonly WindowNeed[]) {
    this.fault('peek');
    return this.ledger.peek(needs, NOW);
  }
  async priors(_t: unknown, needs: Parameters<WindowStore['priors']>[1]) {
    this.fault('priors');
    return this.ledger.priors(needs, NOW);
  }
  async giveBack(_t: unknown, consultationId: string) {
    this.fault('giveBack');
    return this.ledger.giveBack(consultationId, NOW);
  }
}

function setup(
  rules: EngineRule[],
  overrides: Parameters<typeof compilePolicy>[1] = [],
  settings: Parameters<typeof compilePolicy>[2] = {},
) {
  const store = new LedgerStore();
  const sut = new WindowsService(store, pino({ level: 'silent' }));
  const policy = compilePolicy(rules, overrides, settings);
  let n = 0;
  const decide = (req: EvaluationRequest) =>
    sut.decide(tenant, `cns-${++n}`, policy, windowPlan(policy, req, NOW), (states) => evaluate(policy, req, NOW, null, null, states));
  return { store, sut, decide };
}
const traceOf = (r: { precedence_trace: { rule_id: string; limit_state?: string; reason: string }[] }, id: string) =>
  r.precedence_trace.find((e) => e.rule_id === `rul-${id}`);

describe(WindowsService.name, () => {
  it('takes the windows of an operation that goes ahead in one take, and records where they stood', async () => {
    const { store, decide } = setup([budget]);
    const d = await decide(refund(60));
    expect((d.result as CompleteEvaluation).verdict).toBe('allowed');
    expect(d.consumed).toBe(true);
    expect(d.limits).toEqual([
      { key: '{"principal":"agn-1"}', max: 100, rule_id: 'rul-budget', used_after: 60, used_before: 0, window: '1h' },
    ]);
    expect(store.takes).toHaveLength(1);
  });

  it('evaluates again with what a full window held: blocked, nothing consumed, the record says where it stood', async () => {
    const { store, decide } = setup([budget]);
    await decide(refund(60));
    const d = await decide(refund(50));
    const r = d.result as CompleteEvaluation;
    expect(r).toMatchObject({ verdict: 'blocked', dominating_rule_id: 'rul-budget' });
    expect(traceOf(r, 'budget')).toMatchObject({ reason: 'fires', limit_state: 'exceeded' });
    expect(d.consumed).toBe(false);
    expect(d.limits[0]).toMatchObject({ used_before: 60, used_after: 60 });
    expect(store.ledger.peek(store.takes[0], NOW)).toEqual([60]);
  });

  it('takes, in a second round, only the windows that fit when an advisory budget is full (it consumes nothing)', async () => {
    const { store, decide } = setup([budget, flag]);
    await decide(refund(10));
    const d = await decide(refund(10));
    expect((d.result as CompleteEvaluation).verdict).toBe('observe');
    expect(d.consumed).toBe(true);
    expect(store.takes.map((t) => t.map((n) => n.rule_id))).toEqual([
      ['rul-budget', 'rul-flag'],
      ['rul-budget', 'rul-flag'],
      ['rul-budget'],
    ]);
    expect(d.limits.map((l) => [l.rule_id, l.used_before, l.used_after])).toEqual([
      ['rul-budget', 10, 20],
      ['rul-flag', 1, 1],
    ]);
  });

  it("counts an operation a neutralised budget let through: forced to the store, the record with the rule's max", async () => {
    const lifted = [{ id: 'ovr-1', target_rule_ids: ['rul-budget'], applies_to_scope: {}, expires_at: null, type: 'temporary' }];
    const { store, decide } = setup([budget, flag], lifted);
    await decide(refund(90));
    // The advisory count is full now: the second take keeps the forced budget and leaves the flag out.
    const d = await decide(refund(500));
    const r = d.result as CompleteEvaluation;
    expect(r.verdict).toBe('observe');
    expect(traceOf(r, 'budget')).toMatchObject({ reason: 'overridden' });
    expect(d.consumed).toBe(true);
    expect(store.takes.map((t) => t.map((n) => [n.rule_id, n.max, n.forced]))).toEqual([
      [
        ['rul-budget', FORCED_MAX, true],
        ['rul-flag', 1, undefined],
      ],
      [
        ['rul-budget', FORCED_MAX, true],
        ['rul-flag', 1, undefined],
      ],
      [['rul-budget', FORCED_MAX, true]],
    ]);
    expect(d.limits).toEqual([
      { key: '{"principal":"agn-1"}', max: 100, rule_id: 'rul-budget', used_after: 590, used_before: 90, window: '1h' },
      { key: '{}', max: 1, rule_id: 'rul-flag', used_after: 1, used_before: 1, window: '1h' },
    ]);
  });

  it('lets an operation only a neutralised budget counts go ahead uncounted when the take fails (the rule never fires)', async () => {
    const lifted = [{ id: 'ovr-1', target_rule_ids: ['rul-budget'], applies_to_scope: {}, expires_at: null, type: 'temporary' }];
    const { store, decide } = setup([budget], lifted);
    store.failing.add('take');
    const d = await decide(refund(10));
    expect(d.result as CompleteEvaluation).toMatchObject({ verdict: 'allowed' });
    expect(traceOf(d.result as CompleteEvaluation, 'budget')).toMatchObject({ reason: 'overridden' });
    expect(d).toMatchObject({ consumed: false, limits: [] });
  });

  it('consumes nothing of a neutralised budget when the answer does not go ahead', async () => {
    const lifted = [{ id: 'ovr-1', target_rule_ids: ['rul-budget'], applies_to_scope: {}, expires_at: null, type: 'temporary' }];
    const { store, decide } = setup([budget, rule('no', { applies_to: { actions: ['payments.refund'] } })], lifted);
    const d = await decide(refund(10));
    expect(d.result as CompleteEvaluation).toMatchObject({ verdict: 'blocked', dominating_rule_id: 'rul-no' });
    expect(d.consumed).toBe(false);
    expect(store.takes).toHaveLength(0);
    expect(d.limits).toEqual([
      { key: '{"principal":"agn-1"}', max: 100, rule_id: 'rul-budget', used_after: 0, used_before: 0, window: '1h' },
    ]);
  });

  it('fails closed after three takes that each found a window filled meanwhile', async () => {
    const { store, decide } = setup([budget]);
    store.raced = [[0], [0], [0]];
    const d = await decide(refund(10));
    expect(store.takes).toHaveLength(3);
    expect(d.result as CompleteEvaluation).toMatchObject({ verdict: 'blocked', dominating_rule_id: 'rul-budget' });
    expect(traceOf(d.result as CompleteEvaluation, 'budget')).toMatchObject({ limit_state: 'limit_unavailable' });
    expect(d.consumed).toBe(false);
    expect(d.limits[0]).toMatchObject({ used_before: 0, used_after: 0 });
  });

  it('fires a budget with limit_unavailable when the take fails, and other rules keep their verdict', async () => {
    const { store, decide } = setup([
      { ...budget, applies_to: { actions: ['payments.refund'] } },
      rule('allow', { severity: 'ALLOW', applies_to: { actions: ['x'] } }),
    ]);
    store.failing.add('take');
    const d = await decide(refund(10));
    expect(d.result as CompleteEvaluation).toMatchObject({ verdict: 'blocked', dominating_rule_id: 'rul-budget' });
    expect(traceOf(d.result as CompleteEvaluation, 'budget')).toMatchObject({ limit_state: 'limit_unavailable' });
    expect(d).toMatchObject({ consumed: false, limits: [] });
    const other = await decide({ ...refund(10), action: 'x' });
    expect(other.result as CompleteEvaluation).toMatchObject({ verdict: 'allowed' });
  });

  it('fires a requires_prior with limit_unavailable when the priors cannot be read', async () => {
    const { store, decide } = setup([review]);
    store.failing.add('priors');
    const d = await decide(refund(10));
    expect(traceOf(d.result as CompleteEvaluation, 'review')).toMatchObject({ reason: 'fires', limit_state: 'limit_unavailable' });
  });

  it('reads the windows of an operation that does not go ahead without taking them, and fails closed when it cannot', async () => {
    const { store, decide } = setup([budget, rule('no', { applies_to: { actions: ['payments.refund'] } })]);
    const d = await decide(refund(10));
    expect(d.result as CompleteEvaluation).toMatchObject({ verdict: 'blocked', dominating_rule_id: 'rul-no' });
    expect(store.takes).toHaveLength(0);
    expect(d.limits[0]).toMatchObject({ used_before: 0, used_after: 0 });
    store.failing.add('peek');
    const failed = await decide(refund(10));
    expect(failed.limits).toEqual([]);
    expect(traceOf(failed.result as CompleteEvaluation, 'budget')).toMatchObject({ limit_state: 'limit_unavailable' });
  });

  it('leaves marks kept for the longest within of the rules naming the action, at least seven days', async () => {
    const { store, decide } = setup([marker, budget]);
    await decide(refund(10));
    expect(store.marks[0]).toEqual([{ action: 'payments.refund', key: '{"parameters.order_id":"o-1"}', keep_ms: 30 * 86_400_000 }]);
    const short = setup([
      rule('m', { applies_to: { actions: ['other'] }, requires_prior: { action: 'payments.refund', within: '1h', same: [] } }),
    ]);
    await short.decide(refund(10));
    expect(short.store.marks[0]).toEqual([{ action: 'payments.refund', key: '{}', keep_ms: 7 * 86_400_000 }]);
  });

  it('counts a verdict string of the tenant or of a rule in a budget, but leaves no mark for it', async () => {
    const review = { ...refund(30), action: 'orders.review' };
    const reviewed = rule('reviewed', {
      applies_to: { actions: ['payments.refund'] },
      requires_prior: { action: 'orders.review', within: '1h', same: ['parameters.order_id'] },
    });
    const spend = rule('spend', { severity: 'ADVISORY', limit: { sum: 'parameters.amount', max: 100, window: '1h', by: [] } });
    // A deny-by-default tenant: the review no rule allows is `denied`, which no enforcement point carries out.
    const denying = setup([reviewed, spend], [], { default_verdict: 'denied' });
    const denied = await denying.decide(review);
    expect([(denied.result as CompleteEvaluation).verdict, denied.consumed, denying.store.marks]).toEqual(['denied', true, [[]]]);
    expect(denied.limits).toEqual([expect.objectContaining({ rule_id: 'rul-spend', used_before: 0, used_after: 30 })]);
    const refused = await denying.decide(refund(10));
    expect((refused.result as CompleteEvaluation).verdict).toBe('blocked');
    expect(traceOf(refused.result as CompleteEvaluation, 'reviewed')).toMatchObject({ reason: 'fires', limit_state: 'prior_missing' });
    // The same review `allowed` leaves the mark the refund needs.
    const allowing = setup([reviewed, spend], [], { default_verdict: 'allowed' });
    await allowing.decide(review);
    expect(allowing.store.marks[0]).toHaveLength(1);
    const done = await allowing.decide(refund(10));
    expect((done.result as CompleteEvaluation).verdict).toBe('allowed');
    // A verdict string of an ALLOW rule likewise: counted, no mark.
    const custom = setup([
      reviewed,
      rule('ok', { severity: 'ALLOW', verdict: 'allowed_with_notice', applies_to: { actions: ['orders.review'] } }),
    ]);
    const noticed = await custom.decide(review);
    expect([(noticed.result as CompleteEvaluation).verdict, custom.store.marks]).toEqual(['allowed_with_notice', []]);
    expect(((await custom.decide(refund(10))).result as CompleteEvaluation).verdict).toBe('blocked');
  });

  it('gives back a consultation, and only logs when it cannot', async () => {
    const { store, sut, decide } = setup([budget]);
    await decide(refund(60));
    await sut.giveBack(tenant, 'cns-1');
    expect(store.ledger.peek(store.takes[0], NOW)).toEqual([0]);
    store.failing.add('giveBack');
    await expect(sut.giveBack(tenant, 'cns-1')).resolves.toBeUndefined();
  });
});
