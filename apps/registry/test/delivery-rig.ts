import request from 'supertest';
import {
  createPrincipalWithKey,
  createTenantWithAdmin,
  startTestRegistry,
  TEST_INTERNAL_TOKEN,
  type RegistryHarness,
  type TenantFixture,
} from './harness';
import { api, createScope, sql, type Api } from './fixtures';
import { startReceiver, type Receiver } from './receiver';

/** What POST /internal/v1/webhook-deliveries/{id}/attempts answers. */
export interface AttemptReport {
  delivery_id: string;
  attempt: number;
  outcome: string;
  status_code: number | null;
  delivery_status: string;
  next_attempt_at: string | null;
}

/**
 * A registry with a tenant, a scope, an invariant that needs approval, an agent that may request
 * approvals and a receiving HTTP server; deliveries are driven through the internal API exactly as
 * the worker drives them (relay, then one attempt per dispatched delivery), without Redis.
 */
export interface DeliveryRig {
  h: RegistryHarness;
  t: TenantFixture;
  admin: Api;
  requester: Api;
  scopeId: string;
  invariantId: string;
  receiver: Receiver;
  internal(path: string, body: object, token?: string): request.Test;
  relay(): Promise<{ fanned_out: number; dispatch: Array<{ delivery_id: string; attempt: number }> }>;
  attempt(deliveryId: string, n: number): Promise<AttemptReport>;
  /** Requests an approval of the invariant: one `approval.requested` event. */
  requestApproval(action?: string): Promise<Record<string, unknown> & { id: string }>;
  /** Between tests: the receiver answers 200 again and forgets, every subscription goes. */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

export async function startDeliveryRig(tenantName: string, env: Record<string, string>): Promise<DeliveryRig> {
  const h = await startTestRegistry(env);
  const t = await createTenantWithAdmin(h, tenantName);
  const admin = api(h, t.admin.key);
  const requester = api(h, (await createPrincipalWithKey(h, t.admin.key, { permissions: ['read', 'write'] })).key);
  const scopeId = (await createScope(admin, 'main')).id;
  const invariantId = (
    await admin.post(`/api/v1/scopes/${scopeId}/invariants`, { constraint: 'No Friday deploys', requires_approval: true }).expect(201)
  ).body.id as string;
  const receiver = await startReceiver();
  const internal = (path: string, body: object, token = TEST_INTERNAL_TOKEN) =>
    request(h.url).post(`/internal/v1${path}`).set('X-Internal-Token', token).send(body);
  const rig: DeliveryRig = {
    h,
    t,
    admin,
    requester,
    scopeId,
    invariantId,
    receiver,
    internal,
    relay: async () => (await internal('/outbox/relay', { limit: 100 }).expect(200)).body,
    attempt: async (deliveryId, n) => (await internal(`/webhook-deliveries/${deliveryId}/attempts`, { attempt: n }).expect(200)).body,
    requestApproval: async (action = 'deploy') =>
      (await requester.post(`/api/v1/scopes/${scopeId}/approvals`, { trigger_id: invariantId, intended_action: action }).expect(201)).body,
    async reset() {
      receiver.respond = () => 200;
      receiver.received.length = 0;
      await sql(h, `UPDATE webhook_subscriptions SET deleted_at = now() WHERE deleted_at IS NULL`);
    },
    async stop() {
      await receiver.close();
      await h.stop();
    },
  };
  await rig.relay(); // Drains the outbox of the setup's events.
  return rig;
}
