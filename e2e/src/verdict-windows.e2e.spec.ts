// The windows of the rules that remember through the public API (docs/verdicts.md "Windows and outcomes"):
// budgets, sums and sequences decided and consumed by the gateway on its PostgreSQL window store, the
// record's `limits`, the outcome route, durability across a restart, and failing closed.
import request from 'supertest';
import { eventually } from '@arbiter/testing';
import { verifyConsultation } from '@arbiter/client';
import { createPrincipalWithKey } from '../../apps/registry/test/harness';
import { createVerdictTenant, expectConforms, registryApi, SCOPE_SCHEMA, verdictApi, type VerdictTenant } from './verdict-harness';
import { limitWindowKey } from '../../apps/verdict/src/repositories/windows.repository';
import { startStack, type Stack } from './stack';

jest.setTimeout(180_000);

describe('windows of the rules that remember, end to end', () => {
  let stack: Stack;
  let tenant: VerdictTenant;
  let rules: ReturnType<typeof registryApi>;
  let agent: ReturnType<typeof verdictApi>;
  let scopeId: string;
  const ids: Record<string, string> = {};

  const op = (action: string, parameters: object = {}, resource = 'acct:eu/1') => ({
    action,
    resource,
    scope: { region: 'eu' },
    parameters,
  });
  const outcome = (api: ReturnType<typeof verdictApi>, id: string, body: object) =>
    api.post(`/${tenant.id}/v1/consultations/${id}/outcome`, body);
  const traceOf = async (consultationId: string, ruleId: string) =>
    (await agent.consultation(consultationId).expect(200)).body.precedence_trace.find((e: { rule_id: string }) => e.rule_id === ruleId);

  beforeAll(async () => {
    // A restartable gateway (stablePort) whose window store gives up after 300 ms.
    stack = await startStack({ verdict: { stablePort: true, env: { WINDOW_TIMEOUT_MS: '300' } } });
    tenant = await createVerdictTenant(stack, 'windows-e2e');
    rules = registryApi(stack, tenant.adminKey);
    agent = verdictApi(stack, tenant.agent.key, tenant.id);
    scopeId = await rules.scope('payments', { region: 'eu' });
    ids.count = (
      await rules.rule(scopeId, {
        directive: 'At most 3 exports per agent an hour',
        severity: 'MANDATORY',
        applies_to: { actions: ['data.export'] },
        limit: { count: true, max: 3, window: '1h', by: ['principal'] },
      })
    ).id;
    ids.sum = (
      await rules.rule(scopeId, {
        directive: 'Refunds of at most 1000 a day per resource',
        severity: 'MANDATORY',
        applies_to: { actions: ['payments.refund'] },
        limit: { sum: 'parameters.amount', max: 1000, window: '24h', by: ['resource'] },
      })
    ).id;
    ids.prior = (
      await rules.rule(scopeId, {
        directive: 'A deletion only after a review of the same order',
        severity: 'MANDATORY',
        applies_to: { actions: ['orders.delete'] },
        requires_prior: { action: 'orders.review', within: '1h', same: ['parameters.order_id'] },
      })
    ).id;
    ids.advisory = (
      await rules.rule(scopeId, {
        directive: 'Flag more than 1 ping an hour',
        severity: 'ADVISORY',
        applies_to: { actions: ['net.ping'] },
        limit: { count: true, max: 1, window: '1h' },
      })
    ).id;
    ids.drop = (
      await rules.rule(scopeId, {
        directive: 'One drop a day',
        severity: 'MANDATORY',
        applies_to: { actions: ['db.drop'] },
        limit: { count: true, max: 1, window: '24h' },
      })
    ).id;
    ids.wireApproval = (
      await rules.rule(scopeId, {
        directive: 'Wires need finance',
        severity: 'REQUIRES_APPROVAL',
        applies_to: { actions: ['wire.send'] },
        deciders: ['role-finance'],
      })
    ).id;
    ids.wireBudget = (
      await rules.rule(scopeId, {
        directive: 'One wire an hour',
        severity: 'MANDATORY',
        applies_to: { actions: ['wire.send'] },
        limit: { count: true, max: 1, window: '1h' },
      })
    ).id;
    ids.shadow = (
      await rules.rule(scopeId, {
        directive: 'Trying out: one share an hour',
        severity: 'MANDATORY',
        applies_to: { actions: ['files.share'] },
        limit: { count: true, max: 1, window: '1h' },
        mode: 'shadow',
      })
    ).id;
    ids.mail = (
      await rules.rule(scopeId, {
        directive: 'At most 2 mails an hour',
        severity: 'MANDATORY',
        applies_to: { actions: ['mail.send'] },
        limit: { count: true, max: 2, window: '1h' },
      })
    ).id;
    ids.held = (
      await rules.rule(scopeId, {
        directive: 'Payouts past 100 an hour per agent need finance',
        severity: 'REQUIRES_APPROVAL',
        applies_to: { actions: ['payments.payout'] },
        deciders: ['role-finance'],
        limit: { sum: 'parameters.amount', max: 100, window: '1h', by: ['principal'] },
      })
    ).id;
    ids.sms = (
      await rules.rule(scopeId, {
        directive: 'One text an hour per number',
        severity: 'MANDATORY',
        applies_to: { actions: ['sms.send'] },
        limit: { count: true, max: 1, window: '1h', by: ['resource'] },
      })
    ).id;
  });
  afterAll(() => stack?.stop());

  it('allows a count budget of 3 three times, then blocks with limit_state exceeded; the signed record carries its limits', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await agent.check(op('data.export')).expect(200)).body);
    expect(answers.map((a) => a.verdict)).toEqual(['allowed', 'allowed', 'allowed', 'blocked']);
    const key = JSON.stringify({ principal: tenant.agent.id });
    expect(answers[2].limits).toEqual([{ key, max: 3, rule_id: ids.count, used_after: 3, used_before: 2, window: '1h' }]);
    expect(answers[3]).toMatchObject({ dominating_rule_id: ids.count, limits: [{ used_before: 3, used_after: 3 }] });
    expectConforms(await agent.check(op('data.export')), 'post', '/{tenant_id}/v1/check');
    expect(await traceOf(answers[0].consultation_id, ids.count)).toMatchObject({ reason: 'condition_false', limit_state: 'within' });
    const blocked = (await agent.consultation(answers[3].consultation_id).expect(200)).body;
    expect(blocked.precedence_trace[0]).toMatchObject({ rule_id: ids.count, reason: 'fires', limit_state: 'exceeded' });
    expect(blocked.limits).toEqual([{ key, max: 3, rule_id: ids.count, used_after: 3, used_before: 3, window: '1h' }]);
    // The SDK's verifier recomputes normative_hash over the record, limits included, and checks the signature.
    const jwks = (await request(stack.verdict.url).get(`/v1/tenants/${tenant.id}/jwks`).expect(200)).body;
    expect((await verifyConsultation(blocked, { jwks })).valid).toBe(true);
    expect((await verifyConsultation({ ...blocked, limits: [{ ...blocked.limits[0], used_before: 0 }] }, { jwks })).valid).toBe(false);
    // Another agent has its own window (by principal).
    const other = await createPrincipalWithKey(stack.registry, tenant.adminKey, { kind: 'agent', permissions: ['check', 'read'] });
    expect((await verdictApi(stack, other.key, tenant.id).check(op('data.export')).expect(200)).body.verdict).toBe('allowed');
  });

  it('counts the gathered takes per commit in /metrics', async () => {
    const res = await request(stack.verdict.url).get('/metrics').expect(200);
    expect(res.text).toMatch(/arbiter_window_take_batch_size_count\{[^}]*\} [1-9]/);
  });

  it('leaves records of operations no remembering rule touches without limits', async () => {
    const res = (await agent.check(op('payments.transfer')).expect(200)).body;
    expect(res.verdict).toBe('allowed');
    expect(res).not.toHaveProperty('limits');
    expect((await agent.consultation(res.consultation_id).expect(200)).body).not.toHaveProperty('limits');
  });

  it('sums a parameter per resource, never past max, and refuses an amount that is not a number >= 0', async () => {
    const refund = (amount: unknown, resource = 'acct:eu/sum') => agent.check(op('payments.refund', { amount }, resource));
    expect((await refund(600).expect(200)).body.verdict).toBe('allowed');
    const over = (await refund(500).expect(200)).body;
    expect(over).toMatchObject({ verdict: 'blocked', limits: [{ used_before: 600, used_after: 600, max: 1000 }] });
    // The explanation offers what is left, inline and later from the record alike.
    const explained = (await agent.check({ ...op('payments.refund', { amount: 500 }, 'acct:eu/sum'), explain: true }).expect(200)).body;
    expect(explained.explanation).toEqual({ not_invertible: [], to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 400 }] }] });
    const later = await agent.get(`/${tenant.id}/v1/consultations/${explained.consultation_id}/explanation`).expect(200);
    expect(later.body.explanation).toEqual(explained.explanation);
    expect((await refund(400).expect(200)).body).toMatchObject({ verdict: 'allowed', limits: [{ used_before: 600, used_after: 1000 }] });
    expect((await refund(0.01).expect(200)).body.verdict).toBe('blocked');
    expect((await refund(500, 'acct:eu/other').expect(200)).body.verdict).toBe('allowed');
    for (const bad of [-5, '100']) {
      const res = await refund(bad, 'acct:eu/bad').expect(422);
      expect(res.body).toMatchObject({ code: 'insufficient_context', details: { missing_fields: ['amount'] } });
    }
  });

  it('lets a deletion follow a review of the same order only', async () => {
    const del = (order: string) => agent.check(op('orders.delete', { order_id: order }));
    const first = (await del('o-1').expect(200)).body;
    expect(first.verdict).toBe('blocked');
    expect(await traceOf(first.consultation_id, ids.prior)).toMatchObject({ reason: 'fires', limit_state: 'prior_missing' });
    expect((await agent.check(op('orders.review', { order_id: 'o-1' })).expect(200)).body.verdict).toBe('allowed');
    const after = (await del('o-1').expect(200)).body;
    expect(after.verdict).toBe('allowed');
    expect(await traceOf(after.consultation_id, ids.prior)).toMatchObject({ reason: 'condition_false', limit_state: 'prior_found' });
    expect((await del('o-2').expect(200)).body.verdict).toBe('blocked');
  });

  it('lets only an allowed or observed step satisfy a sequence: a verdict string of the tenant or of a rule counts in a budget, leaves no mark', async () => {
    // A deny-by-default tenant: what no rule allows is `denied`, which an enforcement point does not carry out.
    const denying = await createVerdictTenant(stack, 'windows-e2e-deny', { scope_schema: SCOPE_SCHEMA, default_verdict: 'denied' });
    const admin = registryApi(stack, denying.adminKey);
    const its = verdictApi(stack, denying.agent.key, denying.id);
    const scope = await admin.scope('invoices', { region: 'eu' });
    const prior = await admin.rule(scope, {
      directive: 'A void only after an audit of the same invoice',
      severity: 'MANDATORY',
      applies_to: { actions: ['invoices.void'] },
      requires_prior: { action: 'invoices.audit', within: '1h', same: ['parameters.invoice'] },
    });
    const audits = await admin.rule(scope, {
      directive: 'Flag more than 10 audits an hour',
      severity: 'ADVISORY',
      applies_to: { actions: ['invoices.audit'] },
      limit: { count: true, max: 10, window: '1h' },
    });
    await admin.rule(scope, { directive: 'Voids may go ahead', severity: 'ALLOW', applies_to: { actions: ['invoices.void'] } });
    await admin.rule(scope, {
      directive: 'Audits of i-2 are noted',
      severity: 'ALLOW',
      verdict: 'noted',
      applies_to: { actions: ['invoices.audit'] },
      conditions: [{ field: 'invoice', op: 'eq', value: 'i-2' }],
    });
    await admin.rule(scope, {
      directive: 'Audits of i-3 may go ahead',
      severity: 'ALLOW',
      applies_to: { actions: ['invoices.audit'] },
      conditions: [{ field: 'invoice', op: 'eq', value: 'i-3' }],
    });
    const check = async (action: string, invoice: string) => (await its.check(op(action, { invoice })).expect(200)).body;
    const limitsOf = async (id: string) => (await its.consultation(id).expect(200)).body.limits;
    // The tenant default and an ALLOW rule's verdict string: each audit counted in the budget, no mark left.
    const denied = await check('invoices.audit', 'i-1');
    expect(denied.verdict).toBe('denied');
    expect(await limitsOf(denied.consultation_id)).toEqual([
      expect.objectContaining({ rule_id: audits.id, used_before: 0, used_after: 1 }),
    ]);
    const noted = await check('invoices.audit', 'i-2');
    expect(noted.verdict).toBe('noted');
    expect(await limitsOf(noted.consultation_id)).toEqual([expect.objectContaining({ rule_id: audits.id, used_before: 1, used_after: 2 })]);
    for (const invoice of ['i-1', 'i-2']) {
      const refused = await check('invoices.void', invoice);
      expect(refused.verdict).toBe('blocked');
      expect((await its.consultation(refused.consultation_id).expect(200)).body.precedence_trace).toContainEqual(
        expect.objectContaining({ rule_id: prior.id, reason: 'fires', limit_state: 'prior_missing' }),
      );
    }
    // An audit `allowed` leaves the mark its void needs.
    expect((await check('invoices.audit', 'i-3')).verdict).toBe('allowed');
    expect((await check('invoices.void', 'i-3')).verdict).toBe('allowed');
  });

  it('lets an advisory budget flag without consuming past max', async () => {
    const pings = [];
    for (let i = 0; i < 3; i++) pings.push((await agent.check(op('net.ping')).expect(200)).body);
    expect(pings.map((p) => p.verdict)).toEqual(['allowed', 'observe', 'observe']);
    expect(pings.map((p) => [p.limits[0].used_before, p.limits[0].used_after])).toEqual([
      [0, 1],
      [1, 1],
      [1, 1],
    ]);
    expect(pings[1].dominating_rule_id).toBe(ids.advisory);
  });

  it('consumes on the check a one-shot approval allows, in the windows of the rules it does not lift', async () => {
    const finance = await createPrincipalWithKey(stack.registry, tenant.adminKey, {
      kind: 'human',
      permissions: ['approve'],
      roles: ['role-finance'],
    });
    const wire = op('wire.send', { to: 'x' });
    const asked = (await agent.check(wire).expect(200)).body;
    expect(asked).toMatchObject({ verdict: 'approval_required', limits: [{ rule_id: ids.wireBudget, used_before: 0, used_after: 0 }] });
    const approval = (await agent.post(`/${tenant.id}/v1/approvals`, { consultation_id: asked.consultation_id }).expect(201)).body;
    await verdictApi(stack, finance.key, tenant.id)
      .post(`/${tenant.id}/v1/approvals/${approval.id}/decision`, { decision: 'approve' })
      .expect(200);
    const allowed = (await agent.check(wire).expect(200)).body;
    expect(allowed).toMatchObject({ verdict: 'allowed', limits: [{ rule_id: ids.wireBudget, used_before: 0, used_after: 1 }] });
    expect((await agent.consultation(allowed.consultation_id).expect(200)).body.approval_id).toBe(approval.id);
    // The budget is spent: the next wire is blocked, whatever an approval would say.
    expect((await agent.check(wire).expect(200)).body).toMatchObject({ verdict: 'blocked', dominating_rule_id: ids.wireBudget });
  });

  it('counts in the window of a shadow budget what it would have let through, and never changes the verdict', async () => {
    const shares = [];
    for (let i = 0; i < 2; i++) shares.push((await agent.check(op('files.share')).expect(200)).body);
    expect(shares.map((s) => s.verdict)).toEqual(['allowed', 'allowed']);
    expect(shares.map((s) => [s.limits[0].rule_id, s.limits[0].used_before, s.limits[0].used_after])).toEqual([
      [ids.shadow, 0, 1],
      [ids.shadow, 1, 1],
    ]);
    expect((await agent.consultation(shares[1].consultation_id).expect(200)).body.shadow).toEqual([
      expect.objectContaining({ rule_id: ids.shadow, would_be: 'blocked' }),
    ]);
  });

  it('consumes on a complete resolve like a check', async () => {
    const body = { action: 'mail.send', resource: 'mbox:1', scope: { region: 'eu' }, context: {} };
    const res = (await agent.resolve(body).expect(200)).body;
    expect(res).toMatchObject({ operation_status: 'complete', verdict: 'allowed', limits: [{ used_before: 0, used_after: 1 }] });
  });

  it('counts what an approval let past a budget: 90, then 500 approved once, then 10 needs approval again', async () => {
    const finance = await createPrincipalWithKey(stack.registry, tenant.adminKey, {
      kind: 'human',
      permissions: ['approve'],
      roles: ['role-finance'],
    });
    const payout = (amount: number) => agent.check(op('payments.payout', { amount }, 'acct:eu/payout'));
    const key = JSON.stringify({ principal: tenant.agent.id });
    expect((await payout(90).expect(200)).body).toMatchObject({ verdict: 'allowed', limits: [{ used_before: 0, used_after: 90 }] });
    const asked = (await payout(500).expect(200)).body;
    expect(asked).toMatchObject({ verdict: 'approval_required', limits: [{ used_before: 90, used_after: 90 }] });
    expect(await traceOf(asked.consultation_id, ids.held)).toMatchObject({ reason: 'fires', limit_state: 'exceeded' });
    const approval = (await agent.post(`/${tenant.id}/v1/approvals`, { consultation_id: asked.consultation_id }).expect(201)).body;
    await verdictApi(stack, finance.key, tenant.id)
      .post(`/${tenant.id}/v1/approvals/${approval.id}/decision`, { decision: 'approve' })
      .expect(200);
    const approved = (await payout(500).expect(200)).body;
    expect(approved.verdict).toBe('allowed');
    // The approval lifted the rule, it did not decide; what it let through is in the window, past max.
    expect(approved.limits).toEqual([{ key, max: 100, rule_id: ids.held, used_after: 590, used_before: 90, window: '1h' }]);
    const record = (await agent.consultation(approved.consultation_id).expect(200)).body;
    expect(record).toMatchObject({ approval_id: approval.id, limits: approved.limits });
    expect(record.precedence_trace.find((e: { rule_id: string }) => e.rule_id === ids.held)).toMatchObject({
      reason: 'overridden',
      overridden_by: approval.id,
    });
    expect(await traceOf(approved.consultation_id, ids.held)).not.toHaveProperty('limit_state');
    // The approval was used once: the next payout, however small, finds the budget spent.
    const after = (await payout(10).expect(200)).body;
    expect(after).toMatchObject({
      verdict: 'approval_required',
      limits: [{ used_before: 590, used_after: 590 }],
    });
    expect(await traceOf(after.consultation_id, ids.held)).toMatchObject({ reason: 'fires', limit_state: 'exceeded' });
  });

  it('counts what an override let past a count budget, and the budget is full once the override is revoked', async () => {
    const registryUrl = stack.registry.url;
    const admin = { Authorization: `Bearer ${tenant.adminKey}` };
    const sms = (to: string) => agent.check(op('sms.send', {}, `tel:${to}`));
    // A number whose window is full before the override: it tells when the override is in the gateway's snapshot.
    expect((await sms('probe').expect(200)).body.verdict).toBe('allowed');
    expect((await sms('probe').expect(200)).body.verdict).toBe('blocked');
    const override = await rules.override(scopeId, { target_id: ids.sms, override_type: 'permanent', justification: 'campaign' });
    await eventually('the override in the snapshot', async () => (await sms('probe').expect(200)).body.verdict === 'allowed', {
      timeoutMs: 10_000,
    });
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push((await sms('main').expect(200)).body);
    expect(sent.map((a) => a.verdict)).toEqual(['allowed', 'allowed', 'allowed']);
    expect(sent.map((a) => [a.limits[0].rule_id, a.limits[0].max, a.limits[0].used_before, a.limits[0].used_after])).toEqual([
      [ids.sms, 1, 0, 1],
      [ids.sms, 1, 1, 2],
      [ids.sms, 1, 2, 3],
    ]);
    expect(await traceOf(sent[2].consultation_id, ids.sms)).toMatchObject({ reason: 'overridden', overridden_by: override.id });
    await request(registryUrl).delete(`/api/v1/scopes/${scopeId}/overrides/${override.id}`).set(admin).expect(200);
    await eventually('the revocation in the snapshot', async () => (await sms('probe').expect(200)).body.verdict === 'blocked', {
      timeoutMs: 10_000,
    });
    const full = (await sms('main').expect(200)).body;
    expect(full).toMatchObject({ verdict: 'blocked', dominating_rule_id: ids.sms, limits: [{ used_before: 3, used_after: 3, max: 1 }] });
    expect(await traceOf(full.consultation_id, ids.sms)).toMatchObject({ reason: 'fires', limit_state: 'exceeded' });
    // A number the override never touched still has its one text.
    expect((await sms('other').expect(200)).body.verdict).toBe('allowed');
  });

  it('asks for the amount a neutralised sum budget counts with: an override lets nothing through uncounted', async () => {
    const registryUrl = stack.registry.url;
    const admin = { Authorization: `Bearer ${tenant.adminKey}` };
    const refund = (amount: unknown, resource = 'acct:eu/override') => agent.check(op('payments.refund', { amount }, resource));
    // A resource whose window is full before the override: it tells when the override is in the gateway's snapshot.
    expect((await refund(1000, 'acct:eu/probe').expect(200)).body.verdict).toBe('allowed');
    expect((await refund(1, 'acct:eu/probe').expect(200)).body.verdict).toBe('blocked');
    const override = await rules.override(scopeId, { target_id: ids.sum, override_type: 'permanent', justification: 'refund drive' });
    try {
      await eventually(
        'the override in the snapshot',
        async () => (await refund(1, 'acct:eu/probe').expect(200)).body.verdict === 'allowed',
        {
          timeoutMs: 10_000,
        },
      );
      // An amount the budget cannot count is what it is without the override: 422 naming it, nothing consumed.
      for (const [amount, problem] of [
        ['100000', 'wrong_type'],
        [{ value: 100000, currency: 'EUR' }, 'wrong_type'],
        [-5, 'below_min'],
      ] as const) {
        const refused = (await refund(amount).expect(422)).body;
        expect(refused).toMatchObject({ code: 'insufficient_context', details: { missing_fields: ['amount'] } });
        expect(refused.details.required_context).toEqual([
          expect.objectContaining({ field: 'amount', problems: [problem], rule_ids: [ids.sum] }),
        ]);
      }
      // A number is counted past max, as the override lets it through.
      const counted = (await refund(5000).expect(200)).body;
      expect(counted).toMatchObject({ verdict: 'allowed', limits: [{ rule_id: ids.sum, used_before: 0, used_after: 5000, max: 1000 }] });
    } finally {
      await request(registryUrl).delete(`/api/v1/scopes/${scopeId}/overrides/${override.id}`).set(admin).expect(200);
    }
    await eventually(
      'the revocation in the snapshot',
      async () => (await refund(1, 'acct:eu/probe').expect(200)).body.verdict === 'blocked',
      {
        timeoutMs: 10_000,
      },
    );
    expect((await refund(1).expect(200)).body).toMatchObject({ verdict: 'blocked', limits: [{ used_before: 5000 }] });
  });

  describe('the outcome route', () => {
    it('gives back the consumption of an operation not executed once, then answers the same report the same', async () => {
      const mails = [];
      for (let i = 0; i < 2; i++) mails.push((await agent.check(op('mail.send')).expect(200)).body);
      expect(mails.map((m) => m.verdict)).toEqual(['allowed', 'blocked']);
      const report = await outcome(agent, mails[0].consultation_id, { executed: false }).expect(200);
      expectConforms(report, 'post', '/{tenant_id}/v1/consultations/{consultation_id}/outcome');
      expect(report.body).toEqual({
        consultation_id: mails[0].consultation_id,
        executed: false,
        given_back: [{ rule_id: ids.mail, key: '{}', window: '1h', amount: 1 }],
        reported_at: expect.any(String),
      });
      expect((await agent.check(op('mail.send')).expect(200)).body.verdict).toBe('allowed');
      expect((await agent.check(op('mail.send')).expect(200)).body.verdict).toBe('blocked');
      // Idempotent: nothing is given back twice.
      expect((await outcome(agent, mails[0].consultation_id, { executed: false }).expect(200)).body).toEqual(report.body);
      expect((await agent.check(op('mail.send')).expect(200)).body.verdict).toBe('blocked');
      // The record stays frozen (the resolve above had used one of the two).
      expect((await agent.consultation(mails[0].consultation_id).expect(200)).body.limits[0]).toMatchObject({
        used_before: 1,
        used_after: 2,
      });
    });

    it('answers 409 outcome_already_reported for the other value', async () => {
      const id = (await agent.check(op('payments.transfer')).expect(200)).body.consultation_id;
      expect((await outcome(agent, id, { executed: true }).expect(200)).body).toMatchObject({ executed: true, given_back: [] });
      const res = await outcome(agent, id, { executed: false }).expect(409);
      expect(res.body).toMatchObject({ code: 'outcome_already_reported', details: { consultation_id: id, executed: true } });
      expectConforms(res, 'post', '/{tenant_id}/v1/consultations/{consultation_id}/outcome');
    });

    it("answers 404 consultation_not_found for an unknown id and for another caller's consultation", async () => {
      expect((await outcome(agent, 'cns-nope', { executed: false }).expect(404)).body.code).toBe('consultation_not_found');
      const mine = (await agent.check(op('payments.transfer')).expect(200)).body.consultation_id;
      const other = await createPrincipalWithKey(stack.registry, tenant.adminKey, { kind: 'agent', permissions: ['check', 'read'] });
      const res = await outcome(verdictApi(stack, other.key, tenant.id), mine, { executed: false }).expect(404);
      expect(res.body.code).toBe('consultation_not_found');
      // A reader without `check` may not report.
      const reader = await createPrincipalWithKey(stack.registry, tenant.adminKey, { kind: 'agent', permissions: ['read'] });
      expect((await outcome(verdictApi(stack, reader.key, tenant.id), mine, { executed: false }).expect(403)).body.code).toBe(
        'insufficient_permission',
      );
    });

    it("keeps a key restricted to one scope from giving back what another scope's budget counted, or reading it (404)", async () => {
      // A tenant-wide budget with room is not cited (the eu rule decides), yet it counted the operation.
      const wholeTenant = await rules.scope('whole-tenant-moves', {});
      const budget = (
        await rules.rule(wholeTenant, {
          directive: 'At most 5 moves a day per agent, anywhere',
          severity: 'MANDATORY',
          applies_to: { actions: ['stock.move'] },
          limit: { count: true, max: 5, window: '24h', by: ['principal'] },
        })
      ).id;
      const allow = (
        await rules.rule(scopeId, { directive: 'EU moves are fine', severity: 'ALLOW', applies_to: { actions: ['stock.move'] } })
      ).id;
      const euOnly = await request(stack.registry.url)
        .post('/api/v1/api-keys')
        .set('Authorization', `Bearer ${tenant.adminKey}`)
        .send({ principal_id: tenant.agent.id, permissions: ['check', 'read'], scope_ids: [scopeId] })
        .expect(201);
      const restricted = verdictApi(stack, euOnly.body.key, tenant.id);
      const moved = await eventually(
        'both rules in the snapshot',
        async () => {
          const res = await restricted.check(op('stock.move')).expect(200);
          expect(res.body.verdict).toBe('allowed');
          expect(res.body.cited_rule_ids).toEqual([allow]);
          expect(res.body.limits).toEqual([expect.objectContaining({ rule_id: budget, used_after: expect.any(Number) })]);
          return res.body.consultation_id as string;
        },
        { timeoutMs: 10_000 },
      );
      const given = await outcome(restricted, moved, { executed: false });
      expect([given.status, given.body.code]).toEqual([404, 'consultation_not_found']);
      expect((await restricted.consultation(moved)).status).toBe(404);
      // The agent's key valid for every scope reads it and gives it back.
      expect((await outcome(agent, moved, { executed: false }).expect(200)).body.given_back).toEqual([
        expect.objectContaining({ rule_id: budget, amount: 1 }),
      ]);
    });

    it('answers 400 validation_failed for a body without a boolean executed, never reading null or a string as one', async () => {
      const id = (await agent.check(op('payments.transfer')).expect(200)).body.consultation_id;
      for (const body of [{}, { executed: 'no' }, { executed: null }, { executed: 'false' }, { executed: 'true' }, { executed: 0 }]) {
        const res = await outcome(agent, id, body).expect(400);
        expect([res.body.code, res.body.details?.fields?.[0]?.field]).toEqual(['validation_failed', 'executed']);
      }
      // None of them was recorded: the first real report is taken.
      expect((await outcome(agent, id, { executed: true }).expect(200)).body).toMatchObject({ executed: true, given_back: [] });
    });
  });

  it('keeps the windows across a restart of the gateway', async () => {
    const drop = (n: number) => agent.check(op('db.drop', {}, `db:${n}`));
    expect((await drop(1).expect(200)).body).toMatchObject({ verdict: 'allowed', limits: [{ rule_id: ids.drop, used_after: 1 }] });
    await stack.halt('verdict');
    await stack.restart('verdict');
    expect((await drop(2).expect(200)).body).toMatchObject({ verdict: 'blocked', dominating_rule_id: ids.drop });
  });

  it('fails closed when the window store cannot be written in time, and other rules are unaffected', async () => {
    const key = JSON.stringify({ principal: tenant.agent.id });
    const holder = await stack.db('verdict').connect();
    try {
      await holder.query('BEGIN');
      const locked = await holder.query('SELECT 1 FROM window_totals WHERE tenant_id = $1 AND window_key = $2 FOR UPDATE', [
        tenant.id,
        limitWindowKey(ids.count, key),
      ]);
      expect(locked.rowCount).toBe(1);
      const res = (await agent.check(op('data.export')).expect(200)).body;
      expect(res).toMatchObject({ verdict: 'blocked', dominating_rule_id: ids.count });
      expect(await traceOf(res.consultation_id, ids.count)).toMatchObject({ reason: 'fires', limit_state: 'limit_unavailable' });
      expect((await agent.check(op('payments.transfer')).expect(200)).body.verdict).toBe('allowed');
      // An outcome that would give back into the locked window: 503 windows_unavailable, nothing recorded.
      const exported = (
        await agent.consultations({ action: 'data.export', verdict: 'allowed', actor: tenant.agent.id, limit: 1 }).expect(200)
      ).body.items[0];
      const unavailable = await outcome(agent, exported.id, { executed: false }).expect(503);
      expect(unavailable.body.code).toBe('windows_unavailable');
      await holder.query('ROLLBACK');
    } finally {
      holder.release();
    }
    const exported = (
      await agent.consultations({ action: 'data.export', verdict: 'allowed', actor: tenant.agent.id, limit: 1 }).expect(200)
    ).body.items[0];
    expect((await outcome(agent, exported.id, { executed: false }).expect(200)).body.given_back).toEqual([
      { rule_id: ids.count, key, window: '1h', amount: 1 },
    ]);
  });
});
