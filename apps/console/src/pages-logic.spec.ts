import { EMPTY_FILTER, instantOf, listParams, PAGE_SIZE } from './consultations';
import { draftOf, simulationRequest, type Rule } from './rules';

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
