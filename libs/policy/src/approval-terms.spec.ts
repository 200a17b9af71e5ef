import { approvalFieldProblems, approvalFields, approvalTerms, isEscalationDecider, isExpired } from './approval-terms';
import { rulesAwaitingApproval, rulesCountedFor, triggerTerms } from './approval-terms';

const at = new Date('2026-03-01T10:00:00.000Z');
const plus = (s: number) => new Date(at.getTime() + s * 1000).toISOString();

describe(approvalFieldProblems.name, () => {
  const approval = { severity: 'REQUIRES_APPROVAL' };

  it('accepts a quorum, an escalation and an expiry on a rule that leads to an approval', () => {
    expect(
      approvalFieldProblems({
        ...approval,
        approvals_required: 20,
        escalate_after: 60,
        escalation_deciders: ['role-cfo', 'hum-0123456789abcdef01234567'],
        approval_expires_after: 31_536_000,
      }),
    ).toEqual([]);
    expect(approvalFieldProblems({ severity: 'MANDATORY' })).toEqual([]);
  });

  it.each(['MANDATORY', 'ADVISORY', 'ALLOW'])('names each field set on a %s rule (it leads to no approval)', (severity) => {
    const sut = approvalFieldProblems({ severity, approvals_required: 2, approval_expires_after: 60 });
    expect(sut).toHaveLength(2);
    expect(sut[0]).toMatch(/^approvals_required: /);
    expect(sut[1]).toMatch(/^approval_expires_after: /);
  });

  it.each([
    [{ approvals_required: 0 }, 'approvals_required'],
    [{ approvals_required: 21 }, 'approvals_required'],
    [{ approvals_required: 1.5 }, 'approvals_required'],
    [{ escalate_after: 59, escalation_deciders: ['role-a'] }, 'escalate_after'],
    [{ approval_expires_after: 59 }, 'approval_expires_after'],
    [{ approval_expires_after: 31_536_001 }, 'approval_expires_after'],
    [{ approval_expires_after: 2 ** 31 }, 'approval_expires_after'],
    [{ approvals_required: 2 ** 31 }, 'approvals_required'],
    [{ escalate_after: 31_536_001, escalation_deciders: ['role-a'] }, 'escalate_after'],
    [{ escalate_after: 2 ** 31, escalation_deciders: ['role-a'] }, 'escalate_after'],
    [{ escalate_after: 7200, escalation_deciders: ['role-a'], approval_expires_after: 7200 }, 'escalate_after'],
    [{ escalate_after: 9000, escalation_deciders: ['role-a'], approval_expires_after: 7200 }, 'escalate_after'],
    [{ escalate_after: 600 }, 'escalate_after'],
    [{ escalation_deciders: ['role-a'] }, 'escalation_deciders'],
    [{ escalate_after: 600, escalation_deciders: ['boss'] }, 'escalation_deciders[0]'],
    [{ escalate_after: 600, escalation_deciders: 'role-a' as unknown as string[] }, 'escalation_deciders'],
  ])('refuses %j naming %s', (fields, name) => {
    const sut = approvalFieldProblems({ ...approval, ...fields });
    expect(sut).toHaveLength(1);
    expect(sut[0].startsWith(`${name}: `)).toBe(true);
  });

  it("accepts an escalation just before the rule's expiry, and up to a year when the rule sets none", () => {
    expect(
      approvalFieldProblems({ ...approval, escalate_after: 7199, escalation_deciders: ['role-a'], approval_expires_after: 7200 }),
    ).toEqual([]);
    expect(approvalFieldProblems({ ...approval, escalate_after: 31_536_000, escalation_deciders: ['role-a'] })).toEqual([]);
  });

  it('says an escalation after the expiry never happens', () => {
    expect(
      approvalFieldProblems({ ...approval, escalate_after: 7200, escalation_deciders: ['role-a'], approval_expires_after: 7200 }),
    ).toEqual(['escalate_after: must be less than approval_expires_after (7200): the approval would expire before it escalates']);
  });

  it('reads null and an empty escalation_deciders as not set', () => {
    expect(approvalFieldProblems({ severity: 'MANDATORY', approvals_required: null, escalation_deciders: [] })).toEqual([]);
  });
});

