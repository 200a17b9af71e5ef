import { verify } from 'node:crypto';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { createRegistryClient, verifyStandardWebhook } from '@arbiter/client';
import { TEST_INTERNAL_TOKEN } from '../../apps/registry/test/harness';
import { eventually } from '@arbiter/testing';
import { FAST_WEBHOOKS, rigApi, webhookRig, type WebhookRig } from './webhooks-harness';
import { startStack, type Stack } from './stack';

/**
 * Webhooks end to end (docs/webhooks.md "Internal API used by the worker") — registry change → outbox → worker relay → BullMQ →
 * webhook.v1.deliver → registry signs and POSTs → a real receiving server.
 */
describe('webhooks through the worker', () => {
  let stack: Stack;
  let rig: WebhookRig;
  let a: ReturnType<typeof rigApi>;

  beforeAll(async () => {
    stack = await startStack({ registry: { env: FAST_WEBHOOKS }, worker: true });
    rig = await webhookRig(stack);
    a = rigApi(rig);
  });
  afterEach(async () => {
    // Each test listens alone: earlier subscriptions go, and with them their pending deliveries.
    for (const sub of await a.subscriptions()) await a.unsubscribe(sub.id);
    rig.receiver.respond = () => 200;
    rig.receiver.received.length = 0;
  });
  afterAll(() => stack?.stop());

  it('delivers approval.requested; the signature verifies with node:crypto and the PEM of /.well-known/webhook-key', async () => {
    const sub = await a.subscribe({ events: ['approval.requested'] });

    const approval = await a.requestApproval('deploy hotfix');
    const got = await eventually('the delivery', () => rig.receiver.received[0]);

    const key = await a.webhookKey();
    const ts = got.headers['x-service-timestamp'] as string;
    const message = Buffer.from(`${ts}.${got.raw}`, 'utf8');
    const signature = Buffer.from(got.headers['x-service-signature'] as string, 'hex');
    expect(verify('sha256', message, { key: key.pem, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
    expect(got.headers['x-service-event']).toBe('approval.requested');
    expect(got.headers['x-service-key-id']).toBe(key.kid);
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(300);
    const [event] = (await a.events('approval.requested')).filter((e) => e.entity_id === approval.id);
    expect(got.body).toEqual({ ...event, tenant_id: rig.tenantId, subscription_id: sub.id });
    expect(got.body.data).toEqual(approval);
  });

  it('also signs as Standard Webhooks: the SDK creates and rotates the secret, the reference library and the SDK verify', async () => {
    const sdk = createRegistryClient({ baseUrl: stack.registry.url, apiKey: rig.adminKey });
    const sub = await sdk.createScopeWebhook(rig.scopeId, { url: rig.receiver.url, events: ['approval.requested'] });
    const headersOf = (r: { headers: Record<string, unknown> }) => r.headers as Record<string, string>;

    await a.requestApproval('standard webhooks');
    const first = await eventually('the first delivery', () => rig.receiver.received[0]);
    const rotated = await sdk.rotateWebhookSecret(sub.id);
    await a.requestApproval('during the overlap');
    const second = await eventually('the second delivery', () => rig.receiver.received[1]);

    expect(sub.secret).toMatch(/^whsec_/);
    expect(new Webhook(sub.secret).verify(first.raw, headersOf(first))).toEqual(first.body);
    expect(headersOf(first)['webhook-id']).toBe(headersOf(first)['x-service-delivery']);
    for (const secret of [sub.secret, rotated.secret]) {
      expect(new Webhook(secret).verify(second.raw, headersOf(second))).toEqual(second.body);
      const h = headersOf(second);
      const report = verifyStandardWebhook({
        body: second.raw,
        id: h['webhook-id'],
        timestamp: h['webhook-timestamp'],
        signature: h['webhook-signature'],
        secret,
        maxAgeSeconds: 300,
      });
      expect(report.valid).toBe(true);
    }
  });

  it('retries a receiver that fails twice: the third attempt is acknowledged, exactly once', async () => {
    const sub = await a.subscribe({ events: ['approval.requested'] });
    rig.receiver.respond = (_req, i) => (i < 2 ? 500 : 200);

    await a.requestApproval('flaky receiver');
    const [delivery] = await eventually(
      'the delivery to succeed',
      async () => {
        const ds = await a.deliveries(sub.id);
        return ds.length && ds[0].status === 'succeeded' ? ds : undefined;
      },
      { timeoutMs: 30_000 },
    );

    expect(delivery.attempts.map((x) => [x.attempt, x.outcome, x.status_code])).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 500],
      [3, 'succeeded', 200],
    ]);
    const mine = rig.receiver.received.filter((r) => r.headers['x-service-delivery'] === delivery.id);
    expect(mine.map((r) => [r.headers['x-service-attempt'], r.status])).toEqual([
      ['1', 500],
      ['2', 500],
      ['3', 200],
    ]);
    expect(mine.filter((r) => r.status === 200)).toHaveLength(1);
  });

  it('routes a verdict approval recorded through the internal events endpoint to the tenant subscription of its deciders', async () => {
    const finance = await a.subscribe({ events: ['approval.requested'], deciders: ['role-finance'] }, '/api/v1/webhooks');
    const legal = await a.subscribe({ events: ['approval.requested'], deciders: ['role-legal'] }, '/api/v1/webhooks');

    const recorded = await request(stack.registry.url)
      .post(`/internal/v1/tenants/${rig.tenantId}/events`)
      .set('X-Internal-Token', TEST_INTERNAL_TOKEN)
      .send({
        type: 'approval.requested',
        entity_type: 'approval',
        entity_id: 'apr-00000000000000000000abcd',
        data: {
          id: 'apr-00000000000000000000abcd',
          status: 'pending',
          candidate_deciders: ['role-finance', 'hum-0123456789abcdef01234567'],
        },
        idempotency_key: 'verdict-e2e-1',
      })
      .expect(201);
    const got = await eventually('the verdict approval', () => rig.receiver.received.find((r) => r.body.id === recorded.body.id));

    expect(got.body).toMatchObject({ source: 'verdict', type: 'approval.requested', scope_id: null });
    // The receiver sees the body before the registry records the attempt's answer: wait for the record.
    const statuses = await eventually('the delivery record', async () => {
      const s = (await a.deliveries(finance.id)).map((d) => d.status);
      return s.includes('pending') ? undefined : s;
    });
    expect(statuses).toEqual(['succeeded']);
    expect(await a.deliveries(legal.id)).toEqual([]);
  });

  it('delivers each attempt once with several workers taking jobs at the same time', async () => {
    await stack.addWorker();
    await stack.addWorker();
    const sub = await a.subscribe({ events: ['approval.requested'] });

    const approvals = await Promise.all(Array.from({ length: 12 }, (_, i) => a.requestApproval(`parallel ${i}`)));
    const ds = await eventually(
      'every delivery',
      async () => {
        const list = await a.deliveries(sub.id);
        return list.length === approvals.length && list.every((d) => d.status === 'succeeded') ? list : undefined;
      },
      { timeoutMs: 30_000 },
    );

    expect(ds.every((d) => d.attempt_count === 1)).toBe(true);
    const mine = rig.receiver.received.filter((r) => ds.some((d) => d.id === r.headers['x-service-delivery']));
    expect(mine).toHaveLength(approvals.length);
    expect(new Set(mine.map((r) => r.headers['x-service-delivery'])).size).toBe(approvals.length);
    expect(new Set(mine.map((r) => (r.body.data as { id: string }).id))).toEqual(new Set(approvals.map((x) => x.id)));
  });
});
