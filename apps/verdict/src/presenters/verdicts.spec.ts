import type { ConsultationRecord } from '../domain/consultation-record';
import { presentCheck, presentOverviewComplete, presentResolveComplete } from './verdicts';

const record = (verdict: string): ConsultationRecord =>
  ({
    id: 'cns-1',
    tenant_id: 'tnt-1',
    verdict,
    cited_entry_ids: ['rul-1'],
    cited_rule_version_ids: ['rv-1'],
    dominating_rule_id: 'rul-1',
    precedence_trace: [],
    resolved_target_ids: ['tgt-1'],
    signed_verdict: 'jws',
    context_hash: 'sha256:c',
    normative_hash: 'sha256:n',
    triggers: [{ rule_id: 'rul-1', rule_version_id: 'rv-1', reason: 'why' }],
    candidate_deciders: ['role-cfo'],
    required_context_history: [{ round: 1, fields: [] }],
  }) as unknown as ConsultationRecord;

describe(presentCheck.name, () => {
  it('lists for each verdict exactly the fields docs/verdicts.md "check" shows', () => {
    expect(Object.keys(presentCheck(record('allowed')))).toEqual([
      'operation_status',
      'verdict',
      'cited_rule_ids',
      'cited_rule_version_ids',
      'dominating_rule_id',
      'precedence_trace',
      'resolved_target_ids',
      'consultation_id',
      'signed_verdict',
      'context_hash',
    ]);
    expect(Object.keys(presentCheck(record('blocked')))).toEqual([
      'operation_status',
      'verdict',
      'cited_rule_ids',
      'dominating_rule_id',
      'consultation_id',
      'signed_verdict',
    ]);
    expect(presentCheck(record('approval_required'))).toEqual({
      operation_status: 'complete',
      verdict: 'approval_required',
      cited_rule_ids: ['rul-1'],
      consultation_id: 'cns-1',
      signed_verdict: 'jws',
      approval: { endpoint: '/tnt-1/v1/approvals', example_body: { consultation_id: 'cns-1', requester_notes: '' } },
    });
    expect(Object.keys(presentCheck(record('observe')))).toEqual(Object.keys(presentCheck(record('allowed'))));
  });

  it('adds the explanation it is given to blocked and approval_required answers only, never the one an old record stored', () => {
    const explanation = { not_invertible: [], to_allow: [{ changes: [{ field: 'amount', op: 'lte' as const, value: 10000 }] }] };
    expect(presentCheck(record('blocked'), explanation).explanation).toEqual(explanation);
    expect(presentCheck(record('approval_required'), explanation).explanation).toEqual(explanation);
    expect(presentOverviewComplete(record('blocked'), explanation).explanation).toEqual(explanation);
    expect(presentResolveComplete(record('blocked'), explanation).explanation).toEqual(explanation);
    expect(presentCheck(record('allowed'), explanation)).not.toHaveProperty('explanation');
    // Not asked for: a record made before explanations were on demand keeps its own, the answer has none.
    expect(presentCheck({ ...record('blocked'), explanation })).not.toHaveProperty('explanation');
  });

  it('adds required_context_history to a complete resolve', () => {
    expect(presentResolveComplete(record('blocked')).required_context_history).toEqual([{ round: 1, fields: [] }]);
  });

  it('answers the overview variant with its own fields, approver only for approval_required', () => {
    expect(presentOverviewComplete(record('approval_required'))).toEqual({
      operation_status: 'complete',
      verdict: 'approval_required',
      cited_rules: ['rul-1'],
      cited_rule_versions: ['rv-1'],
      dominating_rule_id: 'rul-1',
      consultation_id: 'cns-1',
      normative_hash: 'sha256:n',
      approver: {
        candidate_deciders: ['role-cfo'],
        triggers: [{ rule_id: 'rul-1', rule_version_id: 'rv-1', reason: 'why' }],
        endpoint: '/tnt-1/v1/approvals',
      },
    });
    expect(presentOverviewComplete(record('blocked'))).not.toHaveProperty('approver');
  });
});

describe('limits in the answers (docs/verdicts.md "Windows and outcomes")', () => {
  const limits = [{ key: '{}', max: 3, rule_id: 'rul-1', used_after: 3, used_before: 3, window: '1h' }];
  it.each(['allowed', 'blocked', 'approval_required', 'observe'])(
    "%s: carries the record's limits when it has them, and only then",
    (verdict) => {
      expect(presentCheck({ ...record(verdict), limits }).limits).toEqual(limits);
      expect(presentResolveComplete({ ...record(verdict), limits }).limits).toEqual(limits);
      expect(presentOverviewComplete({ ...record(verdict), limits }).limits).toEqual(limits);
      expect(presentCheck(record(verdict))).not.toHaveProperty('limits');
      expect(presentOverviewComplete(record(verdict))).not.toHaveProperty('limits');
    },
  );
});
