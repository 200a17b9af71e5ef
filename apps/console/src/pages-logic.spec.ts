import {
  EMPTY_FILTER,
  instantOf,
  limitKeyText,
  limitsOf,
  limitStateText,
  listParams,
  PAGE_SIZE,
  sensitiveRows,
  type ConsultationRecord,
  type PrecedenceEntry,
} from './consultations';
import { draftOf, simulationRequest, windowText, type Rule } from './rules';

describe(sensitiveRows.name, () => {
  const commit = { $commit: `hmac-sha256:${'a'.repeat(64)}` };
  const record = (extra: object) =>
    ({
      parameters: { card: commit, n: 1 },
      context_snapshot: { email: { value: commit, source: 'crm' } },
      ...extra,
    }) as unknown as ConsultationRecord;

  it('shows each committed value as read beside the record: its value, erased, or not shown', () => {
    expect(sensitiveRows(record({ sensitive_values: { 'parameters.card': '4111', 'context.email': 'erased' } }))).toEqual([
      { path: 'parameters.card', value: '"4111"' },
      { path: 'context.email', value: 'erased' },
    ]);
    expect(sensitiveRows(record({ sensitive_values: { 'parameters.card': 'unreadable', 'context.email': 'erased' } }))).toEqual([
      { path: 'parameters.card', value: 'unreadable' },
      { path: 'context.email', value: 'erased' },
    ]);
    expect(sensitiveRows(record({}))).toEqual([
      { path: 'parameters.card', value: 'not shown' },
      { path: 'context.email', value: 'not shown' },
    ]);
    expect(sensitiveRows({ parameters: { n: 1 }, context_snapshot: {} } as unknown as ConsultationRecord)).toEqual([]);
  });
});

describe('the consultations filter', () => {
  it('sends only what was filled in, trimmed, with the page size and the cursor', () => {
    expect(listParams(EMPTY_FILTER, null)).toEqual({
      action: undefined,
      verdict: undefined,
      actor: undefined,
      since: undefined,
      until: undefined,
      limit: PAGE_SIZE,
      cursor: undefined,
    });
    expect(listParams({ action: ' payments.transfer ', verdict: 'blocked', actor: 'agn-1', since: '', until: '' }, 'c2')).toMatchObject({
      action: 'payments.transfer',
      verdict: 'blocked',
      actor: 'agn-1',
      cursor: 'c2',
    });
  });

  it('reads datetime-local values as instants and drops unreadable ones', () => {
    expect(instantOf('2026-11-20T10:00')).toBe(new Date(2026, 10, 20, 10, 0).toISOString());
    expect(instantOf('not a time')).toBeUndefined();
    expect(instantOf('  ')).toBeUndefined();
  });
});

describe('the simulation preview', () => {
  const rule = {
    id: 'rul-1',
    scope_id: 'scp-1',
    directive: 'Transfers above 10,000 need approval',
    severity: 'REQUIRES_APPROVAL',
    verdict: null,
    applies_to: { actions: ['payments.transfer'] },
    conditions: [{ field: 'amount', op: 'gt', value: 10000 }],
    priority: null,
    mode: 'enforce',
    status: 'active',
    current_version_id: 'rv-1',
    updated_at: '2026-11-20T10:00:00.000Z',
    author: 'someone',
  } as unknown as Rule;

  it("drafts the rule's simulated members, leaving out nulls and server fields", () => {
    expect(JSON.parse(draftOf(rule))).toEqual({
      directive: 'Transfers above 10,000 need approval',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'amount', op: 'gt', value: 10000 }],
      mode: 'enforce',
    });
  });

  it('makes one update change over a window of days, and refuses what is not a JSON object or a sane window', () => {
    const made = simulationRequest('rul-1', draftOf(rule), 7);
    expect(made.ok).toBe(true);
    const body = (made as unknown as { body: { changes: unknown[]; window: { since: string; until: string } } }).body;
    expect(body.changes).toEqual([{ op: 'update', rule_id: 'rul-1', rule: JSON.parse(draftOf(rule)) }]);
    expect(Date.parse(body.window.until) - Date.parse(body.window.since)).toBe(7 * 86_400_000);
    expect(simulationRequest('rul-1', '{ nope', 7)).toMatchObject({ ok: false, error: expect.stringContaining('not JSON') });
    expect(simulationRequest('rul-1', '[1]', 7)).toMatchObject({ ok: false, error: 'The rule must be a JSON object' });
    expect(simulationRequest('rul-1', '{}', 0)).toMatchObject({ ok: false });
  });
});

describe('rules that remember, in words', () => {
  it('says a count, a sum and a sequence as a person reads them, and nothing for a rule without a window', () => {
    expect(windowText({ limit: { count: true, max: 50, window: '1h', by: ['principal'] } })).toBe('at most 50 per 1h by principal');
    expect(windowText({ limit: { sum: 'parameters.amount', max: 1500, window: '24h', by: ['principal', 'parameters.customer'] } })).toBe(
      'at most 1500 of parameters.amount per 24h by principal and parameters.customer',
    );
    expect(windowText({ limit: { count: true, max: 3, window: '90s', by: [] } })).toBe('at most 3 per 90s');
    expect(windowText({ requires_prior: { action: 'payments.review', within: '1h', same: ['parameters.order_id'] } })).toBe(
      'only after payments.review within 1h on the same parameters.order_id',
    );
    expect(windowText({ limit: null, requires_prior: null })).toBeNull();
  });

  it('drafts a rule with a limit with its limit, so an edit of the budget can be simulated', () => {
    const limit = { count: true, max: 50, window: '1h', by: ['principal'] };
    const rule = { id: 'rul-1', directive: 'Fifty an hour', severity: 'MANDATORY', limit, requires_prior: null } as unknown as Rule;
    expect(JSON.parse(draftOf(rule))).toEqual({ directive: 'Fifty an hour', severity: 'MANDATORY', limit });
  });

  it("reads the record's limits and each trace entry's window state", () => {
    const limits = [{ rule_id: 'rul-b', key: '{}', window: '1h', used_before: 49, used_after: 50, max: 50 }];
    expect(limitsOf({ limits } as unknown as ConsultationRecord)).toEqual(limits);
    expect(limitsOf({} as ConsultationRecord)).toEqual([]);
    expect(limitKeyText('{}')).toBe('one window for the rule');
    expect(limitKeyText('{"principal":"agn-1"}')).toBe('{"principal":"agn-1"}');
    expect(limitStateText({ limit_state: 'exceeded' } as unknown as PrecedenceEntry)).toBe('limit exceeded');
    expect(limitStateText({ limit_state: 'limit_unavailable' } as unknown as PrecedenceEntry)).toBe(
      'window state unavailable (fails closed)',
    );
    expect(limitStateText({} as PrecedenceEntry)).toBe('');
  });
});
