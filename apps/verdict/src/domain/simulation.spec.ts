import { evaluate } from '@arbiter/policy';
import { registryState } from './registry-state.fixture';
import { buildSnapshot } from './tenant-snapshot';
import {
  applyChanges,
  changeTouching,
  enforcedState,
  INSUFFICIENT_CONTEXT,
  outcomeOf,
  SimulationChangeError,
  SimulationTally,
  WindowReplay,
  type ParsedChange,
  type WindowedConsultation,
} from './simulation';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const state = registryState();

function refused(changes: ParsedChange[]): SimulationChangeError {
  try {
    applyChanges(state, changes, NOW);
  } catch (err) {
    if (err instanceof SimulationChangeError) return err;
    throw err;
  }
  throw new Error('the changes were accepted');
}

describe(applyChanges.name, () => {
  it('creates a rule in its scope with the id changes[i], a version made now and the registry defaults', () => {
    const after = applyChanges(
      state,
      [
        {
          kind: 'create_rule',
          index: 0,
          rule: { scope_id: 'scp-all', directive: 'Block deletes', severity: 'MANDATORY', applies_to: {}, deciders: ['role-a', 'role-a'] },
        },
      ],
      NOW,
    );
    expect(after.rules).toHaveLength(2);
    expect(after.rules[1]).toEqual({
      rule_id: 'changes[0]',
      rule_version_id: 'changes[0]',
      scope_id: 'scp-all',
      version: 1,
      version_created_at: NOW.toISOString(),
      directive: 'Block deletes',
      severity: 'MANDATORY',
      verdict: null,
      applies_to: null,
      conditions: [],
      condition_mode: 'all',
      requires: [],
      deciders: ['role-a'],
      priority: null,
      mode: 'enforce',
      approvals_required: null,
      escalate_after: null,
      escalation_deciders: [],
      approval_expires_after: null,
      limit: null,
      requires_prior: null,
    });
    // The input state is left as it was.
    expect(state.rules).toHaveLength(1);
  });

  it('updates a rule as a new version (PUT semantics: omitted fields take their defaults), keeping its id and scope', () => {
    const after = applyChanges(
      state,
      [
        {
          kind: 'update_rule',
          index: 3,
          rule_id: 'rul-a',
          rule: { directive: 'EU deploys are blocked', severity: 'MANDATORY', mode: 'shadow' },
        },
      ],
      NOW,
    );
    expect(after.rules).toEqual([
      expect.objectContaining({
        rule_id: 'rul-a',
        rule_version_id: 'changes[3]',
        scope_id: 'scp-eu',
        version: 2,
        version_created_at: NOW.toISOString(),
        severity: 'MANDATORY',
        applies_to: null,
        deciders: [],
        mode: 'shadow',
      }),
    ]);
  });

  it("archives rules and overrides, and creates an override in its first target's scope", () => {
    const after = applyChanges(
      state,
      [
        { kind: 'archive_override', index: 0, override_id: 'ovr-1' },
        {
          kind: 'create_override',
          index: 1,
          override: { target_ids: ['rul-a'], type: 'temporary', expires_at: '2026-03-02T00:00:00+01:00', conditions: 'amount < 20' },
        },
      ],
      NOW,
    );
    expect(after.overrides.map((o) => o.id)).toEqual(['ovr-2', 'changes[1]']);
    expect(after.overrides[1]).toMatchObject({
      target_ids: ['rul-a'],
      scope_id: 'scp-eu',
      scope_ids: ['scp-eu'],
      applies_to_scope: null,
      expires_at: '2026-03-01T23:00:00.000Z',
      conditions: 'amount < 20',
      override_type: 'temporary',
    });
    expect(applyChanges(state, [{ kind: 'archive_rule', index: 0, rule_id: 'rul-a' }], NOW).rules).toEqual([]);
  });

  it('checks each change against the state the earlier changes left', () => {
    expect(
      refused([
        { kind: 'archive_rule', index: 0, rule_id: 'rul-a' },
        { kind: 'update_rule', index: 1, rule_id: 'rul-a', rule: { directive: 'x', severity: 'ALLOW' } },
      ]).field,
    ).toBe('changes[1].rule_id');
    // A rule created earlier in the same simulation can be targeted by its changes[i] id.
    const after = applyChanges(
      state,
      [
        { kind: 'create_rule', index: 0, rule: { scope_id: 'scp-eu', directive: 'x', severity: 'MANDATORY' } },
        { kind: 'create_override', index: 1, override: { target_ids: ['changes[0]'], type: 'permanent' } },
      ],
      NOW,
    );
    expect(after.overrides[2]).toMatchObject({ id: 'changes[1]', target_ids: ['changes[0]'] });
  });

  it.each<[string, ParsedChange, string, RegExp]>([
    [
      'an unknown scope',
      { kind: 'create_rule', index: 0, rule: { scope_id: 'scp-nope', directive: 'x', severity: 'ALLOW' } },
      'changes[0].rule.scope_id',
      /not a scope/,
    ],
    [
      'a rule the engine refuses (same message as the registry)',
      {
        kind: 'create_rule',
        index: 0,
        rule: { scope_id: 'scp-eu', directive: 'x', severity: 'ALLOW', conditions: [{ field: 'a', op: 'in', value: 3 }] },
      },
      'changes[0].rule',
      /^Invalid rule: conditions\[0\]: op in needs an array value$/,
    ],
    [
      'a decider that is no principal of the tenant',
      {
        kind: 'create_rule',
        index: 0,
        rule: { scope_id: 'scp-eu', directive: 'x', severity: 'REQUIRES_APPROVAL', deciders: ['hum-000000000000000000000000'] },
      },
      'changes[0].rule',
      /deciders: hum-0+ is not a principal of this tenant/,
    ],
    [
      'an approval field on a rule that leads to no approval (same message as the registry)',
      {
        kind: 'create_rule',
        index: 0,
        rule: { scope_id: 'scp-eu', directive: 'x', severity: 'MANDATORY', approvals_required: 2 },
      },
      'changes[0].rule',
      /^Invalid rule: approvals_required: only a rule of severity REQUIRES_APPROVAL leads to an approval/,
    ],
    [
      'an escalation decider that is no principal of the tenant',
      {
        kind: 'create_rule',
        index: 0,
        rule: {
          scope_id: 'scp-eu',
          directive: 'x',
          severity: 'REQUIRES_APPROVAL',
          escalate_after: 600,
          escalation_deciders: ['hum-000000000000000000000000'],
        },
      },
      'changes[0].rule',
      /escalation_deciders: hum-0+ is not a principal of this tenant/,
    ],
    [
      'an unknown rule to update',
      { kind: 'update_rule', index: 2, rule_id: 'rul-x', rule: { directive: 'x', severity: 'ALLOW' } },
      'changes[2].rule_id',
      /not an active rule/,
    ],
    ['an unknown rule to archive', { kind: 'archive_rule', index: 1, rule_id: 'rul-x' }, 'changes[1].rule_id', /not an active rule/],
    [
      'an unknown override to archive',
      { kind: 'archive_override', index: 0, override_id: 'ovr-x' },
      'changes[0].override_id',
      /not an override/,
    ],
    [
      'an override of an unknown rule',
      { kind: 'create_override', index: 0, override: { target_ids: ['rul-a', 'rul-x'], type: 'permanent' } },
      'changes[0].override.target_ids[1]',
      /not an active rule/,
    ],
    [
      'a temporary override without expiry',
      { kind: 'create_override', index: 0, override: { target_ids: ['rul-a'], type: 'temporary' } },
      'changes[0].override.expires_at',
      /needs expires_at/,
    ],
    [
      'an expiry in the past',
      { kind: 'create_override', index: 0, override: { target_ids: ['rul-a'], type: 'temporary', expires_at: '2026-03-01T11:00:00Z' } },
      'changes[0].override.expires_at',
      /future/,
    ],
    [
      'an expiry that is no timestamp',
      { kind: 'create_override', index: 0, override: { target_ids: ['rul-a'], type: 'permanent', expires_at: 'tomorrow' } },
      'changes[0].override.expires_at',
      /ISO 8601/,
    ],
    [
      'a conditional override without conditions',
      { kind: 'create_override', index: 0, override: { target_ids: ['rul-a'], type: 'conditional' } },
      'changes[0].override.conditions',
      /needs conditions/,
    ],
    [
      'conditions that are not CEL',
      { kind: 'create_override', index: 0, override: { target_ids: ['rul-a'], type: 'conditional', conditions: 'amount <' } },
      'changes[0].override.conditions',
      /./,
    ],
    [
      'an applies_to_scope outside the scope_schema',
      { kind: 'create_override', index: 0, override: { target_ids: ['rul-a'], type: 'permanent', applies_to_scope: { planet: 'mars' } } },
      'changes[0].override.applies_to_scope',
      /scope_schema/,
    ],
  ])('refuses %s, naming the field', (_what, change, field, message) => {
    const err = refused([change]);
    expect(err.field).toBe(field);
    expect(err.message).toMatch(message);
  });
});

