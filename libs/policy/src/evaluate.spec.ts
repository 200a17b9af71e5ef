import { createHash } from 'node:crypto';
import { compilePolicy } from './compile';
import { evaluate, resolvedTargetId } from './evaluate';
import type {
  CompleteEvaluation,
  EngineOverride,
  EngineRule,
  EvaluationRequest,
  EvaluationResult,
  IncompleteEvaluation,
  InsufficientContext,
  TenantPolicy,
} from './types';

const T0 = '2026-01-01T00:00:00Z';
const NOW = Date.parse('2026-06-01T00:00:00Z');

function rule(id: string, extra: Partial<EngineRule> = {}): EngineRule {
  return { rule_id: `rul-${id}`, rule_version_id: `rv-${id}`, selector: {}, severity: 'MANDATORY', version_created_at: T0, ...extra };
}

function override(id: string, targets: string[], extra: Partial<EngineOverride> = {}): EngineOverride {
  return { id: `ovr-${id}`, target_rule_ids: targets, applies_to_scope: {}, expires_at: null, type: 'temporary', ...extra };
}

interface Setup {
  rules: EngineRule[];
  overrides?: EngineOverride[];
  settings?: TenantPolicy;
  now?: number;
}

function run(setup: Setup, req: Partial<EvaluationRequest> = {}): EvaluationResult {
  const policy = compilePolicy(setup.rules, setup.overrides ?? [], setup.settings ?? {});
  return evaluate(
    policy,
    { mode: 'check', action: 'payments.transfer', resource: 'acct:eu/1', scope: { region: 'eu', env: 'prod' }, ...req },
    setup.now ?? NOW,
  );
}

function complete(r: EvaluationResult): CompleteEvaluation {
  expect(r.status).toBe('complete');
  return r as CompleteEvaluation;
}
function insufficient(r: EvaluationResult): InsufficientContext {
  expect(r.status).toBe('insufficient_context');
  return r as InsufficientContext;
}
function incomplete(r: EvaluationResult): IncompleteEvaluation {
  expect(r.status).toBe('incomplete');
  return r as IncompleteEvaluation;
}
const reasons = (r: { precedence_trace: { rule_id: string; reason: string }[] }) =>
  Object.fromEntries(r.precedence_trace.map((e) => [e.rule_id, e.reason]));
const order = (r: { precedence_trace: { rule_id: string }[] }) => r.precedence_trace.map((e) => e.rule_id);

