// What explanations cost a check (docs/verdicts.md "Explanations"; docs/benchmarks.md "Explanations"): the engine alone on the
// benchmark fixture, one core, no I/O. A check whose verdict is blocked or approval_required runs
// explain() after evaluate(), as the gateway does; other checks do not call it. Prints evaluations per
// second without and with explanations, and the per-check cost on the blocked/approval_required share.
//
//   node bench/verdict/bench.mjs --explain [--quick] [--sizes 10,100,1000] [--json FILE]
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { compilePolicy, evaluate, explain, type EvaluationRequest } from '@arbiter/policy';
import { benchmarkFixture } from '@arbiter/testing/benchmark-fixture';

const option = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const QUICK = process.argv.includes('--quick');
const SECONDS = QUICK ? 0.5 : 3;
const SIZES = (option('--sizes') ?? '10,100,1000').split(',').map(Number);

/** Runs fn over the requests in rounds until `seconds` pass; returns microseconds per call. */
function microsPerCall(requests: readonly EvaluationRequest[], fn: (r: EvaluationRequest) => void): number {
  for (const r of requests) fn(r); // warm-up
  let calls = 0;
  const started = performance.now();
  const end = started + SECONDS * 1000;
  while (performance.now() < end) {
    for (const r of requests) fn(r);
    calls += requests.length;
  }
  return ((performance.now() - started) * 1000) / calls;
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
const results = [];
for (const n of SIZES) {
  const fixture = benchmarkFixture(n);
  const policy = compilePolicy(fixture.rules, fixture.overrides, fixture.policy);
  const all = fixture.requests;
  const explained = all.filter((r) => {
    const e = evaluate(policy, r, fixture.now);
    return e.status === 'complete' && (e.verdict === 'blocked' || e.verdict === 'approval_required');
  });
  let alternatives = 0;
  for (const r of explained) alternatives += explain(policy, r, evaluate(policy, r, fixture.now), fixture.now)!.to_allow.length;
  const check = (r: EvaluationRequest) => evaluate(policy, r, fixture.now);
  const checkExplained = (r: EvaluationRequest) => {
    const e = evaluate(policy, r, fixture.now);
    if (e.status === 'complete' && (e.verdict === 'blocked' || e.verdict === 'approval_required')) explain(policy, r, e, fixture.now);
  };
  const mixPlain = microsPerCall(all, check);
  const mixExplained = microsPerCall(all, checkExplained);
  // A fixture without a blocked or approval_required request has nothing more to measure.
  const blockedPlain = explained.length ? microsPerCall(explained, check) : Number.NaN;
  const blockedExplained = explained.length ? microsPerCall(explained, checkExplained) : Number.NaN;
  const row = {
    rules: n,
    requests: all.length,
    blocked_or_approval_share: round(explained.length / all.length, 3),
    alternatives_per_explanation: round(alternatives / Math.max(1, explained.length)),
    mix_us_per_check: round(mixPlain),
    mix_us_per_check_with_explain: round(mixExplained),
    blocked_us_per_check: round(blockedPlain),
    blocked_us_per_check_with_explain: round(blockedExplained),
    blocked_explain_us: round(blockedExplained - blockedPlain),
  };
  results.push(row);
  console.log(
    `${n} rules: ${Math.round(row.blocked_or_approval_share * 100)}% blocked/approval_required (${row.alternatives_per_explanation} alternatives each); ` +
      `fixture mix ${row.mix_us_per_check} µs/check → ${row.mix_us_per_check_with_explain} with explanations; ` +
      (explained.length
        ? `blocked/approval_required alone ${row.blocked_us_per_check} µs → ${row.blocked_us_per_check_with_explain} µs (+${row.blocked_explain_us} µs)`
        : 'no blocked/approval_required request'),
  );
}
const json = option('--json');
if (json) writeFileSync(json, `${JSON.stringify({ explain: results }, null, 2)}\n`);
