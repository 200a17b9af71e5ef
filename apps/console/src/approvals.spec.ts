import {
  approvalPath,
  duration,
  fromRegistry,
  fromVerdict,
  MASKED,
  mayDecide,
  newestFirst,
  quorumState,
  type RegistryApproval,
  type VerdictApproval,
} from './approvals';

const NOW = new Date('2026-11-27T12:00:00Z');
const me = { principal: { id: 'hum-me', name: 'Me', kind: 'human', roles: ['role-finance'] }, permissions: ['read', 'approve'] };

const verdict = (over: Partial<VerdictApproval> = {}): VerdictApproval => ({
  id: 'apr-v',
  tenant_id: 'tnt-1',
  status: 'pending',
  requester: 'agn-bot',
  requester_principal: 'hum-boss',
  intended_action: 'payments.transfer',
  intended_resource: 'acct:1',
  intended_parameters: { amount: 5 },
  intended_scope: { region: 'eu' },
  triggers: [{ rule_id: 'rul-1', rule_version_id: 'rv-1', reason: 'Big transfers need finance' }],
  requester_notes: null,
  requested_at: '2026-11-27T11:00:00Z',
  consultation_id: 'cns-1',
  dominating_rule_id: 'rul-1',
  candidate_deciders: ['role-finance'],
  decider: null,
  decision: null,
  decider_notes: null,
  decided_at: null,
  approvals_required: 1,
  approvals: [],
  expires_at: '2026-11-28T11:00:00Z',
  escalates_at: null,
  escalation_deciders: [],
  ...over,
});

const registry = (over: Partial<RegistryApproval> = {}): RegistryApproval => ({
  id: 'apr-r',
  scope_id: 'scp-1',
  trigger_id: 'inv-1',
  trigger_type: 'invariant',
  trigger_version_id: null,
  requires_approval: true,
  intended_action: 'deploy',
  justification: 'hotfix',
  requested_by: 'ops',
  requested_by_type: 'human',
  candidate_deciders: [],
  status: 'pending',
  decision: null,
  comment: null,
  decided_by: null,
  decider_principal_id: null,
  decided_at: null,
  override_id: null,
  tenant_id: 'tnt-1',
  version: 1,
  created_at: '2026-11-27T10:00:00Z',
  updated_at: '2026-11-27T10:00:00Z',
  created_by: 'hum-asker',
  approvals_required: 1,
  approvals: [],
  expires_at: '2026-11-28T10:00:00Z',
  escalates_at: null,
  escalation_deciders: [],
  ...over,
});

describe(mayDecide.name, () => {
  it('lets a candidate decider (by role or id) decide a pending approval', () => {
    expect(mayDecide(fromVerdict(verdict()), me, NOW)).toEqual({ may: true });
    expect(mayDecide(fromVerdict(verdict({ candidate_deciders: ['hum-me'] })), me, NOW)).toEqual({ may: true });
    expect(mayDecide(fromRegistry(registry()), me, NOW)).toEqual({ may: true });
  });

  it('refuses the requester, the principal it acted for, and someone who already approved', () => {
    expect(mayDecide(fromVerdict(verdict({ requester: 'hum-me' })), me, NOW)).toMatchObject({ may: false, reason: 'you requested it' });
    expect(mayDecide(fromVerdict(verdict({ requester_principal: 'hum-me' })), me, NOW)).toMatchObject({ may: false });
    expect(mayDecide(fromRegistry(registry({ created_by: 'hum-me' })), me, NOW)).toMatchObject({ may: false, reason: 'you requested it' });
    const given = verdict({ approvals_required: 2, approvals: [{ decider: 'hum-me', decided_at: '2026-11-27T11:30:00Z', notes: null }] });
    expect(mayDecide(fromVerdict(given), me, NOW)).toMatchObject({ may: false, reason: 'you have already approved it' });
  });

  it('refuses without approve, outside the deciders, when decided and when expired', () => {
    expect(mayDecide(fromVerdict(verdict()), { ...me, permissions: ['read'] }, NOW)).toMatchObject({ may: false });
    expect(mayDecide(fromVerdict(verdict({ candidate_deciders: ['role-legal'] })), me, NOW)).toMatchObject({ may: false });
    expect(mayDecide(fromVerdict(verdict({ status: 'approved' })), me, NOW)).toMatchObject({ may: false, reason: 'it is approved' });
    expect(mayDecide(fromVerdict(verdict({ expires_at: '2026-11-27T12:00:00Z' })), me, NOW)).toMatchObject({
      may: false,
      reason: 'it has expired',
    });
    expect(mayDecide(fromVerdict(verdict({ expires_at: '2026-11-27T12:00:01Z' })), me, NOW)).toEqual({ may: true });
  });

  it('lets escalation deciders decide only once escalates_at has passed', () => {
    const escalating = (at: string) =>
      fromVerdict(verdict({ candidate_deciders: ['role-legal'], escalates_at: at, escalation_deciders: ['role-finance'] }));
    expect(mayDecide(escalating('2026-11-27T12:00:01Z'), me, NOW)).toMatchObject({ may: false });
    expect(mayDecide(escalating('2026-11-27T12:00:00Z'), me, NOW)).toEqual({ may: true });
  });
});

