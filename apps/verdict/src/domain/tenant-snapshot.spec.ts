import { evaluate } from '@arbiter/policy';
import { registryState } from './registry-state.fixture';
import { buildSnapshot, engineOverrides, engineRules, SnapshotBuildError } from './tenant-snapshot';

describe(buildSnapshot.name, () => {
  it('maps a rule onto the engine: its scope selector, its directive as statement', () => {
    expect(engineRules(registryState())[0]).toMatchObject({
      rule_id: 'rul-a',
      selector: { region: 'eu' },
      statement: 'EU deploys need approval',
      deciders: ['role-ops'],
    });
  });

  it("keeps only rule overrides, a null applies_to_scope bounded to the selector of the override's own scope", () => {
    expect(engineOverrides(registryState())).toEqual([
      {
        id: 'ovr-1',
        target_rule_ids: ['rul-a'],
        target_rule_version_ids: null,
        applies_to_scope: { region: 'eu' },
        expires_at: '2026-03-02T00:00:00.000Z',
        type: 'temporary',
        conditions: null,
      },
    ]);
  });

  it('passes conditions through and leaves out an override whose scope is not in the state (fail closed)', () => {
    const state = registryState();
    state.overrides[0] = { ...state.overrides[0], conditions: 'amount < 20' };
    state.overrides.push({ ...state.overrides[0], id: 'ovr-3', scope_id: 'scp-gone', scope_ids: ['scp-gone'] });
    expect(engineOverrides(state).map((o) => [o.id, o.conditions])).toEqual([['ovr-1', 'amount < 20']]);
  });

  it('does not let an override without applies_to_scope act outside its own scope', () => {
    const sut = buildSnapshot(registryState());
    const req = { mode: 'check' as const, action: 'infra.deploy', resource: 'svc', scope: { region: 'us' } };
    // The rule's own selector keeps it from applying in us at all; in eu the override neutralises it.
    expect(evaluate(sut.policy, { ...req, scope: { region: 'eu' } }, Date.parse('2026-03-01T12:00:00Z'))).toMatchObject({
      applied_override_ids: ['ovr-1'],
    });
    expect(evaluate(sut.policy, req, Date.parse('2026-03-01T12:00:00Z'))).toMatchObject({ applied_override_ids: [] });
  });

  it('carries settings with their defaults and bounds', () => {
    const sut = buildSnapshot(registryState());
    expect([sut.verdictTtlSeconds, sut.maxResolveRounds, sut.policy.defaultVerdict]).toEqual([60, 3, 'observe']);
    expect([...sut.scopeFields!.keys()]).toEqual(['region']);
    const bare = buildSnapshot(registryState({ settings: { verdict_ttl_seconds: 99999 } }));
    expect([bare.verdictTtlSeconds, bare.maxResolveRounds, bare.policy.defaultVerdict, bare.scopeFields]).toEqual([
      300,
      12,
      'allowed',
      null,
    ]);
  });

  it('compiles a policy the engine evaluates, overrides in effect until they expire', () => {
    const sut = buildSnapshot(registryState());
    const req = { mode: 'check' as const, action: 'infra.deploy', resource: 'svc', scope: { region: 'eu' } };
    expect(evaluate(sut.policy, req, Date.parse('2026-03-01T12:00:00Z'))).toMatchObject({
      verdict: 'observe',
      applied_override_ids: ['ovr-1'],
    });
    expect(evaluate(sut.policy, req, Date.parse('2026-03-02T12:00:00Z'))).toMatchObject({ verdict: 'approval_required' });
  });

  it('knows an action type when some rule names it in applies_to.actions', () => {
    const sut = buildSnapshot(registryState());
    expect([sut.knowsAction('infra.deploy'), sut.knowsAction('payments.transfer')]).toEqual([true, false]);
  });

  it('knows every action type when some rule names no actions (a tenant-wide rule covers them all)', () => {
    const state = registryState();
    state.rules.push({ ...state.rules[0], rule_id: 'rul-all', rule_version_id: 'rv-all', applies_to: null });
    expect(buildSnapshot(state).knowsAction('payments.transfer')).toBe(true);
    state.rules[1] = { ...state.rules[1], applies_to: { resources: ['acct:*'] } };
    expect(buildSnapshot(state).knowsAction('payments.transfer')).toBe(true);
  });

  it("passes a rule's mode to the engine, and leaves shadow rules out of the known action types", () => {
    const state = registryState();
    state.rules.push({ ...state.rules[0], rule_id: 'rul-shadow', rule_version_id: 'rv-shadow', applies_to: null, mode: 'shadow' });
    expect(engineRules(state).map((r) => [r.rule_id, r.mode])).toEqual([
      ['rul-a', 'enforce'],
      ['rul-shadow', 'shadow'],
    ]);
    const sut = buildSnapshot(state);
    expect(sut.knowsAction('payments.transfer')).toBe(false);
    expect(sut.policy.shadow?.rules.map((r) => r.ruleId)).toEqual(['rul-shadow']);
  });

  it('fails closed on a state the engine cannot evaluate', () => {
    const broken = registryState();
    broken.rules[0] = { ...broken.rules[0], conditions: [{ field: 'x', op: 'in', value: 5 }] };
    expect(() => buildSnapshot(broken)).toThrow(SnapshotBuildError);
    expect(() => buildSnapshot(registryState({ scopes: [] }))).toThrow(/scope scp-eu/);
  });
});
