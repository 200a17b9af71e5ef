import type { ConsultationRecord } from './consultation-record';
import {
  approvalAt,
  askingPrincipals,
  checkGrant,
  checkRequester,
  decided,
  deciderAsStateSees,
  isValidDecider,
  newApproval,
  quorumReached,
  scopesNotCovered,
  triggersOf,
  withApproval,
} from './approval-rules';
import { relayDelayMs } from '../services/outbox-relay.service';
import type { ApprovalTerms } from '@arbiter/policy';

const terms: ApprovalTerms = { approvals_required: 1, expires_at: '2026-03-02T10:00:00.000Z', escalates_at: null, escalation_deciders: [] };

const record = (over: Partial<ConsultationRecord> = {}): ConsultationRecord =>
  ({
    id: 'cns-1',
    tenant_id: 'tnt-1',
    caller_principal_id: 'agn-1',
    on_behalf_of: 'hum-1',
    action: 'payments.transfer',
    resource: 'acct:1',
    scope_used: { region: 'eu' },
    parameters: { transfer: { amount: 20000 } },
    dominating_rule_id: 'rul-a',
    verdict: 'approval_required',
    precedence_trace: [
      { rule_id: 'rul-a', rule_version_id: 'rv-a', severity: 'approval', scope_match: 'exact', reason: 'fires' },
      { rule_id: 'rul-b', rule_version_id: 'rv-b', severity: 'approval', scope_match: 'exact', reason: 'condition_false' },
      { rule_id: 'rul-c', rule_version_id: 'rv-c', severity: 'allow', scope_match: 'tenant', reason: 'fires' },
    ],
    triggers: [],
    candidate_deciders: ['role-finance', 'hum-9', 'role-finance'],
    ...over,
  }) as ConsultationRecord;

describe(newApproval.name, () => {
  it('copies the intended operation and deciders from the consultation and starts pending', () => {
    const sut = newApproval({ id: 'apr-1', record: record(), now: new Date('2026-03-01T10:00:00Z'), terms });
    expect(sut).toMatchObject({
      status: 'pending',
      requester: 'agn-1',
      requester_principal: 'hum-1',
      intended_action: 'payments.transfer',
      intended_parameters: { transfer: { amount: 20000 } },
      candidate_deciders: ['hum-9', 'role-finance'],
      decider: null,
      decision: null,
      requested_at: '2026-03-01T10:00:00.000Z',
    });
  });

  it('uses the caller as requester_principal when the consultation acted for nobody', () => {
    expect(newApproval({ id: 'apr-1', record: record({ on_behalf_of: null }), now: new Date(), terms }).requester_principal).toBe('agn-1');
  });
});

describe(triggersOf.name, () => {
  it('takes the stored triggers when the record has them', () => {
    expect(triggersOf(record({ triggers: [{ rule_id: 'rul-x', rule_version_id: 'rv-x', reason: 'Need CFO' }] }))).toEqual([
      { rule_id: 'rul-x', rule_version_id: 'rv-x', reason: 'Need CFO' },
    ]);
  });

  it('derives them from the approval entries of the trace that fired otherwise', () => {
    expect(triggersOf(record())).toEqual([{ rule_id: 'rul-a', rule_version_id: 'rv-a', reason: 'fires' }]);
  });
});

describe(checkRequester.name, () => {
  it("lets the consultation's own caller open its approval and refuses every other principal with 403 not_the_requester", () => {
    expect(() => checkRequester(record(), 'agn-1')).not.toThrow();
    expect(() => checkRequester(record(), 'agn-2')).toThrow(
      expect.objectContaining({
        status: 403,
        code: 'not_the_requester',
        details: { consultation_id: 'cns-1', caller_principal_id: 'agn-1' },
      }),
    );
    // Not even the human it acted for: the approval is the caller's request.
    expect(() => checkRequester(record(), 'hum-1')).toThrow(expect.objectContaining({ code: 'not_the_requester' }));
  });
});

