import type { ConsultationRecord } from './consultation-record';
import { checkGrant, decided, isValidDecider, newApproval, triggersOf } from './approval-rules';
import { relayDelayMs } from '../services/outbox-relay.service';

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
    const sut = newApproval({ id: 'apr-1', record: record(), requester: 'agn-1', now: new Date('2026-03-01T10:00:00Z') });
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
    expect(newApproval({ id: 'apr-1', record: record({ on_behalf_of: null }), requester: 'agn-1', now: new Date() }).requester_principal).toBe('agn-1');
  });
});

describe(triggersOf.name, () => {
  it('takes the stored triggers when the record has them', () => {
    expect(triggersOf(record({ triggers: [{ rule_id: 'rul-x', rule_version_id: 'rv-x', reason: 'Need CFO' }] }))).toEqual([{ rule_id: 'rul-x', rule_version_id: 'rv-x', reason: 'Need CFO' }]);
  });

  it('derives them from the approval entries of the trace that fired otherwise', () => {
    expect(triggersOf(record())).toEqual([{ rule_id: 'rul-a', rule_version_id: 'rv-a', reason: 'fires' }]);
  });
});

describe(isValidDecider.name, () => {
  it('accepts a principal listed by id or by one of its roles and refuses others', () => {
    const approval = { candidate_deciders: ['hum-9', 'role-finance'], requester: 'agn-1' };
    expect(isValidDecider(approval, { id: 'hum-9', roles: [] })).toBe(true);
    expect(isValidDecider(approval, { id: 'hum-2', roles: ['role-legal', 'role-finance'] })).toBe(true);
    expect(isValidDecider(approval, { id: 'hum-2', roles: ['role-legal'] })).toBe(false);
  });

  it('leaves an approval without candidate deciders to any principal (holding approve) but the requester', () => {
    expect(isValidDecider({ candidate_deciders: [], requester: 'agn-1' }, { id: 'hum-2', roles: [] })).toBe(true);
    expect(isValidDecider({ candidate_deciders: [], requester: 'agn-1' }, { id: 'agn-1', roles: ['role-admin'] })).toBe(false);
  });

  it('never lets the requester decide, even when listed by id or role', () => {
    expect(isValidDecider({ candidate_deciders: ['agn-1', 'role-ops'], requester: 'agn-1' }, { id: 'agn-1', roles: ['role-ops'] })).toBe(false);
  });
});

describe(checkGrant.name, () => {
  const now = new Date('2026-03-01T10:00:00Z');
  const grant = { applies_to_scope: { region: 'eu' }, expires_at: '2026-03-01T12:00:00Z' };

  it('normalises a valid grant with approve', () => {
    expect(checkGrant({ decision: 'approve', grant }, now)).toEqual({ applies_to_scope: { region: 'eu' }, expires_at: '2026-03-01T12:00:00.000Z' });
    expect(checkGrant({ decision: 'approve' }, now)).toBeNull();
  });

  it('refuses a grant with reject (400), a malformed expires_at (400) and a past one (422)', () => {
    expect(() => checkGrant({ decision: 'reject', grant }, now)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_grant' }));
    expect(() => checkGrant({ decision: 'approve', grant: { ...grant, expires_at: 'tomorrow' } }, now)).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => checkGrant({ decision: 'approve', grant: { ...grant, expires_at: '2026-03-01T09:00:00Z' } }, now)).toThrow(expect.objectContaining({ status: 422 }));
  });
});

describe(decided.name, () => {
  it('records decider, decision, notes, time and the grant', () => {
    const pending = newApproval({ id: 'apr-1', record: record(), requester: 'agn-1', now: new Date() });
    const sut = decided(pending, {
      decider: 'hum-9',
      body: { decision: 'approve', decider_notes: 'ok' },
      now: new Date('2026-03-01T11:00:00Z'),
      grant: { override_id: 'ovr-1', applies_to_scope: { region: 'eu' }, expires_at: '2026-03-01T12:00:00.000Z' },
      validitySeconds: 3600,
    });
    expect(sut).toMatchObject({ status: 'approved', decision: 'approve', decider: 'hum-9', decider_notes: 'ok', decided_at: '2026-03-01T11:00:00.000Z' });
    expect(sut.grants).toEqual([{ override_id: 'ovr-1', applies_to_scope: { region: 'eu' }, expires_at: '2026-03-01T12:00:00.000Z' }]);
    // A grant works through its override: no one-shot authorisation besides.
    expect(sut.authorizes_until).toBeNull();
  });

  it('gives an approval without a grant a one-shot authorisation for APPROVAL_VALIDITY_SECONDS; a rejection none', () => {
    const pending = newApproval({ id: 'apr-1', record: record(), requester: 'agn-1', now: new Date() });
    const now = new Date('2026-03-01T11:00:00Z');
    expect(decided(pending, { decider: 'hum-9', body: { decision: 'approve' }, now, validitySeconds: 600 })).toMatchObject({
      authorizes_until: '2026-03-01T11:10:00.000Z',
      consumed_by: null,
    });
    expect(decided(pending, { decider: 'hum-9', body: { decision: 'reject' }, now, validitySeconds: 600 }).authorizes_until).toBeNull();
  });
});

describe(relayDelayMs.name, () => {
  it('doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 10].map((n) => relayDelayMs(n, 1000, 60_000))).toEqual([1000, 2000, 4000, 60_000]);
  });
});
