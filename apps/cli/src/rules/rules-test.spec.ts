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

describe(parseTestFile.name, () => {
  it('names every problem of a test file at its line', () => {
    const err = (() => {
      try {
        parseTestFile(
          'tests.yaml',
          'rules: []\nnow: yesterday\ntests:\n  - {name: a, action: x, expect: {verdict: allowed, rul: y}}\n  - {name: a, action: x, resource: r, expect: allowed, context: {f: 1}}\n',
        );
      } catch (e) {
        return e as RulesFileError;
      }
      throw new Error('accepted');
    })();
    expect(err.message.split('\n')).toEqual([
      'tests.yaml:1:8: rules: rules is required: the rules file, or a list of them, relative to this file',
      'tests.yaml:2:6: now: now is an ISO 8601 timestamp: the instant the cases are evaluated at',
      'tests.yaml:4:5: tests[0].resource: resource is required: a non-empty string',
      'tests.yaml:4:53: tests[0].expect.rul: unknown member "rul" (expect has verdict, rule and missing)',
      'tests.yaml:5:69: tests[1].context.f: a Fact has at least value and source',
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
