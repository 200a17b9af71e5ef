import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { RulesFileError } from './rules-file';
import { parseTestFile, renderSuite, runSuite } from './rules-test';

const RULES = `scope: scp-0123456789abcdef01234567
selector: {region: eu}
rules:
  - id: rul-000000000000000000000001
    directive: Transfers above 10,000 need approval
    severity: REQUIRES_APPROVAL
    applies_to: {actions: [payments.transfer]}
    conditions: [{field: amount, op: gt, value: 10000}]
  - directive: No transfers to sanctioned countries
    severity: MANDATORY
    applies_to: {actions: [payments.transfer]}
    conditions: [{field: country, op: in, value: [IR, KP]}]
    requires: [{field: country, type: string, source_requirement: verified}]
`;
const fact = (value: string, verified = true) => ({ value, source: 'kyc', verification_status: verified ? 'verified' : 'unverified' });
const files = (extra: Record<string, string> = {}) => {
  const all: Record<string, string> = { 'rules.yaml': RULES, ...extra };
  return async (p: string) => {
    if (!(p in all)) throw new Error(`ENOENT ${p}`);
    return all[p];
  };
};
const suiteOf = (tests: string, head = 'rules: rules.yaml\n') => parseTestFile('tests.yaml', `${head}tests:\n${tests}`);
const transfer = (name: string, amount: number, country: string, expect: string, verified = true) =>
  `  - name: ${name}\n    action: payments.transfer\n    resource: acct:1\n    scope: {region: eu}\n    parameters: {amount: ${amount}}\n    context: {country: ${JSON.stringify(fact(country, verified))}}\n    expect: ${expect}\n`;