describe(enforcedState.name, () => {
  it('leaves shadow rules out (they never decide) and keeps the state as it is without any', () => {
    expect(enforcedState(state)).toBe(state);
    const moded = applyChanges(
      state,
      [{ kind: 'create_rule', index: 0, rule: { scope_id: 'scp-all', directive: 'x', severity: 'MANDATORY', mode: 'shadow' } }],
      NOW,
    );
    expect(enforcedState(moded).rules.map((r) => r.rule_id)).toEqual(['rul-a']);
  });
});

describe(changeTouching.name, () => {
  const changes: ParsedChange[] = [
    { kind: 'create_rule', index: 0, rule: { scope_id: 'scp-eu', directive: 'x', severity: 'ALLOW' } },
    { kind: 'update_rule', index: 1, rule_id: 'rul-a', rule: { directive: 'x', severity: 'ALLOW' } },
    { kind: 'create_override', index: 2, override: { target_ids: ['rul-b'], type: 'permanent' } },
  ];
  it('finds the change that made or last touched a rule or override', () => {
    expect(changeTouching(changes, 'changes[0]')?.index).toBe(0);
    expect(changeTouching(changes, 'rul-a')?.index).toBe(1);
    expect(changeTouching(changes, 'rul-b')?.index).toBe(2);
    expect(changeTouching(changes, 'rul-z')).toBeNull();
    expect(changeTouching(changes, null)).toBeNull();
  });
});

