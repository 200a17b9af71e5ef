// The rule engine alone against @cedar-policy/cedar-wasm on the same rules and requests (evaluations
// per second, one core, no I/O), with a cross-check that both reach the same verdicts.
import { performance } from 'node:perf_hooks';
import { compilePolicy, evaluate, type CompleteEvaluation } from '@arbiter/policy';
import { benchmarkFixture } from '@arbiter/testing/benchmark-fixture';
import { cedarContext, cedarPolicies, precedence } from './cedar-policies';

// cedar-wasm's Node build loads its .wasm from its own folder, so it is required (and kept out of the bundle).
const cedar = require('@cedar-policy/cedar-wasm/nodejs') as typeof import('@cedar-policy/cedar-wasm/nodejs');

export interface EngineComparison {
  rules: number;
  engine_per_second: number;
  cedar_per_second: number;
  ratio: number;
  /** Share of the fixture's requests on which both give the same verdict and dominating rule. */
  agreement: number;
}

/** Runs fn in rounds until `seconds` pass; returns calls per second. */
function rate(seconds: number, batch: number, fn: (i: number) => void): number {
  for (let i = 0; i < batch; i++) fn(i); // warm-up
  let calls = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < batch; i++) fn(calls + i);
    calls += batch;
  }
  return Math.round(calls / ((performance.now() - started) / 1000));
}

export function compareEngines(n: number, seconds: number): EngineComparison {
  const fixture = benchmarkFixture(n);
  const policy = compilePolicy(fixture.rules, fixture.overrides, fixture.policy);
  const requests = fixture.requests;

  const setId = `bench-${n}`;
  const parsed = cedar.preparsePolicySet(setId, { staticPolicies: cedarPolicies(fixture) });
  if (parsed.type !== 'success') throw new Error(`Cedar refused the policy set: ${JSON.stringify(parsed.errors).slice(0, 500)}`);
  const contexts = requests.map(cedarContext);
  const pick = precedence(fixture);
  const defaultVerdict = fixture.policy.default_verdict ?? 'allowed';
  const principal = { type: 'Agent', id: 'bench' };
  const action = { type: 'Action', id: 'check' };
  const resource = { type: 'Resource', id: 'r' };
  const cedarDecide = (i: number) => {
    const answer = cedar.statefulIsAuthorized({
      principal,
      action,
      resource,
      context: contexts[i] as never,
      entities: [],
      preparsedPolicySetId: setId,
    });
    if (answer.type !== 'success') throw new Error(`Cedar failed: ${JSON.stringify(answer.errors).slice(0, 300)}`);
    return pick(answer.response.diagnostics.reason, requests[i].scope, defaultVerdict);
  };

  let agree = 0;
  for (let i = 0; i < requests.length; i++) {
    const e = evaluate(policy, requests[i], fixture.now) as CompleteEvaluation;
    if (e.status !== 'complete') throw new Error(`fixture request ${i} is not complete: ${e.status}`);
    const c = cedarDecide(i);
    if (c.verdict === e.verdict && c.dominating === e.dominating_rule_id) agree++;
  }

  const engine = rate(seconds, 64, (i) => evaluate(policy, requests[i & 63], fixture.now));
  const cedarRate = rate(seconds, 64, (i) => cedarDecide(i & 63));
  return {
    rules: n,
    engine_per_second: engine,
    cedar_per_second: cedarRate,
    ratio: Math.round((engine / cedarRate) * 10) / 10,
    agreement: agree / requests.length,
  };
}
