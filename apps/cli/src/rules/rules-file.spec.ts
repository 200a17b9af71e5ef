import { changedFields, normaliseContent, parseRulesFile, ruleBody, RulesFileError, writeRulesFile } from './rules-file';

const SCOPE = 'scp-0123456789abcdef01234567';
const RULE = 'rul-0123456789abcdef01234567';

/** A rule as GET /scopes/{id}/rules answers it (server-only fields included). */
const registryRule = (over: Record<string, unknown> = {}) => ({
  id: RULE,
  tenant_id: 'tnt-1',
  scope_id: SCOPE,
  version: 3,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-02T00:00:00.000Z',
  created_by: 'hum-1',
  status: 'active',
  current_version_id: 'rv-1',
  archived_at: null,
  author: 'hum-1',
  author_type: 'human',
  directive: 'Transfers above 10,000 EUR need approval',
  severity: 'REQUIRES_APPROVAL',
  verdict: null,
  applies_to: { actions: ['payments.transfer'] },
  conditions: [{ field: 'amount', op: 'gt', value: 10000 }],
  condition_mode: 'all',
  requires: [],
  deciders: ['role-finance'],
  priority: null,
  mode: 'enforce',
  ...over,
});

function problemsOf(text: string): string[] {
  try {
    parseRulesFile('rules.yaml', text);
  } catch (err) {
    if (err instanceof RulesFileError) return err.message.split('\n');
    throw err;
  }
  throw new Error('the file was accepted');
}