describe(isValidDecider.name, () => {
  const pending = (over: object = {}) => ({
    candidate_deciders: ['hum-9', 'role-finance'],
    requester: 'agn-1',
    requester_principal: 'agn-1',
    ...over,
  });

  it('counts a role only while the tenant state gives it too (a role removed in the registry, the key cache still holding it)', () => {
    const states = new Map([['hum-2', { roles: ['role-legal'] }]]);
    const seen = deciderAsStateSees({ id: 'hum-2', roles: ['role-legal', 'role-finance'] }, states);
    expect(seen).toEqual({ id: 'hum-2', roles: ['role-legal'] });
    expect(isValidDecider(pending(), seen)).toBe(false);
    expect(isValidDecider(pending(), { id: 'hum-2', roles: ['role-legal', 'role-finance'] })).toBe(true);
    // A role the state gives but the key's identity does not is not added; a principal the state lacks keeps its own.
    expect(deciderAsStateSees({ id: 'hum-2', roles: [] }, states).roles).toEqual([]);
    expect(deciderAsStateSees({ id: 'hum-3', roles: ['role-finance'] }, states).roles).toEqual(['role-finance']);
  });

  it('accepts a principal listed by id or by one of its roles and refuses others', () => {
    expect(isValidDecider(pending(), { id: 'hum-9', roles: [] })).toBe(true);
    expect(isValidDecider(pending(), { id: 'hum-2', roles: ['role-legal', 'role-finance'] })).toBe(true);
    expect(isValidDecider(pending(), { id: 'hum-2', roles: ['role-legal'] })).toBe(false);
  });

  it('leaves an approval without candidate deciders to any principal (holding approve) but the ones that asked', () => {
    expect(isValidDecider(pending({ candidate_deciders: [] }), { id: 'hum-2', roles: [] })).toBe(true);
    expect(isValidDecider(pending({ candidate_deciders: [] }), { id: 'agn-1', roles: ['role-admin'] })).toBe(false);
  });

  it('never lets the requester or the principal it acted for decide, even when listed by id or role', () => {
    expect(isValidDecider(pending({ candidate_deciders: ['agn-1', 'role-ops'] }), { id: 'agn-1', roles: ['role-ops'] })).toBe(false);
    const forHuman = pending({ requester_principal: 'hum-9' });
    expect(isValidDecider(forHuman, { id: 'hum-9', roles: ['role-finance'] })).toBe(false);
    expect(isValidDecider(forHuman, { id: 'hum-3', roles: ['role-finance'] })).toBe(true);
  });

  it("holds back the consultation's caller and on_behalf_of too when an older approval names another requester", () => {
    const opened = pending({ requester: 'agn-7', requester_principal: 'agn-7' });
    const asking = askingPrincipals(opened, { caller_principal_id: 'hum-9', on_behalf_of: 'hum-3' });
    expect([...asking].sort()).toEqual(['agn-7', 'hum-3', 'hum-9']);
    expect(isValidDecider(opened, { id: 'hum-9', roles: [] }, asking)).toBe(false);
    expect(isValidDecider(opened, { id: 'hum-3', roles: ['role-finance'] }, asking)).toBe(false);
    expect(isValidDecider(opened, { id: 'hum-4', roles: ['role-finance'] }, asking)).toBe(true);
  });
});

describe(scopesNotCovered.name, () => {
  it('needs nothing of a key that reaches every scope', () => {
    expect(scopesNotCovered([], ['scp-pay', null])).toEqual([]);
  });

  it("names the triggering rules' scopes a restricted key does not reach, an unknown scope included", () => {
    expect(scopesNotCovered(['scp-hr'], ['scp-hr', 'scp-hr'])).toEqual([]);
    expect(scopesNotCovered(['scp-hr'], ['scp-pay', 'scp-hr'])).toEqual(['scp-pay']);
    expect(scopesNotCovered(['scp-hr'], [null])).toEqual(['unknown']);
  });
});

