import { evaluate, windowPlan } from '@arbiter/policy';
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

  it('carries the sensitive fields, and refuses settings it cannot read rather than store a value in the clear', () => {
    expect(buildSnapshot(registryState()).sensitive).toBeNull();
    const sut = buildSnapshot(
      registryState({ settings: { sensitive_fields: ['parameters.card', 'context.card'], data_subject_field: 'parameters.customer_id' } }),
    );
    expect(sut.sensitive).toEqual({
      fields: [
        { path: 'context.card', field: 'card', segments: ['card'] },
        { path: 'parameters.customer_id', field: 'customer_id', segments: ['customer_id'] },
      ],
      subject: { path: 'parameters.customer_id', field: 'customer_id', segments: ['customer_id'] },
    });
    expect(() => buildSnapshot(registryState({ settings: { sensitive_fields: ['card'] } }))).toThrow(SnapshotBuildError);
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

  it('maps limit and requires_prior onto the engine rule (null when the state leaves them out), and the policy then has windows', () => {
    const state = registryState({ overrides: [] });
    const limit = { sum: 'parameters.amount', max: 5000, window: '24h', by: ['principal'] };
    const prior = { action: 'orders.review', within: '1h', same: ['parameters.order_id'] };
    state.rules.push(
      { ...state.rules[0], rule_id: 'rul-budget', rule_version_id: 'rv-budget', severity: 'MANDATORY', applies_to: null, limit },
      { ...state.rules[0], rule_id: 'rul-rate', rule_version_id: 'rv-rate', limit: { count: true, max: 50, window: '1h', by: [] } },
      { ...state.rules[0], rule_id: 'rul-seq', rule_version_id: 'rv-seq', requires_prior: prior },
    );
    expect(engineRules(state).map((r) => [r.rule_id, r.limit, r.requires_prior])).toEqual([
      ['rul-a', null, null],
      ['rul-budget', limit, null],
      ['rul-rate', { count: true, max: 50, window: '1h', by: [] }, null],
      ['rul-seq', null, prior],
    ]);
    expect(buildSnapshot(registryState()).policy.hasWindows).toBe(false);
    const sut = buildSnapshot(state);
    expect(sut.policy.hasWindows).toBe(true);
    // The budget reaches the evaluation: keyed by the calling principal, its amount the parameter.
    const req = { mode: 'check' as const, action: 'payments.refund', resource: 'order:o-1', scope: { region: 'eu' } };
    expect(
      windowPlan(sut.policy, { ...req, parameters: { amount: 90 }, principal: 'agn-1' }, Date.parse('2026-03-01T12:00:00Z')).limits,
    ).toEqual(
      expect.arrayContaining([expect.objectContaining({ rule_id: 'rul-budget', key: '{"principal":"agn-1"}', amount: 90, max: 5000 })]),
    );
  });

  it('fails closed on a state the engine cannot evaluate', () => {
    const broken = registryState();
    broken.rules[0] = { ...broken.rules[0], conditions: [{ field: 'x', op: 'in', value: 5 }] };
    expect(() => buildSnapshot(broken)).toThrow(SnapshotBuildError);
    expect(() => buildSnapshot(registryState({ scopes: [] }))).toThrow(/scope scp-eu/);
  });
});
