import { compilePolicy } from './compile';
import { PolicyCompileError } from './errors';
import type { EngineOverride, EngineRule } from './types';
import { RULE_AT_LIMITS } from './rule-limits.fixture';

const rule = (id: string, extra: Partial<EngineRule> = {}): EngineRule => ({
  rule_id: `rul-${id}`,
  rule_version_id: `rv-${id}`,
  selector: {},
  severity: 'MANDATORY',
  version_created_at: '2026-01-01T00:00:00Z',
  ...extra,
});

describe(compilePolicy.name, () => {
  it('orders rules by severity, priority, recency and version id once, at compile time', () => {
    const sut = compilePolicy([
      rule('allow', { severity: 'ALLOW', priority: 100 }),
      rule('old', { version_created_at: '2025-01-01T00:00:00Z' }),
      rule('prio', { priority: 1, version_created_at: '2020-01-01T00:00:00Z' }),
      rule('b', { rule_version_id: 'rv-b' }),
      rule('a', { rule_version_id: 'rv-a' }),
      rule('approval', { severity: 'REQUIRES_APPROVAL' }),
    ]);
    expect(sut.rules.map((r) => r.ruleId)).toEqual(['rul-prio', 'rul-b', 'rul-a', 'rul-old', 'rul-approval', 'rul-allow']);
    expect(sut.rules.map((r) => r.ordinal)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(sut.defaultVerdict).toBe('allowed');
  });

  it('keeps the tenant default verdict', () => {
    expect(compilePolicy([], [], { default_verdict: 'observe' }).defaultVerdict).toBe('observe');
    expect(compilePolicy([], [], { default_verdict: null }).defaultVerdict).toBe('allowed');
  });

  it.each<[string, Partial<EngineRule>, RegExp]>([
    ['an unknown severity', { severity: 'FORBIDDEN' as never }, /unknown severity/],
    ['a severity inherited from Object.prototype', { severity: 'toString' as never }, /unknown severity/],
    ['a bad version timestamp', { version_created_at: 'yesterday' }, /version_created_at/],
    ['a selector that is not an object', { selector: ['eu'] as never }, /selector/],
    ['a selector value that is not a scalar', { selector: { region: { in: ['eu'] } } as never }, /selector.region/],
    ['an empty verdict', { verdict: '' }, /verdict/],
    ['a non-numeric priority', { priority: 'high' as never }, /priority/],
    ['an unknown condition_mode', { condition_mode: 'some' as never }, /condition_mode/],
    ['an unknown op', { conditions: [{ field: 'a', op: 'like' as never, value: 'x' }] }, /unknown op/],
    ['a non-array conditions', { conditions: {} as never }, /conditions/],
    ['a bad requirement', { requires: [{ field: 'a', type: 'number', min: 'zero' as never }] }, /min/],
    ['non-string action globs', { applies_to: { actions: [1] as never } }, /applies_to.actions/],
    ['a non-object applies_to', { applies_to: 'payments.*' as never }, /applies_to/],
    ['a missing rule_version_id', { rule_version_id: '' }, /rule_version_id/],
    // Over the rule limits (a rule stored before they existed): what the registry refuses is not evaluated.
    [
      'a glob with 65 wildcards',
      { applies_to: { resources: ['a*'.repeat(33) + '?'.repeat(32)] } },
      /applies_to.resources\[0\]: a glob has at most 64 wildcards/,
    ],
    [
      '101 resource globs',
      { applies_to: { resources: Array.from({ length: 101 }, (_, i) => `r${i}`) } },
      /applies_to.resources: at most 100 globs/,
    ],
    ['a glob of 501 characters', { applies_to: { actions: ['a'.repeat(501)] } }, /at most 500 characters/],
    [
      'an in list of 1,001 values',
      { conditions: [{ field: 'a', op: 'in', value: Array.from({ length: 1001 }, (_, i) => i) }] },
      /conditions\[0\].value: op in takes at most 1000 values/,
    ],
    [
      '101 conditions',
      { conditions: Array.from({ length: 101 }, () => ({ field: 'a', op: 'exists' as const })) },
      /at most 100 condition rows/,
    ],
    ['a glob with a lone surrogate', { applies_to: { resources: ['x\ud800*'] } }, /lone surrogate/],
  ])('refuses %s with invalid_rule naming the rule', (_what, extra, message) => {
    const attempt = () => compilePolicy([rule('x', extra)]);
    expect(attempt).toThrow(PolicyCompileError);
    expect(attempt).toThrow(message);
    expect(attempt).toThrow(expect.objectContaining({ code: 'invalid_rule', subject: 'rul-x' }));
  });

  it('compiles a rule just inside every limit', () => {
    const sut = compilePolicy([rule('x', RULE_AT_LIMITS)]);
    expect(sut.rules).toHaveLength(1);
  });

  it('refuses a rule without an id', () => {
    expect(() => compilePolicy([rule('x', { rule_id: '' })])).toThrow(expect.objectContaining({ code: 'invalid_rule' }));
  });

  it('refuses two rules with the same rule_id or the same rule_version_id', () => {
    expect(() => compilePolicy([rule('a'), rule('a', { rule_version_id: 'rv-other' })])).toThrow(
      expect.objectContaining({ code: 'duplicate_rule', subject: 'rul-a' }),
    );
    expect(() => compilePolicy([rule('a'), rule('b', { rule_version_id: 'rv-a' })])).toThrow(
      expect.objectContaining({ code: 'duplicate_rule' }),
    );
  });

  it.each<[string, Partial<EngineOverride>, RegExp]>([
    ['a bad expires_at', { expires_at: 'tomorrow' }, /expires_at/],
    ['a bad created_at', { created_at: 'now' }, /created_at/],
    ['a non-array target list', { target_rule_ids: 'rul-a' as never }, /target_rule_ids/],
    ['a non-scalar scope value', { applies_to_scope: { region: ['eu'] } as never }, /applies_to_scope.region/],
  ])('refuses an override with %s', (_what, extra, message) => {
    const o: EngineOverride = {
      id: 'ovr-1',
      target_rule_ids: ['rul-a'],
      applies_to_scope: {},
      expires_at: null,
      type: 'temporary',
      ...extra,
    };
    expect(() => compilePolicy([rule('a')], [o])).toThrow(message);
    expect(() => compilePolicy([rule('a')], [o])).toThrow(expect.objectContaining({ code: 'invalid_override', subject: 'ovr-1' }));
  });

  it('refuses an empty default verdict', () => {
    expect(() => compilePolicy([], [], { default_verdict: '' })).toThrow(expect.objectContaining({ code: 'invalid_policy' }));
  });

  it('attaches overrides to their target rules, ignoring targets it does not know', () => {
    const sut = compilePolicy(
      [rule('a'), rule('b')],
      [
        { id: 'ovr-2', target_rule_ids: ['rul-a', 'rul-a', 'rul-zzz'], applies_to_scope: {}, expires_at: null, type: 'temporary' },
        {
          id: 'ovr-1',
          target_rule_ids: ['rul-a'],
          applies_to_scope: { region: 'eu' },
          expires_at: '2026-02-01T00:00:00Z',
          type: 'approval_grant',
        },
      ],
    );
    const a = sut.rules.find((r) => r.ruleId === 'rul-a')!;
    expect(a.overrides!.map((o) => o.id)).toEqual(['ovr-1', 'ovr-2']);
    expect(sut.rules.find((r) => r.ruleId === 'rul-b')!.overrides).toBeNull();
    expect(sut.overrideCount).toBe(2);
  });
});
