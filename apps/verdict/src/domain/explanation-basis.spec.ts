import { evaluate, explain, type CompleteEvaluation, type EvaluationRequest } from '@arbiter/policy';
import type { RuleState, TenantState } from '@arbiter/internal-api';
import type { ConsultationRecord } from './consultation-record';
import {
  EXPLAINED_VERDICTS,
  explanationBasis,
  ExplanationBasisError,
  explanationPolicy,
  explanationRequest,
  recordedEvaluation,
  type RuleVersionContent,
} from './explanation-basis';
import { registryState } from './registry-state.fixture';
import { buildSnapshot } from './tenant-snapshot';

const rule = (id: string, scope: string, body: Partial<RuleState>): RuleState => ({
  rule_id: `rul-${id}`,
  rule_version_id: `rv-${id}`,
  scope_id: scope,
  version: 1,
  version_created_at: `2026-02-0${id.length}T00:00:00.000Z`,
  directive: id,
  severity: 'MANDATORY',
  verdict: null,
  applies_to: { actions: ['pay.*'] },
  conditions: [],
  condition_mode: 'all',
  requires: [],
  deciders: [],
  priority: null,
  mode: 'enforce',
  approvals_required: null,
  escalate_after: null,
  escalation_deciders: [],
  approval_expires_after: null,
  ...body,
});

/** Rules in three scopes (exact, partial and whole-tenant matches of {region: eu, env: prod}), one overridden by CEL, one elsewhere. */
function state(extra: Partial<TenantState> = {}): TenantState {
  return registryState({
    settings: { default_verdict: 'allowed', context_schema: { fields: { amount: { type: 'number' }, unrelated: { type: 'string' } } } },
    scopes: [
      { id: 'scp-all', name: 'all', selector: {} },
      { id: 'scp-eu', name: 'eu', selector: { region: 'eu' } },
      { id: 'scp-eu-prod', name: 'eu prod', selector: { region: 'eu', env: 'prod' } },
      { id: 'scp-us', name: 'us', selector: { region: 'us' } },
    ],
    rules: [
      rule('large', 'scp-all', { conditions: [{ field: 'amount', op: 'gt', value: 10000 }] }),
      rule('prod', 'scp-eu-prod', {
        severity: 'REQUIRES_APPROVAL',
        conditions: [{ field: 'amount', op: 'gt', value: 500 }],
        deciders: ['role-ops'],
      }),
      rule('memo', 'scp-eu', { conditions: [{ field: 'memo', op: 'contains', value: 'gift' }] }),
      rule('small', 'scp-eu', { severity: 'ALLOW', conditions: [{ field: 'amount', op: 'lte', value: 50 }] }),
      rule('us', 'scp-us', { conditions: [{ field: 'amount', op: 'gt', value: 1 }] }),
    ],
    overrides: [
      {
        id: 'ovr-cel',
        override_type: 'conditional',
        target_type: 'rule',
        target_ids: ['rul-memo'],
        scope_id: 'scp-eu',
        scope_ids: ['scp-eu'],
        applies_to_scope: null,
        conditions: 'currency == "CHF"',
        expires_at: null,
        approval_id: null,
      },
      {
        id: 'ovr-us',
        override_type: 'permanent',
        target_type: 'rule',
        target_ids: ['rul-us'],
        scope_id: 'scp-us',
        scope_ids: ['scp-us'],
        applies_to_scope: null,
        conditions: null,
        expires_at: null,
        approval_id: null,
      },
    ],
    ...extra,
  });
}

const versionsOf = (s: TenantState) =>
  new Map<string, RuleVersionContent>(
    s.rules.map((r) => [r.rule_version_id, { ...r, id: r.rule_version_id, created_at: r.version_created_at }]),
  );

/** A record as the gateway freezes it: the members explain() reads. */
function recordOf(request: EvaluationRequest, result: CompleteEvaluation, requestedAt: Date): ConsultationRecord {
  return {
    operation: request.mode,
    action: request.action,
    resource: request.resource,
    scope_used: request.scope as ConsultationRecord['scope_used'],
    parameters: request.parameters ?? {},
    context_snapshot: request.context ?? {},
    requested_at: requestedAt.toISOString(),
    verdict: result.verdict,
    dominating_rule_id: result.dominating_rule_id,
    precedence_trace: result.precedence_trace,
    cited_entry_ids: result.cited_rule_ids,
    cited_rule_version_ids: result.cited_rule_version_ids,
    triggers: result.triggers,
    candidate_deciders: result.candidate_deciders,
    resolved_target_ids: result.resolved_target_ids,
    applied_override_ids: result.applied_override_ids,
  } as unknown as ConsultationRecord;
}

const at = new Date('2026-03-01T12:00:00.000Z');
const check = (parameters: object, scope: object = { region: 'eu', env: 'prod' }): EvaluationRequest => ({
  mode: 'check',
  action: 'pay.out',
  resource: 'acct:1',
  scope: scope as never,
  parameters: parameters as never,
  context: {},
});