describe(outcomeOf.name, () => {
  it('maps a complete check to its verdict and dominating rule, anything else to insufficient_context', () => {
    const policy = buildSnapshot(registryState({ overrides: [] })).policy;
    const request = { mode: 'check' as const, action: 'infra.deploy', resource: 'r', scope: { region: 'eu' } };
    expect(outcomeOf(evaluate(policy, request, NOW))).toEqual({ verdict: 'approval_required', dominating_rule_id: 'rul-a' });
    expect(outcomeOf(evaluate(policy, { ...request, scope: { region: 'us' } }, NOW))).toEqual({
      verdict: 'observe',
      dominating_rule_id: null,
    });
    const needy = buildSnapshot(
      registryState({ overrides: [], rules: [{ ...state.rules[0], conditions: [{ field: 'amount', op: 'gt', value: 1 }] }] }),
    ).policy;
    expect(outcomeOf(evaluate(needy, request, NOW))).toBe(INSUFFICIENT_CONTEXT);
  });
});

describe(SimulationTally.name, () => {
  const at = (i: number) => ({ id: `cns-${i}`, requested_at: new Date(Date.UTC(2026, 2, 1, 0, 0, 60 - i)), action: 'a', resource: 'r' });
  const allowed = { verdict: 'allowed', dominating_rule_id: null };
  const blocked = { verdict: 'blocked', dominating_rule_id: 'rul-b' };

  it('counts every replay, the changed ones by transition (changed pairs only), and keeps the first samples', () => {
    const tally = new SimulationTally(2);
    tally.add(at(0), allowed, blocked);
    tally.add(at(1), allowed, allowed);
    tally.add(at(2), blocked, { verdict: 'blocked', dominating_rule_id: 'rul-other' }); // same verdict: not a change
    tally.add(at(3), blocked, allowed);
    tally.add(at(4), allowed, INSUFFICIENT_CONTEXT);
    tally.add(at(5), allowed, blocked);
    const result = tally.result();
    expect(result).toEqual({
      evaluated: 6,
      changed: 4,
      transitions: { 'allowed->blocked': 2, 'allowed->insufficient_context': 1, 'blocked->allowed': 1 },
      samples: [
        {
          consultation_id: 'cns-0',
          requested_at: '2026-03-01T00:01:00.000Z',
          action: 'a',
          resource: 'r',
          before: 'allowed',
          after: 'blocked',
          dominating_rule_before: null,
          dominating_rule_after: 'rul-b',
        },
        {
          consultation_id: 'cns-3',
          requested_at: '2026-03-01T00:00:57.000Z',
          action: 'a',
          resource: 'r',
          before: 'blocked',
          after: 'allowed',
          dominating_rule_before: 'rul-b',
          dominating_rule_after: null,
        },
      ],
    });
  });

  it('oldest first (windows replayed in time order), keeps the newest changed ones and answers them newest first', () => {
    const tally = new SimulationTally(2, 'oldest_first');
    for (const i of [5, 4, 3, 2, 1, 0]) tally.add(at(i), allowed, i === 3 ? allowed : blocked);
    const result = tally.result();
    expect(result).toMatchObject({ evaluated: 6, changed: 5, transitions: { 'allowed->blocked': 5 } });
    expect(result.samples.map((x) => x.consultation_id)).toEqual(['cns-0', 'cns-1']);
    const few = new SimulationTally(3, 'oldest_first');
    for (const i of [2, 1]) few.add(at(i), allowed, blocked);
    expect(few.result().samples.map((x) => x.consultation_id)).toEqual(['cns-1', 'cns-2']);
  });

  it('keeps no sample with a sample_limit of 0', () => {
    const tally = new SimulationTally(0);
    tally.add(at(0), allowed, blocked);
    expect(tally.result()).toMatchObject({ changed: 1, samples: [] });
  });
});

