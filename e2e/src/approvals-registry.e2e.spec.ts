import request from 'supertest';
import { createPrincipalWithKey } from '../../apps/registry/test/harness';
import { eventually } from '@arbiter/testing';
import { FAST_WEBHOOKS, rigApi, webhookRig, type WebhookRig } from './webhooks-harness';
import { startStack, type Stack } from './stack';

/**
 * The registry's approval flow (docs/approvals.md "The registry flow") as a decider's tooling sees it: the request reaches the team named by
 * the rule's deciders through a tenant-level webhook, the decision creates the override, and the
 * resolution is delivered too (registry + worker + BullMQ + a real receiver).
 */
describe('registry approvals routed to their deciders', () => {
  let stack: Stack;
  let rig: WebhookRig;

  beforeAll(async () => {
    stack = await startStack({ registry: { env: FAST_WEBHOOKS }, worker: true });
    rig = await webhookRig(stack);
  });
  afterAll(() => stack?.stop());

  it('delivers approval.requested to the finance channel, and approval.resolved with the override after a finance decision', async () => {
    const a = rigApi(rig);
    const auth = (key: string) => ({ Authorization: `Bearer ${key}` });
    const rule = (
      await request(stack.registry.url)
        .post(`/api/v1/scopes/${rig.scopeId}/rules`)
        .set(auth(rig.adminKey))
        .send({ directive: 'Transfers above 10000 need finance', severity: 'REQUIRES_APPROVAL', deciders: ['role-finance'] })
        .expect(201)
    ).body;
    const finance = await createPrincipalWithKey(stack.registry, rig.adminKey, {
      kind: 'human',
      permissions: ['read', 'approve'],
      roles: ['role-finance'],
    });
    await a.subscribe({ events: ['approval.requested', 'approval.resolved'], deciders: ['role-finance'] }, '/api/v1/webhooks');
    await a.subscribe({ events: ['approval.requested'], deciders: ['role-legal'] }, '/api/v1/webhooks');
    const received = (type: string) => rig.receiver.received.filter((r) => r.body.type === type);

    const approval = (
      await request(stack.registry.url)
        .post(`/api/v1/scopes/${rig.scopeId}/approvals`)
        .set(auth(rig.requesterKey))
        .send({ trigger_id: rule.id, intended_action: 'transfer 20000 EUR to ACME', justification: 'quarter-end invoice' })
        .expect(201)
    ).body;
    const requested = await eventually('approval.requested', () => received('approval.requested')[0]);
    expect(requested.body.data).toMatchObject({ id: approval.id, candidate_deciders: ['role-finance'], status: 'pending' });

    const decided = (
      await request(stack.registry.url)
        .post(`/api/v1/scopes/${rig.scopeId}/approvals/${approval.id}/decide`)
        .set(auth(finance.key))
        .send({ decision: 'approved', comment: 'invoice checked' })
        .expect(200)
    ).body;
    const resolved = await eventually('approval.resolved', () => received('approval.resolved')[0]);

    expect(resolved.body.data).toEqual(decided);
    expect(decided.override_id).toMatch(/^ovr-/);
    expect(received('approval.requested')).toHaveLength(1);
    const state = (await request(stack.registry.url).get(`/api/v1/scopes/${rig.scopeId}/resolve`).set(auth(rig.adminKey)).expect(200)).body;
    expect(state.overrides).toEqual([
      expect.objectContaining({
        id: decided.override_id,
        override_type: 'approval_grant',
        target_id: rule.id,
        approval_id: approval.id,
        // The grant is the authenticated decider's, bounded to the scope (its selector is {}) and to one hour.
        approved_by: finance.principalId,
        applies_to_scope: {},
        expires_at: new Date(Date.parse(decided.decided_at) + 3_600_000).toISOString(),
      }),
    ]);
  });
});
