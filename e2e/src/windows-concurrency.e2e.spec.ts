import { budgetTenant, refund, spawnGateways, type CheckAnswer, type GatewayProcess } from './windows-harness';
import { startStack, type Stack } from './stack';
import type { VerdictTenant } from './verdict-harness';

jest.setTimeout(300_000);

// No interleaving of concurrent checks on any number of gateway replicas takes a window past its max
// (docs/verdicts.md "Windows and outcomes"): two gateway processes on one database, 200 checks at once
// spread over both, ten rounds, each round on a fresh window (its own `parameters.batch`).

const ROUNDS = 10;
const CHECKS = 200;

/** The round's 200 checks at once, alternating between the two gateways. */
async function burst(gateways: GatewayProcess[], t: VerdictTenant, params: (i: number) => object): Promise<CheckAnswer[]> {
  return Promise.all(Array.from({ length: CHECKS }, (_, i) => refund(gateways[i % gateways.length].url, t, params(i))));
}

/** The allowed answers' record entries of the rule, in the order they consumed the window. */
function consumed(answers: CheckAnswer[], ruleId: string) {
  return answers
    .filter((a) => a.verdict === 'allowed')
    .map((a) => a.limits!.find((l) => l.rule_id === ruleId)!)
    .sort((a, b) => a.used_before - b.used_before);
}

describe('windows across two gateway processes', () => {
  let stack: Stack;
  let gateways: GatewayProcess[];

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true, worker: true });
    gateways = await spawnGateways(stack, 2);
  });
  afterAll(async () => {
    await Promise.all((gateways ?? []).map((g) => g.stop()));
    await stack?.stop();
  });

  it('lets exactly 50 of 200 concurrent checks through a count budget of 50, every round', async () => {
    const { t, ruleId } = await budgetTenant(stack, 'windows-count', { count: true, max: 50, window: '1h', by: ['parameters.batch'] });
    for (let round = 1; round <= ROUNDS; round++) {
      const answers = await burst(gateways, t, () => ({ batch: `count-${round}` }));
      expect(answers.map((a) => a.status)).toEqual(Array(CHECKS).fill(200));
      const verdicts = answers.map((a) => a.verdict);
      expect({ round, allowed: verdicts.filter((v) => v === 'allowed').length }).toEqual({ round, allowed: 50 });
      expect({ round, blocked: verdicts.filter((v) => v === 'blocked').length }).toEqual({ round, blocked: CHECKS - 50 });
      // Each unit of the window was consumed once, in turn: the allowed answers' used_before are 0, 1, ..., 49.
      const entries = consumed(answers, ruleId);
      expect(entries.map((e) => [e.used_before, e.used_after])).toEqual(Array.from({ length: 50 }, (_, i) => [i, i + 1]));
      expect(entries.every((e) => e.max === 50 && e.key === JSON.stringify({ 'parameters.batch': `count-${round}` }))).toBe(true);
      // Every refusal says the window was full when it was decided.
      for (const a of answers.filter((x) => x.verdict === 'blocked')) {
        expect(a.limits!.find((l) => l.rule_id === ruleId)).toMatchObject({ used_before: 50, used_after: 50, max: 50 });
      }
    }
  });

  it('never takes a sum budget past its max, and consumes the allowed amounts one after another', async () => {
    // What is asserted, per round: (1) the allowed amounts add up to at most the max; (2) the allowed answers'
    // record entries chain (each used_before is the previous one's used_after, from 0): the window was consumed
    // serially, each allowed amount exactly once, whatever gateway answered; (3) each refusal's entry shows the
    // window as it stood then, with no room for its amount (used_before + amount > max). Not asserted: that the
    // allowed set is the best packing (a refused large amount may be followed by an allowed small one: the
    // window is first come, first served, as its events arrive at PostgreSQL), nor that the window ends full.
    const max = 1000;
    const { t, ruleId } = await budgetTenant(stack, 'windows-sum', {
      sum: 'parameters.amount',
      max,
      window: '1h',
      by: ['parameters.batch'],
    });
    let seed = 31;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 1; round <= ROUNDS; round++) {
      const amounts = Array.from({ length: CHECKS }, () => Math.round(1 + random() * 9999) / 100); // 0.01 .. 100.00
      const answers = await burst(gateways, t, (i) => ({ batch: `sum-${round}`, amount: amounts[i] }));
      expect(answers.map((a) => a.status)).toEqual(Array(CHECKS).fill(200));
      const allowedAmounts = answers.flatMap((a, i) => (a.verdict === 'allowed' ? [amounts[i]] : []));
      const total = allowedAmounts.reduce((s, x) => s + Math.round(x * 100), 0) / 100;
      expect({ round, within: total <= max }).toEqual({ round, within: true });
      const entries = consumed(answers, ruleId);
      const cents = (x: number) => Math.round(x * 100); // the amounts have cents; the entries are JSON numbers
      let used = 0;
      for (const e of entries) {
        expect({ round, used_before: cents(e.used_before) }).toEqual({ round, used_before: used });
        used = cents(e.used_after);
      }
      expect(used).toBe(cents(total));
      answers.forEach((a, i) => {
        if (a.verdict !== 'blocked') return;
        const e = a.limits!.find((l) => l.rule_id === ruleId)!;
        expect({ round, no_room: cents(e.used_before) + cents(amounts[i]) > max * 100 }).toEqual({ round, no_room: true });
      });
      expect(answers.every((a) => a.verdict === 'allowed' || a.verdict === 'blocked')).toBe(true);
    }
  });
});
