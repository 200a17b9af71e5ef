// A scripted verdict client for the guard's and the adapters' unit tests: each method answers from the
// script (a value, or an error to throw) and every call is recorded. The end-to-end suites
// (e2e/src/guard-adapters.e2e.spec.ts, e2e/src/mcp-proxy.e2e.spec.ts) run the same code against the real stack.
import { VerdictError } from '../src/errors';
import type { GuardClient } from '../src/guard/guard';
import type { Approval, CheckResponse } from '../src/types';

export type Step<T> = T | Error | ((body: unknown) => T | Error);

export interface Script {
  check?: Step<CheckResponse>[];
  resolve?: Step<unknown>[];
  createApproval?: Step<Partial<Approval>>[];
  getApproval?: Step<Partial<Approval>>[];
  consultation?: Step<unknown>;
  ruleVersion?: Step<unknown>;
  /** GET .../explanation; unscripted, it fails (the outcome then has no explanation). */
  explanation?: Step<unknown>;
}

export const verdictError = (status: number, code: string, details?: unknown) =>
  new VerdictError({ service: 'verdict', status, code, message: code, details });

export const complete = (verdict: string, extra: Partial<CheckResponse> = {}): CheckResponse =>
  ({
    operation_status: 'complete',
    verdict,
    cited_rule_ids: [],
    consultation_id: `cns-${verdict}`,
    signed_verdict: `jws.${verdict}`,
    ...extra,
  }) as CheckResponse;

export const approval = (status: Approval['status'], extra: Partial<Approval> = {}): Partial<Approval> => ({
  id: 'apr-1',
  status,
  candidate_deciders: ['role-cfo'],
  ...extra,
});

export function stubClient(script: Script) {
  const calls: Array<{ method: string; body?: unknown }> = [];
  const take = <T>(method: string, steps: Step<T>[] | undefined, body?: unknown): Promise<T> => {
    calls.push({ method, body });
    const step = steps?.length ? (steps.length > 1 ? steps.shift()! : steps[0]) : new Error(`unscripted ${method}`);
    const value = typeof step === 'function' ? (step as (b: unknown) => T | Error)(body) : step;
    return value instanceof Error ? Promise.reject(value) : Promise.resolve(value);
  };
  const client = {
    check: (body: unknown) => take('check', script.check, body),
    resolve: (body: unknown) => take('resolve', script.resolve, body),
    createApproval: (body: unknown) => take('createApproval', script.createApproval, body),
    getApproval: (id: string) => take('getApproval', script.getApproval, id),
    getConsultation: (id: string) => take('getConsultation', script.consultation ? [script.consultation] : undefined, id),
    getRuleVersion: (id: string) => take('getRuleVersion', script.ruleVersion ? [script.ruleVersion] : undefined, id),
    getConsultationExplanation: (id: string) =>
      take('getConsultationExplanation', script.explanation ? [script.explanation] : undefined, id),
  } as unknown as GuardClient;
  return { client, calls, count: (method: string) => calls.filter((c) => c.method === method).length };
}

/** A clock that moves only when the guard sleeps: no real waiting. */
export function virtualTime() {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms) };
}
