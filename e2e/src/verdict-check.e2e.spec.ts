import { Client } from 'pg';
import request from 'supertest';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { createPrincipalWithKey } from '../../apps/registry/test/harness';
import { createVerdictTenant, expectConforms, registryApi, verdictApi, type VerdictTenant } from './verdict-harness';
import { eventually } from '@arbiter/testing';
import { startStack, type Stack } from './stack';

const CHECK = '/{tenant_id}/v1/check';

/** Check (docs/verdicts.md "check") through HTTP against the real registry, PostgreSQL and Redis. */
describe('POST /<tenant_id>/v1/check', () => {
  let stack: Stack;
  let t: VerdictTenant;
  let other: VerdictTenant;
  const rules: Record<string, { id: string; current_version_id: string }> = {};
  let euScope: string;
  let tenantScope: string;

  const transfer = (parameters: object, extra: object = {}) => ({
    action: 'payments.transfer',
    resource: 'acct:eu/4471',
    scope: { region: 'eu', env: 'prod' },
    parameters,
    ...extra,
  });

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
    t = await createVerdictTenant(stack, 'check-a');
    other = await createVerdictTenant(stack, 'check-b');
    const reg = registryApi(stack, t.adminKey);
    tenantScope = await reg.scope('whole-tenant');
    euScope = await reg.scope('eu', { region: 'eu' });
    rules.sanctions = await reg.rule(tenantScope, {
      directive: 'No transfers to sanctioned countries',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'beneficiary.country', op: 'in', value: ['KP', 'IR'] }],
    });
    rules.large = await reg.rule(euScope, {
      directive: 'Transfers above 10,000 need CFO approval',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'transfer.amount', op: 'gt', value: 10000 }],
      deciders: ['role-cfo'],
    });
    rules.euAllow = await reg.rule(euScope, {
      directive: 'EU payments are allowed',
      severity: 'ALLOW',
      applies_to: { actions: ['payments.*'] },
    });
    rules.observe = await reg.rule(tenantScope, {
      directive: 'Watch exports',
      severity: 'ADVISORY',
      applies_to: { actions: ['reports.export'] },
    });
    rules.custom = await reg.rule(tenantScope, {
      directive: 'Escalate deletions',
      severity: 'MANDATORY',
      verdict: 'escalate',
      applies_to: { actions: ['records.delete'] },
    });
  });
  afterAll(() => stack.stop());

  const agent = () => verdictApi(stack, t.agent.key, t.id);

  it('answers allowed with the whole evidence, both headers, and a committed consultation', async () => {
    const res = await agent()
      .check(transfer({ beneficiary: { country: 'DE' }, transfer: { amount: 500 } }))
      .expect(200);
    expectConforms(res, 'post', CHECK);
    expect(Object.keys(res.body)).toEqual([
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
    expect(res.body).toMatchObject({
      operation_status: 'complete',
      verdict: 'allowed',
      cited_rule_ids: [rules.euAllow.id],
      cited_rule_version_ids: [rules.euAllow.current_version_id],
      dominating_rule_id: rules.euAllow.id,
      resolved_target_ids: [expect.stringMatching(/^tgt-[0-9a-f]{32}$/)],
      consultation_id: expect.stringMatching(/^cns-[0-9a-f]{24}$/),
      context_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect(res.body.precedence_trace.map((e: { rule_id: string; reason: string }) => [e.rule_id, e.reason])).toEqual([
      [rules.sanctions.id, 'condition_false'],
      [rules.large.id, 'condition_false'],
      [rules.euAllow.id, 'fires'],
    ]);
    expect(res.body.precedence_trace[2]).toMatchObject({ severity: 'allow', scope_match: 'partial', decided_by: 'only_candidate' });
    expect(res.headers['x-verdict-ttl']).toBe('300');
    expect(res.headers['x-consultation-id']).toBe(res.body.consultation_id);
    // Durable before the answer: the record is there the moment the response is.
    const stored = await agent().consultation(res.body.consultation_id).expect(200);
    expect(stored.body.signed_verdict).toBe(res.body.signed_verdict);
  });

  it('answers blocked with dominating_rule_id and, asked for, the explanation only among the optional fields', async () => {
    const res = await agent()
      .check({ ...transfer({ beneficiary: { country: 'KP' }, transfer: { amount: 50_000 } }), explain: true })
      .expect(200);
    expectConforms(res, 'post', CHECK);
    expect(res.body).toEqual({
      operation_status: 'complete',
      verdict: 'blocked',
      cited_rule_ids: [rules.sanctions.id, rules.large.id, rules.euAllow.id],
      dominating_rule_id: rules.sanctions.id,
      consultation_id: expect.any(String),
      signed_verdict: expect.any(String),
      // docs/verdicts.md "Explanations": both firing rules that are not ALLOW must stop firing.
      explanation: {
        not_invertible: [],
        to_allow: [
          {
            changes: [
              { field: 'beneficiary.country', op: 'not_in', value: ['KP', 'IR'] },
              { field: 'transfer.amount', op: 'lte', value: 10000 },
            ],
          },
        ],
      },
    });
  });

  it('answers approval_required with the approval hint naming the approvals collection, and the explanation asked for', async () => {
    const res = await agent()
      .check({ ...transfer({ beneficiary: { country: 'DE' }, transfer: { amount: 50_000 } }), explain: true })
      .expect(200);
    expectConforms(res, 'post', CHECK);
    expect(res.body).toEqual({
      operation_status: 'complete',
      verdict: 'approval_required',
      cited_rule_ids: [rules.large.id, rules.euAllow.id],
      consultation_id: expect.any(String),
      signed_verdict: expect.any(String),
      approval: { endpoint: `/${t.id}/v1/approvals`, example_body: { consultation_id: res.body.consultation_id, requester_notes: '' } },
      explanation: {
        deciders: ['role-cfo'],
        not_invertible: [],
        to_allow: [{ changes: [{ field: 'transfer.amount', op: 'lte', value: 10000 }] }],
      },
    });
    const record = (await agent().consultation(res.body.consultation_id).expect(200)).body;
    // Computed on demand, never stored (docs/verdicts.md "Explanations"): the route gives the same one.
    expect(record).not.toHaveProperty('explanation');
    expect((await agent().get(`/${t.id}/v1/consultations/${res.body.consultation_id}/explanation`).expect(200)).body.explanation).toEqual(
      res.body.explanation,
    );
    expect(record.triggers).toEqual([
      { rule_id: rules.large.id, rule_version_id: rules.large.current_version_id, reason: 'Transfers above 10,000 need CFO approval' },
    ]);
    expect(record.candidate_deciders).toEqual(['role-cfo']);
  });

  it('gives observe, tenant-defined verdicts and the tenant default the whole evidence', async () => {
    const observe = await agent()
      .check({ action: 'reports.export', resource: 'report:q1', scope: { region: 'us' } })
      .expect(200);
    expect(observe.body).toMatchObject({ verdict: 'observe', dominating_rule_id: rules.observe.id, context_hash: expect.any(String) });
    const custom = await agent().check({ action: 'records.delete', resource: 'rec:1', scope: {} }).expect(200);
    expect(custom.body).toMatchObject({
      verdict: 'escalate',
      dominating_rule_id: rules.custom.id,
      precedence_trace: [expect.objectContaining({ severity: 'block' })],
    });
    const none = await agent().check({ action: 'calendar.read', resource: 'cal:1', scope: {} }).expect(200);
    expectConforms(none, 'post', CHECK);
    expect(none.body).toMatchObject({ verdict: 'allowed', dominating_rule_id: null, cited_rule_ids: [], precedence_trace: [] });
  });

  it('refuses a blocking rule that would answer a go-ahead verdict: it would outrank the other blocks and let the operation go', async () => {
    // A MANDATORY rule of a narrower scope outranks a tenant-wide one on scope match; answering `allowed` it would lift it.
    const reg = registryApi(stack, t.adminKey);
    const add = (body: object) =>
      request(stack.registry.url).post(`/api/v1/scopes/${euScope}/rules`).set('Authorization', `Bearer ${t.adminKey}`).send(body);
    for (const [severity, verdict] of [
      ['MANDATORY', 'allowed'],
      ['MANDATORY', 'observe'],
      ['REQUIRES_APPROVAL', 'allowed'],
    ]) {
      const refused = await add({ directive: 'eu sanctions exception', severity, verdict, applies_to: { actions: ['payments.transfer'] } });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain(`verdict: a ${severity} rule cannot answer ${verdict}`);
    }
    // Routing a block to deciders, or a verdict of the tenant's own, still stands.
    await reg.archiveRule(
      euScope,
      (await reg.rule(euScope, { directive: 'never', severity: 'MANDATORY', verdict: 'escalate', applies_to: { actions: ['none.ever'] } }))
        .id,
    );
    const sanctioned = await agent()
      .check(transfer({ beneficiary: { country: 'KP' }, transfer: { amount: 1 } }))
      .expect(200);
    expect(sanctioned.body).toMatchObject({ verdict: 'blocked', dominating_rule_id: rules.sanctions.id });
  });

  it('ranks a tenant-wide block above a blocking rule of a narrower scope that routes to deciders: an author of one scope cannot turn a block into an approval', async () => {
    const author = await createPrincipalWithKey(stack.registry, t.adminKey, {
      kind: 'human',
      permissions: ['manage_rules'],
      scope_ids: [euScope],
    });
    const add = await request(stack.registry.url)
      .post(`/api/v1/scopes/${euScope}/rules`)
      .set('Authorization', `Bearer ${author.key}`)
      .send({
        directive: 'EU transfers to sanctioned countries go to our own desk',
        severity: 'MANDATORY',
        verdict: 'approval_required',
        priority: 1000,
        applies_to: { actions: ['payments.transfer'] },
        deciders: [author.principalId],
      })
      .expect(201);
    try {
      // Where nothing blocks, the scope's own rule routes the operation to its deciders (once the gateway has it).
      await eventually(
        'the new rule in the snapshot',
        async () => {
          const elsewhere = await agent()
            .check(transfer({ beneficiary: { country: 'DE' }, transfer: { amount: 1 } }))
            .expect(200);
          expect(elsewhere.body.verdict).toBe('approval_required');
          expect((await agent().consultation(elsewhere.body.consultation_id).expect(200)).body.dominating_rule_id).toBe(add.body.id);
          return true;
        },
        { timeoutMs: 10_000 },
      );
      const sanctioned = await agent()
        .check(transfer({ beneficiary: { country: 'KP' }, transfer: { amount: 1 } }))
        .expect(200);
      expect(sanctioned.body).toMatchObject({ verdict: 'blocked', dominating_rule_id: rules.sanctions.id });
      expect(sanctioned.body.approval).toBeUndefined();
      const record = (await agent().consultation(sanctioned.body.consultation_id).expect(200)).body;
      expect(record.precedence_trace[0]).toMatchObject({ rule_id: rules.sanctions.id, decided_by: 'verdict' });
    } finally {
      await registryApi(stack, t.adminKey).archiveRule(euScope, add.body.id);
    }
  });

  it('applies an X-Verdict-TTL shorter than the tenant default, lowers a longer one to it, and refuses anything else with 400 invalid_verdict_ttl', async () => {
    const res = await agent()
      .check(transfer({ beneficiary: { country: 'DE' }, transfer: { amount: 1 } }), { 'X-Verdict-TTL': '60' })
      .expect(200);
    expect(res.headers['x-verdict-ttl']).toBe('60');
    const record = (await agent().consultation(res.body.consultation_id).expect(200)).body;
    expect(record.verdict_ttl_seconds).toBe(60);
    expect(Date.parse(record.expired_at) - Date.parse(record.requested_at)).toBe(60_000);
    // The tenant's verdict_ttl_seconds (default 300) is the longest: the caller may only shorten it.
    const longer = await agent()
      .check(transfer({ beneficiary: { country: 'DE' }, transfer: { amount: 1 } }), { 'X-Verdict-TTL': '3600' })
      .expect(200);
    expect(longer.headers['x-verdict-ttl']).toBe('300');
    for (const bad of ['3601', '0', '-5', '12.5', 'soon']) {
      const r = await agent().check(transfer({}), { 'X-Verdict-TTL': bad }).expect(400);
      expect(r.body.code).toBe('invalid_verdict_ttl');
    }
  });

  it('takes the default TTL from the tenant settings', async () => {
    const tenant = await createVerdictTenant(stack, 'check-ttl', { verdict_ttl_seconds: 42 });
    const res = await verdictApi(stack, tenant.agent.key, tenant.id).check({ action: 'x', resource: 'y', scope: {} }).expect(200);
    expect(res.headers['x-verdict-ttl']).toBe('42');
  });

  it('refuses scope fields outside the scope_schema (invalid_scope_field) and values outside it (invalid_scope_value)', async () => {
    const field = await agent()
      .check({ ...transfer({}), scope: { region: 'eu', planet: 'mars' } })
      .expect(400);
    expect(field.body).toMatchObject({ code: 'invalid_scope_field', details: { field: 'planet' } });
    const value = await agent()
      .check({ ...transfer({}), scope: { region: 'apac' } })
      .expect(400);
    expect(value.body).toMatchObject({ code: 'invalid_scope_value', details: { field: 'region', allowed_values: ['eu', 'us'] } });
    const typed = await agent()
      .check({ ...transfer({}), scope: { tier: 'gold' } })
      .expect(400);
    expect(typed.body).toMatchObject({ code: 'invalid_scope_value', details: { field: 'tier' } });
    const shape = await agent()
      .check({ ...transfer({}), scope: { region: { name: 'eu' } } })
      .expect(400);
    expect(shape.body.code).toBe('invalid_scope_value');
  });

  it('answers 422 insufficient_context naming every missing field', async () => {
    const res = await agent()
      .check(transfer({ transfer: { amount: 20 } }))
      .expect(422);
    expect(res.body).toMatchObject({
      code: 'insufficient_context',
      details: {
        missing_fields: ['beneficiary.country'],
        required_context: [expect.objectContaining({ field: 'beneficiary.country', rule_ids: [rules.sanctions.id] })],
      },
    });
    const none = await agent().check(transfer({})).expect(422);
    expect(none.body.details.missing_fields.sort()).toEqual(['beneficiary.country', 'transfer.amount']);
  });

  it('refuses a leap second where a timestamp is required (422 wrong_type), so a date rule cannot be stepped around; a bound with one is 400', async () => {
    const reg = registryApi(stack, t.adminKey);
    const backdated = await reg.rule(tenantScope, {
      directive: 'No settlement dated before 1 December 2026',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.settle'] },
      conditions: [{ field: 'value_date', op: 'lt', value: '2026-12-01T00:00:00Z' }],
      requires: [{ field: 'value_date', type: 'datetime', reason: 'the value date, an RFC 3339 timestamp' }],
    });
    const settle = (value_date: string) =>
      agent().check({
        action: 'payments.settle',
        resource: 'acct:eu/4471',
        scope: { region: 'eu', env: 'prod' },
        parameters: { value_date },
      });
    await eventually('the rule in the snapshot', async () => (await settle('2026-11-30T23:59:59Z')).body.verdict === 'blocked', {
      timeoutMs: 10_000,
    });
    expect((await settle('2026-12-01T00:00:00Z').expect(200)).body.verdict).toBe('allowed');
    for (const leap of ['2026-11-30T23:59:60Z', '2026-11-15T10:00:60Z', '2026-11-15T10:00:60+00:00']) {
      const refused = (await settle(leap).expect(422)).body;
      expect(refused).toMatchObject({ code: 'insufficient_context', details: { missing_fields: ['value_date'] } });
      expect(refused.details.required_context).toEqual([
        expect.objectContaining({ field: 'value_date', problems: ['wrong_type'], rule_ids: [backdated.id] }),
      ]);
    }
    // A bound the comparison could never place would make a rule that never fires: the registry refuses it.
    const bound = await request(stack.registry.url)
      .post(`/api/v1/scopes/${tenantScope}/rules`)
      .set({ Authorization: `Bearer ${t.adminKey}` })
      .send({
        directive: 'dead',
        severity: 'MANDATORY',
        applies_to: { actions: ['payments.settle'] },
        conditions: [{ field: 'value_date', op: 'gte', value: '2026-12-31T23:59:60Z' }],
      })
      .expect(400);
    expect(JSON.stringify(bound.body)).toMatch(/needs a number or an ISO 8601 date or timestamp value/);
    await reg.archiveRule(tenantScope, backdated.id);
  });

  it('reads one value per path in rules and overrides alike: no second Fact, parameter member or unaccepted source lifts a block', async () => {
    const reg = registryApi(stack, t.adminKey);
    const payout = (body: object) =>
      agent().check({ action: 'risk.payout', resource: 'acct:eu/4471', scope: { region: 'eu', env: 'prod' }, ...body });
    // A rule that accepts the score only from the ledger, with an override (written first: the wait for the
    // override below, a later write, sees the whole tenant state up to it).
    const vouched = await reg.rule(tenantScope, {
      directive: 'Block payouts unless the ledger-vouched score is low',
      severity: 'MANDATORY',
      applies_to: { actions: ['risk.payout2'] },
      conditions: [{ field: 'score', op: 'gt', value: 80 }],
      requires: [
        { field: 'score', type: 'number', acceptable_sources: ['ledger'], source_requirement: 'verified', reason: 'via the ledger' },
      ],
    });
    await reg.override(tenantScope, {
      target_id: vouched.id,
      override_type: 'conditional',
      justification: 'low scores',
      conditions: 'score < 50.0',
    });
    const risky = await reg.rule(tenantScope, {
      directive: 'Block high-risk payouts',
      severity: 'MANDATORY',
      applies_to: { actions: ['risk.payout'] },
      conditions: [{ field: 'risk.score', op: 'gt', value: 80 }],
      requires: [{ field: 'risk.score', type: 'number', reason: 'the risk score' }],
    });
    const lift = await reg.override(tenantScope, {
      target_id: risky.id,
      override_type: 'conditional',
      justification: 'low-risk payouts may go',
      conditions: 'has(risk.score) && risk.score < 95.0',
    });
    const scored = { 'risk.score': { value: 99, source: 'risk-engine', verification_status: 'verified' } };
    await eventually(
      'the override in the snapshot',
      async () => (await payout({ parameters: { risk: { score: 90 } } })).body.verdict === 'allowed',
      {
        timeoutMs: 10_000,
      },
    );
    // Lifted where the override holds (90 fires the rule, and is below 95); without it, blocked.
    expect((await payout({ context: scored }).expect(200)).body.verdict).toBe('blocked');
    // A second Fact above the rule's: the expression would read it whole (10), the rule reads the other (99).
    const twoFacts = (await payout({ context: { ...scored, risk: { value: { score: 10 }, source: 'agent' } } }).expect(200)).body;
    expect(twoFacts.verdict).toBe('blocked');
    expect(
      (await agent().consultation(twoFacts.consultation_id).expect(200)).body.precedence_trace.find(
        (e: { rule_id: string }) => e.rule_id === risky.id,
      ).overrides_not_applied,
    ).toEqual([
      expect.objectContaining({
        override_id: lift.id,
        reason: 'override_condition_error',
        error: expect.stringMatching(/one value per path/),
      }),
    ]);

    // A rule that names a parameter parameters.<path>: a parameter member named parameters cannot stand in for it.
    const misnamed = await reg.rule(tenantScope, {
      directive: 'Payouts above 1000 are blocked',
      severity: 'MANDATORY',
      applies_to: { actions: ['pay.out'] },
      conditions: [{ field: 'parameters.amount', op: 'gt', value: 1000 }],
    });
    const pay = (parameters: object) =>
      agent().check({ action: 'pay.out', resource: 'acct:eu/4471', scope: { region: 'eu', env: 'prod' }, parameters });
    await eventually('the misnamed rule in the snapshot', async () => (await pay({ amount: 5 })).status === 422, { timeoutMs: 10_000 });
    const member = (await pay({ amount: 50000, parameters: { amount: 1 } }).expect(400)).body;
    expect(member).toMatchObject({ code: 'validation_failed', details: { field: 'parameters.parameters' } });
    await reg.archiveRule(tenantScope, misnamed.id);
    // Once no rule reads such a field, a member of that name is a parameter like any other.
    await eventually('the misnamed rule gone', async () => (await pay({ amount: 5, parameters: { amount: 1 } })).status === 200, {
      timeoutMs: 10_000,
    });

    const payout2 = (body: object) =>
      agent().check({ action: 'risk.payout2', resource: 'acct:eu/4471', scope: { region: 'eu', env: 'prod' }, ...body });
    // The agent's own number satisfies neither the rule nor its override (the snapshot holds both since the waits above).
    for (const body of [{ context: { score: { value: 10, source: 'agent' } } }, { parameters: { score: 10 } }]) {
      const refused = (await payout2(body).expect(422)).body;
      expect(refused).toMatchObject({ code: 'insufficient_context', details: { missing_fields: ['score'] } });
    }
    for (const id of [risky.id, vouched.id]) await reg.archiveRule(tenantScope, id);
  });

  it('refuses a Fact, a scope field or a member named __proto__: hidden as the prototype of the context map, a Fact fed the rule past the contradiction check and the record', async () => {
    const reg = registryApi(stack, t.adminKey);
    const rule = await reg.rule(tenantScope, {
      directive: 'Payments of value above 1000 are blocked',
      severity: 'MANDATORY',
      applies_to: { actions: ['proto.pay'] },
      conditions: [{ field: 'value', op: 'gt', value: 1000 }],
    });
    // JSON.parse keeps __proto__ as a member, as the body does on the wire (an object literal would not).
    const pay = (extra: string) =>
      agent().check(
        JSON.parse(`{"action":"proto.pay","resource":"acct:1","scope":{"region":"eu","env":"prod"},"parameters":{"value":50000}${extra}}`),
      );
    await eventually('the rule in the snapshot', async () => (await pay('')).body.verdict === 'blocked', { timeoutMs: 10_000 });
    // The Fact's own members (value, source) were read as the context's inherited fields `value` and `source`.
    const hidden = (await pay(',"context":{"__proto__":{"value":{"value":1,"source":"agent"},"source":"agent"}}').expect(400)).body;
    expect(hidden).toMatchObject({ code: 'validation_failed', details: { field: 'context.__proto__', in: 'body' } });
    await pay(',"context":{"note":{"value":{"__proto__":{"value":1}},"source":"agent"}}').expect(400);
    const plain = (await pay(',"context":{}').expect(200)).body;
    expect(plain.verdict).toBe('blocked');
    await agent()
      .check(
        JSON.parse(
          '{"action":"proto.pay","resource":"acct:1","scope":{"region":"eu","env":"prod","__proto__":"x"},"parameters":{"value":50000}}',
        ),
      )
      .expect(400);
    await agent()
      .check(
        JSON.parse(
          '{"action":"proto.pay","resource":"acct:1","scope":{"region":"eu","env":"prod"},"parameters":{"value":50000,"meta":{"__proto__":{"value":1}}}}',
        ),
      )
      .expect(400);
    const resolved = await agent()
      .resolve(
        JSON.parse(
          '{"action":"proto.pay","resource":"acct:1","scope":{"region":"eu","env":"prod"},"context":{"__proto__":{"value":{"value":1,"source":"agent"},"source":"agent"}}}',
        ),
      )
      .expect(400);
    expect(resolved.body).toMatchObject({ code: 'validation_failed', details: { field: 'context.__proto__', in: 'body' } });
    // Resolve widens the scope from scope.<field> Facts, which would have dropped this one.
    await agent()
      .resolve(
        JSON.parse(
          '{"action":"proto.pay","resource":"acct:1","scope":{"region":"eu","env":"prod"},"context":{"scope.__proto__":{"value":"x","source":"agent"}}}',
        ),
      )
      .expect(400);
    await reg.archiveRule(tenantScope, rule.id);
    // The registry stored such a member as nothing (its JSON columns copy by assignment): a condition value
    // {"__proto__": {...}} became {}, which `arbiter rules test` read otherwise. It is refused, and nothing is stored.
    const before = (
      await request(stack.registry.url).get(`/api/v1/scopes/${tenantScope}/rules`).set('Authorization', `Bearer ${t.adminKey}`).expect(200)
    ).body;
    const refused = await request(stack.registry.url)
      .post(`/api/v1/scopes/${tenantScope}/rules`)
      .set('Authorization', `Bearer ${t.adminKey}`)
      .set('Content-Type', 'application/json')
      .send(
        '{"directive":"p","severity":"MANDATORY","applies_to":{"actions":["proto.x"]},"conditions":[{"op":"neq","field":"to","value":{"__proto__":{"a":1}}}]}',
      )
      .expect(400);
    expect(refused.body.detail).toMatch(/conditions\[0\]\.value\.__proto__ is __proto__/);
    expect(
      (
        await request(stack.registry.url)
          .get(`/api/v1/scopes/${tenantScope}/rules`)
          .set('Authorization', `Bearer ${t.adminKey}`)
          .expect(200)
      ).body,
    ).toEqual(before);
    await request(stack.registry.url)
      .patch(`/api/v1/tenants/${t.id}`)
      .set('Authorization', `Bearer ${t.adminKey}`)
      .set('Content-Type', 'application/json')
      .send('{"settings":{"context_schema":{"fields":{"__proto__":{"type":"number"}}}}}')
      .expect(400);
  });

  it('reads context Facts beside the parameters, and refuses one that contradicts them (422 context_contradicts_parameters)', async () => {
    const agreeing = await agent()
      .check(
        transfer(
          { beneficiary: { country: 'IR' }, transfer: { amount: 5 } },
          { context: { 'beneficiary.country': { value: 'IR', source: 'kyc', verification_status: 'verified' } } },
        ),
      )
      .expect(200);
    expect(agreeing.body.verdict).toBe('blocked');
    const fromFact = await agent()
      .check(transfer({ transfer: { amount: 5 } }, { context: { 'beneficiary.country': { value: 'IR', source: 'kyc' } } }))
      .expect(200);
    expect(fromFact.body.verdict).toBe('blocked');
    const contradicting = await agent()
      .check(
        transfer(
          { beneficiary: { country: 'DE' }, transfer: { amount: 5 } },
          { context: { 'beneficiary.country': { value: 'IR', source: 'kyc' } } },
        ),
      )
      .expect(422);
    expect(contradicting.body).toMatchObject({ code: 'context_contradicts_parameters', details: { field: 'context.beneficiary.country' } });
  });

  it('records on_behalf_of, authenticated only for an active human principal of the tenant', async () => {
    const params = { beneficiary: { country: 'DE' }, transfer: { amount: 1 } };
    const cases: Array<[string, boolean]> = [
      [t.humanId, true],
      [t.agent.id, false], // an agent is not a human
      [other.humanId, false], // another tenant's human
      ['hum-000000000000000000000000', false], // nobody
    ];
    for (const [onBehalfOf, authenticated] of cases) {
      const res = await agent()
        .check(transfer(params, { on_behalf_of: onBehalfOf }))
        .expect(200);
      const record = (await agent().consultation(res.body.consultation_id).expect(200)).body;
      expect([record.on_behalf_of, record.on_behalf_of_authenticated]).toEqual([onBehalfOf, authenticated]);
    }
    const without = await agent().check(transfer(params)).expect(200);
    const record = (await agent().consultation(without.body.consultation_id).expect(200)).body;
    expect([record.on_behalf_of, record.on_behalf_of_authenticated]).toEqual([null, false]);
  });

  it('honours an override in effect and cites the neutralised rule', async () => {
    const tenant = await createVerdictTenant(stack, 'check-override');
    const reg = registryApi(stack, tenant.adminKey);
    const scope = await reg.scope('all');
    const block = await reg.rule(scope, { directive: 'no deploys', severity: 'MANDATORY', applies_to: { actions: ['infra.deploy'] } });
    const api = verdictApi(stack, tenant.agent.key, tenant.id);
    expect((await api.check({ action: 'infra.deploy', resource: 'svc:api', scope: { region: 'eu' } }).expect(200)).body.verdict).toBe(
      'blocked',
    );
    const ovr = await reg.override(scope, {
      override_type: 'temporary',
      target_id: block.id,
      applies_to_scope: { region: 'eu' },
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      justification: 'incident',
    });
    const res = await eventually(
      'the override in the snapshot',
      async () => {
        const r = await api.check({ action: 'infra.deploy', resource: 'svc:api', scope: { region: 'eu' } }).expect(200);
        expect(r.body.verdict).toBe('allowed');
        return r;
      },
      { timeoutMs: 5_000 },
    );
    expect(res.body.cited_rule_ids).toEqual([block.id]);
    expect(res.body.precedence_trace).toEqual([
      expect.objectContaining({ rule_id: block.id, reason: 'overridden', overridden_by: ovr.id }),
    ]);
    // Other scopes are not covered by it.
    expect((await api.check({ action: 'infra.deploy', resource: 'svc:api', scope: { region: 'us' } }).expect(200)).body.verdict).toBe(
      'blocked',
    );
  });

  it('answers 401 missing_credentials without a key and 401 invalid_credentials with a wrong one', async () => {
    const missing = await verdictApi(stack, undefined, t.id).check(transfer({})).expect(401);
    expect(missing.body.code).toBe('missing_credentials');
    const wrong = await verdictApi(stack, `ak-${'0'.repeat(64)}`, t.id)
      .check(transfer({}))
      .expect(401);
    expect(wrong.body.code).toBe('invalid_credentials');
  });

  it('needs the check permission', async () => {
    const reader = await createPrincipalWithKey(stack.registry, t.adminKey, { permissions: ['read'] });
    const res = await verdictApi(stack, reader.key, t.id).check(transfer({})).expect(403);
    expect(res.body).toMatchObject({ code: 'insufficient_permission', details: { permission: 'check' } });
  });

  it('answers 403 cross_tenant_forbidden for another tenant in the path, and accepts the own slug', async () => {
    const res = await verdictApi(stack, t.agent.key, other.id).check(transfer({})).expect(403);
    expect(res.body.code).toBe('cross_tenant_forbidden');
    await verdictApi(stack, t.agent.key, t.slug)
      .check(transfer({ beneficiary: { country: 'DE' }, transfer: { amount: 1 } }))
      .expect(200);
  });

  it('answers 403 principal_deactivated once the caller is deactivated', async () => {
    const p = await createPrincipalWithKey(stack.registry, t.adminKey, { permissions: ['check'] });
    const api = verdictApi(stack, p.key, t.id);
    await api.check({ action: 'calendar.read', resource: 'c', scope: {} }).expect(200);
    await registryApi(stack, t.adminKey).patchPrincipal(p.principalId, { active: false });
    await eventually(
      'the deactivation to reach the gateway',
      async () => {
        const res = await api.check({ action: 'calendar.read', resource: 'c', scope: {} });
        expect([res.status, res.body.code]).toEqual([403, 'principal_deactivated']);
        return true;
      },
      { timeoutMs: 5_000 },
    );
  });

  it('refuses malformed bodies with a clean 400', async () => {
    const missing = await agent().check({ resource: 'r', scope: {} }).expect(400);
    expect(missing.body.code).toBe('validation_failed');
    const extra = await agent()
      .check({ ...transfer({}), surprise: 1 })
      .expect(400);
    expect(extra.body.code).toBe('validation_failed');
    const notJson = await request(stack.verdict.url)
      .post(`/${t.id}/v1/check`)
      .set('X-API-Key', t.agent.key)
      .set('content-type', 'application/json')
      .send('{"action":')
      .expect(400);
    expect(notJson.body.code).toBe('malformed_json');
    const fact = await agent()
      .check(transfer({}, { context: { 'beneficiary.country': { source: 'kyc' } } }))
      .expect(400);
    expect(fact.body).toMatchObject({ code: 'invalid_context_shape', details: { field: 'beneficiary.country' } });
    // A Fact named like a parameter path would stand in for the parameter wherever a rule or override misnames it so.
    for (const named of ['parameters.transfer.amount', 'parameters']) {
      const standIn = await agent()
        .check(transfer({ transfer: { amount: 50_000 } }, { context: { [named]: { value: 10, source: 'agent' } } }))
        .expect(400);
      expect(standIn.body).toMatchObject({ code: 'invalid_context_shape', details: { field: named } });
      const { parameters: _none, ...operation } = transfer({});
      const resolved = await agent()
        .resolve({ ...operation, context: { [named]: { value: 10, source: 'agent' } } })
        .expect(400);
      expect(resolved.body.code).toBe('invalid_context_shape');
    }
    const nul = await agent()
      .check({ action: 'calendar.read', resource: 'c', scope: {}, parameters: { note: 'a\u0000b' } })
      .expect(400);
    expect(nul.body.code).toBe('validation_failed');
  });

  describe('the fast lane and the general path (ADR 0006)', () => {
    interface Answer {
      status: number;
      headers: http.IncomingHttpHeaders;
      text: string;
      body: { code?: string; verdict?: string; consultation_id?: string };
    }
    /** A check sent byte for byte (supertest would re-encode a Buffer body as JSON); `chunks` go out as written. */
    const post = (body: string | Buffer | Array<string | Buffer>, headers: Record<string, string> = {}) =>
      new Promise<Answer>((resolve, reject) => {
        const chunks = Array.isArray(body) ? body : [body];
        const length = chunks.reduce((n, c) => n + Buffer.byteLength(c), 0);
        const sized = Array.isArray(body) ? {} : { 'Content-Length': String(length) };
        const req = http.request(
          new URL(`/${t.id}/v1/check`, stack.verdict.url),
          { method: 'POST', headers: { 'X-API-Key': t.agent.key, 'Content-Type': 'application/json', ...sized, ...headers } },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text, body: text ? JSON.parse(text) : {} }));
          },
        );
        req.on('error', reject);
        for (const c of chunks) req.write(c);
        req.end();
      });
    /** The same bytes, gzip-compressed: the fast lane passes those on to express's body parser and tsoa. */
    const viaGeneralPath = (body: string) => post(gzipSync(Buffer.from(body)), { 'Content-Encoding': 'gzip' });
    // Errors byte for byte: both paths run the same handler, which parses the body once.
    const answer = (res: Answer) => ({
      status: res.status,
      code: res.body.code,
      verdict: res.body.verdict,
      ttl: res.headers['x-verdict-ttl'],
      type: res.headers['content-type'],
      error: res.status >= 400 ? res.text : undefined,
    });

    it('gives the same answers on both, good bodies and bad', async () => {
      const bodies = [
        JSON.stringify(transfer({ beneficiary: { country: 'KP' }, transfer: { amount: 5 } })),
        JSON.stringify(transfer({ beneficiary: { country: 'DE' }, transfer: { amount: 50_000 } })),
        '\ufeff' + JSON.stringify({ action: 'calendar.read', resource: 'c', scope: {} }),
        '{"action":',
        '"a string"',
        '[1, 2]',
        '{}',
        JSON.stringify({ ...transfer({}), surprise: 1 }),
        JSON.stringify({ action: 'calendar.read', resource: 'c', scope: { region: { nested: true } } }),
        JSON.stringify({ action: 'calendar.read', resource: 'c', scope: { planet: 'mars' } }),
        JSON.stringify({ action: 'calendar.read', resource: 'c', scope: {}, parameters: [1] }),
        JSON.stringify({ action: 'calendar.read', resource: 'c', scope: {}, context: { 'a.b': { value: 1 } } }),
        JSON.stringify({ action: '', resource: 'c', scope: {} }),
        JSON.stringify({ action: 'calendar.read', resource: 'c', scope: {}, on_behalf_of: 7 }),
        JSON.stringify(transfer({ 'transfer.amount': 50_000, transfer: { amount: 5 } })),
        JSON.stringify({ action: 'calendar.read', resource: 'c', scope: {}, parameters: { lines: [{ 'unit.price': 1 }] } }),
      ];
      for (const body of bodies) {
        const fast = await post(body);
        const general = await viaGeneralPath(body);
        expect({ body, ...answer(fast) }).toEqual({ body, ...answer(general) });
        expect(fast.status).not.toBe(500);
      }
    });

    it('serves chunked bodies (no Content-Length) and other JSON media types on the general path', async () => {
      const body = JSON.stringify({ action: 'calendar.read', resource: 'c', scope: {} });
      const chunked = await post([body.slice(0, 10), body.slice(10)], { 'Transfer-Encoding': 'chunked' });
      expect(chunked.status).toBe(200);
      expect(JSON.parse(chunked.text).verdict).toBeDefined();
      const vendorType = await post(body, { 'Content-Type': 'application/vnd.arbiter+json' });
      expect([vendorType.status, vendorType.headers['x-consultation-id']]).toEqual([200, expect.stringMatching(/^cns-/)]);
    });

    it('refuses an oversize body with 413 and a wrong media type with 415', async () => {
      const huge = JSON.stringify({ action: 'calendar.read', resource: 'c', scope: {}, parameters: { pad: 'x'.repeat(1_100_000) } });
      expect((await post(huge)).body.code).toBe('payload_too_large');
      const wrongType = await post(JSON.stringify({ action: 'calendar.read', resource: 'c', scope: {} }), { 'Content-Type': 'text/plain' });
      expect([wrongType.status, wrongType.body.code]).toEqual([415, 'unsupported_media_type']);
    });

    it('answers in one write with the headers of the general path', async () => {
      const res = await post(JSON.stringify({ action: 'calendar.read', resource: 'c', scope: {} }), {
        'X-Request-Id': 'lane-1',
        'X-Verdict-TTL': '60',
      });
      expect(res.status).toBe(200);
      expect(res.headers).toMatchObject({
        'x-request-id': 'lane-1',
        'x-verdict-ttl': '60',
        'content-type': 'application/json; charset=utf-8',
      });
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
      expect(res.headers['x-consultation-id']).toBe(res.body.consultation_id);
    });
  });

  it('counts signed verdicts and group-commit batch sizes in /metrics', async () => {
    const res = await request(stack.verdict.url).get('/metrics').expect(200);
    expect(res.text).toMatch(/arbiter_verdicts_total\{[^}]*operation="check"[^}]*verdict="allowed"[^}]*\} [1-9]/);
    expect(res.text).toMatch(/arbiter_consultation_commit_batch_size_count\{[^}]*\} [1-9]/);
  });

  it('answers 500 signing_key_unavailable when the key cannot be decrypted, and writes nothing', async () => {
    const tenant = await createVerdictTenant(stack, 'check-broken-key');
    const db = new Client({ connectionString: stack.databaseUrl('verdict') });
    await db.connect();
    try {
      const year = new Date().getUTCFullYear();
      await db.query(
        `INSERT INTO signing_keys (kid, owner_id, epoch, algorithm, public_jwk, encrypted_private_key, not_before)
         VALUES ($1, $2, $3, 'ES256', '{"kty":"EC","crv":"P-256","x":"AA","y":"AA"}', 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA', now() - interval '1 minute')`,
        [`${tenant.id}:${year}`, tenant.id, String(year)],
      );
      const res = await verdictApi(stack, tenant.agent.key, tenant.id).check({ action: 'a', resource: 'r', scope: {} }).expect(500);
      expect(res.body).toMatchObject({ code: 'signing_key_unavailable', message: 'The verdict signing key could not be resolved' });
      const { rows } = await db.query('SELECT count(*)::int AS n FROM consultations WHERE tenant_id = $1', [tenant.id]);
      expect(rows[0].n).toBe(0);
    } finally {
      await db.end();
    }
  });
});
