import { p256 } from '@noble/curves/nist.js';
import { Client } from 'pg';
import request from 'supertest';
import { createPrincipalWithKey } from '../../apps/registry/test/harness';
import { createVerdictTenant, registryApi, verdictApi, type VerdictTenant } from './verdict-harness';
import { startStack, type Stack } from './stack';

/**
 * The governance semantics of docs/verdicts.md "Overrides" and docs/approvals.md, each rule stated as
 * a test through HTTP against a real registry, verdict gateway, PostgreSQL and Redis. The first
 * tests are the bypasses the semantics close: each failed before the change.
 */
describe('governance semantics (nothing bypasses a rule unless the registry says so)', () => {
  let stack: Stack;
  let t: VerdictTenant;
  let scopeId: string;
  let blockRule: { id: string; current_version_id: string };
  let approvalRule: { id: string; current_version_id: string };

  const payment = (parameters: Record<string, unknown>) => ({
    action: 'payments.send',
    resource: 'acct:1',
    scope: { region: 'eu', env: 'prod' },
    parameters,
  });
  const wire = (amount: number) => ({
    action: 'payments.wire',
    resource: 'acct:9',
    scope: { region: 'eu', env: 'prod' },
    parameters: { amount },
  });

  async function verdictSql<T extends object>(text: string, params: unknown[] = []): Promise<T[]> {
    const c = new Client({ connectionString: stack.databaseUrl('verdict') });
    await c.connect();
    try {
      return (await c.query(text, params)).rows as T[];
    } finally {
      await c.end();
    }
  }

  /** Verifies a compact ES256 JWS with @noble/curves (not the node:crypto signer) against the tenant's JWKS. */
  async function verifiedClaims(jws: string): Promise<Record<string, unknown>> {
    const [h, p, s] = jws.split('.');
    const { kid } = JSON.parse(Buffer.from(h, 'base64url').toString());
    const keys = (await request(stack.verdict.url).get(`/v1/tenants/${t.slug}/jwks`).expect(200)).body.keys as Array<{
      kid: string;
      x: string;
      y: string;
    }>;
    const jwk = keys.find((k) => k.kid === kid)!;
    const publicKey = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]);
    const ok = p256.verify(Buffer.from(s, 'base64url'), Buffer.from(`${h}.${p}`), publicKey, { lowS: false, prehash: true });
    expect(ok).toBe(true);
    return JSON.parse(Buffer.from(p, 'base64url').toString());
  }

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
    t = await createVerdictTenant(stack, 'semantics');
    const reg = registryApi(stack, t.adminKey);
    scopeId = await reg.scope('payments', { region: 'eu' });
    blockRule = await reg.rule(scopeId, {
      directive: 'No outgoing payments during the freeze',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.send'] },
    });
    approvalRule = await reg.rule(scopeId, {
      directive: 'Wires above 1,000 need approval',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['payments.wire'] },
      conditions: [{ field: 'amount', op: 'gt', value: 1000 }],
      // No deciders: any principal holding approve or admin decides, the requester never.
    });
    await reg.override(scopeId, {
      target_id: blockRule.id,
      override_type: 'conditional',
      justification: 'Small euro payments may go out during the freeze',
      conditions: 'amount < 20 && currency == "EUR"',
    });
  });
  afterAll(() => stack.stop());

  const agent = () => verdictApi(stack, t.agent.key, t.id);

  describe('conditional overrides', () => {
    it('do not let a 999,999 USD payment through an override for small euro payments', async () => {
      const res = await agent()
        .check(payment({ amount: 999_999, currency: 'USD' }))
        .expect(200);
      expect(res.body.verdict).toBe('blocked');
      const record = (await agent().consultation(res.body.consultation_id).expect(200)).body;
      expect(record.applied_override_ids).toEqual([]);
      expect(record.precedence_trace[0]).toMatchObject({
        rule_id: blockRule.id,
        reason: 'fires',
        overrides_not_applied: [{ override_id: expect.stringMatching(/^ovr-/), reason: 'override_condition_false' }],
      });
    });

    it('neutralise the rule for operations whose conditions hold', async () => {
      const res = await agent()
        .check(payment({ amount: 5, currency: 'EUR' }))
        .expect(200);
      expect(res.body.verdict).toBe('allowed');
      const record = (await agent().consultation(res.body.consultation_id).expect(200)).body;
      expect(record.precedence_trace[0]).toMatchObject({ rule_id: blockRule.id, reason: 'overridden' });
    });

    it('fail closed when a name the conditions read is absent, with the trace saying which', async () => {
      const res = await agent()
        .check(payment({ amount: 5 }))
        .expect(200);
      expect(res.body.verdict).toBe('blocked');
      const record = (await agent().consultation(res.body.consultation_id).expect(200)).body;
      expect(record.precedence_trace[0].overrides_not_applied).toEqual([
        { override_id: expect.stringMatching(/^ovr-/), reason: 'override_condition_missing', missing_fields: ['currency'] },
      ]);
    });

    it('fail closed when evaluation errors (a string where a number is compared)', async () => {
      const res = await agent()
        .check(payment({ amount: 'five', currency: 'EUR' }))
        .expect(200);
      expect(res.body.verdict).toBe('blocked');
      const record = (await agent().consultation(res.body.consultation_id).expect(200)).body;
      expect(record.precedence_trace[0].overrides_not_applied[0]).toMatchObject({
        reason: 'override_condition_error',
        error: expect.any(String),
      });
    });

    it('make resolve ask for the field a condition needs, then decide with it', async () => {
      const first = await agent()
        .resolve({
          action: 'payments.send',
          resource: 'acct:1',
          scope: { region: 'eu', env: 'prod' },
          context: { amount: { value: 5, source: 'agent' } },
        })
        .expect(200);
      expect(first.body.operation_status).toBe('incomplete');
      expect(first.body.required_context.map((f: { field: string }) => f.field)).toEqual(['currency']);
      const second = await agent()
        .resolve({
          action: 'payments.send',
          resource: 'acct:1',
          scope: { region: 'eu', env: 'prod' },
          context: { currency: { value: 'EUR', source: 'agent' } },
          resolve_session_id: first.body.resolve_session_id,
        })
        .expect(200);
      expect(second.body).toMatchObject({ operation_status: 'complete', verdict: 'allowed' });
    });

    it('are refused at write time when the conditions are not a CEL expression (422 naming conditions, nothing stored)', async () => {
      const auth = { Authorization: `Bearer ${t.adminKey}` };
      const before = (await request(stack.registry.url).get(`/api/v1/scopes/${scopeId}/overrides`).set(auth).expect(200)).body.items.length;
      for (const conditions of ['only small payments', 'amount <', 'amount + 1', 'name.matches("^(a+)+$")']) {
        const res = await request(stack.registry.url)
          .post(`/api/v1/scopes/${scopeId}/overrides`)
          .set(auth)
          .send({ target_id: blockRule.id, override_type: 'conditional', justification: 'j', conditions })
          .expect(422);
        expect(res.body.detail).toMatch(/^conditions: /);
      }
      const missing = await request(stack.registry.url)
        .post(`/api/v1/scopes/${scopeId}/overrides`)
        .set(auth)
        .send({ target_id: blockRule.id, override_type: 'conditional', justification: 'j' })
        .expect(422);
      expect(missing.body.detail).toMatch(/^conditions: /);
      expect((await request(stack.registry.url).get(`/api/v1/scopes/${scopeId}/overrides`).set(auth).expect(200)).body.items.length).toBe(
        before,
      );
    });
  });

  describe('overview resolve', () => {
    it('answers for an action that only tenant-wide rules (no applies_to.actions) cover, instead of 404', async () => {
      const wide = await createVerdictTenant(stack, 'semantics-wide');
      const reg = registryApi(stack, wide.adminKey);
      await reg.rule(await reg.scope('all'), {
        directive: 'Nothing leaves on Sundays',
        severity: 'MANDATORY',
        conditions: [{ field: 'day', op: 'eq', value: 'sunday' }],
      });
      const api = verdictApi(stack, wide.agent.key, wide.id);
      const res = await api.resolve({ action_type: 'anything.at.all', context: { day: { value: 'sunday', source: 'clock' } } }).expect(200);
      expect(res.body).toMatchObject({ operation_status: 'complete', verdict: 'blocked' });
      const none = await verdictApi(stack, t.agent.key, t.id).resolve({ action_type: 'teleport.now', context: {} }).expect(404);
      expect(none.body.code).toBe('unknown_action_type');
    });
  });

  describe('verdict approvals', () => {
    let selfApprover: { principalId: string; key: string };
    let decider: { principalId: string; key: string };
    let tenantAdmin: { principalId: string; key: string };

    beforeAll(async () => {
      selfApprover = await createPrincipalWithKey(stack.registry, t.adminKey, { kind: 'agent', permissions: ['check', 'read', 'approve'] });
      decider = await createPrincipalWithKey(stack.registry, t.adminKey, { kind: 'human', permissions: ['approve', 'read'] });
      tenantAdmin = await createPrincipalWithKey(stack.registry, t.adminKey, { kind: 'human', permissions: ['admin'] });
    });

    const as = (key: string) => verdictApi(stack, key, t.id);

    async function approvalFor(key: string, amount: number): Promise<{ consultationId: string; approvalId: string }> {
      const checked = await as(key).check(wire(amount)).expect(200);
      expect(checked.body.verdict).toBe('approval_required');
      const created = await as(key).post(`/${t.id}/v1/approvals`, { consultation_id: checked.body.consultation_id }).expect(201);
      return { consultationId: checked.body.consultation_id, approvalId: created.body.id };
    }
    const decide = (key: string, id: string, body: object) => as(key).post(`/${t.id}/v1/approvals/${id}/decision`, body);

    it('never let the requester decide its own approval, whatever its permissions (rule without deciders)', async () => {
      const { approvalId } = await approvalFor(selfApprover.key, 5000);
      const own = await decide(selfApprover.key, approvalId, { decision: 'approve' });
      expect([own.status, own.body.code]).toEqual([403, 'not_a_valid_decider']);
      const approval = (await as(selfApprover.key).get(`/${t.id}/v1/approvals/${approvalId}`).expect(200)).body;
      expect(approval.status).toBe('pending');
    });

    it('fall back to the holders of approve or admin when the rule names no deciders', async () => {
      const a = await approvalFor(selfApprover.key, 5001);
      await decide(decider.key, a.approvalId, { decision: 'reject' }).expect(200);
      const b = await approvalFor(selfApprover.key, 5002);
      await decide(tenantAdmin.key, b.approvalId, { decision: 'reject' }).expect(200);
      const c = await approvalFor(selfApprover.key, 5003);
      const noPermission = await decide(t.agent.key, c.approvalId, { decision: 'approve' });
      expect([noPermission.status, noPermission.body.code]).toEqual([403, 'insufficient_permission']);
    });

    it('approved without a grant, allow exactly the approved operation once: check → approval → poll → check → allowed', async () => {
      const { consultationId, approvalId } = await approvalFor(t.agent.key, 2500);
      // A rejected or pending approval changes nothing.
      expect((await agent().check(wire(2500)).expect(200)).body.verdict).toBe('approval_required');
      const approved = await decide(decider.key, approvalId, { decision: 'approve', decider_notes: 'invoice attached' }).expect(200);
      expect(approved.body.authorizes_until).toEqual(expect.any(String));
      const polled = (await agent().get(`/${t.id}/v1/approvals/${approvalId}`).expect(200)).body;
      expect(polled).toMatchObject({ status: 'approved', consumed_by: null });

      // Another operation (other parameters) is not covered, and does not use the approval up.
      expect((await agent().check(wire(2501)).expect(200)).body.verdict).toBe('approval_required');

      const allowed = await agent().check(wire(2500)).expect(200);
      expect(allowed.body.verdict).toBe('allowed');
      const record = (await agent().consultation(allowed.body.consultation_id).expect(200)).body;
      expect(record.approval_id).toBe(approvalId);
      expect(record.precedence_trace[0]).toMatchObject({ rule_id: approvalRule.id, reason: 'overridden', overridden_by: approvalId });
      const claims = await verifiedClaims(allowed.body.signed_verdict);
      expect(claims).toMatchObject({ approval_id: approvalId, verdict: 'allowed', jti: allowed.body.consultation_id });

      const consumed = (await agent().get(`/${t.id}/v1/approvals/${approvalId}`).expect(200)).body;
      expect(consumed).toMatchObject({ consumed_by: allowed.body.consultation_id, consumed_at: expect.any(String) });
      expect(consultationId).not.toBe(allowed.body.consultation_id);

      // Once: the same operation again needs a new approval.
      expect((await agent().check(wire(2500)).expect(200)).body.verdict).toBe('approval_required');
    });

    it('bind the approval to its requester: another caller making the same operation is not allowed by it', async () => {
      const { approvalId } = await approvalFor(t.agent.key, 3000);
      await decide(decider.key, approvalId, { decision: 'approve' }).expect(200);
      expect((await as(selfApprover.key).check(wire(3000)).expect(200)).body.verdict).toBe('approval_required');
      expect((await agent().check(wire(3000)).expect(200)).body.verdict).toBe('allowed');
    });

    it('expire APPROVAL_VALIDITY_SECONDS after the decision', async () => {
      const { approvalId } = await approvalFor(t.agent.key, 3500);
      await decide(decider.key, approvalId, { decision: 'approve' }).expect(200);
      await verdictSql(`UPDATE approvals SET authorizes_until = now() - interval '1 second' WHERE id = $1`, [approvalId]);
      expect((await agent().check(wire(3500)).expect(200)).body.verdict).toBe('approval_required');
    });

    it('are consumed atomically: of simultaneous checks of the approved operation exactly one is allowed', async () => {
      const { approvalId } = await approvalFor(t.agent.key, 4000);
      await decide(decider.key, approvalId, { decision: 'approve' }).expect(200);
      const answers = await Promise.all(Array.from({ length: 8 }, () => agent().check(wire(4000))));
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      const verdicts = answers.map((a) => a.body.verdict).sort();
      expect(verdicts).toEqual(['allowed', ...Array(7).fill('approval_required')]);
      const [row] = await verdictSql<{ consumed_by: string }>('SELECT consumed_by FROM approvals WHERE id = $1', [approvalId]);
      expect(row.consumed_by).toBe(answers.find((a) => a.body.verdict === 'allowed')!.body.consultation_id);
    });
  });
});
