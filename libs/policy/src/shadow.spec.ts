// Shadow rules (docs/verdicts.md "Shadow rules"): evaluated beside the enforced rules, reported in
// `shadow` when they would have outranked the dominating rule with another verdict, never deciding.
import { compilePolicy } from './compile';
import { PolicyCompileError } from './errors';
import { evaluate } from './evaluate';
import type { CompleteEvaluation, EngineOverride, EngineRule, EvaluationRequest, EvaluationResult } from './types';

const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-02-01T00:00:00Z';
const NOW = Date.parse('2026-06-01T00:00:00Z');

function rule(id: string, extra: Partial<EngineRule> = {}): EngineRule {
  return { rule_id: `rul-${id}`, rule_version_id: `rv-${id}`, selector: {}, severity: 'MANDATORY', version_created_at: T0, ...extra };
}
const shadow = (id: string, extra: Partial<EngineRule> = {}): EngineRule => rule(id, { ...extra, mode: 'shadow' });

function run(rules: EngineRule[], req: Partial<EvaluationRequest> = {}, overrides: EngineOverride[] = []): EvaluationResult {
  return evaluate(
    compilePolicy(rules, overrides),
    { mode: 'check', action: 'payments.transfer', resource: 'acct:eu/1', scope: { region: 'eu' }, parameters: { amount: 50 }, ...req },
    NOW,
  );
}

function complete(r: EvaluationResult): CompleteEvaluation {
  expect(r.status).toBe('complete');
  return r as CompleteEvaluation;
}

/** A tenant-defined verdict, as strict as the enforced rules' `held`: the keys after the verdict decide. */
const STOPPED = { verdict: 'stopped' };
const BIG = { conditions: [{ field: 'amount', op: 'gt' as const, value: 10 }] };