describe(WindowReplay.name, () => {
  const minute = 60_000;
  const T0 = Date.parse('2026-02-28T09:00:00.000Z');
  type Op = { action: string; parameters?: Record<string, unknown>; principal?: string; minute: number; notExecutedAt?: number };
  const consultation = (op: Op, i: number): WindowedConsultation => ({
    id: `cns-${i}`,
    requested_at: new Date(T0 + op.minute * minute),
    not_executed_at: op.notExecutedAt === undefined ? null : new Date(T0 + op.notExecutedAt * minute),
  });
  /** The before and after policies replayed oldest first over `ops`, as the service replays them. */
  function replay(rule: Record<string, unknown>, ops: Op[]) {
    const before = buildSnapshot(state).policy;
    const after = buildSnapshot(
      enforcedState(applyChanges(state, [{ kind: 'create_rule', index: 0, rule: { scope_id: 'scp-all', ...rule } as never }], NOW)),
    ).policy;
    expect(after.hasWindows).toBe(true);
    const was = new WindowReplay(before);
    const would = new WindowReplay(after);
    const tally = new SimulationTally(20, 'oldest_first');
    const verdicts: string[] = [];
    ops.forEach((op, i) => {
      const c = consultation(op, i);
      const request = {
        mode: 'check' as const,
        action: op.action,
        resource: 'r',
        scope: { region: 'eu' },
        parameters: op.parameters ?? {},
        context: {},
        principal: op.principal ?? 'agn-1',
        on_behalf_of: null,
      };
      const a = outcomeOf(was.decide(c, request, NOW, null));
      const b = outcomeOf(would.decide(c, request, NOW, null));
      verdicts.push(b.verdict);
      tally.add({ ...c, action: op.action, resource: 'r' }, a, b);
    });
    return { verdicts, result: tally.result() };
  }

  it('a proposed budget of 3 an hour over 5 allowed transfers: the last 2 would change, a sixth after the hour would not', () => {
    const budget = {
      directive: 'Three transfers an hour',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.transfer'] },
      limit: { count: true, max: 3, window: '1h', by: ['principal'] },
    };
    const ops: Op[] = [0, 10, 20, 30, 40, 60].map((m) => ({ action: 'payments.transfer', minute: m }));
    const { verdicts, result } = replay(budget, ops);
    // The tenant default (observe) lets each through, and so consumes: the 4th and 5th are over; at 60 the first has left.
    expect(verdicts).toEqual(['observe', 'observe', 'observe', 'blocked', 'blocked', 'observe']);
    expect(result).toMatchObject({ evaluated: 6, changed: 2, transitions: { 'observe->blocked': 2 } });
    expect(result.samples.map((x) => [x.consultation_id, x.dominating_rule_after])).toEqual([
      ['cns-4', 'changes[0]'],
      ['cns-3', 'changes[0]'],
    ]);
    // Another principal has its own window.
    expect(replay(budget, [...ops.slice(0, 4), { action: 'payments.transfer', minute: 40, principal: 'agn-2' }]).verdicts).toEqual([
      'observe',
      'observe',
      'observe',
      'blocked',
      'observe',
    ]);
  });

  it('a blocked replay consumes nothing, and one reported not executed gives back from the time of its report', () => {
    const budget = {
      directive: 'One transfer an hour',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.transfer'] },
      limit: { count: true, max: 1, window: '1h' },
    };
    const t = (minute: number, notExecutedAt?: number): Op => ({ action: 'payments.transfer', minute, notExecutedAt });
    expect(replay(budget, [t(0), t(10), t(20)]).verdicts).toEqual(['observe', 'blocked', 'blocked']);
    expect(replay(budget, [t(0, 15), t(10), t(20)]).verdicts).toEqual(['observe', 'blocked', 'observe']);
  });

  it('replays a requires_prior rule: a refund goes through only after a review of the same order within the hour', () => {
    const sequence = {
      directive: 'A refund only after a review of the same order',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.refund'] },
      requires_prior: { action: 'orders.review', within: '1h', same: ['parameters.order_id'] },
    };
    const op = (action: string, order: string, minute: number): Op => ({ action, parameters: { order_id: order }, minute });
    const { verdicts, result } = replay(sequence, [
      op('orders.review', 'o-1', 0),
      op('payments.refund', 'o-1', 10),
      op('payments.refund', 'o-2', 20),
      op('orders.review', 'o-2', 30),
      op('payments.refund', 'o-2', 40),
      op('payments.refund', 'o-1', 61),
    ]);
    expect(verdicts).toEqual(['observe', 'observe', 'blocked', 'observe', 'observe', 'blocked']);
    expect(result).toMatchObject({ changed: 2, transitions: { 'observe->blocked': 2 } });
  });
});