describe(checkGrant.name, () => {
  const now = new Date('2026-03-01T10:00:00Z');
  const approval = { intended_scope: { region: 'eu', env: 'prod' } };
  const grant = { applies_to_scope: { region: 'eu', env: 'prod' }, expires_at: '2026-03-01T10:30:00Z' };
  const check = (g: object | undefined, decision: 'approve' | 'reject' = 'approve') =>
    checkGrant({ decision, grant: g as never }, approval, now, 3600);

  it('normalises a valid grant with approve; no grant is null', () => {
    expect(check(grant)).toEqual({ applies_to_scope: { region: 'eu', env: 'prod' }, expires_at: '2026-03-01T10:30:00.000Z' });
    expect(checkGrant({ decision: 'approve' }, approval, now, 3600)).toBeNull();
  });

  it('fills in the approved scope and the longest lifetime when the grant leaves them out', () => {
    expect(check({})).toEqual({ applies_to_scope: { region: 'eu', env: 'prod' }, expires_at: '2026-03-01T11:00:00.000Z' });
  });

  it('accepts a grant narrower than the approved scope and refuses a wider one (422), {} included', () => {
    expect(check({ ...grant, applies_to_scope: { region: 'eu', env: 'prod', team: 'ap' } })?.applies_to_scope).toEqual({
      region: 'eu',
      env: 'prod',
      team: 'ap',
    });
    expect(() => check({ ...grant, applies_to_scope: { region: 'eu' } })).toThrow(
      expect.objectContaining({ status: 422, code: 'invalid_grant', details: expect.objectContaining({ missing_field: 'env' }) }),
    );
    expect(() => check({ ...grant, applies_to_scope: {} })).toThrow(expect.objectContaining({ status: 422, code: 'invalid_grant' }));
    expect(() => check({ ...grant, applies_to_scope: { region: 'us', env: 'prod' } })).toThrow(
      expect.objectContaining({ status: 422, details: expect.objectContaining({ missing_field: 'region' }) }),
    );
  });

  it('refuses every grant of an operation approved with no scope field (422): neither {} nor the default', () => {
    const unscoped = (g: object) => () => checkGrant({ decision: 'approve', grant: g as never }, { intended_scope: {} }, now, 3600);
    for (const g of [{}, { applies_to_scope: {} }, { applies_to_scope: {}, expires_at: grant.expires_at }]) {
      expect(unscoped(g)).toThrow(
        expect.objectContaining({ status: 422, code: 'invalid_grant', details: { field: 'grant.applies_to_scope', approved_scope: {} } }),
      );
    }
    expect(checkGrant({ decision: 'approve', grant: { applies_to_scope: { region: 'eu' } } }, { intended_scope: {} }, now, 3600)).toEqual({
      applies_to_scope: { region: 'eu' },
      expires_at: '2026-03-01T11:00:00.000Z',
    });
    expect(checkGrant({ decision: 'approve' }, { intended_scope: {} }, now, 3600)).toBeNull();
  });

  it('bounds expires_at by APPROVAL_GRANT_TTL_SECONDS after the decision (422 naming the latest instant)', () => {
    expect(check({ ...grant, expires_at: '2026-03-01T11:00:00Z' })?.expires_at).toBe('2026-03-01T11:00:00.000Z');
    expect(() => check({ ...grant, expires_at: '2026-03-01T11:00:00.001Z' })).toThrow(
      expect.objectContaining({
        status: 422,
        code: 'invalid_grant',
        details: expect.objectContaining({ latest: '2026-03-01T11:00:00.000Z', max_seconds: 3600 }),
      }),
    );
    expect(() => check({ ...grant, expires_at: '2099-01-01T00:00:00Z' })).toThrow(expect.objectContaining({ status: 422 }));
  });

  it('refuses a grant with reject (400), a malformed expires_at or scope (400) and a past one (422)', () => {
    expect(() => check(grant, 'reject')).toThrow(expect.objectContaining({ status: 400, code: 'invalid_grant' }));
    expect(() => check({ ...grant, expires_at: 'tomorrow' })).toThrow(expect.objectContaining({ status: 400 }));
    // 2026-02-29T10:45 would be read as March 1, within the bound: refused as the day it is not.
    expect(() => check({ ...grant, expires_at: '2026-02-29T10:45:00Z' })).toThrow(expect.objectContaining({ status: 400 }));
    // Without Z or an offset its instant would be the server's time zone's.
    expect(() => check({ ...grant, expires_at: '2026-03-01T10:45:00' })).toThrow(
      expect.objectContaining({ status: 400, code: 'invalid_grant', details: { field: 'grant.expires_at' } }),
    );
    expect(check({ ...grant, expires_at: '2026-03-01T12:45:00+02:00' })?.expires_at).toBe('2026-03-01T10:45:00.000Z');
    expect(() => check({ ...grant, applies_to_scope: { region: ['eu'] } })).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => check({ ...grant, expires_at: '2026-03-01T09:00:00Z' })).toThrow(expect.objectContaining({ status: 422 }));
  });
});

describe(decided.name, () => {
  it('records decider, decision, notes, time and the grant', () => {
    const pending = newApproval({ id: 'apr-1', record: record(), now: new Date(), terms });
    const sut = decided(pending, {
      decider: 'hum-9',
      body: { decision: 'approve', decider_notes: 'ok' },
      now: new Date('2026-03-01T11:00:00Z'),
      grant: { override_id: 'ovr-1', applies_to_scope: { region: 'eu' }, expires_at: '2026-03-01T12:00:00.000Z' },
      validitySeconds: 3600,
    });
    expect(sut).toMatchObject({
      status: 'approved',
      decision: 'approve',
      decider: 'hum-9',
      decider_notes: 'ok',
      decided_at: '2026-03-01T11:00:00.000Z',
    });
    expect(sut.grants).toEqual([{ override_id: 'ovr-1', applies_to_scope: { region: 'eu' }, expires_at: '2026-03-01T12:00:00.000Z' }]);
    // A grant works through its override: no one-shot authorisation besides.
    expect(sut.authorizes_until).toBeNull();
  });

  it('gives an approval without a grant a one-shot authorisation for APPROVAL_VALIDITY_SECONDS; a rejection none', () => {
    const pending = newApproval({ id: 'apr-1', record: record(), now: new Date(), terms });
    const now = new Date('2026-03-01T11:00:00Z');
    expect(decided(pending, { decider: 'hum-9', body: { decision: 'approve' }, now, validitySeconds: 600 })).toMatchObject({
      authorizes_until: '2026-03-01T11:10:00.000Z',
      consumed_by: null,
    });
    expect(decided(pending, { decider: 'hum-9', body: { decision: 'reject' }, now, validitySeconds: 600 }).authorizes_until).toBeNull();
  });
});

