import { budgetTenant, refund, spawnGateways, type CheckAnswer, type GatewayProcess } from './windows-harness';
import { limitWindowKey } from '../../apps/verdict/src/repositories/windows.repository';
import { startStack, type Stack } from './stack';

jest.setTimeout(300_000);

// A gateway killed with SIGKILL under load (docs/verdicts.md "Windows and outcomes"): a take is committed
// before its answer leaves, so no answer received ever says `allowed` for a consumption the database does
// not hold, and the window never holds more than its max. Checks whose gateway died with them in flight
// got no answer: their consumption may or may not be kept (kept is the safe side: over-counting).

const MAX = 60;
const CALLERS = 24;
const CHECKS = 300;

describe('windows when a gateway process is killed', () => {
  let stack: Stack;
  const running: GatewayProcess[] = [];

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true, worker: true });
  });
  afterAll(async () => {
    await Promise.all(running.map((g) => g.stop()));
    await stack?.stop();
  });

  it('loses no answered consumption and overspends nothing when one of two gateways dies mid-flight', async () => {
    const { t, ruleId } = await budgetTenant(stack, 'windows-chaos', { count: true, max: MAX, window: '1h', by: ['parameters.batch'] });
    for (const round of [1, 2]) {
      const [victim, survivor] = await spawnGateways(stack, 2);
      running.push(victim, survivor);
      const batch = `chaos-${round}`;
      const answers: CheckAnswer[] = [];
      let next = 0;
      let killed = false;
      // CALLERS closed loops over both gateways; once a third of the budget has been answered allowed, the
      // victim is killed with requests in flight, and the loops go on against whichever gateway is left.
      await Promise.all(
        Array.from({ length: CALLERS }, async (_, caller) => {
          while (next < CHECKS) {
            next++;
            const target = killed || caller % 2 === 1 ? survivor : victim;
            const a = await refund(target.url, t, { batch });
            answers.push(a);
            if (!killed && answers.filter((x) => x.verdict === 'allowed').length >= MAX / 3) {
              killed = true;
              process.kill(victim.pid, 'SIGKILL');
            }
          }
        }),
      );
      expect(killed).toBe(true);
      const allowed = answers.filter((a) => a.verdict === 'allowed');
      // Every answer either came (200, allowed or blocked) or was lost with the victim (no response).
      expect(answers.every((a) => a.lost || (a.status === 200 && (a.verdict === 'allowed' || a.verdict === 'blocked')))).toBe(true);

      const events = await stack
        .db('verdict')
        .query<{ consultation_id: string; amount: string }>(
          'SELECT consultation_id, amount FROM window_events WHERE tenant_id = $1 AND rule_id = $2 AND "key" = $3 AND given_back_at IS NULL',
          [t.id, ruleId, JSON.stringify({ 'parameters.batch': batch })],
        );
      const held = new Set(events.rows.map((r) => r.consultation_id));
      // No overspend: neither the answers received nor the database hold more than the max.
      expect({ round, allowed_received: allowed.length <= MAX, stored: events.rows.length <= MAX }).toEqual({
        round,
        allowed_received: true,
        stored: true,
      });
      // No lost consumption: every allowed answer received has its event in the window.
      expect({ round, missing: allowed.map((a) => a.consultation_id!).filter((id) => !held.has(id)) }).toEqual({ round, missing: [] });
      expect(events.rows.length).toBeGreaterThanOrEqual(allowed.length);
      // The window's running total agrees with its events: at least every allowed answer received.
      const total = await stack
        .db('verdict')
        .query<{ used: string }>('SELECT used FROM window_totals WHERE tenant_id = $1 AND window_key = $2', [
          t.id,
          limitWindowKey(ruleId, JSON.stringify({ 'parameters.batch': batch })),
        ]);
      expect(Number(total.rows[0].used)).toBe(events.rows.length);
      // The survivor went on deciding on the same window: it filled up (300 checks for 60 units), and every
      // allowed answer's record entry is a distinct unit of it.
      expect(events.rows.length).toBe(MAX);
      const units = allowed.map((a) => a.limits!.find((l) => l.rule_id === ruleId)!.used_before);
      expect(new Set(units).size).toBe(units.length);
      expect(units.every((u) => u >= 0 && u < MAX)).toBe(true);
      await survivor.stop();
    }
  });
});