describe(parseRulesFile.name, () => {
  it('reads the contract example and fills in the registry defaults', () => {
    const sut = parseRulesFile(
      'rules.yaml',
      `scope: ${SCOPE}
selector: {region: eu}
rules:
  - id: ${RULE}
    directive: Transfers above 10,000 EUR need approval
    severity: REQUIRES_APPROVAL
    mode: enforce
    applies_to: {actions: [payments.transfer]}
    conditions: [{field: amount, op: gt, value: 10000}]
    deciders: [role-finance]
`,
    );
    expect(sut).toMatchObject({ scope: SCOPE, selector: { region: 'eu' } });
    expect(sut.rules).toEqual([{ id: RULE, where: 'rules[0]', line: 4, content: normaliseContent(registryRule()) }]);
  });

  it('names every shape problem at its line and column', () => {
    const problems = problemsOf(`scope: scp-1
rules:
  - directive: A
    severity: BLOCK
    colour: red
  - severity: ALLOW
    conditions:
      - {field: amount, op: between, value: 1}
extra: 1
`);
    expect(problems).toEqual([
      'rules.yaml:1:8: scope: scope is required: the id (scp-…) of the scope the file manages (or, when the file leaves it out, --scope)',
      'rules.yaml:4:15: rules[0].severity: severity is required: one of MANDATORY, REQUIRES_APPROVAL, ADVISORY, ALLOW',
      expect.stringMatching(/^rules\.yaml:5:5: rules\[0\]\.colour: unknown member "colour" \(a rule has id, directive, severity/),
      'rules.yaml:6:5: rules[1].directive: directive is required: a non-empty text of at most 20,000 characters',
      expect.stringMatching(/^rules\.yaml:8:29: rules\[1\]\.conditions\[0\]\.op: op is one of eq, neq/),
      'rules.yaml:9:1: extra: unknown member "extra" (a rules file has scope, selector and rules)',
    ]);
  });

  it('holds the approval fields, refuses them on a rule that leads to no approval, and writes them back', () => {
    const problems = problemsOf(`scope: ${SCOPE}
rules:
  - directive: A
    severity: MANDATORY
    approvals_required: 2
  - directive: B
    severity: REQUIRES_APPROVAL
    escalate_after: 600
`);
    expect(problems).toEqual([
      'rules.yaml:5:25: rules[0].approvals_required: only a rule of severity REQUIRES_APPROVAL leads to an approval; approvals_required is not allowed here',
      'rules.yaml:8:21: rules[1].escalate_after: needs escalation_deciders (at least one)',
    ]);
    const text = `scope: ${SCOPE}
rules:
  - directive: C
    severity: REQUIRES_APPROVAL
    approvals_required: 2
    escalate_after: 600
    escalation_deciders: [role-cfo]
    approval_expires_after: 3600
`;
    const [rule] = parseRulesFile('rules.yaml', text).rules;
    expect(ruleBody(rule.content)).toEqual({
      directive: 'C',
      severity: 'REQUIRES_APPROVAL',
      approvals_required: 2,
      escalate_after: 600,
      escalation_deciders: ['role-cfo'],
      approval_expires_after: 3600,
    });
    // A registry rule without them compares equal to a file that leaves them out; one with them does not.
    expect(changedFields(normaliseContent(registryRule()), normaliseContent({ ...registryRule(), approvals_required: null }))).toEqual([]);
    expect(changedFields(normaliseContent(registryRule()), rule.content)).toContain('approvals_required');
    expect(writeRulesFile({ scope: SCOPE, selector: {}, rules: [{ id: null, content: rule.content }] })).toContain(
      'escalation_deciders: [role-cfo]',
    );
  });

  it('holds limit and requires_prior, writes them back, and a plan sees a change of either', () => {
    const text = `scope: ${SCOPE}
rules:
  - directive: At most 1500 EUR of refunds per customer per day
    severity: MANDATORY
    applies_to: {actions: [payments.refund]}
    limit: {sum: parameters.amount, max: 1500, window: 24h, by: [parameters.customer]}
  - directive: A refund only after a review of the same order
    severity: REQUIRES_APPROVAL
    applies_to: {actions: [payments.refund]}
    requires_prior:
      action: payments.review
      within: 1h
      same: [parameters.order_id]
  - directive: Fifty calls an hour
    severity: ADVISORY
    limit: {count: true, max: 50, window: 1h}
`;
    const rules = parseRulesFile('rules.yaml', text).rules;
    expect(rules.map((r) => [r.content.limit, r.content.requires_prior])).toEqual([
      [{ sum: 'parameters.amount', max: 1500, window: '24h', by: ['parameters.customer'] }, null],
      [null, { action: 'payments.review', within: '1h', same: ['parameters.order_id'] }],
      [{ count: true, max: 50, window: '1h', by: [] }, null],
    ]);
    expect(ruleBody(rules[0].content)).toMatchObject({ limit: { sum: 'parameters.amount', max: 1500, window: '24h' } });
    const written = writeRulesFile({ scope: SCOPE, selector: {}, rules: rules.map((r) => ({ id: null, content: r.content })) });
    expect(written).toContain('by: [parameters.customer]');
    expect(written).toContain('same: [parameters.order_id]');
    expect(parseRulesFile('rules.yaml', written).rules.map((r) => r.content)).toEqual(rules.map((r) => r.content));
    // A registry rule without the fields (null) compares equal to a file that leaves them out; a changed window does not.
    expect(
      changedFields(normaliseContent(registryRule()), normaliseContent({ ...registryRule(), limit: null, requires_prior: null })),
    ).toEqual([]);
    const wider = normaliseContent({ ...rules[0].content, limit: { ...rules[0].content.limit!, window: '48h' } });
    expect(changedFields(rules[0].content, wider)).toEqual(['limit']);
  });

  it('refuses a bad limit or requires_prior at the member it names, and either one on an ALLOW rule', () => {
    const problems = problemsOf(`scope: ${SCOPE}
rules:
  - directive: A
    severity: MANDATORY
    limit: {count: true, max: 10, window: 1 hour, by: [amount]}
  - directive: B
    severity: ALLOW
    requires_prior: {action: payments.review, within: 1h}
  - directive: C
    severity: MANDATORY
    limit: {count: true, sum: parameters.amount, max: 10, window: 1h}
`);
    expect(problems).toEqual([
      'rules.yaml:5:43: rules[0].limit.window: a duration from 1s to 366d, such as 90s, 15m, 1h, 24h or 7d',
      'rules.yaml:5:56: rules[0].limit.by[0]: principal, on_behalf_of, resource or parameters.<field> (a dot path)',
      'rules.yaml:8:21: rules[1].requires_prior: only a rule of severity MANDATORY, REQUIRES_APPROVAL, ADVISORY may hold it',
      'rules.yaml:11:12: rules[2].limit: exactly one of count (true) and sum (a parameters.<field> path)',
    ]);
  });

  it('reports the write-time checks of libs/policy (ruleProblems) at the row they name', () => {
    const problems = problemsOf(`scope: ${SCOPE}
rules:
  - directive: A
    severity: MANDATORY
    conditions:
      - {field: amount, op: lt, value: 10}
      - {field: amount, op: gt, value: abc}
    requires:
      - {field: tier, type: enum}
`);
    expect(problems).toEqual([
      'rules.yaml:7:9: rules[0].conditions[1]: op gt needs a number or an ISO 8601 date or timestamp value',
      'rules.yaml:9:9: rules[0].requires[0]: type enum needs allowed_values',
    ]);
  });

  it('refuses the same id or the same directive twice, naming the first', () => {
    const problems = problemsOf(`scope: ${SCOPE}
rules:
  - {id: ${RULE}, directive: A, severity: ALLOW}
  - {id: ${RULE}, directive: B, severity: ALLOW}
  - {directive: A, severity: MANDATORY}
`);
    expect(problems).toEqual([
      `rules.yaml:4:10: rules[1].id: the same id as rules[0] (line 3): each rule appears once`,
      `rules.yaml:5:17: rules[2].directive: the same directive as rules[0] (line 3): each rule appears once`,
    ]);
  });

  it('reports YAML syntax errors and duplicate keys with their position', () => {
    expect(problemsOf(`scope: ${SCOPE}\nscope: ${SCOPE}\nrules: []\n`)[0]).toMatch(/^rules\.yaml:2:1: Map keys must be unique/);
    expect(problemsOf('rules: [\n')[0]).toMatch(/^rules\.yaml:\d+:\d+: /);
  });

  it('refuses at its line a number the registry would refuse: .nan, .inf, or one a double reads as another', () => {
    const withValue = (value: string) =>
      `scope: ${SCOPE}\nrules:\n  - directive: d\n    severity: MANDATORY\n    conditions:\n      - {field: amount, op: gt, value: ${value}}\n`;
    expect(problemsOf(withValue('9007199254740993'))).toEqual([
      'rules.yaml:6:40: the number 9007199254740993 cannot be kept exactly (a double reads it as 9007199254740992): write it as a string, or fewer digits',
    ]);
    expect(problemsOf(withValue('.nan'))).toContain(
      'rules.yaml:6:40: .nan is not a number JSON can carry (the registry refuses NaN and infinities)',
    );
    expect(problemsOf(withValue('-.inf')).join('\n')).toMatch(/^rules\.yaml:6:40: -\.inf is not a number JSON can carry/m);
    expect(problemsOf(withValue('0.10000000000000000001'))[0]).toMatch(/cannot be kept exactly/);
    // Exact numbers in any spelling YAML reads stand.
    for (const fine of ['9007199254740992', '1.0', '.5', '+12', '1e3', '0x1f', '-0', '0.1'])
      expect(parseRulesFile('rules.yaml', withValue(fine)).rules).toHaveLength(1);
  });

  it('refuses requirement members of a type the registry refuses, at their line, before anything is sent', () => {
    const withRequirement = (members: string) =>
      `scope: ${SCOPE}\nrules:\n  - directive: d\n    severity: MANDATORY\n    requires:\n      - {field: amount, type: number, ${members}}\n`;
    expect(problemsOf(withRequirement('reason: 5'))).toEqual([expect.stringMatching(/requires\[0\]\.reason: reason is a text/)]);
    expect(problemsOf(withRequirement('reason: null, min: null'))).toEqual([
      expect.stringMatching(/requires\[0\]\.reason: reason is a text/),
      expect.stringMatching(/requires\[0\]\.min: min is a number/),
    ]);
    expect(problemsOf(withRequirement('allowed_values: [1, null]'))).toEqual([
      expect.stringMatching(/requires\[0\]\.allowed_values\[1\]: an allowed value is a string, a number or a boolean/),
    ]);
    expect(parseRulesFile('rules.yaml', withRequirement('reason: why, min: 0, max: 5, allowed_values: [1, "a", true]')).rules).toHaveLength(
      1,
    );
  });

  it('refuses a member named __proto__ at its line, as the registry refuses it; names that resemble it stand', () => {
    const withValue = (value: string) =>
      `scope: ${SCOPE}\nrules:\n  - directive: d\n    severity: MANDATORY\n    conditions:\n      - {field: profile, op: neq, value: ${value}}\n`;
    expect(problemsOf(withValue('{"__proto__": {tier: approved}}'))).toEqual([
      expect.stringMatching(/^rules\.yaml:6:43: rules\[0\]\.conditions\[0\]\.value\.__proto__: a member may not be named __proto__/),
    ]);
    expect(parseRulesFile('rules.yaml', withValue('{constructor: {prototype: 1}, proto: 2}')).rules).toHaveLength(1);
  });

  it('takes --scope for a file that names none, and refuses it for a file that names another', () => {
    const other = 'scp-00000000000000000000000f';
    expect(parseRulesFile('rules.yaml', 'rules: []\n', { scope: SCOPE }).scope).toBe(SCOPE);
    expect(parseRulesFile('rules.yaml', `scope: ${SCOPE}\nrules: []\n`, { scope: SCOPE }).scope).toBe(SCOPE);
    const refused = (text: string, scope?: string) => {
      try {
        parseRulesFile('rules.yaml', text, { scope });
      } catch (err) {
        return (err as RulesFileError).message.split('\n');
      }
      return [];
    };
    expect(refused(`scope: ${SCOPE}\nrules: []\n`, other)).toEqual([
      `rules.yaml:1:8: scope: the file manages scope ${SCOPE}, not ${other} (--scope stands only for a scope the file leaves out)`,
    ]);
    expect(refused('rules: []\n')).toEqual([
      expect.stringContaining('scope is required: the id (scp-…) of the scope the file manages (or, when the file leaves it out, --scope)'),
    ]);
    expect(refused('rules: []\n', 'payments')).toEqual([expect.stringContaining('--scope payments is not a scope id')]);
  });

  it('reports an alias bomb as a problem of the file, not a crash', () => {
    const bomb = [
      `scope: ${SCOPE}`,
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...'bcdefg'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdef'[i]}`).join(', ')}]`),
      'rules: []',
      '',
    ].join('\n');
    expect(problemsOf(bomb)).toEqual([
      'rules.yaml:1:1: the file uses aliases beyond reason (an alias bomb?): Excessive alias count indicates a resource exhaustion attack',
    ]);
  });
});

describe(normaliseContent.name, () => {
  it('gives a registry rule and a file that omits every default the same content', () => {
    const file = normaliseContent({
      directive: 'D',
      severity: 'ALLOW',
      applies_to: {},
      deciders: ['role-a', 'role-a'],
      conditions: [{ field: 'x', op: 'exists' }],
    });
    const registry = normaliseContent(
      registryRule({
        directive: 'D',
        severity: 'ALLOW',
        applies_to: null,
        deciders: ['role-a'],
        conditions: [{ field: 'x', op: 'exists' }],
      }),
    );
    expect(changedFields(file, registry)).toEqual([]);
    expect(file).toEqual({
      directive: 'D',
      severity: 'ALLOW',
      verdict: null,
      mode: 'enforce',
      priority: null,
      applies_to: null,
      condition_mode: 'all',
      conditions: [{ field: 'x', op: 'exists' }],
      requires: [],
      deciders: ['role-a'],
      approvals_required: null,
      escalate_after: null,
      escalation_deciders: [],
      approval_expires_after: null,
      limit: null,
      requires_prior: null,
    });
  });

  it('treats a registry without mode (before shadow rules) as enforce', () => {
    const { mode: _m, ...older } = registryRule();
    expect(normaliseContent(older).mode).toBe('enforce');
  });
});

describe(changedFields.name, () => {
  it('ignores member order inside values but not the order of rows', () => {
    const a = normaliseContent(registryRule({ requires: [{ field: 'f', type: 'string', reason: 'r' }] }));
    const b = normaliseContent(registryRule({ requires: [{ reason: 'r', type: 'string', field: 'f' }] }));
    expect(changedFields(a, b)).toEqual([]);
    const two = [
      { field: 'a', op: 'eq', value: 1 },
      { field: 'b', op: 'eq', value: 2 },
    ];
    expect(
      changedFields(
        normaliseContent(registryRule({ conditions: two })),
        normaliseContent(registryRule({ conditions: [...two].reverse() })),
      ),
    ).toEqual(['conditions']);
  });

  it('lists each changed field', () => {
    const a = normaliseContent(registryRule());
    const b = normaliseContent(registryRule({ severity: 'MANDATORY', priority: 5, mode: 'shadow' }));
    expect(changedFields(a, b)).toEqual(['severity', 'mode', 'priority']);
  });
});

describe(ruleBody.name, () => {
  it('leaves the defaults out (a PUT gives them back)', () => {
    expect(ruleBody(normaliseContent(registryRule()))).toEqual({
      directive: 'Transfers above 10,000 EUR need approval',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'amount', op: 'gt', value: 10000 }],
      deciders: ['role-finance'],
    });
  });
});

