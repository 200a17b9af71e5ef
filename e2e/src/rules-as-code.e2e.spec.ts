import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRegistryClient, type RegistryClient, type VerdictClient } from '@arbiter/client';
import { buildBin, cli, root, runBin } from './cli-harness';
import { startStack, type Stack } from './stack';
import { provisionTenant, transfer, verdictAs, type SdkTenant } from './sdk-harness';

/**
 * `arbiter rules export | plan | apply | test` against the real services (docs/rules-as-code.md): the
 * file round-trips without changes, an edit shows as a diff with its simulation over the tenant's
 * real consultations, apply makes the registry say what the file says, and a second apply writes nothing.
 */
describe('arbiter rules (rules as code)', () => {
  let stack: Stack;
  let t: SdkTenant;
  let reg: RegistryClient;
  let agent: VerdictClient;
  let scopeId: string;
  let ids: { big: string; refunds: string };
  let dir: string;
  let arbiter: ReturnType<typeof cli>;
  const file = (name: string) => path.join(dir, name);

  /** Every rule of the scope with its version number, to see that nothing was written. */
  const versions = async () =>
    Object.fromEntries((await reg.listRules(scopeId, { status: 'all' })).map((r) => [r.id, `${r.status}/v${r.version}`]));

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true });
    t = await provisionTenant(stack, 'rac');
    reg = createRegistryClient({ baseUrl: stack.registry.url, apiKey: t.adminKey });
    agent = verdictAs(stack, t.agentKey, t.id);
    scopeId = (await reg.createScope({ name: 'payments-eu-rules', selector: { region: 'eu' } })).id;
    const big = await reg.createRule(scopeId, {
      directive: 'Transfers above 50,000 EUR are blocked',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'transfer.amount', op: 'gt', value: 50000 }],
      condition_mode: 'all',
      requires: [],
    });
    const refunds = await reg.createRule(scopeId, {
      directive: 'Refunds need CFO approval',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['payments.refund'] },
      deciders: ['role-cfo', 'role-cfo'],
    });
    ids = { big: big.id, refunds: refunds.id };
    // The history the simulation replays: 500 allowed, 5,000 allowed, 20,000 approval_required (the
    // tenant's EU approval rule above 10,000).
    for (const amount of [500, 5000, 20000]) await agent.check(transfer(amount));
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-rac-'));
    arbiter = cli({ ARBITER_REGISTRY_URL: stack.registry.url, ARBITER_VERDICT_URL: stack.verdict.url, ARBITER_API_KEY: t.adminKey });
  });
  afterAll(async () => {
    await stack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('exports the scope as a small file: ids, the selector, no server-only fields, no defaults', async () => {
    const r = await arbiter('rules', 'export', '--scope', scopeId, '-o', file('rules.yaml'));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`exported 2 rules of scope ${scopeId} (payments-eu-rules) to ${file('rules.yaml')}\n`);
    const text = await readFile(file('rules.yaml'), 'utf8');
    expect(text).toContain(
      `scope: ${scopeId}\nselector: {region: eu}\nrules:\n  - id: ${ids.big}\n    directive: Transfers above 50,000 EUR are blocked\n`,
    );
    expect(text).toContain('      - {field: transfer.amount, op: gt, value: 50000}\n');
    expect(text).toContain('    deciders: [role-cfo]\n');
    expect(text).not.toMatch(/created_at|author|version|condition_mode|requires|priority|mode:|status/);
    const toStdout = await arbiter('rules', 'export', '--scope', scopeId);
    expect(toStdout.stdout).toBe(text);
  });

  it('applies the exported file without writing anything, and plans no changes', async () => {
    const before = await versions();
    const apply = await arbiter('rules', 'apply', '-f', file('rules.yaml'));
    expect(apply.code).toBe(0);
    expect(apply.stdout).toBe(`scope ${scopeId}: no changes (2 rules unchanged)\n`);
    const plan = await arbiter('rules', 'plan', '-f', file('rules.yaml'));
    expect(plan.code).toBe(0);
    expect(plan.stdout).toBe(`scope ${scopeId}: 0 to create, 0 to update, 0 to archive, 2 unchanged\n`);
    expect(await versions()).toEqual(before);
  });

  describe('an edited file', () => {
    const edited = () => `scope: ${scopeId}
selector: {region: eu}
rules:
  - id: ${ids.big}
    directive: Transfers above 1,000 EUR are blocked
    severity: MANDATORY
    applies_to: {actions: [payments.transfer]}
    conditions:
      - {field: transfer.amount, op: gt, value: 1000}
  - directive: Payouts are blocked
    severity: MANDATORY
    applies_to: {actions: [payments.payout]}
  - directive: Card payments above 5,000 EUR need CFO approval
    severity: REQUIRES_APPROVAL
    mode: shadow
    applies_to: {actions: [payments.card]}
    conditions: [{field: card.amount, op: gt, value: 5000}]
    deciders: [role-cfo]
`;
    beforeAll(async () => writeFile(file('edited.yaml'), edited()));

    it('plans the diff with the changed fields, and its simulation over the real consultations', async () => {
      const before = await versions();
      const r = await arbiter('rules', 'plan', '-f', file('edited.yaml'), '--last', '100');
      expect(r.code).toBe(0);
      const lines = r.stdout.split('\n');
      expect(lines.slice(0, 8)).toEqual([
        `scope ${scopeId}: 2 to create, 1 to update, 1 to archive, 0 unchanged`,
        `  ~ update   ${ids.big} "Transfers above 1,000 EUR are blocked" (rules[0])`,
        '      directive: "Transfers above 50,000 EUR are blocked" → "Transfers above 1,000 EUR are blocked"',
        '      conditions: [{"field":"transfer.amount","op":"gt","value":50000}] → [{"field":"transfer.amount","op":"gt","value":1000}]',
        '  + create   "Payouts are blocked" (rules[1])',
        '  + create   "Card payments above 5,000 EUR need CFO approval" (rules[2])',
        `  - archive  ${ids.refunds} "Refunds need CFO approval"`,
        expect.stringMatching(/^simulation over the last 100 consultations \(.+ to .+\): 3 replayed, 2 would change$/),
      ]);
      expect(r.stdout).toContain('  allowed->blocked                     1\n  approval_required->blocked           1\n');
      expect(r.stdout).toMatch(
        new RegExp(`e\\.g\\. cns-\\S+ \\S+ payments\\.transfer acct:eu/4471: approval_required → blocked \\(rul-\\S+ → ${ids.big}\\)`),
      );
      const json = (await arbiter('--json', 'rules', 'plan', '-f', file('edited.yaml'))).json<{ simulation: unknown; archive: unknown }>();
      expect(json.simulation).toMatchObject({
        status: 'done',
        evaluated: 3,
        changed: 2,
        transitions: { 'allowed->blocked': 1, 'approval_required->blocked': 1 },
      });
      expect(json.archive).toEqual([{ rule_id: ids.refunds, directive: 'Refunds need CFO approval' }]);
      expect(await versions()).toEqual(before);
    });

    it('still shows the diff when the simulation is skipped, unreachable, or not offered (404)', async () => {
      const skipped = await arbiter('rules', 'plan', '-f', file('edited.yaml'), '--no-simulate');
      expect(skipped.code).toBe(0);
      expect(skipped.stdout).toMatch(/0 unchanged\n[\s\S]*\nsimulation: skipped \(--no-simulate\)\n$/);
      const down = await arbiter('rules', 'plan', '-f', file('edited.yaml'), '--verdict-url', 'http://127.0.0.1:1', '--tenant', t.id);
      expect(down.code).toBe(0);
      expect(down.stdout).toContain(`  - archive  ${ids.refunds}`);
      expect(down.stdout).toMatch(/\nsimulation: unavailable: cannot reach the verdict service: .+\n$/);
      // The registry has no such route: a gateway from before simulations answers the same 404.
      const old = await arbiter('rules', 'plan', '-f', file('edited.yaml'), '--verdict-url', stack.registry.url, '--tenant', t.id);
      expect(old.code).toBe(0);
      expect(old.stdout).toMatch(/\nsimulation: unavailable: the verdict service has no simulation route \(404\)\n$/);
    });

    it('applies it: the registry then holds the file, the removed rule archived; a second apply changes nothing', async () => {
      const r = await arbiter('rules', 'apply', '-f', file('edited.yaml'));
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(
        new RegExp(
          `^scope ${scopeId}: 2 created, 1 updated, 1 archived, 0 unchanged\n  created   rul-\\S+ "Payouts are blocked"\n  created   rul-\\S+ "Card payments above 5,000 EUR need CFO approval"\n  updated   ${ids.big} "Transfers above 1,000 EUR are blocked"\n  archived  ${ids.refunds} "Refunds need CFO approval"\n$`,
        ),
      );
      const active = await reg.listRules(scopeId);
      expect(active.map((x) => [x.directive, x.severity, x.mode])).toEqual([
        ['Transfers above 1,000 EUR are blocked', 'MANDATORY', 'enforce'],
        ['Payouts are blocked', 'MANDATORY', 'enforce'],
        ['Card payments above 5,000 EUR need CFO approval', 'REQUIRES_APPROVAL', 'shadow'],
      ]);
      expect(active[0]).toMatchObject({ id: ids.big, version: 2, conditions: [{ field: 'transfer.amount', op: 'gt', value: 1000 }] });
      const archived = await reg.listRules(scopeId, { status: 'archived' });
      expect(archived.map((x) => x.id)).toEqual([ids.refunds]);

      const after = await versions();
      const again = await arbiter('rules', 'apply', '-f', file('edited.yaml'));
      expect(again.code).toBe(0);
      expect(again.stdout).toBe(`scope ${scopeId}: no changes (3 rules unchanged)\n`);
      expect(await versions()).toEqual(after);

      // The rules now decide: a 5,000 transfer is blocked by the updated rule.
      expect((await agent.check(transfer(5000))).verdict).toBe('blocked');
      // A fresh export (now with every id) applies without changes too.
      await arbiter('rules', 'export', '--scope', scopeId, '-o', file('again.yaml'));
      expect((await arbiter('rules', 'apply', '-f', file('again.yaml'))).stdout).toBe(`scope ${scopeId}: no changes (3 rules unchanged)\n`);
      expect(await versions()).toEqual(after);
    });
  });

  describe('errors', () => {
    it('exits 1 when the registry refuses (an agent key without manage_rules), and on an unknown scope', async () => {
      await writeFile(
        file('more.yaml'),
        `${await readFile(file('edited.yaml'), 'utf8')}  - {directive: Agents may not write this, severity: ADVISORY}\n`,
      );
      const refused = await arbiter('rules', 'apply', '-f', file('more.yaml'), '--api-key', t.agentKey);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/the registry service refused: 403/);
      const unknown = await arbiter('rules', 'export', '--scope', 'scp-000000000000000000000000');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/the registry service refused: 404/);
    });

    it('exits 2 with located problems for an invalid file, and for a directive that matches two rules', async () => {
      await writeFile(
        file('bad.yaml'),
        `scope: ${scopeId}\nrules:\n  - directive: X\n    severity: MANDATORY\n    conditions: [{field: amount, op: gt, value: lots}]\n`,
      );
      const bad = await arbiter('rules', 'plan', '-f', file('bad.yaml'));
      expect(bad.code).toBe(2);
      expect(bad.stderr).toBe(
        `arbiter: the rules file is not valid (1 problem):\n${file('bad.yaml')}:5:18: rules[0].conditions[0]: op gt needs a number or an ISO 8601 date or timestamp value\n`,
      );
      await reg.createRule(scopeId, { directive: 'Payouts are blocked', severity: 'MANDATORY' });
      await writeFile(file('ambiguous.yaml'), `scope: ${scopeId}\nrules:\n  - {directive: Payouts are blocked, severity: MANDATORY}\n`);
      const ambiguous = await arbiter('rules', 'apply', '-f', file('ambiguous.yaml'));
      expect(ambiguous.code).toBe(2);
      expect(ambiguous.stderr).toMatch(/the directive matches 2 active rules \(rul-\S+, rul-\S+\): name the one you mean with id/);
    });
  });

  describe('rules that remember', () => {
    it('applies limit and requires_prior, exports them back, plans nothing, then a changed window; rules test replays a sequence', async () => {
      const scope = (await reg.createScope({ name: 'refunds-rules', selector: { region: 'eu' } })).id;
      await writeFile(
        file('windows.yaml'),
        [
          `scope: ${scope}`,
          'rules:',
          '  - directive: At most 1500 EUR of refunds a day per agent',
          '    severity: MANDATORY',
          '    applies_to: {actions: [payments.refund]}',
          '    limit: {sum: parameters.amount, max: 1500, window: 24h, by: [principal]}',
          '  - directive: A refund only after a review of the same order',
          '    severity: REQUIRES_APPROVAL',
          '    applies_to: {actions: [payments.refund]}',
          '    requires_prior: {action: orders.review, within: 1h, same: [parameters.order_id]}',
          '',
        ].join('\n'),
      );
      const applied = await arbiter('rules', 'apply', '-f', file('windows.yaml'));
      expect([applied.code, applied.stdout.split('\n')[0]]).toEqual([0, `scope ${scope}: 2 created, 0 updated, 0 archived, 0 unchanged`]);
      const rules = await reg.listRules(scope);
      expect(rules.map((r) => [r.limit, r.requires_prior])).toEqual(
        expect.arrayContaining([
          [{ sum: 'parameters.amount', max: 1500, window: '24h', by: ['principal'] }, null],
          [null, { action: 'orders.review', within: '1h', same: ['parameters.order_id'] }],
        ]),
      );
      expect((await arbiter('rules', 'export', '--scope', scope, '-o', file('windows-exported.yaml'))).code).toBe(0);
      const exported = await readFile(file('windows-exported.yaml'), 'utf8');
      expect(exported).toContain('by: [principal]');
      expect(exported).toContain('same: [parameters.order_id]');
      const unchanged = await arbiter('rules', 'plan', '-f', file('windows-exported.yaml'), '--no-simulate');
      expect([unchanged.code, unchanged.stdout.split('\n')[0]]).toEqual([
        0,
        `scope ${scope}: 0 to create, 0 to update, 0 to archive, 2 unchanged`,
      ]);
      await writeFile(file('windows-wider.yaml'), exported.replace('window: 24h', 'window: 48h'));
      const wider = await arbiter('rules', 'plan', '-f', file('windows-wider.yaml'), '--no-simulate');
      expect(wider.stdout).toContain('0 to create, 1 to update, 0 to archive, 1 unchanged');
      expect(wider.stdout).toMatch(/limit: \{.*"window":"24h"\} → \{.*"window":"48h"\}/);

      await writeFile(
        file('windows-tests.yaml'),
        [
          'rules: windows.yaml',
          'tests:',
          '  - name: the day budget of one agent',
          '    action: payments.refund',
          '    resource: order:o-1',
          '    scope: {region: eu}',
          '    parameters: {amount: 1000, order_id: o-1}',
          '    sequence:',
          '      - {at: 2026-11-23T09:00:00Z, action: orders.review, expect: allowed}',
          '      - {at: 2026-11-23T09:10:00Z, expect: allowed}',
          '      - {at: 2026-11-23T09:20:00Z, expect: {verdict: blocked, rule: At most 1500 EUR of refunds a day per agent}}',
          '      - {at: 2026-11-23T09:30:00Z, give_back: 1}',
          '      - {at: 2026-11-23T09:40:00Z, expect: allowed}',
          '',
        ].join('\n'),
      );
      const tested = await cli({}, { offline: true })('rules', 'test', '-f', file('windows-tests.yaml'));
      expect([tested.code, tested.stdout]).toEqual([0, expect.stringMatching(/PASS  the day budget of one agent\n[-]+\nPASS: 1\/1\n$/)]);
    });
  });

  describe('rules test', () => {
    const example = path.join(root, 'examples/rules-repo/tests.yaml');

    it('passes the examples/rules-repo test file (exit 0), with no server at all', async () => {
      const offline = cli({}, { offline: true });
      const r = await offline('rules', 'test', '-f', example);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/\nPASS: (\d+)\/\1\n$/);
      expect(r.stdout).not.toContain('FAIL');
    });

    it('exits 1 on a failing case and on an invalid test file', async () => {
      await writeFile(
        file('rules-test.yaml'),
        `scope: ${scopeId}\nrules:\n  - {directive: Payouts are blocked, severity: MANDATORY, applies_to: {actions: [payments.payout]}}\n`,
      );
      await writeFile(
        file('tests.yaml'),
        'rules: rules-test.yaml\ntests:\n  - {name: payouts pass, action: payments.payout, resource: r, expect: allowed}\n  - {name: refunds pass, action: payments.refund, resource: r, expect: allowed}\n',
      );
      const failing = await arbiter('rules', 'test', '-f', file('tests.yaml'));
      expect(failing.code).toBe(1);
      expect(failing.stdout).toContain(
        'FAIL  payouts pass\n        expected allowed, got blocked (dominating rule: rules-test.yaml#rules[0] "Payouts are blocked")\nPASS  refunds pass\n',
      );
      expect(failing.stdout).toMatch(/PASS: 1\/2\nFAIL: 1\/2\n$/);
      await writeFile(file('tests-bad.yaml'), 'rules: rules-test.yaml\ntests:\n  - {name: x, action: a, resource: r}\n');
      const invalid = await arbiter('rules', 'test', '-f', file('tests-bad.yaml'));
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toContain('tests-bad.yaml:3:5: tests[0].expect: expect is required');
      expect((await arbiter('rules', 'test', '-f', file('nowhere.yaml'))).code).toBe(1);
    });

    it('runs from the built bin as a user runs it', async () => {
      const bin = await buildBin(file('arbiter.js'));
      const r = await runBin(bin, ['rules', 'test', '-f', example]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/\nPASS: (\d+)\/\1\n$/);
    });
  });
});