describe(runSuite.name, () => {
  it('passes cases whose verdict and dominating rule (by id, directive or null) are as expected', async () => {
    const suite = suiteOf(
      transfer('small', 10, 'DE', '{verdict: allowed, rule: null}') +
        transfer('large', 20000, 'DE', '{verdict: approval_required, rule: rul-000000000000000000000001}') +
        transfer('sanctioned', 10, 'IR', '{verdict: blocked, rule: No transfers to sanctioned countries}') +
        transfer('unverified', 10, 'DE', '{verdict: insufficient_context, missing: [country]}', false) +
        '  - {name: other scope, action: payments.transfer, resource: r, scope: {region: us}, expect: allowed}\n',
    );
    const sut = await runSuite(suite, files());
    expect(sut.cases.map((c) => [c.name, c.passed, c.failures])).toEqual([
      ['small', true, []],
      ['large', true, []],
      ['sanctioned', true, []],
      ['unverified', true, []],
      ['other scope', true, []],
    ]);
    expect(sut).toMatchObject({ passed: 5, failed: 0, rulesFiles: [{ name: 'rules.yaml', rules: 2 }] });
  });

  it('fails a case with the reason, and renders PASS/FAIL lines and the counts like opa test', async () => {
    const suite = suiteOf(
      transfer('ok', 10, 'DE', 'allowed') +
        transfer('wrong verdict', 20000, 'DE', 'allowed') +
        transfer('wrong rule', 20000, 'DE', '{verdict: approval_required, rule: Something else}'),
    );
    const sut = await runSuite(suite, files());
    expect(renderSuite(sut, false)).toBe(
      [
        'tests.yaml: 3 cases against rules.yaml (2 rules)',
        'PASS  ok',
        'FAIL  wrong verdict',
        '        expected allowed, got approval_required (dominating rule: rul-000000000000000000000001 "Transfers above 10,000 need approval")',
        'FAIL  wrong rule',
        '        expected the dominating rule "Something else", got rul-000000000000000000000001 "Transfers above 10,000 need approval"',
        '-'.repeat(80),
        'PASS: 1/3',
        'FAIL: 2/3',
      ].join('\n'),
    );
    expect(renderSuite(sut, true)).toContain(
      '        verdict allowed, dominating rule: none (tenant default)\n          condition_false block    exact   rules.yaml#rules[1] "No transfers to sanctioned countries"',
    );
  });

  it('fails a case whose verdict depends on which of two tied rules was changed last, which no file records', async () => {
    const holds = `scope: scp-0123456789abcdef01234567
rules:
  - {id: rul-000000000000000000000011, directive: Legal hold on exports, severity: MANDATORY, verdict: legal_hold, applies_to: {actions: [reports.export]}}
  - {id: rul-000000000000000000000012, directive: Quarantine exports, severity: MANDATORY, verdict: quarantine, applies_to: {actions: [reports.export]}}
  - {id: rul-000000000000000000000013, directive: Quarantine backups, severity: MANDATORY, verdict: quarantine, applies_to: {actions: [backups.export]}, priority: 1}
  - {id: rul-000000000000000000000014, directive: Hold backups, severity: MANDATORY, verdict: legal_hold, applies_to: {actions: [backups.export]}}
`;
    const suite = suiteOf(
      '  - {name: tied, action: reports.export, resource: r, scope: {}, expect: quarantine}\n' +
        '  - {name: by priority, action: backups.export, resource: r, scope: {}, expect: quarantine}\n',
      'rules: holds.yaml\n',
    );
    const sut = await runSuite(suite, files({ 'holds.yaml': holds }));
    expect(sut.cases.map((c) => [c.name, c.passed, c.failures])).toEqual([
      [
        'tied',
        false,
        [
          'the verdict depends on which of rul-000000000000000000000012 and rul-000000000000000000000011 was changed last (they tie on ' +
            'severity, verdict, scope match and priority, and answer quarantine and legal_hold): a check may answer either; give one a priority',
        ],
      ],
      ['by priority', true, []],
    ]);
  });

  it('applies the tenant settings and the instant the file gives', async () => {
    const suite = suiteOf(
      '  - {name: nothing fires, action: reports.read, resource: r, expect: observe}\n',
      'rules: [rules.yaml]\nsettings: {default_verdict: observe}\nnow: 2026-01-01T00:00:00Z\n',
    );
    expect(suite.now.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect((await runSuite(suite, files())).failed).toBe(0);
  });

  it('refuses a rules file that cannot be read or is invalid, and the same rule id in two files', async () => {
    await expect(runSuite(suiteOf(transfer('x', 1, 'DE', 'allowed'), 'rules: missing.yaml\n'), files())).rejects.toThrow(
      'tests.yaml:1:1: rules: cannot read the rules file missing.yaml: ENOENT missing.yaml',
    );
    await expect(
      runSuite(suiteOf(transfer('x', 1, 'DE', 'allowed'), 'rules: bad.yaml\n'), files({ 'bad.yaml': 'scope: x\nrules: []\n' })),
    ).rejects.toThrow(/^bad\.yaml:1:8: scope: /);
    await expect(
      runSuite(suiteOf(transfer('x', 1, 'DE', 'allowed'), 'rules: [rules.yaml, copy.yaml]\n'), files({ 'copy.yaml': RULES })),
    ).rejects.toThrow('copy.yaml:4:1: rules[0]: rule rul-000000000000000000000001 is also in rules.yaml (rules[0])');
  });
});

const WINDOW_RULES = `scope: scp-0123456789abcdef01234567
rules:
  - id: rul-00000000000000000000000b
    directive: At most 1500 EUR of refunds an hour
    severity: MANDATORY
    applies_to: {actions: [payments.refund]}
    limit: {sum: parameters.amount, max: 1500, window: 1h, by: [principal]}
  - directive: A refund only after a review of the same order
    severity: MANDATORY
    applies_to: {actions: [payments.refund]}
    requires_prior: {action: payments.review, within: 24h, same: [parameters.order_id]}
`;
const windowFiles = () => files({ 'windows.yaml': WINDOW_RULES });
const refund = (name: string, amount: number, extra: string, expect: string) =>
  `  - {name: ${name}, action: payments.refund, resource: order:1, parameters: {amount: ${amount}, order_id: o-1}, ${extra}expect: ${expect}}\n`;

describe('rules test with windows', () => {
  it('evaluates a case against the window states it gives: used, unavailable (fails closed), a prior found or not', async () => {
    const suite = suiteOf(
      refund('first of the hour after a review', 1200, 'priors: {A refund only after a review of the same order: true}, ', 'allowed') +
        refund(
          'over the budget',
          400,
          'windows: {rul-00000000000000000000000b: {used: 1150}}, priors: {"windows.yaml#rules[1]": true}, ',
          '{verdict: blocked, rule: At most 1500 EUR of refunds an hour}',
        ) +
        refund(
          'exactly the budget',
          350,
          'windows: {rul-00000000000000000000000b: {used: 1150}}, priors: {"windows.yaml#rules[1]": true}, ',
          'allowed',
        ) +
        refund(
          'window unreadable',
          1,
          'windows: {rul-00000000000000000000000b: unavailable}, priors: {"windows.yaml#rules[1]": true}, ',
          '{verdict: blocked, rule: rul-00000000000000000000000b}',
        ) +
        refund('no review', 10, '', '{verdict: blocked, rule: A refund only after a review of the same order}'),
      'rules: windows.yaml\n',
    );
    const sut = await runSuite(suite, windowFiles());
    expect(sut.cases.map((c) => [c.name, c.failures])).toEqual([
      ['first of the hour after a review', []],
      ['over the budget', []],
      ['exactly the budget', []],
      ['window unreadable', []],
      ['no review', []],
    ]);
    expect(sut.cases[3].details.join('\n')).toContain('limit_unavailable');
  });

  it('refuses window states for a rule that has no window', async () => {
    const suite = suiteOf(refund('x', 1, 'windows: {"windows.yaml#rules[1]": {used: 1}}, ', 'allowed'), 'rules: windows.yaml\n');
    await expect(runSuite(suite, windowFiles())).rejects.toThrow('windows.yaml#rules[1] is not a rule of the rules files with limit');
  });

  it('replays a sequence through one ledger: budgets fill, a give-back and the sliding hour free them, a review opens the refund', async () => {
    const suite = suiteOf(
      `  - name: refunds of an hour
    action: payments.refund
    resource: order:1
    parameters: {amount: 500, order_id: o-1}
    sequence:
      - {at: 2026-11-23T11:30:00Z, action: payments.review, expect: allowed}
      - {at: 2026-11-23T12:00:00Z, expect: allowed}
      - {at: 2026-11-23T12:10:00Z, expect: allowed}
      - {at: 2026-11-23T12:20:00Z, parameters: {amount: 400, order_id: o-1}, expect: allowed}
      - {at: 2026-11-23T12:25:00Z, parameters: {amount: 200, order_id: o-1}, expect: {verdict: blocked, rule: At most 1500 EUR of refunds an hour}}
      - {at: 2026-11-23T12:26:00Z, parameters: {amount: 50, order_id: o-2}, expect: {verdict: blocked, rule: A refund only after a review of the same order}}
      - {at: 2026-11-23T12:35:00Z, give_back: 3}
      - {at: 2026-11-23T12:40:00Z, parameters: {amount: 200, order_id: o-1}, expect: allowed}
      - {at: 2026-11-23T12:45:00Z, parameters: {amount: 500, order_id: o-1}, expect: blocked}
      - {at: 2026-11-23T13:00:00Z, parameters: {amount: 500, order_id: o-1}, expect: allowed}
`,
      'rules: windows.yaml\n',
    );
    const sut = await runSuite(suite, windowFiles());
    expect(sut.cases[0].failures).toEqual([]);
    expect(sut.cases[0].details).toContainEqual(
      'sequence[6] 2026-11-23T12:35:00.000Z: sequence[3] not executed, 400 back to rul-00000000000000000000000b {"principal":"agn-000000000000000000000000"}',
    );
    // A wrong expectation names its step and instant.
    const wrong = suiteOf(
      `  - name: one refund
    action: payments.refund
    resource: order:1
    parameters: {amount: 1600, order_id: o-1}
    sequence:
      - {at: 2026-11-23T11:30:00Z, action: payments.review, expect: allowed}
      - {at: 2026-11-23T12:00:00Z, expect: allowed}
`,
      'rules: windows.yaml\n',
    );
    expect((await runSuite(wrong, windowFiles())).cases[0].failures).toEqual([
      'sequence[1] 2026-11-23T12:00:00.000Z: expected allowed, got blocked (dominating rule: rul-00000000000000000000000b "At most 1500 EUR of refunds an hour")',
    ]);
  });
});

describe(parseTestFile.name, () => {
  it('names every problem of a test file at its line', () => {
    const err = (() => {
      try {
        parseTestFile(
          'tests.yaml',
          'rules: []\nnow: 2026-02-30T12:00:00Z\ntests:\n  - {name: a, action: x, expect: {verdict: allowed, rul: y}}\n  - {name: a, action: x, resource: r, expect: allowed, context: {f: 1}}\n',
        );
      } catch (e) {
        return e as RulesFileError;
      }
      throw new Error('accepted');
    })();
    expect(err.message.split('\n')).toEqual([
      'tests.yaml:1:8: rules: rules is required: the rules file, or a list of them, relative to this file',
      'tests.yaml:2:6: now: now is an ISO 8601 timestamp with Z or an offset: the instant the cases are evaluated at',
      'tests.yaml:4:5: tests[0].resource: resource is required: a non-empty string',
      'tests.yaml:4:53: tests[0].expect.rul: unknown member "rul" (expect has verdict, rule and missing)',
      'tests.yaml:5:69: tests[1].context.f: a Fact has at least value and source',
    ]);
  });

  it('refuses a case the gateway would refuse before evaluating it, as the gateway names it', async () => {
    const err = (() => {
      try {
        parseTestFile(
          'tests.yaml',
          'rules: rules.yaml\ntests:\n' +
            '  - {name: a, action: x, resource: r, parameters: {to: offshore-7}, context: {to: {value: acct-2, source: agent}}, expect: allowed}\n' +
            '  - {name: b, action: x, resource: r, parameters: {to: acct-2, "to.x": 1}, expect: allowed}\n' +
            '  - {name: c, action: x, resource: r, context: {parameters.to: {value: acct-2, source: agent}}, expect: allowed}\n' +
            '  - {name: d, action: x, resource: r, context: {__proto__: {value: {value: 1, source: ledger}, source: agent}}, expect: allowed}\n' +
            '  - {name: e, action: x, resource: r, context: {f: {value: {__proto__: 1}, source: agent}}, expect: allowed}\n',
        );
      } catch (e) {
        return e as RulesFileError;
      }
      throw new Error('accepted');
    })();
    expect(err.message.split('\n')).toEqual([
      expect.stringMatching(
        /tests\[0\]\.context\.to: the gateway refuses a Fact that restates parameters\.to with another value \(422 context_contradicts_parameters\)$/,
      ),
      expect.stringMatching(/tests\[1\]\.parameters: parameters\["to\.x"\]: the gateway refuses a member name with a dot/),
      expect.stringMatching(/tests\[2\]\.context\.parameters\.to: the gateway refuses a Fact named parameters/),
      expect.stringMatching(/tests\[3\]\.context\.__proto__: the gateway refuses a Fact named __proto__/),
      expect.stringMatching(/tests\[4\]\.context\.f\.value\.__proto__: the gateway refuses a member named \$commit or __proto__/),
    ]);
    // A member named parameters, while a rule reads parameters.<path>: the case fails, naming the gateway's refusal.
    const misnamed = `${RULES}  - directive: Misnamed\n    severity: MANDATORY\n    applies_to: {actions: [pay.out]}\n    conditions: [{field: parameters.amount, op: gt, value: 1000}]\n`;
    const sut = await runSuite(
      suiteOf(
        '  - {name: member, action: pay.out, resource: r, scope: {region: eu}, parameters: {amount: 50000, parameters: {amount: 1}}, expect: allowed}\n',
      ),
      files({ 'rules.yaml': misnamed }),
    );
    expect(sut.cases[0]).toMatchObject({
      passed: false,
      failures: [expect.stringMatching(/^the gateway refuses this check \(400 validation_failed/)],
    });
  });

  it('names the problems of window states and sequences at their line', () => {
    const err = (() => {
      try {
        parseTestFile(
          'tests.yaml',
          [
            'rules: r.yaml',
            'tests:',
            '  - {name: a, action: x, resource: r, expect: allowed, windows: {rul-1: {used: -1}}, priors: {rul-2: maybe}}',
            '  - name: b',
            '    action: x',
            '    sequence:',
            '      - {at: 2026-11-23T12:00:00Z, expect: allowed}',
            '      - {at: 2026-11-23T11:00:00Z, resource: r, expect: allowed}',
            '      - {at: 2026-11-23T13:00:00Z, give_back: 2}',
            '',
          ].join('\n'),
        );
      } catch (e) {
        return e as RulesFileError;
      }
      throw new Error('accepted');
    })();
    expect(err.message.split('\n')).toEqual([
      'tests.yaml:3:73: tests[0].windows.rul-1: a window is {used: <a number >= 0>}, what it held before the operation, or unavailable',
      'tests.yaml:3:102: tests[0].priors.rul-2: a prior is true (the earlier operation is there), false, or unavailable',
      'tests.yaml:7:9: tests[1].sequence[0].resource: resource is required: a non-empty string',
      'tests.yaml:8:14: tests[1].sequence[1].at: the steps are in time order: at is before the step above',
      'tests.yaml:9:47: tests[1].sequence[2].give_back: give_back is the index (from 0) of an earlier check step whose operation was not executed',
    ]);
  });
});

describe('examples/rules-repo', () => {
  it('passes its own tests', async () => {
    const dir = path.resolve(__dirname, '../../../../examples/rules-repo');
    const suite = parseTestFile('tests.yaml', await readFile(path.join(dir, 'tests.yaml'), 'utf8'));
    const sut = await runSuite(suite, (p) => readFile(path.join(dir, p), 'utf8'));
    expect(sut.cases.filter((c) => !c.passed)).toEqual([]);
    expect(sut.passed).toBeGreaterThanOrEqual(10);
  });
});
