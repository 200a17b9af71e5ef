import { eventListProblems, subscriptionWants, type EventFacts, type SubscriptionFacts } from './webhook-events';

const t0 = new Date('2026-01-01T00:00:00Z');
const later = new Date('2026-01-01T00:00:01Z');

const sub = (over: Partial<SubscriptionFacts> = {}): SubscriptionFacts => ({
  scope_id: 'scp-a',
  events: ['approval.requested'],
  deciders: [],
  created_at: t0,
  reach_scope_ids: [],
  ...over,
});
const event = (over: Partial<EventFacts> = {}): EventFacts => ({
  type: 'approval.requested',
  scope_ids: ['scp-a'],
  data: { candidate_deciders: ['role-finance'] },
  created_at: later,
  ...over,
});

describe(eventListProblems.name, () => {
  it('accepts known types and the wildcard', () => {
    expect(eventListProblems(['approval.requested', 'rule.updated', '*'])).toEqual([]);
  });

  it('names unknown types and refuses an empty list', () => {
    expect(eventListProblems(['rule.deleted'])[0]).toContain('unknown event type rule.deleted');
    expect(eventListProblems([])).toEqual(['events must name at least one event type']);
  });
});

describe(subscriptionWants.name, () => {
  it('sends a listed type of the subscription scope', () => {
    expect(subscriptionWants(sub(), event())).toBe(true);
  });

  it('skips an unlisted type unless the subscription takes every event', () => {
    expect(subscriptionWants(sub(), event({ type: 'rule.created' }))).toBe(false);
    expect(subscriptionWants(sub({ events: ['*'] }), event({ type: 'rule.created' }))).toBe(true);
  });

  it('sends a scope subscription only the events of its scope, a tenant-level one every event', () => {
    expect(subscriptionWants(sub(), event({ scope_ids: ['scp-b'] }))).toBe(false);
    expect(subscriptionWants(sub({ scope_id: null }), event({ scope_ids: ['scp-b'] }))).toBe(true);
    expect(subscriptionWants(sub({ scope_id: null }), event({ scope_ids: [] }))).toBe(true);
    expect(subscriptionWants(sub(), event({ scope_ids: [] }))).toBe(false);
  });

  it("sends a restricted key's subscription only events whose scopes all lie in the key's", () => {
    const restricted = sub({ reach_scope_ids: ['scp-a'] });
    expect(subscriptionWants(restricted, event({ scope_ids: ['scp-a'] }))).toBe(true);
    expect(subscriptionWants(restricted, event({ scope_ids: ['scp-a', 'scp-b'] }))).toBe(false);
    expect(subscriptionWants(sub(), event({ scope_ids: ['scp-a', 'scp-b'] }))).toBe(true);
  });

  it('routes by candidate deciders when the subscription names some', () => {
    expect(subscriptionWants(sub({ deciders: ['role-finance', 'hum-x'] }), event())).toBe(true);
    expect(subscriptionWants(sub({ deciders: ['role-legal'] }), event())).toBe(false);
    expect(subscriptionWants(sub({ deciders: ['role-legal'] }), event({ data: {} }))).toBe(false);
  });

  it('does not send events written before the subscription existed', () => {
    expect(subscriptionWants(sub({ created_at: later }), event({ created_at: t0 }))).toBe(false);
  });
});