describe(evaluate.name, () => {
  describe('candidate selection', () => {
    it('takes rules whose selector the scope contains, and grades the match exact, partial or tenant', () => {
      const sut = complete(
        run({
          rules: [
            rule('exact', { severity: 'ALLOW', selector: { region: 'eu', env: 'prod' } }),
            rule('partial', { severity: 'ALLOW', selector: { region: 'eu' } }),
            rule('tenant', { severity: 'ALLOW' }),
            rule('other-region', { severity: 'ALLOW', selector: { region: 'us' } }),
            rule('wider', { severity: 'ALLOW', selector: { region: 'eu', env: 'prod', team: 'ops' } }),
          ],
        }),
      );
      expect(sut.precedence_trace.map((e) => [e.rule_id, e.scope_match])).toEqual([
        ['rul-exact', 'exact'],
        ['rul-partial', 'partial'],
        ['rul-tenant', 'tenant'],
      ]);
    });

    it('compares selector values strictly (1 is not "1")', () => {
      const sut = complete(run({ rules: [rule('a', { selector: { tier: 1 } })] }, { scope: { tier: '1' } }));
      expect(sut.precedence_trace).toEqual([]);
      expect(sut.verdict).toBe('allowed');
    });

    it('grades an empty selector tenant even against an empty scope', () => {
      const sut = complete(run({ rules: [rule('a')] }, { scope: {} }));
      expect(sut.precedence_trace[0].scope_match).toBe('tenant');
    });

    it('leaves out rules for other actions and lists rules for other resources as not_applicable', () => {
      const sut = complete(
        run({
          rules: [
            rule('refunds', { applies_to: { actions: ['payments.refund'] } }),
            rule('us-accounts', { applies_to: { actions: ['payments.*'], resources: ['acct:us/*'] } }),
            rule('eu-accounts', { severity: 'ADVISORY', applies_to: { actions: ['payments.*'], resources: ['acct:eu/*'] } }),
          ],
        }),
      );
      expect(reasons(sut)).toEqual({ 'rul-us-accounts': 'not_applicable', 'rul-eu-accounts': 'fires' });
      expect(sut.verdict).toBe('observe');
      expect(sut.cited_rule_ids).toEqual(['rul-eu-accounts']);
    });

    it('treats absent and empty applies_to lists as every action and resource', () => {
      const sut = complete(run({ rules: [rule('a', { applies_to: { actions: [], resources: [] } }), rule('b', { applies_to: null })] }));
      expect(reasons(sut)).toEqual({ 'rul-a': 'fires', 'rul-b': 'fires' });
    });
  });

  describe('conditions', () => {
    const params = { transfer: { amount: 5000, currency: 'EUR' }, beneficiary: { country: 'DE' } };

    it('fires when every row holds (condition_mode all, the default)', () => {
      const sut = complete(
        run(
          {
            rules: [
              rule('big-eur', {
                conditions: [
                  { field: 'transfer.amount', op: 'gte', value: 1000 },
                  { field: 'transfer.currency', op: 'eq', value: 'EUR' },
                ],
              }),
              rule('big-usd', {
                conditions: [
                  { field: 'transfer.amount', op: 'gte', value: 1000 },
                  { field: 'transfer.currency', op: 'eq', value: 'USD' },
                ],
              }),
            ],
          },
          { parameters: params },
        ),
      );
      expect(reasons(sut)).toEqual({ 'rul-big-eur': 'fires', 'rul-big-usd': 'condition_false' });
    });

    it('fires when one row holds with condition_mode any', () => {
      const rows = [
        { field: 'beneficiary.country', op: 'in' as const, value: ['IR', 'KP'] },
        { field: 'transfer.amount', op: 'gt' as const, value: 1000 },
      ];
      expect(reasons(complete(run({ rules: [rule('a', { condition_mode: 'any', conditions: rows })] }, { parameters: params })))).toEqual({
        'rul-a': 'fires',
      });
      const none = { transfer: { amount: 10 }, beneficiary: { country: 'DE' } };
      expect(reasons(complete(run({ rules: [rule('a', { condition_mode: 'any', conditions: rows })] }, { parameters: none })))).toEqual({
        'rul-a': 'condition_false',
      });
    });

    it('fires unconditionally without rows, in either mode', () => {
      const sut = complete(run({ rules: [rule('a'), rule('b', { condition_mode: 'any', conditions: [] })] }));
      expect(reasons(sut)).toEqual({ 'rul-a': 'fires', 'rul-b': 'fires' });
    });

    it('reads action, resource and scope fields in conditions', () => {
      const sut = complete(
        run({
          rules: [
            rule('a', {
              conditions: [
                { field: 'action', op: 'starts_with', value: 'payments.' },
                { field: 'resource', op: 'eq', value: 'acct:eu/1' },
                { field: 'scope.env', op: 'eq', value: 'prod' },
              ],
            }),
          ],
        }),
      );
      expect(sut.verdict).toBe('blocked');
    });
  });

  describe('verdicts', () => {
    it.each([
      ['MANDATORY', 'blocked', 'block'],
      ['REQUIRES_APPROVAL', 'approval_required', 'approval'],
      ['ADVISORY', 'observe', 'observe'],
      ['ALLOW', 'allowed', 'allow'],
    ] as const)('a firing %s rule gives %s, written %s in the trace', (severity, verdict, label) => {
      const sut = complete(run({ rules: [rule('a', { severity })] }));
      expect(sut.verdict).toBe(verdict);
      expect(sut.dominating_rule_id).toBe('rul-a');
      expect(sut.dominating_rule_version_id).toBe('rv-a');
      expect(sut.precedence_trace).toEqual([
        {
          rule_id: 'rul-a',
          rule_version_id: 'rv-a',
          severity: label,
          scope_match: 'tenant',
          reason: 'fires',
          decided_by: 'only_candidate',
        },
      ]);
    });

    it('returns a tenant-defined verdict string of the dominating rule', () => {
      const sut = complete(run({ rules: [rule('a', { severity: 'ADVISORY', verdict: 'escalate_to_compliance' })] }));
      expect(sut.verdict).toBe('escalate_to_compliance');
    });

    it('returns the tenant default when no rule fires: allowed unless set', () => {
      const none = { rules: [rule('a', { conditions: [{ field: 'action', op: 'eq', value: 'other' }] })] };
      const sut = complete(run(none));
      expect(sut).toMatchObject({
        verdict: 'allowed',
        dominating_rule_id: null,
        dominating_rule_version_id: null,
        cited_rule_ids: [],
        triggers: [],
      });
      expect(sut.precedence_trace[0].decided_by).toBeUndefined();
      expect(complete(run({ ...none, settings: { default_verdict: 'deny_unlisted' } })).verdict).toBe('deny_unlisted');
      expect(complete(run({ rules: [], settings: { default_verdict: 'observe' } })).verdict).toBe('observe');
    });
  });

  describe('precedence', () => {
    it('ranks by severity first: block > approval > observe > allow', () => {
      const sut = complete(
        run({
          rules: [
            rule('allow', { severity: 'ALLOW', selector: { region: 'eu', env: 'prod' }, priority: 99 }),
            rule('observe', { severity: 'ADVISORY' }),
            rule('block', { severity: 'MANDATORY' }),
            rule('approval', { severity: 'REQUIRES_APPROVAL' }),
          ],
        }),
      );
      expect(order(sut)).toEqual(['rul-block', 'rul-approval', 'rul-observe', 'rul-allow']);
      expect(sut.precedence_trace[0].decided_by).toBe('severity');
      expect(sut.verdict).toBe('blocked');
    });

    it('then, at equal severity, by the stricter verdict: blocked > tenant-defined > approval_required, whatever the scopes', () => {
      // A rule written for one scope cannot turn a tenant-wide block into an approval by matching the scope better.
      const sut = complete(
        run({
          rules: [
            rule('scoped', { selector: { env: 'prod', region: 'eu' }, verdict: 'approval_required', deciders: ['role-own'], priority: 99 }),
            rule('custom', { selector: { env: 'prod' }, verdict: 'escalate', priority: 50 }),
            rule('tenant', {}),
          ],
        }),
      );
      expect(order(sut)).toEqual(['rul-tenant', 'rul-custom', 'rul-scoped']);
      expect(sut.precedence_trace[0].decided_by).toBe('verdict');
      expect(sut).toMatchObject({ verdict: 'blocked', dominating_rule_id: 'rul-tenant', triggers: [], candidate_deciders: [] });
      // Without the block, the tenant-defined verdict outranks the approval.
      const custom = complete(
        run({
          rules: [rule('scoped', { selector: { region: 'eu' }, verdict: 'approval_required' }), rule('custom', { verdict: 'escalate' })],
        }),
      );
      expect(custom).toMatchObject({ verdict: 'escalate', dominating_rule_id: 'rul-custom' });
      // An approval rule that answers blocked outranks the approval rules that ask for one.
      const approvals = complete(
        run({
          rules: [
            rule('ask', { severity: 'REQUIRES_APPROVAL', selector: { region: 'eu' }, deciders: ['role-a'] }),
            rule('stop', { severity: 'REQUIRES_APPROVAL', verdict: 'blocked' }),
          ],
        }),
      );
      expect(order(approvals)).toEqual(['rul-stop', 'rul-ask']);
      expect(approvals).toMatchObject({ verdict: 'blocked', dominating_rule_id: 'rul-stop' });
      expect(approvals.precedence_trace[0].decided_by).toBe('verdict');
      // The severity still comes first: an approval rule answering blocked ranks below every MANDATORY rule.
      const severity = complete(
        run({ rules: [rule('stop', { severity: 'REQUIRES_APPROVAL', verdict: 'blocked' }), rule('held', { verdict: 'held' })] }),
      );
      expect(order(severity)).toEqual(['rul-held', 'rul-stop']);
      expect(severity.precedence_trace[0].decided_by).toBe('severity');
    });

    it('then by scope match: exact > partial > tenant', () => {
      const sut = complete(
        run({
          rules: [
            rule('tenant', { priority: 10, version_created_at: '2026-05-01T00:00:00Z' }),
            rule('partial', { selector: { env: 'prod' }, priority: 5 }),
            rule('exact', { selector: { env: 'prod', region: 'eu' } }),
          ],
        }),
      );
      expect(order(sut)).toEqual(['rul-exact', 'rul-partial', 'rul-tenant']);
      expect(sut.precedence_trace[0].decided_by).toBe('scope_match');
      expect(sut.dominating_rule_id).toBe('rul-exact');
    });

    it('then by priority, higher first, absent counting as 0', () => {
      const sut = complete(
        run({
          rules: [
            rule('none', { version_created_at: '2026-05-01T00:00:00Z' }),
            rule('negative', { priority: -1, version_created_at: '2026-05-02T00:00:00Z' }),
            rule('high', { priority: 3 }),
          ],
        }),
      );
      expect(order(sut)).toEqual(['rul-high', 'rul-none', 'rul-negative']);
      expect(sut.precedence_trace[0].decided_by).toBe('priority');
      const second = complete(
        run({ rules: [rule('none'), rule('negative', { priority: -1, version_created_at: '2026-05-02T00:00:00Z' })] }),
      );
      expect(second.dominating_rule_id).toBe('rul-none');
      expect(second.precedence_trace[0].decided_by).toBe('priority');
    });

    it('then by the newer rule version', () => {
      const sut = complete(
        run({
          rules: [
            rule('old', { version_created_at: '2026-01-01T00:00:00Z' }),
            rule('new', { version_created_at: '2026-01-01T00:00:00.001Z' }),
          ],
        }),
      );
      expect(sut.dominating_rule_id).toBe('rul-new');
      expect(sut.precedence_trace[0].decided_by).toBe('recency');
    });

    it('finally by the greater rule_version_id, so that the order is total', () => {
      const sut = complete(run({ rules: [rule('a', { rule_version_id: 'rv-01B' }), rule('b', { rule_version_id: 'rv-01C' })] }));
      expect(sut.dominating_rule_id).toBe('rul-b');
      expect(sut.precedence_trace[0].decided_by).toBe('rule_version_id');
    });

    it('compares the dominator with the next firing rule only', () => {
      const sut = complete(
        run(
          {
            rules: [
              rule('block-if-sanctioned', { conditions: [{ field: 'sanctioned', op: 'eq', value: true }] }),
              rule('observe', { severity: 'ADVISORY' }),
              rule('allow', { severity: 'ALLOW' }),
            ],
          },
          { parameters: { sanctioned: false } },
        ),
      );
      expect(sut.dominating_rule_id).toBe('rul-observe');
      expect(sut.precedence_trace.map((e) => e.decided_by)).toEqual([undefined, 'severity', undefined]);
    });

    it('says only_candidate when a single rule fires', () => {
      const sut = complete(
        run({ rules: [rule('a', { severity: 'ALLOW' }), rule('b', { conditions: [{ field: 'action', op: 'eq', value: 'x' }] })] }),
      );
      expect(sut.precedence_trace.find((e) => e.rule_id === 'rul-a')!.decided_by).toBe('only_candidate');
    });

    it('cites the firing rules in precedence order', () => {
      const sut = complete(
        run({
          rules: [
            rule('allow', { severity: 'ALLOW' }),
            rule('block'),
            rule('no', { conditions: [{ field: 'action', op: 'eq', value: 'x' }] }),
          ],
        }),
      );
      expect(sut.cited_rule_ids).toEqual(['rul-block', 'rul-allow']);
      expect(sut.cited_rule_version_ids).toEqual(['rv-block', 'rv-allow']);
    });
  });

  describe('overrides', () => {
    const rules = [rule('block', { statement: 'No transfers today' }), rule('allow', { severity: 'ALLOW' })];

    it('neutralises the target rule while in effect, and cites it with the override', () => {
      const sut = complete(run({ rules, overrides: [override('1', ['rul-block'], { expires_at: '2026-06-02T00:00:00Z' })] }));
      expect(sut.verdict).toBe('allowed');
      expect(sut.dominating_rule_id).toBe('rul-allow');
      expect(sut.precedence_trace[0]).toEqual({
        rule_id: 'rul-block',
        rule_version_id: 'rv-block',
        severity: 'block',
        scope_match: 'tenant',
        reason: 'overridden',
        overridden_by: 'ovr-1',
      });
      expect(sut.precedence_trace[1].decided_by).toBe('only_candidate');
      expect(sut.cited_rule_ids).toEqual(['rul-block', 'rul-allow']);
      expect(sut.applied_override_ids).toEqual(['ovr-1']);
    });

    it('has no effect from expires_at on', () => {
      const expired = run({ rules, overrides: [override('1', ['rul-block'], { expires_at: '2026-06-01T00:00:00Z' })] });
      expect(complete(expired).verdict).toBe('blocked');
      expect(complete(expired).applied_override_ids).toEqual([]);
    });

    it('has no effect before created_at, and none after expiry when it never expires', () => {
      expect(complete(run({ rules, overrides: [override('1', ['rul-block'], { created_at: '2026-06-01T00:00:01Z' })] })).verdict).toBe(
        'blocked',
      );
      expect(complete(run({ rules, overrides: [override('1', ['rul-block'], { created_at: T0, expires_at: null })] })).verdict).toBe(
        'allowed',
      );
    });

    it('applies only where the request scope contains applies_to_scope', () => {
      const at = (applies_to_scope: Record<string, string>) =>
        complete(run({ rules, overrides: [override('1', ['rul-block'], { applies_to_scope })] })).verdict;
      expect(at({ region: 'eu' })).toBe('allowed');
      expect(at({ region: 'eu', env: 'prod' })).toBe('allowed');
      expect(at({})).toBe('allowed');
      expect(at({ region: 'us' })).toBe('blocked');
      expect(at({ region: 'eu', team: 'ops' })).toBe('blocked');
    });

    it('touches only the rules it targets', () => {
      expect(complete(run({ rules, overrides: [override('1', ['rul-allow', 'rul-elsewhere'])] })).verdict).toBe('blocked');
    });

    it('reports the first override by id when several apply', () => {
      const sut = complete(run({ rules, overrides: [override('b', ['rul-block']), override('a', ['rul-block'])] }));
      expect(sut.precedence_trace[0].overridden_by).toBe('ovr-a');
    });

    describe('conditions (CEL)', () => {
      const conditional = (conditions: string | null, extra: Partial<EngineOverride> = {}) =>
        override('c', ['rul-block'], { type: 'conditional', conditions, ...extra });
      const check = (conditions: string | null, parameters: Record<string, unknown>, extra: Partial<EngineOverride> = {}) =>
        complete(run({ rules, overrides: [conditional(conditions, extra)] }, { parameters }));

      it('neutralises only operations for which the conditions hold', () => {
        const cond = 'amount < 20 && currency == "EUR"';
        expect(check(cond, { amount: 5, currency: 'EUR' }).verdict).toBe('allowed');
        const sut = check(cond, { amount: 999999, currency: 'USD' });
        expect(sut.verdict).toBe('blocked');
        expect(sut.applied_override_ids).toEqual([]);
        expect(sut.precedence_trace[0]).toMatchObject({
          rule_id: 'rul-block',
          reason: 'fires',
          overrides_not_applied: [{ override_id: 'ovr-c', reason: 'override_condition_false' }],
        });
      });

      it('fails closed when a name the conditions read is absent, and says which', () => {
        const sut = check('amount < 20 && currency == "EUR"', { amount: 5 });
        expect(sut.verdict).toBe('blocked');
        expect(sut.precedence_trace[0].overrides_not_applied).toEqual([
          { override_id: 'ovr-c', reason: 'override_condition_missing', missing_fields: ['currency'] },
        ]);
      });

      it('fails closed on an evaluation error or a non-boolean result', () => {
        const err = check('amount < 20', { amount: 'lots' });
        expect(err.verdict).toBe('blocked');
        expect(err.precedence_trace[0].overrides_not_applied?.[0]).toMatchObject({
          reason: 'override_condition_error',
          error: expect.stringMatching(/overload/),
        });
        expect(check('note', { note: 'x' }).precedence_trace[0].overrides_not_applied?.[0]).toMatchObject({
          reason: 'override_condition_error',
        });
        expect(check('amount < 20', { amount: null }).verdict).toBe('blocked');
      });

      it('never applies a conditional override without conditions, or with conditions that do not parse', () => {
        for (const bad of [null, '', 'free text here', 'amount <']) {
          const sut = check(bad, { amount: 1 });
          expect(sut.verdict).toBe('blocked');
          expect(sut.precedence_trace[0].overrides_not_applied?.[0]).toMatchObject({
            override_id: 'ovr-c',
            reason: 'override_condition_error',
          });
        }
      });

      it('binds the other override types too when they carry conditions', () => {
        expect(check('amount < 20', { amount: 50 }, { type: 'temporary', expires_at: '2026-07-01T00:00:00Z' }).verdict).toBe('blocked');
        expect(check('amount < 20', { amount: 5 }, { type: 'temporary', expires_at: '2026-07-01T00:00:00Z' }).verdict).toBe('allowed');
      });

      it('reads what the rules read: Facts by dot path before parameters, nested parameters, scope, action and resource', () => {
        const cond = 'transfer.amount <= 100 && scope.region == "eu" && action.startsWith("payments.") && resource == "acct:eu/1"';
        expect(check(cond, { transfer: { amount: 100 } }).verdict).toBe('allowed');
        expect(check(cond, { transfer: { amount: 101 } }).verdict).toBe('blocked');
        const fact = complete(
          run(
            { rules, overrides: [conditional(cond)] },
            { parameters: { transfer: { amount: 5 } }, context: { 'transfer.amount': { value: 500, source: 'crm' } } },
          ),
        );
        expect(fact.verdict).toBe('blocked');
        // A parameter named like a request field cannot stand in for it.
        expect(check('action == "forged"', { action: 'forged' }).verdict).toBe('blocked');
      });

      it('does not apply when it reads a path whole while a context Fact names a path below it (one value per path)', () => {
        const risky = [
          rule('block', {
            conditions: [{ field: 'risk.score', op: 'gt', value: 80 }],
            requires: [{ field: 'risk.score', type: 'number', reason: 'score' }],
          }),
        ];
        const context = {
          'risk.score': { value: 90, source: 'risk-engine', verification_status: 'verified' as const },
          risk: { value: { score: 10 }, source: 'agent' },
        };
        for (const cond of ['has(risk.score) && risk.score < 50.0', 'risk["score"] < 50.0']) {
          const sut = complete(run({ rules: risky, overrides: [conditional(cond)] }, { context }));
          expect(sut.verdict).toBe('blocked');
          expect(sut.precedence_trace[0].overrides_not_applied).toEqual([
            {
              error: 'the expression reads risk whole, and the context Fact risk.score names a path below it: one value per path',
              override_id: 'ovr-c',
              reason: 'override_condition_error',
            },
          ]);
        }
        // The same expression over one consistent value still applies.
        const alone = complete(
          run({ rules: risky, overrides: [conditional('has(risk.score) && risk.score < 50.0')] }, { parameters: { risk: { score: 10 } } }),
        );
        expect(alone.verdict).toBe('allowed');
      });

      it('reads a field with the Requirements of the rule it would lift: a source the rule does not accept lifts nothing', () => {
        const vouched = [
          rule('block', {
            conditions: [{ field: 'score', op: 'gt', value: 80 }],
            requires: [
              {
                field: 'score',
                type: 'number',
                acceptable_sources: ['ledger'],
                source_requirement: 'verified',
                reason: 'score via the ledger',
              },
            ],
          }),
        ];
        const lift = conditional('score < 50.0');
        // The agent's own number: the rule wants the ledger's, so the check lacks context (it was allowed, lifted).
        for (const req of [{ context: { score: { value: 10, source: 'agent' } } }, { parameters: { score: 10 } }]) {
          const sut = insufficient(run({ rules: vouched, overrides: [lift] }, req));
          expect(sut.missing_fields).toEqual([
            expect.objectContaining({ field: 'score', problems: [expect.stringMatching(/^(not_verified|source_not_accepted)$/)] }),
          ]);
          expect(sut.precedence_trace[0].overrides_not_applied).toEqual([
            { missing_fields: ['score'], override_id: 'ovr-c', reason: 'override_condition_missing' },
          ]);
        }
        // A field the rule puts no Requirement on is read as it comes.
        const plain = [rule('block', { conditions: [{ field: 'score', op: 'gt', value: 80 }] })];
        expect(
          complete(run({ rules: plain, overrides: [conditional('note == "ok"')] }, { parameters: { score: 90, note: 'ok' } })).verdict,
        ).toBe('allowed');
      });

      it('lets another override that holds neutralise the rule, and then reports no misses', () => {
        const sut = complete(
          run(
            {
              rules,
              overrides: [conditional('amount < 20'), override('d', ['rul-block'], { type: 'conditional', conditions: 'amount < 100' })],
            },
            { parameters: { amount: 50 } },
          ),
        );
        expect(sut.verdict).toBe('allowed');
        expect(sut.precedence_trace[0]).toMatchObject({ reason: 'overridden', overridden_by: 'ovr-d' });
        expect(sut.precedence_trace[0].overrides_not_applied).toBeUndefined();
      });

      it('in resolve, asks for a field the conditions need when the override could change the verdict', () => {
        const policy = { rules, overrides: [conditional('amount < 20 && currency == "EUR"')] };
        const first = incomplete(run(policy, { mode: 'resolve', context: { amount: { value: 5, source: 'agent' } } }));
        expect(first.required_context.map((f) => f.field)).toEqual(['currency']);
        expect(first.required_context[0].reason).toMatch(/ovr-c/);
        const held = complete(
          run(policy, { mode: 'resolve', context: { amount: { value: 5, source: 'agent' }, currency: { value: 'EUR', source: 'agent' } } }),
        );
        expect(held.verdict).toBe('allowed');
        const notHeld = complete(
          run(policy, { mode: 'resolve', context: { amount: { value: 5, source: 'agent' }, currency: { value: 'USD', source: 'agent' } } }),
        );
        expect(notHeld.verdict).toBe('blocked');
      });

      it('in resolve, does not ask for override fields of a rule that cannot decide', () => {
        const ranked = [rule('top', { priority: 10 }), rule('block')];
        const sut = complete(run({ rules: ranked, overrides: [conditional('amount < 20')] }, { mode: 'resolve', context: {} }));
        expect(sut.verdict).toBe('blocked');
        expect(sut.dominating_rule_id).toBe('rul-top');
      });
    });

    describe('approval grants', () => {
      const approvalRules = [
        rule('big', {
          severity: 'REQUIRES_APPROVAL',
          conditions: [{ field: 'amount', op: 'gt', value: 10000 }],
          deciders: ['role-cfo', 'hum-alice'],
          statement: 'Transfers above 10,000 need a CFO',
        }),
        rule('new-payee', {
          severity: 'REQUIRES_APPROVAL',
          conditions: [{ field: 'payee_is_new', op: 'eq', value: true }],
          deciders: ['role-cfo', 'role-security'],
          statement: 'New payees need security review',
        }),
      ];

      it('an approval_grant on the triggering rule turns approval_required into the verdict below it', () => {
        const before = complete(run({ rules: approvalRules }, { parameters: { amount: 20000, payee_is_new: false } }));
        expect(before.verdict).toBe('approval_required');
        expect(before.triggers).toEqual([{ rule_id: 'rul-big', rule_version_id: 'rv-big', reason: 'Transfers above 10,000 need a CFO' }]);
        const grant = override('g', ['rul-big'], {
          type: 'approval_grant',
          applies_to_scope: { region: 'eu' },
          expires_at: '2026-06-01T01:00:00Z',
        });
        const after = complete(run({ rules: approvalRules, overrides: [grant] }, { parameters: { amount: 20000, payee_is_new: false } }));
        expect(after.verdict).toBe('allowed');
        expect(reasons(after)).toEqual({ 'rul-big': 'overridden', 'rul-new-payee': 'condition_false' });
      });

      it('a grant does not cover a new trigger: approval_required again, for the new rule only', () => {
        const grant = override('g', ['rul-big'], { type: 'approval_grant' });
        const sut = complete(run({ rules: approvalRules, overrides: [grant] }, { parameters: { amount: 20000, payee_is_new: true } }));
        expect(sut.verdict).toBe('approval_required');
        expect(sut.triggers.map((t) => t.rule_id)).toEqual(['rul-new-payee']);
        expect(sut.candidate_deciders).toEqual(['role-cfo', 'role-security']);
      });

      it('a grant bound to a rule version lifts that version only: the rule made MANDATORY since blocks', () => {
        const grant = override('g', ['rul-big'], { type: 'approval_grant', target_rule_version_ids: ['rv-big'] });
        const params = { parameters: { amount: 20000, payee_is_new: false } };
        expect(complete(run({ rules: approvalRules, overrides: [grant] }, params)).verdict).toBe('allowed');
        const hardened = [{ ...approvalRules[0], rule_version_id: 'rv-big-2', severity: 'MANDATORY' as const }, approvalRules[1]];
        const sut = complete(run({ rules: hardened, overrides: [grant] }, params));
        expect(sut.verdict).toBe('blocked');
        expect(sut.precedence_trace.find((e) => e.rule_id === 'rul-big')).toMatchObject({
          reason: 'fires',
          overrides_not_applied: [{ override_id: 'ovr-g', reason: 'override_rule_changed' }],
        });
        // Another version that still asks for approval is not lifted either: it is a rule nobody approved.
        const reworded = [{ ...approvalRules[0], rule_version_id: 'rv-big-2' }, approvalRules[1]];
        expect(complete(run({ rules: reworded, overrides: [grant] }, params)).verdict).toBe('approval_required');
      });

      it('a one-shot approval lifts the rule versions it names, not a newer version of the same rule', () => {
        const policy = compilePolicy(approvalRules, [], {});
        const req: EvaluationRequest = {
          mode: 'check',
          action: 'payments.transfer',
          resource: 'acct:eu/1',
          scope: { region: 'eu' },
          parameters: { amount: 20000, payee_is_new: false },
        };
        expect(complete(evaluate(policy, req, NOW, { approvalId: 'apr-1', ruleVersionIds: new Set(['rv-big']) })).verdict).toBe('allowed');
        const changed = compilePolicy([{ ...approvalRules[0], rule_version_id: 'rv-big-2' }, approvalRules[1]], [], {});
        expect(complete(evaluate(changed, req, NOW, { approvalId: 'apr-1', ruleVersionIds: new Set(['rv-big']) })).verdict).toBe(
          'approval_required',
        );
      });
    });
  });

  describe('approval triggers', () => {
    it('lists every approval rule that fired and the union of their deciders', () => {
      const sut = complete(
        run({
          rules: [
            rule('a', { severity: 'REQUIRES_APPROVAL', deciders: ['role-cfo', 'hum-1'], priority: 2 }),
            rule('b', { severity: 'REQUIRES_APPROVAL', deciders: ['hum-1', 'role-risk'] }),
            rule('c', { severity: 'ADVISORY', deciders: ['hum-9'] }),
            rule('d', { severity: 'REQUIRES_APPROVAL', deciders: ['hum-x'], conditions: [{ field: 'action', op: 'eq', value: 'x' }] }),
          ],
        }),
      );
      expect(sut.verdict).toBe('approval_required');
      expect(sut.triggers).toEqual([
        { rule_id: 'rul-a', rule_version_id: 'rv-a', reason: 'fires' },
        { rule_id: 'rul-b', rule_version_id: 'rv-b', reason: 'fires' },
      ]);
      expect(sut.candidate_deciders).toEqual(['role-cfo', 'hum-1', 'role-risk']);
    });

    it('has none when a blocking rule dominates', () => {
      const sut = complete(run({ rules: [rule('block'), rule('a', { severity: 'REQUIRES_APPROVAL', deciders: ['role-cfo'] })] }));
      expect(sut.verdict).toBe('blocked');
      expect(sut.triggers).toEqual([]);
      expect(sut.candidate_deciders).toEqual([]);
    });

    it('answers its severity for a blocking rule stored with a go-ahead verdict (refused at write since): fail closed', () => {
      for (const [severity, implied] of [
        ['MANDATORY', 'blocked'],
        ['REQUIRES_APPROVAL', 'approval_required'],
      ] as const) {
        const sut = complete(
          run({ rules: [rule('lift', { severity, verdict: 'allowed', priority: 100 }), rule('other', { severity, priority: 1 })] }),
        );
        expect({ severity, verdict: sut.verdict, by: sut.dominating_rule_id }).toEqual({ severity, verdict: implied, by: 'rul-lift' });
      }
      expect(complete(run({ rules: [rule('a', { severity: 'ADVISORY', verdict: 'allowed' })] })).verdict).toBe('allowed');
    });

    it('includes a dominator that returns approval_required as its tenant verdict', () => {
      const sut = complete(
        run({
          rules: [
            rule('m', { verdict: 'approval_required', deciders: ['role-ciso'] }),
            rule('a', { severity: 'REQUIRES_APPROVAL', deciders: ['role-cfo'] }),
          ],
        }),
      );
      expect(sut.triggers.map((t) => t.rule_id)).toEqual(['rul-m', 'rul-a']);
      expect(sut.candidate_deciders).toEqual(['role-ciso', 'role-cfo']);
    });
  });

  describe('resolved targets', () => {
    it('names the resource with tgt- and 32 hex digits of its SHA-256', () => {
      const sut = complete(run({ rules: [] }, { resource: 'acct:eu/42' }));
      const expected = `tgt-${createHash('sha256').update('acct:eu/42', 'utf8').digest('hex').slice(0, 32)}`;
      expect(sut.resolved_target_ids).toEqual([expected]);
      expect(resolvedTargetId('acct:eu/42')).toBe(expected);
      expect(resolvedTargetId('acct:eu/43')).not.toBe(expected);
    });
  });

  describe('check', () => {
    const amountRule = rule('big', { severity: 'REQUIRES_APPROVAL', conditions: [{ field: 'transfer.amount', op: 'gt', value: 10000 }] });

    it('answers insufficient_context when a candidate needs an absent field', () => {
      const sut = insufficient(run({ rules: [amountRule] }, { parameters: {} }));
      expect(sut.missing_fields).toEqual([
        { field: 'transfer.amount', reason: 'absent; required by rul-big', type: 'number', rule_ids: ['rul-big'], problems: ['absent'] },
      ]);
      expect(sut.precedence_trace).toEqual([
        {
          rule_id: 'rul-big',
          rule_version_id: 'rv-big',
          severity: 'approval',
          scope_match: 'tenant',
          reason: 'missing_context',
          missing_fields: ['transfer.amount'],
        },
      ]);
    });

    it('is strict: a missing field fails the check even when a blocking rule already fires', () => {
      const sut = insufficient(run({ rules: [rule('block-all'), amountRule] }, { parameters: {} }));
      expect(sut.missing_fields.map((m) => m.field)).toEqual(['transfer.amount']);
      expect(reasons(sut)).toEqual({ 'rul-block-all': 'fires', 'rul-big': 'missing_context' });
    });

    it('is strict: every field a rule names is needed, even when another row already settles it', () => {
      const r = rule('a', {
        conditions: [
          { field: 'transfer.amount', op: 'gt', value: 10000 },
          { field: 'beneficiary.country', op: 'eq', value: 'KP' },
        ],
      });
      const sut = insufficient(run({ rules: [r] }, { parameters: { transfer: { amount: 5 } } }));
      expect(sut.missing_fields.map((m) => m.field)).toEqual(['beneficiary.country']);
    });

    it('does not need the fields of overridden rules or of rules for other resources', () => {
      const sut = complete(
        run(
          {
            rules: [amountRule, rule('us', { applies_to: { resources: ['acct:us/*'] }, conditions: [{ field: 'x', op: 'eq', value: 1 }] })],
            overrides: [override('1', ['rul-big'])],
          },
          { parameters: {} },
        ),
      );
      expect(reasons(sut)).toEqual({ 'rul-big': 'overridden', 'rul-us': 'not_applicable' });
    });

    it('reads absence as an answer for exists rows', () => {
      const r = rule('no-ticket', { conditions: [{ field: 'change.ticket', op: 'exists', value: false }] });
      expect(complete(run({ rules: [r] }, { parameters: {} })).verdict).toBe('blocked');
      expect(complete(run({ rules: [r] }, { parameters: { change: { ticket: 'T-1' } } })).verdict).toBe('allowed');
      expect(complete(run({ rules: [r] }, { parameters: { change: { ticket: null } } })).verdict).toBe('blocked');
    });

    it('needs the fields of requires even when the rows hold', () => {
      const r = rule('a', {
        conditions: [{ field: 'amount', op: 'gt', value: 0 }],
        requires: [{ field: 'customer.kyc_id', type: 'string', reason: 'audit trail' }],
      });
      const sut = insufficient(run({ rules: [r] }, { parameters: { amount: 5 } }));
      expect(sut.missing_fields).toEqual([
        {
          field: 'customer.kyc_id',
          reason: 'absent; required by rul-a (audit trail)',
          type: 'string',
          rule_ids: ['rul-a'],
          problems: ['absent'],
        },
      ]);
    });

    it('counts a Fact that falls short of a Requirement as missing, with the reason', () => {
      const r = rule('sanctions', {
        conditions: [{ field: 'beneficiary.country', op: 'in', value: ['IR', 'KP'] }],
        requires: [
          {
            field: 'beneficiary.country',
            type: 'string',
            format: 'iso-country',
            source_requirement: 'verified',
            acceptable_sources: ['kyc'],
          },
        ],
      });
      const context = { 'beneficiary.country': { value: 'IR', source: 'agent', verification_status: 'verified' as const } };
      const sut = insufficient(run({ rules: [r] }, { context }));
      expect(sut.missing_fields).toEqual([
        {
          field: 'beneficiary.country',
          reason: "the fact's source is not one of kyc; required by rul-sanctions",
          type: 'string',
          format: 'iso-country',
          source_requirement: 'verified',
          acceptable_sources: ['kyc'],
          rule_ids: ['rul-sanctions'],
          problems: ['source_not_accepted'],
        },
      ]);
      const good = { 'beneficiary.country': { value: 'IR', source: 'kyc', verification_status: 'verified' as const } };
      expect(complete(run({ rules: [r] }, { context: good })).verdict).toBe('blocked');
    });

    it('fails provenance Requirements for plain parameters (they must come as Facts)', () => {
      const r = rule('a', { requires: [{ field: 'risk', type: 'number', source_requirement: 'verified' }] });
      expect(insufficient(run({ rules: [r] }, { parameters: { risk: 3 } })).missing_fields[0].problems).toEqual(['not_verified']);
      const fact = { risk: { value: 3, source: 'scoring', verification_status: 'verified' as const } };
      expect(complete(run({ rules: [r] }, { parameters: { risk: 3 }, context: fact })).verdict).toBe('blocked');
    });

    it('merges the fields several rules need into one entry with the strictest bounds', () => {
      const sut = insufficient(
        run(
          {
            rules: [
              rule('a', { requires: [{ field: 'score', type: 'number', min: 0, max: 100, reason: 'risk model' }] }),
              rule('b', { severity: 'ADVISORY', requires: [{ field: 'score', type: 'integer', min: 10, confidence_threshold: 0.8 }] }),
              rule('c', { severity: 'ALLOW', conditions: [{ field: 'score', op: 'lt', value: 50 }] }),
            ],
          },
          { parameters: {} },
        ),
      );
      expect(sut.missing_fields).toEqual([
        {
          field: 'score',
          reason: 'absent; required by rul-a (risk model), rul-b, rul-c',
          type: 'number',
          min: 10,
          max: 100,
          confidence_threshold: 0.8,
          rule_ids: ['rul-a', 'rul-b', 'rul-c'],
          problems: ['absent'],
        },
      ]);
    });

    it('lists per rule what each found wrong when the problems differ', () => {
      const sut = insufficient(
        run(
          {
            rules: [
              rule('a', { requires: [{ field: 'score', type: 'number', max: 10 }] }),
              rule('b', { severity: 'ALLOW', requires: [{ field: 'score', type: 'number', source_requirement: 'verified' }] }),
            ],
          },
          { context: { score: { value: 50, source: 's' } } },
        ),
      );
      expect(sut.missing_fields[0].reason).toBe(
        'rul-a: the value is above 10; rul-b: the fact is not verified (source_requirement verified)',
      );
      expect(sut.missing_fields[0].problems).toEqual(['above_max', 'not_verified']);
    });

    it('reports the type from the tenant context_schema when no Requirement gives one', () => {
      const sut = insufficient(
        run(
          {
            rules: [rule('a', { conditions: [{ field: 'tier', op: 'eq', value: 'gold' }] })],
            settings: { context_schema: { fields: { tier: { type: 'enum', allowed_values: ['gold', 'silver'] } } } },
          },
          { parameters: {} },
        ),
      );
      expect(sut.missing_fields[0]).toMatchObject({ field: 'tier', type: 'enum', allowed_values: ['gold', 'silver'] });
    });

    it('infers the reported type from the rows', () => {
      const sut = insufficient(
        run(
          {
            rules: [
              rule('a', {
                conditions: [
                  { field: 'n', op: 'gt', value: 1 },
                  { field: 'd', op: 'lt', value: '2026-01-01' },
                  { field: 's', op: 'starts_with', value: 'x' },
                  { field: 'b', op: 'eq', value: true },
                  { field: 'e', op: 'in', value: ['a', 'b'] },
                  { field: 'l', op: 'contains', value: 3 },
                  { field: 'o', op: 'eq', value: { k: 1 } },
                  { field: 'x', op: 'exists' },
                ],
                requires: [{ field: 'x', type: 'any' }],
              }),
            ],
          },
          { parameters: {} },
        ),
      );
      expect(Object.fromEntries(sut.missing_fields.map((m) => [m.field, m.type]))).toEqual({
        n: 'number',
        d: 'date',
        s: 'string',
        b: 'boolean',
        e: 'string',
        l: 'array',
        o: 'object',
        x: 'any',
      });
    });
  });

  describe('resolve', () => {
    const sanctions = rule('sanctions', {
      conditions: [{ field: 'beneficiary.country', op: 'in', value: ['IR', 'KP'] }],
      requires: [{ field: 'beneficiary.country', type: 'string', format: 'iso-country', source_requirement: 'verified' }],
    });
    const big = rule('big', {
      severity: 'REQUIRES_APPROVAL',
      conditions: [{ field: 'transfer.amount', op: 'gt', value: 10000 }],
      deciders: ['role-cfo'],
    });
    const weekend = rule('weekend', { severity: 'ADVISORY', conditions: [{ field: 'calendar.weekend', op: 'eq', value: true }] });
    const rules = [sanctions, big, weekend];
    const fact = (value: unknown, verified = true) => ({
      value,
      source: 'kyc',
      verification_status: verified ? ('verified' as const) : ('unverified' as const),
    });
    const resolve = (context: EvaluationRequest['context'], setup: Setup = { rules }) => run(setup, { mode: 'resolve', context });

    it('asks for every field that could change the verdict when nothing fires yet', () => {
      const sut = incomplete(resolve({}));
      expect(sut.required_context.map((r) => r.field)).toEqual(['beneficiary.country', 'transfer.amount', 'calendar.weekend']);
      expect(sut.required_context[0]).toEqual({
        field: 'beneficiary.country',
        reason: 'absent; required by rul-sanctions',
        type: 'string',
        format: 'iso-country',
        source_requirement: 'verified',
        rule_ids: ['rul-sanctions'],
        problems: ['absent'],
      });
      expect(sut.provisional_context).toEqual({});
    });

    it('does not ask for fields of rules ranked below a rule that already fires', () => {
      const sut = complete(resolve({ 'beneficiary.country': fact('KP') }));
      expect(sut.verdict).toBe('blocked');
      expect(sut.dominating_rule_id).toBe('rul-sanctions');
      expect(sut.precedence_trace.map((e) => [e.rule_id, e.reason, e.missing_fields])).toEqual([
        ['rul-sanctions', 'fires', undefined],
        ['rul-big', 'missing_context', ['transfer.amount']],
        ['rul-weekend', 'missing_context', ['calendar.weekend']],
      ]);
      expect(sut.cited_rule_ids).toEqual(['rul-sanctions']);
    });

    it('asks only for fields of rules ranked above the one that fires', () => {
      const sut = incomplete(resolve({ 'transfer.amount': fact(50000, false) }));
      expect(sut.required_context.map((r) => r.field)).toEqual(['beneficiary.country']);
      expect(sut.provisional_context).toEqual({ 'transfer.amount': 50000 });
    });

    it('completes once every rule ranked above the best firing rule is settled', () => {
      const sut = complete(resolve({ 'beneficiary.country': fact('DE'), 'transfer.amount': fact(50000) }));
      expect(sut.verdict).toBe('approval_required');
      expect(sut.triggers.map((t) => t.rule_id)).toEqual(['rul-big']);
      expect(sut.candidate_deciders).toEqual(['role-cfo']);
    });

    it('falls back to the default verdict when every rule is settled and none fires', () => {
      const sut = complete(resolve({ 'beneficiary.country': fact('DE'), 'transfer.amount': fact(5), 'calendar.weekend': fact(false) }));
      expect(sut.verdict).toBe('allowed');
      expect(sut.dominating_rule_id).toBeNull();
    });

    it('lists a Fact again, with the reason, when it falls short of a Requirement', () => {
      const sut = incomplete(resolve({ 'beneficiary.country': fact('KP', false) }));
      expect(sut.required_context[0]).toMatchObject({
        field: 'beneficiary.country',
        reason: 'the fact is not verified (source_requirement verified); required by rul-sanctions',
        problems: ['not_verified'],
      });
      expect(sut.provisional_context).toEqual({ 'beneficiary.country': 'KP' });
    });

    it('does not ask for the other fields of a rule a present row already settles', () => {
      const r = rule('a', {
        conditions: [
          { field: 'amount', op: 'gt', value: 10000 },
          { field: 'country', op: 'eq', value: 'KP' },
        ],
      });
      expect(complete(resolve({ amount: fact(5) }, { rules: [r] })).verdict).toBe('allowed');
      const any = rule('b', { condition_mode: 'any', conditions: r.conditions });
      expect(complete(resolve({ amount: fact(50000) }, { rules: [any] })).verdict).toBe('blocked');
      expect(incomplete(resolve({ amount: fact(5) }, { rules: [any] })).required_context.map((x) => x.field)).toEqual(['country']);
    });

    it('asks for requires fields alongside unsettled rows, and alone once the rows hold', () => {
      const r = rule('a', {
        condition_mode: 'any',
        conditions: [
          { field: 'x', op: 'eq', value: 1 },
          { field: 'y', op: 'eq', value: 1 },
        ],
        requires: [{ field: 'z', type: 'string' }],
      });
      expect(incomplete(resolve({}, { rules: [r] })).required_context.map((f) => f.field)).toEqual(['x', 'y', 'z']);
      expect(incomplete(resolve({ x: fact(1) }, { rules: [r] })).required_context.map((f) => f.field)).toEqual(['z']);
      expect(complete(resolve({ x: fact(2), y: fact(2) }, { rules: [r] })).verdict).toBe('allowed');
      expect(complete(resolve({ x: fact(1), z: fact('k') }, { rules: [r] })).verdict).toBe('blocked');
    });

    it('asks for a field an exists row reads; a Fact with value null answers "none"', () => {
      const r = rule('no-ticket', { conditions: [{ field: 'change.ticket', op: 'exists', value: false }] });
      expect(incomplete(resolve({}, { rules: [r] })).required_context).toEqual([
        {
          field: 'change.ticket',
          reason: 'absent; required by rul-no-ticket',
          type: 'any',
          rule_ids: ['rul-no-ticket'],
          problems: ['absent'],
        },
      ]);
      expect(complete(resolve({ 'change.ticket': fact(null) }, { rules: [r] })).verdict).toBe('blocked');
      expect(complete(resolve({ 'change.ticket': fact('T-1') }, { rules: [r] })).verdict).toBe('allowed');
    });

    it('asks for scope fields a rule reads under their scope. path', () => {
      const r = rule('a', { conditions: [{ field: 'scope.team', op: 'eq', value: 'ops' }] });
      expect(incomplete(resolve({}, { rules: [r] })).required_context.map((f) => f.field)).toEqual(['scope.team']);
    });

    it('ignores check parameters', () => {
      const sut = run({ rules: [big] }, { mode: 'resolve', parameters: { transfer: { amount: 50000 } } });
      expect(incomplete(sut).required_context.map((f) => f.field)).toEqual(['transfer.amount']);
    });

    it('does not ask for the fields of overridden rules', () => {
      const sut = complete(resolve({}, { rules: [sanctions], overrides: [override('1', ['rul-sanctions'])] }));
      expect(sut.verdict).toBe('allowed');
    });
  });

  it('takes now as a Date or as epoch milliseconds', () => {
    const policy = compilePolicy([rule('a')], [override('1', ['rul-a'], { expires_at: '2026-06-01T00:00:00Z' })]);
    const req: EvaluationRequest = { mode: 'check', action: 'x', resource: 'y', scope: {} };
    expect(complete(evaluate(policy, req, new Date('2026-05-31T23:59:59Z'))).verdict).toBe('allowed');
    expect(complete(evaluate(policy, req, Date.parse('2026-06-01T00:00:00Z'))).verdict).toBe('blocked');
  });

  it('does not throw on values of unexpected types in parameters and context', () => {
    const r = rule('a', {
      conditions: [
        { field: 'a.b', op: 'gt', value: 1 },
        { field: 'c', op: 'contains', value: 'x' },
      ],
      condition_mode: 'any',
    });
    const weird = [{ a: 'str' }, { a: [1, 2] }, { a: { b: { c: 1 } } }, { a: null, c: 42 }, { a: { b: true }, c: { x: 1 } }];
    for (const parameters of weird) expect(() => run({ rules: [r] }, { parameters })).not.toThrow();
  });
});
