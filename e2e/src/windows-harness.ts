// Helpers of the window tests that run the verdict gateway as OS processes (windows-concurrency,
// windows-chaos): two gateways as they ship on one stack's database, a tenant with a budget rule made
// through the registry's API, and checks sent over plain HTTP to either process.
import { bundleService, processEnv, spawnService, type LedgerProcess } from './ledger-processes';
import { createVerdictTenant, registryApi, type VerdictTenant } from './verdict-harness';
import type { Stack } from './stack';

export type GatewayProcess = LedgerProcess;

/** `count` verdict gateways as separate processes on the stack's verdict database, Redis and registry. */
export async function spawnGateways(stack: Stack, count: number): Promise<GatewayProcess[]> {
  const { main } = await bundleService('verdict');
  // These tests prove the windows' arithmetic under a burst of concurrent checks on a shared machine: a synchronous
  // engine run that the kernel pauses past the default 50 ms would answer 503 evaluation_budget_exceeded and take a
  // check out of the count. The budget itself is tested in abuse/rule-globs.e2e.spec.ts.
  const env = processEnv({ ...stack.env('verdict'), EVALUATION_BUDGET_MS: '10000' });
  return Promise.all(Array.from({ length: count }, () => spawnService('verdict', main, env)));
}

/** A tenant whose `payments.refund` operations meet one MANDATORY rule holding `limit`. */
export async function budgetTenant(stack: Stack, slug: string, limit: object): Promise<{ t: VerdictTenant; ruleId: string }> {
  const t = await createVerdictTenant(stack, slug);
  const reg = registryApi(stack, t.adminKey);
  const scope = await reg.scope('whole-tenant');
  const rule = await reg.rule(scope, {
    directive: 'Refunds within budget',
    severity: 'MANDATORY',
    applies_to: { actions: ['payments.refund'] },
    conditions: [],
    limit,
  });
  return { t, ruleId: rule.id };
}

export interface LimitEntry {
  rule_id: string;
  key: string;
  window: string;
  used_before: number;
  used_after: number;
  max: number;
}

export interface CheckAnswer {
  status: number;
  verdict?: string;
  consultation_id?: string;
  limits?: LimitEntry[];
  /** The request failed without an answer (the process died with it in flight). */
  lost?: true;
}

/** A refund check of `parameters` on a gateway; a connection error is an answer never received (`lost`). */
export async function refund(gateway: string, t: VerdictTenant, parameters: object): Promise<CheckAnswer> {
  try {
    const res = await fetch(`${gateway}/${t.id}/v1/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': t.agent.key },
      body: JSON.stringify({ action: 'payments.refund', resource: 'order:1', scope: { region: 'eu', env: 'prod' }, parameters }),
    });
    const body = (await res.json()) as Pick<CheckAnswer, 'verdict' | 'consultation_id' | 'limits'>;
    return { status: res.status, verdict: body.verdict, consultation_id: body.consultation_id, limits: body.limits };
  } catch {
    return { status: 0, lost: true };
  }
}
