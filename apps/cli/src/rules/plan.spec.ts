import { planChanges, planJson, PlanError, renderPlan, simulationChanges, type CurrentRule } from './plan';
import { parseRulesFile } from './rules-file';

const SCOPE = 'scp-0123456789abcdef01234567';
const id = (n: number) => `rul-${String(n).padStart(24, '0')}`;

/** An active rule as the registry lists it. */
const current = (n: number, directive: string, over: Record<string, unknown> = {}): CurrentRule => ({
  id: id(n),
  scope_id: SCOPE,
  version: 1,
  created_at: '2026-11-01T00:00:00.000Z',
  directive,
  severity: 'MANDATORY',
  verdict: null,
  applies_to: null,
  conditions: [],
  condition_mode: 'all',
  requires: [],
  deciders: [],
  priority: null,
  mode: 'enforce',
  ...over,
});

const file = (rules: string) => parseRulesFile('rules.yaml', `scope: ${SCOPE}\nrules:\n${rules}`);

describe(planChanges.name, () => {
  it('matches by id, else by directive; creates the rest and archives what the file lacks', () => {
    const sut = planChanges(
      file(`  - {id: ${id(1)}, directive: Renamed, severity: MANDATORY}
  - {directive: Same, severity: MANDATORY}
  - {directive: Stricter, severity: MANDATORY}
  - {directive: New, severity: ALLOW}
`),
      [current(1, 'Old name'), current(2, 'Same'), current(3, 'Stricter', { severity: 'ADVISORY' }), current(4, 'Gone')],
    );
    expect(sut.steps.map((s) => [s.op, 'id' in s ? s.id : s.rule.where, 'fields' in s ? s.fields : null])).toEqual([
      ['update', id(1), ['directive']],
      ['update', id(3), ['severity']],
      ['create', 'rules[3]', null],
      ['archive', id(4), null],
    ]);
    expect(sut.unchanged.map((u) => u.id)).toEqual([id(2)]);
  });

  it('finds nothing to do when the file says what the registry holds, defaults written or not', () => {
    const sut = planChanges(
      file(`  - {id: ${id(1)}, directive: A, severity: MANDATORY, mode: enforce, conditions: [], condition_mode: all, priority: null, applies_to: {}}
  - {directive: B, severity: MANDATORY}
`),
      [current(1, 'A'), current(2, 'B')],
    );
    expect(sut.steps).toEqual([]);
    expect(renderPlan(sut)).toEqual([`scope ${SCOPE}: 0 to create, 0 to update, 0 to archive, 2 unchanged`]);
  });

  it('does not let a directive match a rule another file rule claims by id', () => {
    const sut = planChanges(file(`  - {id: ${id(1)}, directive: X, severity: MANDATORY}\n  - {directive: A, severity: MANDATORY}\n`), [
      current(1, 'A'),
      current(2, 'Z'),
    ]);
    expect(sut.steps.map((s) => s.op)).toEqual(['update', 'create', 'archive']);
  });

  it('refuses an id that is not an active rule of the scope, and a directive that matches two rules', () => {
    const err = (() => {
      try {
        planChanges(file(`  - {id: ${id(9)}, directive: A, severity: MANDATORY}\n  - {directive: Twice, severity: MANDATORY}\n`), [
          current(1, 'Twice'),
          current(2, 'Twice'),
        ]);
      } catch (e) {
        return e as PlanError;
      }
      throw new Error('no error');
    })();
    expect(err).toBeInstanceOf(PlanError);
    expect(err.problems).toEqual([
      `rules.yaml:3: rules[0]: ${id(9)} is not an active rule of scope ${SCOPE} (remove the id to create the rule anew)`,
      `rules.yaml:4: rules[1]: the directive matches 2 active rules (${id(1)}, ${id(2)}): name the one you mean with id`,
    ]);
  });

  it('renders each change with its field values, and the same as JSON and as simulation changes', () => {
    const sut = planChanges(
      file(`  - {id: ${id(1)}, directive: Big transfers, severity: REQUIRES_APPROVAL, conditions: [{field: amount, op: gt, value: 5000}]}
  - {directive: New, severity: ALLOW, mode: shadow}
`),
      [
        current(1, 'Big transfers', { severity: 'REQUIRES_APPROVAL', conditions: [{ field: 'amount', op: 'gt', value: 10000 }] }),
        current(2, 'Gone'),
      ],
    );
    expect(renderPlan(sut)).toEqual([
      `scope ${SCOPE}: 1 to create, 1 to update, 1 to archive, 0 unchanged`,
      `  ~ update   ${id(1)} "Big transfers" (rules[0])`,
      '      conditions: [{"field":"amount","op":"gt","value":10000}] → [{"field":"amount","op":"gt","value":5000}]',
      '  + create   "New" (rules[1])',
      `  - archive  ${id(2)} "Gone"`,
    ]);
    expect(planJson(sut)).toEqual({
      scope: SCOPE,
      create: [{ where: 'rules[1]', rule: { directive: 'New', severity: 'ALLOW', mode: 'shadow' } }],
      update: [
        {
          rule_id: id(1),
          where: 'rules[0]',
          changes: {
            conditions: { before: [{ field: 'amount', op: 'gt', value: 10000 }], after: [{ field: 'amount', op: 'gt', value: 5000 }] },
          },
        },
      ],
      archive: [{ rule_id: id(2), directive: 'Gone' }],
      unchanged: [],
    });
    expect(simulationChanges(sut)).toEqual([
      {
        op: 'update',
        rule_id: id(1),
        rule: { directive: 'Big transfers', severity: 'REQUIRES_APPROVAL', conditions: [{ field: 'amount', op: 'gt', value: 5000 }] },
      },
      { op: 'create', rule: { scope_id: SCOPE, directive: 'New', severity: 'ALLOW', mode: 'shadow' } },
      { op: 'archive', rule_id: id(2) },
    ]);
  });
});