describe(approvalAt.name, () => {
  const requested = new Date('2026-03-01T10:00:00Z');

  it('answers a pending approval as expired from expires_at on, and leaves a decided one alone', () => {
    const pending = newApproval({ id: 'apr-1', record: record(), now: requested, terms });
    expect(approvalAt(pending, new Date('2026-03-02T09:59:59.999Z'), 60).status).toBe('pending');
    expect(approvalAt(pending, new Date('2026-03-02T10:00:00.000Z'), 60).status).toBe('expired');
    const approved = decided(pending, { decider: 'hum-9', body: { decision: 'approve' }, now: requested, validitySeconds: 60 });
    expect(approvalAt(approved, new Date('2027-01-01T00:00:00Z'), 60).status).toBe('approved');
  });

  it('gives an approval stored before quorum and expiry their defaults, expiring ttlSeconds after its request', () => {
    const {
      approvals_required: _q,
      approvals: _a,
      expires_at: _e,
      escalates_at: _s,
      escalation_deciders: _d,
      ...older
    } = newApproval({
      id: 'apr-1',
      record: record(),
      now: requested,
      terms,
    });
    const sut = approvalAt(older as never, new Date('2026-03-01T10:00:59Z'), 60);
    expect(sut).toMatchObject({
      status: 'pending',
      approvals_required: 1,
      approvals: [],
      expires_at: '2026-03-01T10:01:00.000Z',
      escalates_at: null,
      escalation_deciders: [],
    });
    expect(approvalAt(older as never, new Date('2026-03-01T10:01:00Z'), 60).status).toBe('expired');
  });
});

describe(withApproval.name, () => {
  const now = new Date('2026-03-01T10:30:00Z');
  const pending = newApproval({ id: 'apr-1', record: record(), now: new Date(), terms: { ...terms, approvals_required: 2 } });

  it('appends distinct deciders until the quorum is reached', () => {
    const one = withApproval(pending, { decider: 'hum-8', notes: 'seen', now, ruleIds: ['rul-1'] });
    expect(one.approvals).toEqual([{ decider: 'hum-8', decided_at: '2026-03-01T10:30:00.000Z', notes: 'seen', rule_ids: ['rul-1'] }]);
    expect(quorumReached(one)).toBe(false);
    const two = withApproval(one, { decider: 'hum-9', now, ruleIds: ['rul-1'] });
    expect(two.approvals.map((a) => a.decider)).toEqual(['hum-8', 'hum-9']);
    expect(quorumReached(two)).toBe(true);
  });

  it('refuses the same decider twice with 409 already_approved_by_you', () => {
    const one = withApproval(pending, { decider: 'hum-8', now, ruleIds: ['rul-1'] });
    expect(() => withApproval(one, { decider: 'hum-8', now, ruleIds: ['rul-1'] })).toThrow(
      expect.objectContaining({ status: 409, code: 'already_approved_by_you' }),
    );
  });
});

describe('isValidDecider with escalation', () => {
  const approval = {
    candidate_deciders: ['role-finance'],
    requester: 'agn-1',
    requester_principal: 'hum-1',
    escalates_at: '2026-03-01T11:00:00.000Z',
    escalation_deciders: ['role-director', 'hum-1'],
  };

  it('admits an escalation decider from escalates_at on, never one of the principals that asked', () => {
    const director = { id: 'hum-7', roles: ['role-director'] };
    expect(isValidDecider(approval, director, undefined, new Date('2026-03-01T10:59:59Z'))).toBe(false);
    expect(isValidDecider(approval, director, undefined, new Date('2026-03-01T11:00:00Z'))).toBe(true);
    expect(isValidDecider(approval, { id: 'hum-1', roles: [] }, undefined, new Date('2026-03-02T00:00:00Z'))).toBe(false);
  });
});

describe(relayDelayMs.name, () => {
  it('doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 10].map((n) => relayDelayMs(n, 1000, 60_000))).toEqual([1000, 2000, 4000, 60_000]);
  });
});