describe('approval views', () => {
  it('keep a trigger reason as the statement, except the bare `fires` of older records', () => {
    expect(fromVerdict(verdict()).rules).toEqual([{ id: 'rul-1', statement: 'Big transfers need finance', kind: 'rule' }]);
    expect(
      fromVerdict(verdict({ triggers: [{ rule_id: 'rul-2', rule_version_id: 'rv-2', reason: 'fires' }] })).rules[0].statement,
    ).toBeNull();
    expect(fromRegistry(registry()).rules).toEqual([{ id: 'inv-1', statement: null, kind: 'invariant' }]);
  });

  it('mask the commitments of sensitive parameters (docs/verdicts.md "Sensitive fields")', () => {
    const commit = { $commit: `hmac-sha256:${'a'.repeat(64)}` };
    const view = fromVerdict(verdict({ intended_parameters: { card: { number: commit, brand: 'visa' }, items: [commit], n: 1 } }));
    expect(view.parameters).toEqual({ card: { number: MASKED, brand: 'visa' }, items: [MASKED], n: 1 });
  });

  it('state the quorum only when the server gives it', () => {
    expect(quorumState(fromVerdict({ ...verdict(), approvals_required: undefined } as unknown as VerdictApproval))).toBeNull();
    expect(quorumState(fromVerdict(verdict({ approvals_required: 2, approvals: [] })))).toBe('0 of 2 approvals');
    expect(quorumState(fromVerdict(verdict({ approvals_required: 1, approvals: [] })))).toBe('0 of 1 approval');
    // Pending with its count reached: another triggering rule's deciders have not approved yet.
    const given = [{ decider: 'hum-ops', decided_at: '2026-11-27T11:30:00Z', notes: null, rule_ids: ['rul-memo'] }];
    expect(quorumState(fromVerdict(verdict({ approvals_required: 1, approvals: given })))).toBe(
      '1 of 1 approval; waiting for the deciders of another triggering rule',
    );
  });

  it('sort newest first and link to their page with encoded ids', () => {
    const older = fromVerdict(verdict({ id: 'apr-old', requested_at: '2026-11-27T09:00:00Z' }));
    const newer = fromRegistry(registry({ id: 'apr-new', created_at: '2026-11-27T11:59:00Z' }));
    expect(newestFirst([older, newer], (v) => v.requestedAt).map((v) => v.id)).toEqual(['apr-new', 'apr-old']);
    expect(approvalPath({ flow: 'registry', id: 'apr/1', scopeId: 'scp 1' })).toBe('/console/approvals/registry/scp%201/apr%2F1');
  });

  it('say durations in the largest sensible units', () => {
    expect([duration(42_000), duration(5 * 60_000), duration(185 * 60_000), duration(50 * 3600_000)]).toEqual([
      '42 s',
      '5 min',
      '3 h 5 min',
      '2 d 2 h',
    ]);
  });
});