describe(approvalFields.name, () => {
  it('stores unset fields as null and each escalation decider once', () => {
    expect(approvalFields({})).toEqual({
      approvals_required: null,
      escalate_after: null,
      escalation_deciders: [],
      approval_expires_after: null,
    });
    expect(approvalFields({ escalation_deciders: ['role-a', 'role-a'] }).escalation_deciders).toEqual(['role-a']);
  });
});

describe(approvalTerms.name, () => {
  it('gives the defaults when no rule sets anything (an invariant, or plain rules)', () => {
    const expected = { approvals_required: 1, expires_at: plus(86_400), escalates_at: null, escalation_deciders: [] };
    expect(approvalTerms([], at, 86_400)).toEqual(expected);
    expect(approvalTerms([approvalFields({})], at, 86_400)).toEqual(expected);
  });

  it('takes the strictest of several rules: largest quorum, earliest expiry and escalation, union of escalation deciders', () => {
    const sut = approvalTerms(
      [
        { approvals_required: 2, approval_expires_after: 7200, escalate_after: 3600, escalation_deciders: ['role-b', 'role-a'] },
        { approvals_required: 3, approval_expires_after: 600, escalate_after: 300, escalation_deciders: ['role-a', 'role-c'] },
        { approvals_required: null, approval_expires_after: null },
      ],
      at,
      86_400,
    );
    expect(sut).toEqual({
      approvals_required: 3,
      expires_at: '2026-03-01T10:10:00.000Z',
      escalates_at: '2026-03-01T10:05:00.000Z',
      escalation_deciders: ['role-a', 'role-b', 'role-c'],
    });
  });

  it('never lets the default expiry outlast a rule that sets a shorter one, nor a rule lengthen past it when it is shorter', () => {
    expect(approvalTerms([{ approval_expires_after: 120 }], at, 60).expires_at).toBe(plus(120));
    expect(approvalTerms([{ approval_expires_after: 120 }, {}], at, 86_400).expires_at).toBe(plus(120));
  });
});

describe(isExpired.name, () => {
  const pending = { status: 'pending', expires_at: '2026-03-01T10:01:00.000Z' };

  it('is expired at and after expires_at, not before', () => {
    expect(isExpired(pending, new Date('2026-03-01T10:00:59.999Z'))).toBe(false);
    expect(isExpired(pending, new Date('2026-03-01T10:01:00.000Z'))).toBe(true);
    expect(isExpired(pending, new Date('2026-03-02T00:00:00.000Z'))).toBe(true);
  });

  it('leaves a decided approval as it is, and keeps a stored expiry', () => {
    expect(isExpired({ ...pending, status: 'approved' }, new Date('2027-01-01T00:00:00Z'))).toBe(false);
    expect(isExpired({ ...pending, status: 'expired' }, at)).toBe(true);
  });
});

describe(isEscalationDecider.name, () => {
  const approval = { escalates_at: '2026-03-01T11:00:00.000Z', escalation_deciders: ['role-cfo', 'hum-1'] };

  it('lets a listed principal (by id or role) decide from escalates_at on, not before', () => {
    expect(isEscalationDecider(approval, { id: 'hum-9', roles: ['role-cfo'] }, new Date('2026-03-01T10:59:59.999Z'))).toBe(false);
    expect(isEscalationDecider(approval, { id: 'hum-9', roles: ['role-cfo'] }, new Date('2026-03-01T11:00:00.000Z'))).toBe(true);
    expect(isEscalationDecider(approval, { id: 'hum-1' }, new Date('2026-03-01T12:00:00.000Z'))).toBe(true);
  });

  it('refuses a principal not listed, and everyone when there is no escalation', () => {
    expect(isEscalationDecider(approval, { id: 'hum-2', roles: ['role-ops'] }, new Date('2026-03-02T00:00:00Z'))).toBe(false);
    expect(isEscalationDecider({ escalates_at: null, escalation_deciders: [] }, { id: 'hum-1' }, new Date('2027-01-01T00:00:00Z'))).toBe(
      false,
    );
  });
});