describe('shadow rules', () => {
  it('reports a shadow rule that would block an allowed operation, and never blocks', () => {
    const sut = complete(run([shadow('big', BIG)]));
    expect(sut.verdict).toBe('allowed');
    expect(sut.dominating_rule_id).toBeNull();
    expect(sut.shadow).toEqual([{ rule_id: 'rul-big', rule_version_id: 'rv-big', would_be: 'blocked' }]);
  });

  it('keeps shadow rules out of the trace, the citations and the triggers', () => {
    const enforced = rule('approve', { severity: 'REQUIRES_APPROVAL', deciders: ['role-a'] });
    const sut = complete(
      run([
        enforced,
        shadow('big', { ...BIG, deciders: ['role-b'] }),
        shadow('other', { severity: 'REQUIRES_APPROVAL', deciders: ['role-c'] }),
      ]),
    );
    const without = complete(run([enforced]));
    expect(sut.precedence_trace).toEqual(without.precedence_trace);
    expect([sut.cited_rule_ids, sut.cited_rule_version_ids, sut.triggers, sut.candidate_deciders]).toEqual([
      without.cited_rule_ids,
      without.cited_rule_version_ids,
      without.triggers,
      without.candidate_deciders,
    ]);
    expect(sut.shadow).toEqual([{ rule_id: 'rul-big', rule_version_id: 'rv-big', would_be: 'blocked' }]);
  });

  it('leaves out a shadow rule that agrees with the verdict', () => {
    expect(complete(run([rule('block'), shadow('big', BIG)])).shadow).toEqual([]);
    expect(complete(run([shadow('allow', { severity: 'ALLOW' })])).shadow).toEqual([]);
  });

  it('leaves out a shadow rule the dominating rule outranks, by the real precedence order', () => {
    // severity
    expect(complete(run([rule('block'), shadow('approve', { severity: 'REQUIRES_APPROVAL' })])).shadow).toEqual([]);
    // scope match (both tenant-defined verdicts, so of equal strictness): the enforced exact match beats the tenant-wide shadow rule of the same severity
    expect(complete(run([rule('exact', { selector: { region: 'eu' }, verdict: 'held' }), shadow('tenant', STOPPED)])).shadow).toEqual([]);
    expect(
      complete(run([rule('tenant', { verdict: 'held' }), shadow('exact', { ...STOPPED, selector: { region: 'eu' } })])).shadow,
    ).toEqual([{ rule_id: 'rul-exact', rule_version_id: 'rv-exact', would_be: 'stopped' }]);
    // priority, then recency, then rule_version_id
    expect(complete(run([rule('a', { verdict: 'held', priority: 1 }), shadow('b', STOPPED)])).shadow).toEqual([]);
    expect(complete(run([rule('a', { verdict: 'held' }), shadow('b', { ...STOPPED, priority: 1 })])).shadow).toHaveLength(1);
    expect(complete(run([rule('a', { verdict: 'held', version_created_at: T1 }), shadow('b', STOPPED)])).shadow).toEqual([]);
    expect(complete(run([rule('a', { verdict: 'held' }), shadow('b', { ...STOPPED, version_created_at: T1 })])).shadow).toHaveLength(1);
    // the greater rule_version_id wins
    expect(complete(run([rule('b', { verdict: 'held' }), shadow('a', STOPPED)])).shadow).toEqual([]);
    expect(complete(run([rule('a', { verdict: 'held' }), shadow('b', STOPPED)])).shadow).toHaveLength(1);
  });

  it('reports a shadow rule above the dominator, whatever enforced rules it outranks', () => {
    const sut = complete(
      run([
        rule('observe', { severity: 'ADVISORY' }),
        rule('allow', { severity: 'ALLOW' }),
        shadow('approve', { severity: 'REQUIRES_APPROVAL' }),
      ]),
    );
    expect(sut.verdict).toBe('observe');
    expect(sut.shadow).toEqual([{ rule_id: 'rul-approve', rule_version_id: 'rv-approve', would_be: 'approval_required' }]);
  });

  it('reports every disagreeing shadow rule, in precedence order', () => {
    const sut = complete(
      run([
        shadow('observe', { severity: 'ADVISORY' }),
        shadow('block', BIG),
        shadow('custom', { severity: 'ADVISORY', verdict: 'flagged', priority: 5 }),
      ]),
    );
    expect(sut.shadow.map((s) => [s.rule_id, s.would_be])).toEqual([
      ['rul-block', 'blocked'],
      ['rul-custom', 'flagged'],
      ['rul-observe', 'observe'],
    ]);
  });

  it('does not report a shadow rule whose conditions are false, or that concerns another action, resource or scope', () => {
    expect(complete(run([shadow('small', { conditions: [{ field: 'amount', op: 'gt', value: 100 }] })])).shadow).toEqual([]);
    expect(complete(run([shadow('other', { applies_to: { actions: ['data.*'] } })])).shadow).toEqual([]);
    expect(complete(run([shadow('res', { applies_to: { resources: ['acct:us/*'] } })])).shadow).toEqual([]);
    expect(complete(run([shadow('us', { selector: { region: 'us' } })])).shadow).toEqual([]);
  });

  it('never needs context: a shadow rule lacking a field is not reported, and check stays complete', () => {
    const needs = shadow('kyc', { conditions: [{ field: 'kyc.level', op: 'lt', value: 2 }] });
    const sut = complete(run([needs]));
    expect(sut.shadow).toEqual([]);
    const requires = shadow('src', { requires: [{ field: 'amount', type: 'number', source_requirement: 'verified' }] });
    expect(complete(run([requires])).shadow).toEqual([]);
  });

  it('in resolve, never asks for a shadow rule field and reports it once the field is given', () => {
    const rules = [shadow('kyc', { conditions: [{ field: 'kyc.level', op: 'lt', value: 2 }] })];
    const bare = complete(run(rules, { mode: 'resolve', parameters: undefined, context: {} }));
    expect(bare.shadow).toEqual([]);
    const given = complete(run(rules, { mode: 'resolve', parameters: undefined, context: { 'kyc.level': { value: 1, source: 'crm' } } }));
    expect(given.shadow).toEqual([{ rule_id: 'rul-kyc', rule_version_id: 'rv-kyc', would_be: 'blocked' }]);
  });

  it('does not report a shadow rule an override neutralises', () => {
    const o: EngineOverride = { id: 'ovr-1', target_rule_ids: ['rul-big'], applies_to_scope: {}, expires_at: null, type: 'permanent' };
    expect(complete(run([shadow('big', BIG)], {}, [o])).shadow).toEqual([]);
  });

  it('reports nothing on an incomplete or insufficient evaluation', () => {
    const needs = rule('needs', { conditions: [{ field: 'kyc', op: 'eq', value: 1 }] });
    const r = run([needs, shadow('big', BIG)]);
    expect(r.status).toBe('insufficient_context');
    expect(r).not.toHaveProperty('shadow');
  });

  it('compiles shadow rules apart: no shadow set without them, one id space with them', () => {
    expect(compilePolicy([rule('a')]).shadow).toBeNull();
    expect(compilePolicy([rule('a'), shadow('b')]).shadow?.rules.map((r) => r.ruleId)).toEqual(['rul-b']);
    expect(compilePolicy([rule('a'), shadow('b')]).rules.map((r) => r.ruleId)).toEqual(['rul-a']);
    expect(() => compilePolicy([rule('a'), shadow('a', { rule_version_id: 'rv-other' })])).toThrow(PolicyCompileError);
    expect(() => compilePolicy([rule('a', { mode: 'audit' as never })])).toThrow(/mode must be enforce or shadow/);
  });

  it('treats mode enforce like an absent mode', () => {
    const a = run([rule('big', { ...BIG, mode: 'enforce' })]);
    expect(a).toEqual(run([rule('big', BIG)]));
    expect(complete(a).verdict).toBe('blocked');
  });
});
