// POST /<tenant_id>/v1/simulations through HTTP against a real registry and verdict gateway
// (docs/verdicts.md "Simulation"): rules made through the registry, consultations through real checks,
// then replays of them against proposed changes. The simulation writes nothing: every table of both
// databases is compared, row by row, before and after.
import { Client } from 'pg';
import { createPrincipalWithKey } from '../../apps/registry/test/harness';
import { createVerdictTenant, expectConforms, registryApi, verdictApi, type VerdictTenant } from './verdict-harness';
import { eventually } from '@arbiter/testing';
import { startStack, type Stack } from './stack';

const PATH = '/{tenant_id}/v1/simulations';

describe('simulation (POST /<tenant_id>/v1/simulations)', () => {
  let stack: Stack;
  let t: VerdictTenant;
  let other: VerdictTenant;
  let scopeId: string;
  let allowRule: { id: string };
  let approvalRule: { id: string };
  let override: { id: string };
  /** Consultation ids by amount, in the order they were checked (oldest first). */
  const checked: Array<{ id: string; amount: number; verdict: string }> = [];
  let betweenBatches: string;
  let afterAll_: string;

  const transferRule = (extra: object) => ({
    scope_id: scopeId,
    directive: 'Transfers above 100 are blocked',
    severity: 'MANDATORY',
    applies_to: { actions: ['payments.transfer'] },
    ...extra,
  });

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
    t = await createVerdictTenant(stack, 'sim-a');
    other = await createVerdictTenant(stack, 'sim-b');
    const reg = registryApi(stack, t.adminKey);
    scopeId = await reg.scope('eu', { region: 'eu' });
    allowRule = await reg.rule(scopeId, {
      directive: 'EU transfers are fine',
      severity: 'ALLOW',
      applies_to: { actions: ['payments.transfer'] },
    });
    approvalRule = await reg.rule(scopeId, {
      directive: 'Transfers above 1,000 need approval',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'amount', op: 'gt', value: 1000 }],
    });
    // An override of a rule no consultation reaches (its action is never checked): something to archive.
    const idle = await reg.rule(scopeId, {
      directive: 'Exports are blocked',
      severity: 'MANDATORY',
      applies_to: { actions: ['data.export'] },
    });
    override = await reg.override(scopeId, { target_id: idle.id, override_type: 'permanent', justification: 'test' });

    const agent = verdictApi(stack, t.agent.key, t.id);
    const check = async (amount: number) => {
      const res = await agent
        .check({ action: 'payments.transfer', resource: `acct:eu/${amount}`, scope: { region: 'eu' }, parameters: { amount } })
        .expect(200);
      checked.push({ id: res.body.consultation_id, amount, verdict: res.body.verdict });
    };
    for (const amount of [10, 50]) await check(amount);
    await new Promise((r) => setTimeout(r, 20));
    betweenBatches = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    for (const amount of [500, 5000, 20000]) await check(amount);
    // An action no rule governs: the tenant default, before and after every change below.
    await agent.check({ action: 'reports.read', resource: 'report:1', scope: { region: 'eu' } }).expect(200);
    await new Promise((r) => setTimeout(r, 20));
    afterAll_ = new Date().toISOString();
    expect(checked.map((c) => c.verdict)).toEqual(['allowed', 'allowed', 'allowed', 'approval_required', 'approval_required']);
  });
  afterAll(() => stack.stop());

  const simulate = (body: object, key = t.adminKey, tenant = t.id) =>
    verdictApi(stack, key, tenant).post(`/${tenant}/v1/simulations`, body);
  const id = (amount: number) => checked.find((c) => c.amount === amount)!.id;

  it('a new blocking rule turns allowed and approval_required into blocked: counts, transitions, samples newest first, the dominating rules', async () => {
    const res = await simulate({
      changes: [{ op: 'create', rule: transferRule({ conditions: [{ field: 'amount', op: 'gt', value: 100 }] }) }],
    }).expect(200);
    expectConforms(res, 'post', PATH);
    expect(res.body).toMatchObject({ evaluated: 6, changed: 3, transitions: { 'allowed->blocked': 1, 'approval_required->blocked': 2 } });
    expect(res.body.samples).toEqual([
      {
        consultation_id: id(20000),
        requested_at: expect.any(String),
        action: 'payments.transfer',
        resource: 'acct:eu/20000',
        before: 'approval_required',
        after: 'blocked',
        dominating_rule_before: approvalRule.id,
        dominating_rule_after: 'changes[0]',
      },
      {
        consultation_id: id(5000),
        requested_at: expect.any(String),
        action: 'payments.transfer',
        resource: 'acct:eu/5000',
        before: 'approval_required',
        after: 'blocked',
        dominating_rule_before: approvalRule.id,
        dominating_rule_after: 'changes[0]',
      },
      {
        consultation_id: id(500),
        requested_at: expect.any(String),
        action: 'payments.transfer',
        resource: 'acct:eu/500',
        before: 'allowed',
        after: 'blocked',
        dominating_rule_before: allowRule.id,
        dominating_rule_after: 'changes[0]',
      },
    ]);
    // The sample's requested_at is the record's.
    const record = await verdictApi(stack, t.agent.key, t.id).consultation(id(500)).expect(200);
    expect(res.body.samples[2].requested_at).toBe(record.body.requested_at);
    expect(Date.parse(res.body.evaluated_at)).toBeGreaterThan(Date.parse(afterAll_));
    // Default window: the last 7 days up to now.
    expect(Date.parse(res.body.window.until) - Date.parse(res.body.window.since)).toBe(7 * 86_400_000);
    expect(res.body.window.last).toBeNull();
  });

  it('no change changes nothing; a shadow rule decides nothing', async () => {
    expect((await simulate({ changes: [] }).expect(200)).body).toMatchObject({ evaluated: 6, changed: 0, transitions: {}, samples: [] });
    const shadow = await simulate({ changes: [{ op: 'create', rule: transferRule({ mode: 'shadow' }) }] }).expect(200);
    expect(shadow.body).toMatchObject({ evaluated: 6, changed: 0, transitions: {} });
  });

  it('previews the promotion of a stored shadow rule: an update to mode enforce shows what it would decide', async () => {
    const reg = registryApi(stack, t.adminKey);
    const body = (directive: string, mode: string) => ({
      directive,
      mode,
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'amount', op: 'gt', value: 1000 }],
    });
    const shadow = await reg.rule(scopeId, body('Transfers above 1,000 are blocked (trial)', 'shadow'));
    // Stored in shadow, it decides nothing now; promoted, it blocks the two approvals.
    const promotion = { changes: [{ op: 'update', rule_id: shadow.id, rule: body('Transfers above 1,000 are blocked', 'enforce') }] };
    // The gateway learns of the new rule through its snapshot: until then the rule_id is unknown (400).
    const promoted = await eventually(
      'the promotion simulated',
      async () => {
        const res = await simulate(promotion);
        if (res.status !== 200) throw new Error(`not yet: ${res.status}`);
        return res;
      },
      { timeoutMs: 10_000 },
    );
    expect((await simulate({ changes: [] }).expect(200)).body).toMatchObject({ evaluated: 6, changed: 0 });
    expect(promoted.body).toMatchObject({ evaluated: 6, changed: 2, transitions: { 'approval_required->blocked': 2 } });
    expect(promoted.body.samples.map((x: { dominating_rule_after: string }) => x.dominating_rule_after)).toEqual([shadow.id, shadow.id]);
  });

  it('archiving the dominating rule lifts its approvals', async () => {
    const res = await simulate({ changes: [{ op: 'archive', rule_id: approvalRule.id }] }).expect(200);
    expect(res.body).toMatchObject({ evaluated: 6, changed: 2, transitions: { 'approval_required->allowed': 2 } });
    expect(
      res.body.samples.map((s: { consultation_id: string; dominating_rule_after: string }) => [s.consultation_id, s.dominating_rule_after]),
    ).toEqual([
      [id(20000), allowRule.id],
      [id(5000), allowRule.id],
    ]);
  });

  it('an update (PUT semantics) moves the threshold: only what it no longer covers changes', async () => {
    const res = await simulate({
      changes: [
        {
          op: 'update',
          rule_id: approvalRule.id,
          rule: {
            directive: 'Transfers above 10,000 need approval',
            severity: 'REQUIRES_APPROVAL',
            applies_to: { actions: ['payments.transfer'] },
            conditions: [{ field: 'amount', op: 'gt', value: 10000 }],
          },
        },
      ],
    }).expect(200);
    expect(res.body).toMatchObject({
      changed: 1,
      transitions: { 'approval_required->allowed': 1 },
      samples: [{ consultation_id: id(5000), dominating_rule_before: approvalRule.id, dominating_rule_after: allowRule.id }],
    });
  });

  it('an override neutralises its targets in its scope; archiving an override in effect is accepted', async () => {
    const res = await simulate({
      changes: [
        {
          op: 'create',
          override: {
            target_ids: [approvalRule.id],
            type: 'conditional',
            conditions: 'amount < 10000',
            applies_to_scope: { region: 'eu' },
            expires_at: null,
          },
        },
        { op: 'archive', override_id: override.id },
      ],
    }).expect(200);
    expect(res.body).toMatchObject({
      changed: 1,
      transitions: { 'approval_required->allowed': 1 },
      samples: [{ consultation_id: id(5000) }],
    });
  });

  it('counts a replay that lacks a field a new rule needs as insufficient_context', async () => {
    const res = await simulate({
      changes: [{ op: 'create', rule: transferRule({ requires: [{ field: 'customer.kyc_id', type: 'string' }] }) }],
    }).expect(200);
    expect(res.body).toMatchObject({
      changed: 5,
      transitions: { 'allowed->insufficient_context': 3, 'approval_required->insufficient_context': 2 },
    });
    expect(res.body.samples[0]).toMatchObject({ after: 'insufficient_context', dominating_rule_after: null });
  });

  it('replays only the window: since, until, last', async () => {
    const block = { changes: [{ op: 'create', rule: transferRule({}) }] }; // every transfer blocked
    const since = await simulate({ ...block, window: { since: betweenBatches } }).expect(200);
    expect(since.body).toMatchObject({ evaluated: 4, changed: 3, window: { since: betweenBatches, last: null } });
    const until = await simulate({ ...block, window: { until: betweenBatches } }).expect(200);
    expect(until.body).toMatchObject({ evaluated: 2, changed: 2, window: { until: betweenBatches } });
    expect(until.body.samples.map((s: { consultation_id: string }) => s.consultation_id)).toEqual([id(50), id(10)]);
    const last = await simulate({ ...block, window: { last: 2 } }).expect(200);
    expect(last.body).toMatchObject({ evaluated: 2, changed: 1, window: { last: 2 }, samples: [{ consultation_id: id(20000) }] });
    const future = await simulate({ ...block, window: { since: afterAll_ } }).expect(200);
    expect(future.body).toMatchObject({ evaluated: 0, changed: 0, transitions: {}, samples: [] });
  });

  it('keeps sample_limit samples, the newest, and counts all', async () => {
    const res = await simulate({ changes: [{ op: 'create', rule: transferRule({}) }], sample_limit: 1 }).expect(200);
    expect(res.body).toMatchObject({ evaluated: 6, changed: 5 });
    expect(res.body.samples.map((s: { consultation_id: string }) => s.consultation_id)).toEqual([id(20000)]);
  });

  it('reads every consultation across keyset pages (a page smaller than the window)', async () => {
    const service = stack.verdict.ctx.simulations as unknown as { pageSize: number };
    const saved = service.pageSize;
    service.pageSize = 2;
    try {
      const res = await simulate({ changes: [{ op: 'create', rule: transferRule({}) }], window: { last: 6 } }).expect(200);
      expect(res.body).toMatchObject({ evaluated: 6, changed: 5 });
      expect(res.body.samples.map((s: { consultation_id: string }) => s.consultation_id)).toEqual([20000, 5000, 500, 50, 10].map(id));
    } finally {
      service.pageSize = saved;
    }
  });

  describe('rules that remember (replayed oldest first, each policy with its own windows)', () => {
    let w: VerdictTenant;
    let wScope: string;
    const transfers: string[] = [];
    const refunds: string[] = [];
    beforeAll(async () => {
      w = await createVerdictTenant(stack, 'sim-windows');
      wScope = await registryApi(stack, w.adminKey).scope('eu', { region: 'eu' });
      const agent = verdictApi(stack, w.agent.key, w.id);
      const check = async (action: string, parameters: object) =>
        (await agent.check({ action, resource: 'acct:eu/1', scope: { region: 'eu' }, parameters }).expect(200)).body;
      for (let i = 1; i <= 5; i++) {
        const res = await check('payments.transfer', { amount: 100 * i });
        expect(res.verdict).toBe('allowed');
        transfers.push(res.consultation_id);
      }
      for (const [action, order] of [
        ['orders.review', 'o-1'],
        ['payments.refund', 'o-1'],
        ['payments.refund', 'o-2'],
      ])
        refunds.push((await check(action, { order_id: order })).consultation_id);
    });
    const simulateW = (body: object) => verdictApi(stack, w.adminKey, w.id).post(`/${w.id}/v1/simulations`, body);
    const budget = {
      op: 'create',
      rule: {
        scope_id: '',
        directive: 'Three transfers an hour per agent',
        severity: 'MANDATORY',
        applies_to: { actions: ['payments.transfer'] },
        limit: { count: true, max: 3, window: '1h', by: ['principal'] },
      },
    };

    it('a proposed budget of 3 over 5 stored allowed transfers: the last 2 would be blocked', async () => {
      const res = await simulateW({ changes: [{ ...budget, rule: { ...budget.rule, scope_id: wScope } }] }).expect(200);
      expect(res.body).toMatchObject({ evaluated: 8, changed: 2, transitions: { 'allowed->blocked': 2 } });
      expect(
        res.body.samples.map((x: { consultation_id: string; dominating_rule_after: string }) => [
          x.consultation_id,
          x.dominating_rule_after,
        ]),
      ).toEqual([
        [transfers[4], 'changes[0]'],
        [transfers[3], 'changes[0]'],
      ]);
      // `last`: the windows start empty at the first consultation replayed.
      const last = await simulateW({ changes: [{ ...budget, rule: { ...budget.rule, scope_id: wScope } }], window: { last: 7 } }).expect(
        200,
      );
      expect(last.body).toMatchObject({ evaluated: 7, changed: 1, samples: [{ consultation_id: transfers[4] }] });
    });

    it('a proposed requires_prior rule: the refund of the reviewed order goes through, the other would be blocked', async () => {
      const res = await simulateW({
        changes: [
          {
            op: 'create',
            rule: {
              scope_id: wScope,
              directive: 'A refund only after a review of the same order',
              severity: 'MANDATORY',
              applies_to: { actions: ['payments.refund'] },
              requires_prior: { action: 'orders.review', within: '1h', same: ['parameters.order_id'] },
            },
          },
        ],
      }).expect(200);
      expect(res.body).toMatchObject({ evaluated: 8, changed: 1, transitions: { 'allowed->blocked': 1 } });
      expect(res.body.samples).toEqual([expect.objectContaining({ consultation_id: refunds[2], after: 'blocked' })]);
    });

    it('refuses a proposed limit the registry would refuse, naming it', async () => {
      const bad = { ...budget, rule: { ...budget.rule, scope_id: wScope, limit: { count: true, max: 3, window: '1 hour' } } };
      const res = await simulateW({ changes: [bad] }).expect(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', details: { field: 'changes[0].rule' } });
      expect(res.body.message).toContain('limit.window');
    });
  });

  describe('400 validation_failed naming the field', () => {
    it.each<[string, () => object, string]>([
      ['a change with two subjects', () => ({ changes: [{ op: 'archive', rule_id: 'rul-1', override_id: 'ovr-1' }] }), 'changes[0]'],
      [
        'an update without its rule',
        () => ({
          changes: [
            { op: 'create', rule: transferRule({}) },
            { op: 'update', rule_id: approvalRule.id },
          ],
        }),
        'changes[1]',
      ],
      ['an unknown op', () => ({ changes: [{ op: 'delete', rule_id: approvalRule.id }] }), 'changes[0].op'],
      [
        'a rule body of the wrong shape',
        () => ({ changes: [{ op: 'create', rule: transferRule({ severity: 'FATAL' }) }] }),
        'changes[0].rule.severity',
      ],
      [
        'an unknown rule id',
        () => ({
          changes: [
            { op: 'archive', rule_id: allowRule.id },
            { op: 'create', rule: transferRule({}) },
            { op: 'archive', rule_id: 'rul-000000000000000000000000' },
          ],
        }),
        'changes[2].rule_id',
      ],
      [
        'an archived rule updated',
        () => ({
          changes: [
            { op: 'archive', rule_id: allowRule.id },
            { op: 'update', rule_id: allowRule.id, rule: { directive: 'x', severity: 'ALLOW' } },
          ],
        }),
        'changes[1].rule_id',
      ],
      [
        'an unknown override id',
        () => ({ changes: [{ op: 'archive', override_id: 'ovr-000000000000000000000000' }] }),
        'changes[0].override_id',
      ],
      [
        'an unknown scope id',
        () => ({ changes: [{ op: 'create', rule: { ...transferRule({}), scope_id: 'scp-000000000000000000000000' } }] }),
        'changes[0].rule.scope_id',
      ],
      ["another tenant's rule", () => ({ changes: [{ op: 'archive', rule_id: otherRuleId }] }), 'changes[0].rule_id'],
      [
        'an override of an unknown rule',
        () => ({ changes: [{ op: 'create', override: { target_ids: ['rul-000000000000000000000000'], type: 'permanent' } }] }),
        'changes[0].override.target_ids[0]',
      ],
      ['a bad window bound', () => ({ changes: [], window: { since: 'last tuesday' } }), 'window.since'],
      [
        'since after until',
        () => ({ changes: [], window: { since: '2026-11-20T00:00:00Z', until: '2026-11-19T00:00:00Z' } }),
        'window.since',
      ],
      ['last out of range', () => ({ changes: [], window: { last: 0 } }), 'window.last'],
      ['sample_limit out of range', () => ({ changes: [], sample_limit: 101 }), 'sample_limit'],
      [
        'more than 100 changes',
        () => ({ changes: Array.from({ length: 101 }, () => ({ op: 'archive', rule_id: approvalRule.id })) }),
        'changes',
      ],
      ['no changes member', () => ({}), 'changes'],
      // Every integer of the body is bounded: a value past 2^31-1 is refused like the registry refuses it.
      ...(
        [
          ['escalate_after', { escalate_after: 2 ** 31, escalation_deciders: ['role-a'] }],
          ['approvals_required', { approvals_required: 2 ** 31 }],
          ['approval_expires_after', { approval_expires_after: 2 ** 31 }],
          ['priority', { priority: 2 ** 31 }],
        ] as const
      ).flatMap(([name, extra]): Array<[string, () => object, string]> => [
        [
          `a huge ${name} in a new rule`,
          () => ({ changes: [{ op: 'create', rule: transferRule({ severity: 'REQUIRES_APPROVAL', ...extra }) }] }),
          `changes[0].rule.${name}`,
        ],
        [
          `a huge ${name} in an update`,
          () => ({
            changes: [{ op: 'update', rule_id: approvalRule.id, rule: { directive: 'x', severity: 'REQUIRES_APPROVAL', ...extra } }],
          }),
          `changes[0].rule.${name}`,
        ],
      ]),
      ['a huge last', () => ({ changes: [], window: { last: 2 ** 31 } }), 'window.last'],
      ['a huge sample_limit', () => ({ changes: [], sample_limit: 2 ** 31 }), 'sample_limit'],
    ])('%s', async (_what, body, field) => {
      const res = await simulate(body()).expect(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', details: { field } });
      expect(res.body.message).toContain(field);
    });

    it.each<[string, object, string]>([
      [
        'a bad rule body',
        { directive: 'x', severity: 'MANDATORY', conditions: [{ field: 'amount', op: 'in', value: 5 }] },
        'Invalid rule: conditions[0]: op in needs an array value',
      ],
      [
        "an escalation at or after the rule's own expiry",
        {
          directive: 'x',
          severity: 'REQUIRES_APPROVAL',
          escalate_after: 7200,
          escalation_deciders: ['role-a'],
          approval_expires_after: 7200,
        },
        'Invalid rule: escalate_after: must be less than approval_expires_after (7200): the approval would expire before it escalates',
      ],
    ])("%s, with the registry's own message for it", async (_what, rule, expected) => {
      const registry = await registryApi(stack, t.adminKey)
        .rule(scopeId, rule)
        .then(
          () => null,
          (err: Error) => err.message,
        );
      const detail = /"detail":"([^"]+)"/.exec(registry ?? '')?.[1];
      expect(detail).toBe(expected);
      const res = await simulate({ changes: [{ op: 'create', rule: { ...rule, scope_id: scopeId } }] }).expect(400);
      expect(res.body).toEqual({ code: 'validation_failed', message: `changes[0].rule: ${detail}`, details: { field: 'changes[0].rule' } });
    });

    it('malformed JSON', async () => {
      const res = await verdictApi(stack, t.adminKey, t.id)
        .post(`/${t.id}/v1/simulations`)
        .set('content-type', 'application/json')
        .send('{"changes": [');
      expect([res.status, res.body.code]).toEqual([400, 'malformed_json']);
    });
  });

  let otherRuleId: string;
  beforeAll(async () => {
    const scope = await registryApi(stack, other.adminKey).scope('all', {});
    otherRuleId = (await registryApi(stack, other.adminKey).rule(scope, { directive: 'x', severity: 'ALLOW' })).id;
  });

  it('replays a resolve record as resolve evaluated it: a rule below the one that decided, never asked about, does not hide a change', async () => {
    // In the other tenant: this tenant's consultations are counted by the tests after this one.
    const reg = registryApi(stack, other.adminKey);
    const docs = await reg.scope('docs', { region: 'eu' });
    const noted = await reg.rule(docs, {
      directive: 'Document reads are noted',
      severity: 'ADVISORY',
      applies_to: { actions: ['doc.read'] },
    });
    const publicRead = await reg.rule(docs, {
      directive: 'Public documents may be read',
      severity: 'ALLOW',
      applies_to: { actions: ['doc.read'] },
      conditions: [{ field: 'doc.class', op: 'eq', value: 'public' }],
    });
    const agent = verdictApi(stack, other.agent.key, other.id);
    const read = { action: 'doc.read', resource: 'doc:1', scope: { region: 'eu' }, context: {} };
    await eventually(
      'both rules in the snapshot',
      async () => {
        const body = (await agent.resolve(read)).body;
        return (
          body.dominating_rule_id === noted.id &&
          (body.precedence_trace ?? []).some((e: { rule_id: string }) => e.rule_id === publicRead.id)
        );
      },
      { timeoutMs: 10_000 },
    );
    const resolved = (await agent.resolve(read).expect(200)).body;
    expect(resolved).toMatchObject({ operation_status: 'complete', verdict: 'observe' });
    const block = {
      scope_id: docs,
      directive: 'Document reads are blocked',
      severity: 'MANDATORY',
      applies_to: { actions: ['doc.read'] },
    };
    const res = await simulate({ changes: [{ op: 'create', rule: block }], window: { last: 1 } }, other.adminKey, other.id).expect(200);
    expect(res.body).toMatchObject({ evaluated: 1, changed: 1, transitions: { 'observe->blocked': 1 } });
    expect(res.body.samples[0]).toMatchObject({ consultation_id: resolved.consultation_id, before: 'observe', after: 'blocked' });
    // Unchanged rules replay it to the verdict it was given.
    expect((await simulate({ changes: [], window: { last: 1 } }, other.adminKey, other.id).expect(200)).body).toMatchObject({
      evaluated: 1,
      changed: 0,
      transitions: {},
    });
  });

  it('403 insufficient_permission without manage_rules, 403 cross_tenant_forbidden for another tenant, 401 without a key', async () => {
    const noRules = await simulate({ changes: [] }, t.agent.key).expect(403);
    expect(noRules.body).toMatchObject({ code: 'insufficient_permission', details: { permission: 'manage_rules' } });
    const ruleManager = await createPrincipalWithKey(stack.registry, t.adminKey, { kind: 'agent', permissions: ['manage_rules'] });
    expect((await simulate({ changes: [] }, ruleManager.key).expect(200)).body.evaluated).toBe(6);
    const cross = await simulate({ changes: [] }, t.adminKey, other.id).expect(403);
    expect(cross.body.code).toBe('cross_tenant_forbidden');
    const unknown = await simulate({ changes: [] }, t.adminKey, 'tnt-000000000000000000000000').expect(403);
    expect(unknown.body.code).toBe('cross_tenant_forbidden');
    expect((await simulate({ changes: [] }, t.adminKey, t.slug).expect(200)).body.evaluated).toBe(6);
    const anonymous = await verdictApi(stack, undefined, t.id).post(`/${t.id}/v1/simulations`, { changes: [] });
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 'missing_credentials']);
  });

  it('writes nothing: every table of both databases holds the same rows, and no tuple was inserted, updated or deleted', async () => {
    const databases = [stack.databaseUrl('verdict'), stack.registry.databaseUrl];
    const body = {
      changes: [
        { op: 'create', rule: transferRule({}) },
        // A budget and a sequence: replayed in memory, they touch no window of the gateway's store.
        { op: 'create', rule: transferRule({ directive: 'Two transfers an hour', limit: { count: true, max: 2, window: '1h' } }) },
        {
          op: 'create',
          rule: transferRule({ directive: 'A transfer after a review', requires_prior: { action: 'payments.review', within: '1h' } }),
        },
        { op: 'update', rule_id: approvalRule.id, rule: { directive: 'x', severity: 'MANDATORY' } },
        { op: 'archive', rule_id: allowRule.id },
        { op: 'create', override: { target_ids: [approvalRule.id], type: 'permanent' } },
        { op: 'archive', override_id: override.id },
      ],
    };
    await simulate(body).expect(200); // the key's identity is cached now: the next call asks the registry nothing
    const clients = await Promise.all(
      databases.map(async (url) => {
        const c = new Client({ connectionString: url });
        await c.connect();
        return c;
      }),
    );
    try {
      const snapshot = async () => {
        const out: Record<string, unknown> = {};
        for (const [i, c] of clients.entries()) {
          const { rows: tables } = await c.query<{ name: string }>(
            `SELECT quote_ident(schemaname) || '.' || quote_ident(relname) AS name FROM pg_stat_user_tables ORDER BY 1`,
          );
          for (const { name } of tables) {
            const { rows } = await c.query(
              `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS sum FROM ${name} t`,
            );
            out[`${i}:${name}`] = rows[0];
          }
          const { rows: stats } = await c.query(
            `SELECT relname, n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_user_tables ORDER BY relname`,
          );
          out[`${i}:stats`] = stats;
        }
        return out;
      };
      // A backend flushes its tuple counters when it has been idle for up to 10 s after a write
      // (PGSTAT_IDLE_INTERVAL): the counters are read once every earlier write has had that time, and again
      // as long after the simulation.
      const flushed = async () => {
        await new Promise((r) => setTimeout(r, 11_000));
        for (const c of clients) await c.query('SELECT pg_stat_clear_snapshot()');
        return snapshot();
      };
      const before = await flushed();
      expect(Object.keys(before).length).toBeGreaterThan(10);
      const res = await simulate(body).expect(200);
      expect(res.body.evaluated).toBe(6);
      expect(await flushed()).toEqual(before);
      // This tenant's 6, and those of the tenant of the windows' tests when they ran first.
      expect((before[`0:public.consultations`] as { n: number }).n).toBeGreaterThanOrEqual(6);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  }, 60_000);
});
