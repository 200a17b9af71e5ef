import { AppError } from '@arbiter/http';
import { parseSimulationRequest } from './simulation-request';

const NOW = new Date('2026-11-23T00:00:00.000Z');
const RULE = { scope_id: 'scp-1', directive: 'Block it', severity: 'MANDATORY' };

function refusal(body: unknown): { status: number; code: string; field: string; message: string } {
  try {
    parseSimulationRequest(body, NOW);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { status: err.status, code: err.code, field: (err.details as { field: string }).field, message: err.message };
  }
  throw new Error('accepted');
}

describe(parseSimulationRequest.name, () => {
  it('reads every kind of change, with the defaults of window and sample_limit', () => {
    const parsed = parseSimulationRequest(
      {
        changes: [
          { op: 'create', rule: { ...RULE, conditions: [{ field: 'amount', op: 'gt', value: 10 }], mode: 'shadow' } },
          { op: 'update', rule_id: 'rul-1', rule: { directive: 'x', severity: 'ALLOW' } },
          { op: 'archive', rule_id: 'rul-2' },
          {
            op: 'create',
            override: {
              target_ids: ['rul-1'],
              type: 'temporary',
              applies_to_scope: null,
              expires_at: '2026-12-01T00:00:00Z',
              conditions: null,
            },
          },
          { op: 'archive', override_id: 'ovr-1' },
        ],
      },
      NOW,
    );
    expect(parsed.changes.map((c) => [c.kind, c.index])).toEqual([
      ['create_rule', 0],
      ['update_rule', 1],
      ['archive_rule', 2],
      ['create_override', 3],
      ['archive_override', 4],
    ]);
    expect(parsed.window).toEqual({ since: new Date('2026-11-16T00:00:00.000Z'), until: NOW, last: null });
    expect(parsed.sampleLimit).toBe(20);
  });

  it('reads a window: date-only until covers its day, since defaults to until minus 7 days', () => {
    expect(parseSimulationRequest({ changes: [], window: { until: '2026-11-10', last: 5 }, sample_limit: 0 }, NOW)).toMatchObject({
      window: { since: new Date('2026-11-03T23:59:59.999Z'), until: new Date('2026-11-10T23:59:59.999Z'), last: 5 },
      sampleLimit: 0,
    });
  });

  it.each<[string, unknown, string]>([
    ['a body that is not an object', [], 'body'],
    ['an unknown top-level member', { changes: [], extra: 1 }, 'extra'],
    ['no changes', {}, 'changes'],
    ['more than 100 changes', { changes: Array.from({ length: 101 }, () => ({ op: 'archive', rule_id: 'rul-1' })) }, 'changes'],
    ['a change that is not an object', { changes: ['x'] }, 'changes[0]'],
    ['an unknown op', { changes: [{ op: 'delete', rule_id: 'rul-1' }] }, 'changes[0].op'],
    [
      'a create with two subjects',
      {
        changes: [
          { op: 'archive', rule_id: 'rul-1' },
          { op: 'create', rule: RULE, override: { target_ids: ['rul-1'], type: 'permanent' } },
        ],
      },
      'changes[1]',
    ],
    ['a create with an id', { changes: [{ op: 'create', rule: RULE, rule_id: 'rul-1' }] }, 'changes[0]'],
    ['an update without rule', { changes: [{ op: 'update', rule_id: 'rul-1' }] }, 'changes[0]'],
    ['an archive with a body', { changes: [{ op: 'archive', rule_id: 'rul-1', rule: RULE }] }, 'changes[0]'],
    ['an archive of nothing', { changes: [{ op: 'archive' }] }, 'changes[0]'],
    ['an unknown member of a change', { changes: [{ op: 'archive', rule_id: 'rul-1', why: 'x' }] }, 'changes[0]'],
    ['a rule id that is not a string', { changes: [{ op: 'archive', rule_id: 7 }] }, 'changes[0].rule_id'],
    [
      'a created rule without scope_id',
      { changes: [{ op: 'create', rule: { directive: 'x', severity: 'ALLOW' } }] },
      'changes[0].rule.scope_id',
    ],
    ['an updated rule with scope_id', { changes: [{ op: 'update', rule_id: 'rul-1', rule: RULE }] }, 'changes[0].rule.scope_id'],
    ['a bad severity', { changes: [{ op: 'create', rule: { ...RULE, severity: 'FATAL' } }] }, 'changes[0].rule.severity'],
    [
      'a bad condition op',
      {
        changes: [
          {
            op: 'create',
            rule: {
              ...RULE,
              conditions: [
                { field: 'a', op: 'eq', value: 1 },
                { field: 'a', op: 'like' },
              ],
            },
          },
        ],
      },
      'changes[0].rule.conditions[1].op',
    ],
    [
      'a bad field path',
      { changes: [{ op: 'create', rule: { ...RULE, conditions: [{ field: '1a', op: 'exists' }] } }] },
      'changes[0].rule.conditions[0].field',
    ],
    ['an unknown rule member', { changes: [{ op: 'create', rule: { ...RULE, colour: 'red' } }] }, 'changes[0].rule.colour'],
    ['a bad mode', { changes: [{ op: 'create', rule: { ...RULE, mode: 'dry' } }] }, 'changes[0].rule.mode'],
    ['a priority that is not an integer', { changes: [{ op: 'create', rule: { ...RULE, priority: 1.5 } }] }, 'changes[0].rule.priority'],
    [
      'an override without targets',
      { changes: [{ op: 'create', override: { target_ids: [], type: 'permanent' } }] },
      'changes[0].override.target_ids',
    ],
    ['an override without type', { changes: [{ op: 'create', override: { target_ids: ['rul-1'] } }] }, 'changes[0].override.type'],
    ['a window that is not an object', { changes: [], window: 'last week' }, 'window'],
    ['an unknown window member', { changes: [], window: { from: '2026-01-01' } }, 'window.from'],
    ['a since that is no date', { changes: [], window: { since: 'yesterday' } }, 'window.since'],
    ['an until that is no date', { changes: [], window: { until: 5 } }, 'window.until'],
    ['a since on a day the month lacks', { changes: [], window: { since: '2026-02-30' } }, 'window.since'],
    ['since after until', { changes: [], window: { since: '2026-11-20T00:00:00Z', until: '2026-11-19T00:00:00Z' } }, 'window.since'],
    ['last of 0', { changes: [], window: { last: 0 } }, 'window.last'],
    ['last above 1,000,000', { changes: [], window: { last: 1_000_001 } }, 'window.last'],
    ['a sample_limit above 100', { changes: [], sample_limit: 101 }, 'sample_limit'],
    ['a sample_limit that is not an integer', { changes: [], sample_limit: '5' }, 'sample_limit'],
  ])('refuses %s with 400 validation_failed naming the field', (_what, body, field) => {
    const r = refusal(body);
    expect([r.status, r.code, r.field]).toEqual([400, 'validation_failed', field]);
    expect(r.message.startsWith(`${field}: `)).toBe(true);
  });
});