describe('several triggering rules, each with its own deciders', () => {
  const finance = { deciders: ['role-finance'], approvals_required: 2, escalate_after: 600, escalation_deciders: ['role-cfo'] };
  const ops = { deciders: ['role-ops'], approvals_required: null, escalate_after: 1800, escalation_deciders: ['role-cfo'] };
  const approval = { escalates_at: plus(600), triggers: [{ rule_id: 'rul-fin' }, { rule_id: 'rul-ops' }, { rule_id: 'rul-gone' }] };
  const terms = triggerTerms(approval, [finance, ops, null], { deciders: ['role-finance', 'role-ops'], approvals_required: 2 });

  it("reads each rule's terms, its escalation at its own delay from the approval's escalates_at, and keeps the approval's for an unknown version", () => {
    expect(terms).toEqual([
      {
        rule_id: 'rul-fin',
        deciders: ['role-finance'],
        approvals_required: 2,
        escalates_at_ms: Date.parse(plus(600)),
        escalation_deciders: ['role-cfo'],
      },
      {
        rule_id: 'rul-ops',
        deciders: ['role-ops'],
        approvals_required: 1,
        escalates_at_ms: Date.parse(plus(1800)),
        escalation_deciders: ['role-cfo'],
      },
      {
        rule_id: 'rul-gone',
        deciders: ['role-finance', 'role-ops'],
        approvals_required: 2,
        escalates_at_ms: null,
        escalation_deciders: [],
      },
    ]);
  });

  it('counts an approval for the rules that list its decider, by id or role, or list none; escalation deciders from their own time', () => {
    const two = terms.slice(0, 2);
    expect(rulesCountedFor(two, { id: 'hum-1', roles: ['role-ops'] }, at)).toEqual(['rul-ops']);
    expect(rulesCountedFor(two, { id: 'hum-2', roles: ['role-finance', 'role-ops'] }, at)).toEqual(['rul-fin', 'rul-ops']);
    expect(rulesCountedFor(two, { id: 'hum-3', roles: ['role-cfo'] }, at)).toEqual([]);
    expect(rulesCountedFor(two, { id: 'hum-3', roles: ['role-cfo'] }, new Date(plus(600)))).toEqual(['rul-fin']);
    expect(rulesCountedFor(two, { id: 'hum-3', roles: ['role-cfo'] }, new Date(plus(1800)))).toEqual(['rul-fin', 'rul-ops']);
    const open = triggerTerms({ escalates_at: null, triggers: [{ rule_id: 'rul-any' }] }, [{ deciders: [] }], {
      deciders: [],
      approvals_required: 1,
    });
    expect(rulesCountedFor(open, { id: 'hum-4' }, at)).toEqual(['rul-any']);
  });

  it('approves once every rule has its own quorum among the approvals counting for it; an approval without rule_ids counts for all', () => {
    const two = terms.slice(0, 2);
    const a = (decider: string, ...rule_ids: string[]) => ({ decider, rule_ids });
    expect(rulesAwaitingApproval(two, [a('hum-o', 'rul-ops')])).toEqual(['rul-fin']);
    expect(rulesAwaitingApproval(two, [a('hum-o', 'rul-ops'), a('hum-f1', 'rul-fin')])).toEqual(['rul-fin']);
    expect(rulesAwaitingApproval(two, [a('hum-o', 'rul-ops'), a('hum-f1', 'rul-fin'), a('hum-f2', 'rul-fin')])).toEqual([]);
    expect(rulesAwaitingApproval(two, [a('hum-b', 'rul-fin', 'rul-ops'), a('hum-f1', 'rul-fin')])).toEqual([]);
    // Given before approvals named their rules: as it counted then, for every rule.
    expect(rulesAwaitingApproval(two, [{ decider: 'hum-old' }, { decider: 'hum-old2' }])).toEqual([]);
  });
});
