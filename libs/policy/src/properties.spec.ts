// Property tests of the engine as a whole (fast-check): precedence is a total order independent of the
// order rules arrive in, evaluation is deterministic, adding context never makes resolve ask for more,
// and nothing but an override whose conditions hold lets an operation past a rule that fires.
import fc from 'fast-check';
import { activationOf, compileCondition } from '@arbiter/cel';
import { compilePolicy } from './compile';
import { evaluate } from './evaluate';
import type {
  CompleteEvaluation,
  Condition,
  EngineOverride,
  EngineRule,
  EvaluationRequest,
  Fact,
  Requirement,
  ScopeMatch,
  Severity,
} from './types';

const FIELDS = ['a', 'b', 'c', 'd'] as const;
const NOW = Date.parse('2026-06-01T00:00:00Z');
const field = fc.constantFrom(...FIELDS);
const value = fc.constantFrom<unknown>(0, 1, 2, 'x', 'y', true, false, null);

const condition: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({ field, op: fc.constantFrom('eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'starts_with'), value }),
  fc.record({ field, op: fc.constantFrom('in', 'not_in'), value: fc.array(value, { maxLength: 3 }) }),
  fc.record({ field, op: fc.constant('exists'), value: fc.boolean() }),
);

const requirement: fc.Arbitrary<Requirement> = fc.record(
  {
    field,
    type: fc.constantFrom('any', 'number', 'string', 'boolean'),
    source_requirement: fc.constant('verified' as const),
    acceptable_sources: fc.subarray(['s1', 's2']),
    confidence_threshold: fc.constantFrom(0.5, 0.9),
    min: fc.constantFrom(0, 1),
  },
  { requiredKeys: ['field', 'type'] },
);

const TIMES = ['2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', '2026-03-01T00:00:00Z'];

const selector = fc.oneof(
  { arbitrary: fc.constant({}), weight: 2 },
  { arbitrary: fc.record({ region: fc.constantFrom('eu', 'us'), env: fc.constantFrom('prod', 'dev') }, { requiredKeys: [] }), weight: 3 },
);

const ruleBody = fc.record(
  {
    severity: fc.constantFrom<Severity>('MANDATORY', 'REQUIRES_APPROVAL', 'ADVISORY', 'ALLOW'),
    selector,
    verdict: fc.constantFrom('custom_a', 'approval_required', 'blocked', 'observe'),
    applies_to: fc.record(
      { actions: fc.subarray(['pay.*', 'pay.send', '*', 'data.x', 'p?y.send']), resources: fc.subarray(['r1', 'r*']) },
      { requiredKeys: [] },
    ),
    conditions: fc.array(condition, { maxLength: 2 }),
    condition_mode: fc.constantFrom<'all' | 'any'>('all', 'any'),
    requires: fc.array(requirement, { maxLength: 2 }),
    deciders: fc.subarray(['role-a', 'hum-b', 'role-c']),
    priority: fc.integer({ min: -1, max: 2 }),
    version_created_at: fc.constantFrom(...TIMES),
  },
  { requiredKeys: ['severity', 'selector', 'conditions', 'version_created_at'] },
);

const withIds = (bodies: Partial<EngineRule>[]): EngineRule[] =>
  bodies.map((b, i) => ({ ...b, rule_id: `rul-${i}`, rule_version_id: `rv-${(i * 7) % 10}${i}` }) as EngineRule);

const rules: fc.Arbitrary<EngineRule[]> = fc.array(ruleBody, { maxLength: 10 }).map(withIds);

/** Rules without conditions or requires: every candidate fires, so precedence decides at every level. */
const firingRules: fc.Arbitrary<EngineRule[]> = fc
  .array(
    fc.record(
      {
        severity: fc.constantFrom<Severity>('MANDATORY', 'REQUIRES_APPROVAL', 'ADVISORY', 'ALLOW'),
        selector,
        verdict: fc.constantFrom('custom_a', 'approval_required', 'blocked', 'observe'),
        priority: fc.integer({ min: 0, max: 1 }),
        version_created_at: fc.constantFrom(...TIMES.slice(0, 2)),
        conditions: fc.constant([]),
      },
      { requiredKeys: ['severity', 'selector', 'version_created_at'] },
    ),
    { maxLength: 10 },
  )
  .map(withIds);

/** Override conditions over the generated fields: some hold, some read absent fields, some error, some do not parse. */
const CEL_CONDITIONS = [
  null,
  'a == 1',
  'a < 2 && b == "x"',
  'a > 0 || c == true',
  'd != null',
  'size(b) > 0',
  'b.startsWith("x")',
  'a <',
  'free text',
];

const overridesFor = (ids: string[]): fc.Arbitrary<EngineOverride[]> =>
  fc
    .array(
      fc.record({
        target_rule_ids: fc.subarray(ids),
        applies_to_scope: fc.record({ region: fc.constantFrom('eu', 'us') }, { requiredKeys: [] }),
        expires_at: fc.constantFrom<string | null>(null, '2026-05-01T00:00:00Z', '2026-07-01T00:00:00Z'),
        type: fc.constantFrom('temporary', 'approval_grant', 'conditional'),
        conditions: fc.constantFrom<string | null>(...CEL_CONDITIONS),
      }),
      { maxLength: 3 },
    )
    .map((os) => os.map((o, i) => ({ ...o, id: `ovr-${i}` })));

const fact: fc.Arbitrary<Fact> = fc.record(
  {
    value,
    source: fc.constantFrom('s1', 's2', 's3'),
    verification_status: fc.constantFrom<'verified' | 'unverified'>('verified', 'unverified'),
    confidence: fc.constantFrom(0.4, 0.95),
  },
  { requiredKeys: ['value', 'source'] },
);

const context = fc.dictionary(field, fact, { maxKeys: 4 });

const request = (mode: 'check' | 'resolve'): fc.Arbitrary<EvaluationRequest> =>
  fc.record({
    mode: fc.constant(mode),
    action: fc.constantFrom('pay.send', 'pay.recv', 'data.x'),
    resource: fc.constantFrom('r1', 'r2'),
    scope: fc.record({ region: fc.constantFrom('eu', 'us'), env: fc.constantFrom('prod', 'dev') }, { requiredKeys: [] }),
    parameters: mode === 'check' ? fc.dictionary(field, value, { maxKeys: 4 }) : fc.constant(undefined),
    context,
  });

const scenario = (mode: 'check' | 'resolve', ruleSet = rules) =>
  ruleSet.chain((rs) =>
    fc.record({
      rules: fc.constant(rs),
      overrides: overridesFor(rs.map((r) => r.rule_id)),
      request: request(mode),
    }),
  );

const shuffled = <T>(xs: T[]): fc.Arbitrary<T[]> => fc.shuffledSubarray(xs, { minLength: xs.length, maxLength: xs.length });

/** An independent statement of docs/verdicts.md's precedence, for comparison with the engine. */
const SEVERITY_RANK: Record<Severity, number> = { MANDATORY: 0, REQUIRES_APPROVAL: 1, ADVISORY: 2, ALLOW: 3 };
const SEVERITY_VERDICT: Record<Severity, string> = {
  MANDATORY: 'blocked',
  REQUIRES_APPROVAL: 'approval_required',
  ADVISORY: 'observe',
  ALLOW: 'allowed',
};
/** The verdict a rule answers: its own, except that a blocking or approval rule never answers a go-ahead. */
function answers(r: EngineRule): string {
  const own = r.verdict ?? SEVERITY_VERDICT[r.severity];
  const holdsBack = r.severity === 'MANDATORY' || r.severity === 'REQUIRES_APPROVAL';
  return holdsBack && (own === 'allowed' || own === 'observe') ? SEVERITY_VERDICT[r.severity] : own;
}
/** Stricter first; a tenant-defined verdict sits between blocked and approval_required. */
const STRICTNESS = (v: string): number => ({ blocked: 0, approval_required: 2, observe: 3, allowed: 4 })[v] ?? 1;
const SCOPE_RANK: Record<ScopeMatch, number> = { exact: 0, partial: 1, tenant: 2 };
function precedenceKeys(r: EngineRule, sm: ScopeMatch): [string, number | string][] {
  return [
    ['severity', SEVERITY_RANK[r.severity]],
    ['verdict', STRICTNESS(answers(r))],
    ['scope_match', SCOPE_RANK[sm]],
    ['priority', -(r.priority ?? 0)],
    ['recency', -Date.parse(r.version_created_at)],
    ['rule_version_id', r.rule_version_id],
  ];
}
/** Negative when a ranks first; the key that decided. */
function compare(a: EngineRule, sa: ScopeMatch, b: EngineRule, sb: ScopeMatch): [number, string] {
  const ka = precedenceKeys(a, sa);
  const kb = precedenceKeys(b, sb);
  for (let i = 0; i < ka.length; i++) {
    const [name, x] = ka[i];
    const y = kb[i][1];
    if (x === y) continue;
    if (name === 'rule_version_id') return [x > y ? -1 : 1, name];
    return [x < y ? -1 : 1, name];
  }
  return [0, 'equal'];
}

/**
 * Whether an override neutralises its targets for a check request, stated independently of the engine
 * (docs/verdicts.md "Overrides"): in effect at NOW, scope contained, and its conditions (if any; a conditional
 * override needs some) parse and are true, every name they read being present in the request.
 */
function overrideHolds(o: EngineOverride, req: EvaluationRequest): boolean {
  if (o.expires_at !== null && Date.parse(o.expires_at) <= NOW) return false;
  for (const [k, v] of Object.entries(o.applies_to_scope)) if ((req.scope as Record<string, unknown>)[k] !== v) return false;
  if (o.conditions === null || o.conditions === undefined) return o.type !== 'conditional';
  let cel: ReturnType<typeof compileCondition>;
  try {
    cel = compileCondition(o.conditions);
  } catch {
    return false;
  }
  const read = (path: string): unknown => {
    const fact = req.context?.[path];
    if (fact && fact.value !== undefined) return fact.value;
    return (req.parameters as Record<string, unknown> | undefined)?.[path];
  };
  const values = cel.paths.map(read);
  if (values.some((v) => v === undefined)) return false;
  const out = cel.evaluate(activationOf(cel.paths, values));
  return out.ok && out.value;
}

const asked = (r: ReturnType<typeof evaluate>): string[] => (r.status === 'incomplete' ? r.required_context.map((f) => f.field) : []);

describe('engine properties', () => {
  it.each(['check', 'resolve'] as const)('%s gives the same result whatever the order of rules and overrides', (mode) => {
    fc.assert(
      fc.property(
        scenario(mode).chain((s) => fc.tuple(fc.constant(s), shuffled(s.rules), shuffled(s.overrides))),
        ([s, rulesShuffled, overridesShuffled]) => {
          const a = evaluate(compilePolicy(s.rules, s.overrides), s.request, NOW);
          const b = evaluate(compilePolicy(rulesShuffled, overridesShuffled), s.request, NOW);
          expect(b).toEqual(a);
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each(['check', 'resolve'] as const)('%s is deterministic', (mode) => {
    fc.assert(
      fc.property(scenario(mode), (s) => {
        const policy = compilePolicy(s.rules, s.overrides);
        const first = evaluate(policy, s.request, NOW);
        expect(evaluate(policy, s.request, NOW)).toEqual(first);
        expect(evaluate(compilePolicy(s.rules, s.overrides), structuredClone(s.request), NOW)).toEqual(first);
      }),
      { numRuns: 200 },
    );
  });

  it('orders the trace strictly by precedence, and names the key that beat the runner-up', () => {
    fc.assert(
      fc.property(fc.oneof(scenario('check'), scenario('check', firingRules), scenario('resolve')), (s) => {
        const r = evaluate(compilePolicy(s.rules, s.overrides), s.request, NOW);
        const byId = new Map(s.rules.map((x) => [x.rule_id, x]));
        const trace = r.precedence_trace;
        for (let i = 1; i < trace.length; i++) {
          const [sign] = compare(
            byId.get(trace[i - 1].rule_id)!,
            trace[i - 1].scope_match,
            byId.get(trace[i].rule_id)!,
            trace[i].scope_match,
          );
          expect(sign).toBe(-1);
        }
        if (r.status !== 'complete') return;
        const firing = trace.filter((e) => e.reason === 'fires');
        const withDecision = trace.filter((e) => e.decided_by !== undefined);
        if (firing.length === 0) {
          expect(r.dominating_rule_id).toBeNull();
          expect(withDecision).toEqual([]);
          return;
        }
        expect(r.dominating_rule_id).toBe(firing[0].rule_id);
        expect(withDecision).toEqual([firing[0]]);
        const expected =
          firing.length === 1
            ? 'only_candidate'
            : compare(byId.get(firing[0].rule_id)!, firing[0].scope_match, byId.get(firing[1].rule_id)!, firing[1].scope_match)[1];
        expect(firing[0].decided_by).toBe(expected);
        const dominator = byId.get(firing[0].rule_id)!;
        expect((r as CompleteEvaluation).verdict).toBe(answers(dominator));
      }),
      { numRuns: 1000 },
    );
  });

  it('lets an operation past a firing rule only through an override whose conditions hold for it', () => {
    fc.assert(
      fc.property(fc.oneof(scenario('check'), scenario('check', firingRules)), (s) => {
        const withOverrides = evaluate(compilePolicy(s.rules, s.overrides), s.request, NOW);
        const without = evaluate(compilePolicy(s.rules, []), s.request, NOW);
        if (withOverrides.status !== 'complete') return;
        for (const e of withOverrides.precedence_trace) {
          if (e.reason !== 'overridden') continue;
          // Every neutralised rule was neutralised by an override of it that holds for this operation.
          const o = s.overrides.find((x) => x.id === e.overridden_by)!;
          expect(o.target_rule_ids).toContain(e.rule_id);
          expect(overrideHolds(o, s.request)).toBe(true);
        }
        for (const e of withOverrides.precedence_trace) {
          // And a rule none of whose overrides holds is evaluated as if there were none.
          const holding = s.overrides.filter((o) => o.target_rule_ids.includes(e.rule_id) && overrideHolds(o, s.request));
          if (holding.length === 0) expect(e.reason).not.toBe('overridden');
          else if (e.reason !== 'not_applicable') expect(e.reason).toBe('overridden');
        }
        if (without.status !== 'complete') return;
        // Allowed with overrides but not without: some firing enforced rule was neutralised by a holding override.
        if ((withOverrides as CompleteEvaluation).verdict === 'allowed' && (without as CompleteEvaluation).verdict !== 'allowed') {
          const enforced = without.precedence_trace.filter(
            (e) => e.reason === 'fires' && (e.severity === 'block' || e.severity === 'approval'),
          );
          for (const e of enforced) {
            const now = withOverrides.precedence_trace.find((x) => x.rule_id === e.rule_id)!;
            expect(now.reason).toBe('overridden');
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  // Without override conditions: a field that makes a conditional override hold neutralises a firing
  // rule, and the rules below it then rightly need their own fields (a new question, not a regression).
  it('adding a context field never makes resolve ask for more (overrides without conditions)', () => {
    fc.assert(
      fc.property(
        scenario('resolve').chain((s) => fc.tuple(fc.constant(s), field, fact)),
        ([scenarioWithConditions, extraField, extraFact]) => {
          const s = {
            ...scenarioWithConditions,
            overrides: scenarioWithConditions.overrides.map((o) => ({ ...o, type: 'temporary', conditions: null })),
          };
          fc.pre(!(extraField in (s.request.context ?? {})));
          const policy = compilePolicy(s.rules, s.overrides);
          const before = asked(evaluate(policy, s.request, NOW));
          const enriched = { ...s.request, context: { ...s.request.context, [extraField]: extraFact } };
          const after = asked(evaluate(policy, enriched, NOW));
          for (const f of after) expect(before).toContain(f);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('resolve never asks for a field that is present and meets every Requirement on it', () => {
    fc.assert(
      fc.property(scenario('resolve'), (s) => {
        const r = evaluate(compilePolicy(s.rules, s.overrides), s.request, NOW);
        if (r.status !== 'incomplete') return;
        for (const m of r.required_context) {
          if (m.problems.includes('absent')) expect(s.request.context?.[m.field]).toBeUndefined();
          else expect(s.request.context?.[m.field]).toBeDefined();
        }
      }),
      { numRuns: 300 },
    );
  });
});

// docs/verdicts.md "Shadow rules": a shadow rule is an enforced rule that only reports.
describe('shadow rule properties', () => {
  const asShadow = (rs: EngineRule[], prefix: string): EngineRule[] =>
    rs.map((r, i) => ({ ...r, rule_id: `rul-${prefix}${i}`, rule_version_id: `rv-${prefix}${i}`, mode: 'shadow' as const }));
  /** Enforced rules, shadow rules (ids of their own), overrides over both, one request. */
  const withShadow = (mode: 'check' | 'resolve', ruleSet = rules) =>
    fc.tuple(ruleSet, fc.oneof(rules, firingRules)).chain(([enforced, extra]) => {
      const shadows = asShadow(extra, 's');
      return fc.record({
        enforced: fc.constant(enforced),
        shadows: fc.constant(shadows),
        overrides: overridesFor([...enforced, ...shadows].map((r) => r.rule_id)),
        request: request(mode),
      });
    });

  it.each(['check', 'resolve'] as const)(
    '%s: adding shadow rules never changes the status, verdict, trace, citations or triggers',
    (mode) => {
      fc.assert(
        fc.property(fc.oneof(withShadow(mode), withShadow(mode, firingRules)), (s) => {
          const without = evaluate(compilePolicy(s.enforced, s.overrides), s.request, NOW);
          const withShadows = evaluate(compilePolicy([...s.enforced, ...s.shadows], s.overrides), s.request, NOW);
          if (withShadows.status !== 'complete') {
            expect(withShadows).toEqual(without);
            return;
          }
          const { shadow, ...rest } = withShadows;
          expect(rest).toEqual({ ...without, shadow: undefined });
          expect((without as CompleteEvaluation).shadow).toEqual([]);
          for (const e of shadow) expect(e.would_be).not.toBe(withShadows.verdict);
        }),
        { numRuns: 1000 },
      );
    },
  );

  it.each(['check', 'resolve'] as const)('%s: a shadow rule reported with would_be X gives verdict X once enforced', (mode) => {
    fc.assert(
      fc.property(fc.oneof(withShadow(mode), withShadow(mode, firingRules)), (s) => {
        const r = evaluate(compilePolicy([...s.enforced, ...s.shadows], s.overrides), s.request, NOW);
        if (r.status !== 'complete') return;
        const reported = new Set(r.shadow.map((e) => e.rule_id));
        for (const candidate of s.shadows) {
          const enforced = evaluate(
            compilePolicy([...s.enforced, { ...candidate, mode: 'enforce' }, ...s.shadows.filter((x) => x !== candidate)], s.overrides),
            s.request,
            NOW,
          );
          const entry = r.shadow.find((e) => e.rule_id === candidate.rule_id);
          if (entry) {
            expect(enforced.status).toBe('complete');
            expect((enforced as CompleteEvaluation).verdict).toBe(entry.would_be);
            expect((enforced as CompleteEvaluation).dominating_rule_id).toBe(candidate.rule_id);
            expect(entry.rule_version_id).toBe(candidate.rule_version_id);
          } else if (enforced.status === 'complete') {
            // Not reported and enforced without asking for more: it agrees, or it does not dominate.
            expect(reported.has(candidate.rule_id)).toBe(false);
            const e = enforced as CompleteEvaluation;
            if (e.dominating_rule_id === candidate.rule_id) expect(e.verdict).toBe(r.verdict);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