describe(writeRulesFile.name, () => {
  it('writes a stable, small file without server-only fields, which parses back to the same rules', () => {
    const rules = [
      registryRule(),
      registryRule({
        id: 'rul-ffffffffffffffffffffffff',
        directive: 'Reads are fine',
        severity: 'ALLOW',
        applies_to: null,
        conditions: [],
        deciders: [],
        priority: 10,
        mode: 'shadow',
      }),
    ];
    const sut = writeRulesFile({
      scope: SCOPE,
      scopeName: 'payments-eu',
      selector: { region: 'eu' },
      rules: rules.map((r) => ({ id: r.id, content: normaliseContent(r) })),
    });
    expect(sut).toBe(`# The whole rule set of scope ${SCOPE} (payments-eu): \`arbiter rules plan -f\` / \`apply -f\` this file.
# Rules are matched by id, else by directive; rules of the scope missing here are archived (docs/rules-as-code.md).

scope: ${SCOPE}
selector: {region: eu}
rules:
  - id: ${RULE}
    directive: Transfers above 10,000 EUR need approval
    severity: REQUIRES_APPROVAL
    applies_to: {actions: [payments.transfer]}
    conditions:
      - {field: amount, op: gt, value: 10000}
    deciders: [role-finance]
  - id: rul-ffffffffffffffffffffffff
    directive: Reads are fine
    severity: ALLOW
    mode: shadow
    priority: 10
`);
    const back = parseRulesFile('rules.yaml', sut);
    expect(back.rules.map((r) => [r.id, r.content])).toEqual(rules.map((r) => [r.id, normaliseContent(r)]));
    expect(back.selector).toEqual({ region: 'eu' });
  });

  it('writes an empty rule set as rules: []', () => {
    const sut = writeRulesFile({ scope: SCOPE, selector: {}, rules: [] });
    expect(sut).toContain('selector: {}\nrules: []\n');
    expect(parseRulesFile('r.yaml', sut).rules).toEqual([]);
  });

  it('quotes strings that YAML would read as something else', () => {
    const odd = registryRule({
      directive: 'yes',
      conditions: [
        { field: 'code', op: 'eq', value: '0012' },
        { field: 'on', op: 'eq', value: 'true' },
        { field: 'd', op: 'gte', value: '2026-01-01' },
      ],
    });
    const text = writeRulesFile({ scope: SCOPE, selector: { tier: '1' }, rules: [{ id: RULE, content: normaliseContent(odd) }] });
    const back = parseRulesFile('r.yaml', text);
    expect(back.rules[0].content).toEqual(normaliseContent(odd));
    expect(back.selector).toEqual({ tier: '1' });
  });
});