describe(explanationBasis.name, () => {
  it('keeps nothing for a verdict that has no explanation', () => {
    const snapshot = buildSnapshot(state());
    const result = evaluate(snapshot.policy, check({ amount: 10, memo: '' }), at) as CompleteEvaluation;
    expect(EXPLAINED_VERDICTS.has(result.verdict)).toBe(false);
    expect(explanationBasis(snapshot, result.verdict, result.precedence_trace)).toBeNull();
  });

  it('keeps the overrides of the candidate rules and the catalogue entries of the fields they read, nothing of the others', () => {
    const snapshot = buildSnapshot(state());
    const result = evaluate(snapshot.policy, check({ amount: 20000, memo: 'gift', currency: 'EUR' }), at) as CompleteEvaluation;
    expect(result.verdict).toBe('blocked');
    const basis = explanationBasis(snapshot, result.verdict, result.precedence_trace);
    expect(basis).toEqual({
      context_schema: { fields: { amount: { type: 'number' } } },
      overrides: [expect.objectContaining({ id: 'ovr-cel', conditions: 'currency == "CHF"', target_rule_ids: ['rul-memo'] })],
    });
  });

  it('keeps a default_verdict other than allowed, and is null when there is nothing to keep', () => {
    const strict = buildSnapshot(state({ settings: { default_verdict: 'blocked' }, overrides: [] }));
    const blocked = evaluate(strict.policy, check({ amount: 100, memo: '' }), at) as CompleteEvaluation;
    expect(explanationBasis(strict, blocked.verdict, blocked.precedence_trace)).toEqual({ default_verdict: 'blocked' });
    const plain = buildSnapshot(state({ settings: {}, overrides: [] }));
    const r = evaluate(plain.policy, check({ amount: 20000, memo: '' }), at) as CompleteEvaluation;
    expect(explanationBasis(plain, r.verdict, r.precedence_trace)).toBeNull();
  });
});

describe(explanationPolicy.name, () => {
  it.each([
    ['blocked, with a CEL override on a candidate', { amount: 20000, memo: 'a gift', currency: 'EUR' }],
    ['approval_required in the exact scope', { amount: 900, memo: '' }],
    ['blocked by the whole-tenant rule only', { amount: 20000, memo: '' }],
  ])('rebuilds a policy on which the record evaluates and explains as it did when decided (%s)', (_name, parameters) => {
    const s = state();
    const snapshot = buildSnapshot(s);
    const request = check(parameters);
    const result = evaluate(snapshot.policy, request, at) as CompleteEvaluation;
    const inline = explain(snapshot.policy, request, result, at);
    expect(inline).not.toBeNull();

    const record = recordOf(request, result, at);
    const policy = explanationPolicy(record, versionsOf(s), explanationBasis(snapshot, result.verdict, result.precedence_trace));
    const again = evaluate(policy, explanationRequest(record), new Date(record.requested_at)) as CompleteEvaluation;
    expect(again.precedence_trace).toEqual(result.precedence_trace);
    expect(JSON.stringify(explain(policy, explanationRequest(record), recordedEvaluation(record), new Date(record.requested_at)))).toBe(
      JSON.stringify(inline),
    );
  });

  it('refuses a trace whose rule version is not available, rather than explaining from less', () => {
    const s = state();
    const snapshot = buildSnapshot(s);
    const request = check({ amount: 20000, memo: '' });
    const record = recordOf(request, evaluate(snapshot.policy, request, at) as CompleteEvaluation, at);
    const versions = versionsOf(s);
    versions.delete('rv-large');
    expect(() => explanationPolicy(record, versions, null)).toThrow(ExplanationBasisError);
  });
});

describe(explanationRequest.name, () => {
  it('reads a check through its parameters, a resolve through its Facts only, and cited fields as ledger Facts', () => {
    const base = {
      action: 'pay.out',
      resource: 'acct:1',
      scope_used: { region: 'eu' },
      parameters: { amount: 5 },
      context_snapshot: { kyc: { value: 'ok', source: 'ledger:fct-1' } },
      ledger_citations: { kyc: { stream_id: 'kyc', fact_id: 'fct-1', fact_hash: 'sha256:00', payload_path: 'kyc' } },
    };
    const c = explanationRequest({ ...base, operation: 'check' } as unknown as ConsultationRecord);
    expect(c).toMatchObject({
      mode: 'check',
      parameters: { amount: 5 },
      context: { kyc: { value: 'ok', source: 'ledger', verification_status: 'verified', ledger_stream: 'kyc' } },
    });
    const r = explanationRequest({ ...base, operation: 'resolve' } as unknown as ConsultationRecord);
    expect(r.mode).toBe('resolve');
    expect(r).not.toHaveProperty('parameters');
  });
});
