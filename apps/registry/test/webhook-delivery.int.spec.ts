import { verify } from 'node:crypto';
import request from 'supertest';
import {
  createPrincipalWithKey,
  createTenantWithAdmin,
  startTestRegistry,
  TEST_INTERNAL_TOKEN,
  type RegistryHarness,
  type TenantFixture,
} from './harness';
import { api, createScope, expectConforms, sql, type Api } from './fixtures';
import { startReceiver, type Receiver } from './receiver';
import { startDeliveryRig, type AttemptReport as Report, type DeliveryRig } from './delivery-rig';

/**
 * The delivery machinery driven through the internal API exactly as the worker drives it (relay,
 * then one attempt per dispatched delivery), without Redis: what the registry guarantees on its
 * own. e2e/src/webhooks*.e2e.spec.ts run the same through the worker and BullMQ.
 */
describe('registry webhook delivery (internal API)', () => {
  let rig: DeliveryRig;
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;
  let scopeId: string;
  let receiver: Receiver;

  const internal = (path: string, body: object, token?: string) => rig.internal(path, body, token);
  const relay = () => rig.relay();
  const attempt = (deliveryId: string, n: number) => rig.attempt(deliveryId, n);
  /** One worker pass: relay, then run every dispatched attempt. */
  const pass = async (): Promise<Report[]> => Promise.all((await relay()).dispatch.map((d) => attempt(d.delivery_id, d.attempt)));
  /** The same, one attempt after the other. */
  const passInOrder = async (): Promise<Report[]> => {
    const out: Report[] = [];
    for (const d of (await relay()).dispatch) out.push(await attempt(d.delivery_id, d.attempt));
    return out;
  };
  const subscribe = async (events = ['approval.requested'], over: object = {}) =>
    (await admin.post(`/api/v1/scopes/${scopeId}/webhooks`, { url: receiver.url, events, ...over }).expect(201)).body.id as string;
  const requestApproval = (action?: string) => rig.requestApproval(action);
  const deliveries = async (subId: string) => (await admin.get(`/api/v1/webhooks/${subId}/deliveries?limit=1000`).expect(200)).body.items;

  beforeAll(async () => {
    // Base 0: a failed attempt is due again at once, so the test never waits for a backoff. 8 is the
    // fewest attempts the registry starts with; 10 failures in a row (more than one delivery's 8)
    // disable a subscription.
    rig = await startDeliveryRig('delivery', {
      WEBHOOK_RETRY_BASE_MS: '0',
      WEBHOOK_MAX_ATTEMPTS: '8',
      WEBHOOK_MAX_CONSECUTIVE_FAILURES: '10',
    });
    ({ h, t, admin, scopeId, receiver } = rig);
  });
  afterEach(() => rig.reset());
  afterAll(() => rig.stop());

  it("sends a restricted key's scope subscription only events whose scopes all lie in the key's, as its feed shows", async () => {
    const other = await createScope(admin, 'reach-other');
    const restricted = await createPrincipalWithKey(h, t.admin.key, { permissions: ['admin'], scope_ids: [scopeId] });
    const sub = await api(h, restricted.key)
      .post(`/api/v1/scopes/${scopeId}/webhooks`, { url: receiver.url, events: ['link.created'] })
      .expect(201);
    const mine = await admin.post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'mine', severity: 'ADVISORY' }).expect(201);
    const theirs = await admin.post(`/api/v1/scopes/${other.id}/rules`, { directive: 'theirs', severity: 'ADVISORY' }).expect(201);
    const also = await admin.post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'also mine', severity: 'ADVISORY' }).expect(201);
    const link = (to: string) => ({ from_id: mine.body.id, from_type: 'rule', to_id: to, to_type: 'rule', relation: 'depends_on' });
    await admin.post('/api/v1/links', link(theirs.body.id)).expect(201);
    const inside = await admin.post('/api/v1/links', link(also.body.id)).expect(201);
    await pass();
    expect(receiver.received.map((r) => [r.body.subscription_id, r.body.entity_id])).toEqual([[sub.body.id, inside.body.id]]);
  });

  it('delivers the event object, bound to its tenant and subscription, signed over `<timestamp>.<raw body>`, verifiable with node:crypto and the published PEM', async () => {
    const subId = await subscribe();
    const approval = await requestApproval();

    const reports = await pass();

    expect(reports).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'succeeded', status_code: 200, delivery_status: 'succeeded', next_attempt_at: null }),
    ]);
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0];
    const feed = (await admin.get(`/api/v1/scopes/${scopeId}/events?type=approval.requested&limit=1000`).expect(200)).body.items;
    // The feed's event, bound to the tenant and the subscription it was delivered for.
    expect(got.body).toEqual({
      ...feed.find((e: { entity_id: string }) => e.entity_id === approval.id),
      tenant_id: t.tenant.id,
      subscription_id: subId,
    });
    expect(got.body).toMatchObject({ type: 'approval.requested', source: 'registry', entity_type: 'approval', data: approval });
    const key = (await request(h.url).get('/.well-known/webhook-key').expect(200)).body;
    expect(got.headers).toMatchObject({
      'content-type': 'application/json',
      'x-service-event': 'approval.requested',
      'x-service-key-id': key.kid,
      'x-service-delivery': reports[0].delivery_id,
      'x-service-attempt': '1',
    });
    const ts = got.headers['x-service-timestamp'] as string;
    expect(ts).toMatch(/^\d{10}$/);
    const signature = Buffer.from(got.headers['x-service-signature'] as string, 'hex');
    expect(signature).toHaveLength(64);
    expect(verify('sha256', Buffer.from(`${ts}.${got.raw}`), { key: key.pem, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
    expect(verify('sha256', Buffer.from(`${Number(ts) + 1}.${got.raw}`), { key: key.pem, dsaEncoding: 'ieee-p1363' }, signature)).toBe(
      false,
    );
    const log = await admin.get(`/api/v1/webhooks/${subId}/deliveries`).expect(200);
    expectConforms(log, 'get', '/api/v1/webhooks/{subscription_id}/deliveries');
    expect(log.body.items[0]).toMatchObject({
      event_id: got.body.id,
      status: 'succeeded',
      attempt_count: 1,
      attempts: [{ attempt: 1, outcome: 'succeeded', status_code: 200, key_id: key.kid }],
    });
  });

  it('retries a receiver that fails twice; the third attempt is acknowledged, exactly once', async () => {
    const subId = await subscribe();
    receiver.respond = (_req, i) => (i < 2 ? 503 : 200);
    await requestApproval('retry me');

    const outcomes: string[] = [];
    for (let i = 0; i < 3; i++) outcomes.push(...(await pass()).map((r) => r.outcome));
    const after = await pass();

    expect(outcomes).toEqual(['retry_scheduled', 'retry_scheduled', 'succeeded']);
    expect(after).toEqual([]);
    expect(receiver.received.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(new Set(receiver.received.map((r) => r.headers['x-service-delivery'])).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.raw)).size).toBe(1);
    const [delivery] = await deliveries(subId);
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 3, last_status_code: 200 });
    expect(
      delivery.attempts.map((a: { attempt: number; outcome: string; status_code: number }) => [a.attempt, a.outcome, a.status_code]),
    ).toEqual([
      [1, 'failed', 503],
      [2, 'failed', 503],
      [3, 'succeeded', 200],
    ]);
    expect(delivery.attempts[0]).toMatchObject({ error: 'receiver answered 503', duration_ms: expect.any(Number) });
  });

  it('runs one attempt once: a repeated or concurrent call for the same attempt sends nothing', async () => {
    await subscribe();
    await requestApproval('once');
    const [dispatched] = (await relay()).dispatch;

    const reports = await Promise.all([1, 2, 3, 4].map(() => attempt(dispatched.delivery_id, dispatched.attempt)));
    const later = await attempt(dispatched.delivery_id, dispatched.attempt);
    const ahead = await attempt(dispatched.delivery_id, 5);

    expect(reports.map((r) => r.outcome).sort()).toEqual(['skipped', 'skipped', 'skipped', 'succeeded']);
    expect(later.outcome).toBe('skipped');
    expect(ahead.outcome).toBe('skipped');
    expect(receiver.received).toHaveLength(1);
  });

  it('gives up after WEBHOOK_MAX_ATTEMPTS; a manual redelivery sends it once more', async () => {
    const subId = await subscribe();
    receiver.respond = () => 500;
    await requestApproval('doomed');
    const outcomes: string[] = [];
    for (let i = 0; i < 8; i++) outcomes.push(...(await pass()).map((r) => r.outcome));
    expect(outcomes).toEqual([...Array(7).fill('retry_scheduled'), 'failed']);
    expect(await pass()).toEqual([]);
    const [failed] = await deliveries(subId);
    expect(failed).toMatchObject({ status: 'failed', attempt_count: 8, max_attempts: 8, next_attempt_at: null });
    receiver.respond = () => 204;

    const redelivered = await admin.post(`/api/v1/webhooks/${subId}/deliveries/${failed.id}/redeliver`).expect(202);
    const again = await admin.post(`/api/v1/webhooks/${subId}/deliveries/${failed.id}/redeliver`).expect(409);
    const reports = await pass();

    expectConforms(redelivered, 'post', '/api/v1/webhooks/{subscription_id}/deliveries/{delivery_id}/redeliver');
    expect(redelivered.body).toMatchObject({ status: 'pending', max_attempts: 9, next_attempt_at: expect.any(String) });
    expect(again.body.detail).toContain('already pending');
    expect(reports).toEqual([expect.objectContaining({ delivery_id: failed.id, attempt: 9, outcome: 'succeeded', status_code: 204 })]);
    const one = await admin.get(`/api/v1/webhooks/${subId}/deliveries/${failed.id}`).expect(200);
    expectConforms(one, 'get', '/api/v1/webhooks/{subscription_id}/deliveries/{delivery_id}');
    expect(one.body).toMatchObject({ status: 'succeeded', attempt_count: 9 });
    expect(receiver.received).toHaveLength(9);
    expect((await admin.get(`/api/v1/webhooks/${subId}`).expect(200)).body.consecutive_failures).toBe(0);
  });

  it('cancels a delivery whose event is no longer kept, on a retry and on a redelivery, instead of failing the attempt', async () => {
    const subId = await subscribe();
    receiver.respond = () => 500;
    await requestApproval('outlived');
    expect((await pass()).map((r) => r.outcome)).toEqual(['retry_scheduled']);
    const [waiting] = await deliveries(subId);
    // What dropping the events partition after archiving it leaves (events kept shorter than deliveries).
    await sql(h, `DELETE FROM events WHERE id = (SELECT event_id FROM webhook_deliveries WHERE id = $1)`, [waiting.id]);
    receiver.respond = () => 204;

    expect(await pass()).toEqual([expect.objectContaining({ delivery_id: waiting.id, outcome: 'cancelled' })]);
    const ended = (await admin.get(`/api/v1/webhooks/${subId}/deliveries/${waiting.id}`).expect(200)).body;
    expect(ended).toMatchObject({ status: 'cancelled', attempt_count: 1 });
    await admin.post(`/api/v1/webhooks/${subId}/deliveries/${waiting.id}/redeliver`).expect(202);
    expect(await pass()).toEqual([expect.objectContaining({ delivery_id: waiting.id, outcome: 'cancelled' })]);
    expect(receiver.received).toHaveLength(1);
  });

  it('disables a subscription after WEBHOOK_MAX_CONSECUTIVE_FAILURES failed attempts in a row and cancels what was pending', async () => {
    const subId = await subscribe();
    receiver.respond = () => 500;
    await requestApproval('a');
    await requestApproval('b');
    await requestApproval('c');

    const passes: string[][] = [];
    for (let i = 0; i < 5; i++) passes.push((await passInOrder()).map((r) => r.outcome));

    // Nine failures in three passes; the tenth in a row disables the subscription: every pending
    // delivery is cancelled, also those already handed to the worker.
    expect(passes.slice(0, 3)).toEqual(Array(3).fill(['retry_scheduled', 'retry_scheduled', 'retry_scheduled']));
    expect(passes[3]).toEqual(['failed', 'cancelled', 'cancelled']);
    expect(passes[4]).toEqual([]);
    const sub = (await admin.get(`/api/v1/webhooks/${subId}`).expect(200)).body;
    expect(sub).toMatchObject({ status: 'disabled', consecutive_failures: 10, disabled_reason: '10 consecutive failed attempts' });
    const log = await deliveries(subId);
    expect(log.map((d: { status: string }) => d.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(receiver.received).toHaveLength(10);
    await admin.post(`/api/v1/webhooks/${subId}/deliveries/${log[0].id}/redeliver`).expect(409);
    const enabled = (await admin.patch(`/api/v1/webhooks/${subId}`, { active: true }).expect(200)).body;
    expect(enabled).toMatchObject({ status: 'active', consecutive_failures: 0, disabled_at: null, disabled_reason: null });
  });

  it('records concurrent failing attempts of one subscription without deadlock, disabling it once', async () => {
    const subId = await subscribe();
    receiver.respond = () => 500;
    for (const a of ['p', 'q', 'r', 's', 't', 'u']) await requestApproval(a);

    // pass() answers 200 for every attempt or fails: no deadlock surfaced as a 500.
    const reports = [...(await pass()), ...(await pass())];

    expect(reports.length).toBeGreaterThanOrEqual(6);
    const sub = (await admin.get(`/api/v1/webhooks/${subId}`).expect(200)).body;
    expect(sub.status).toBe('disabled');
    expect(sub.consecutive_failures).toBe(receiver.received.length);
    expect((await deliveries(subId)).every((d: { status: string }) => d.status === 'cancelled')).toBe(true);
  });

  it('fans an event out once per matching subscription, and cancels the deliveries of a deleted subscription', async () => {
    const wanted = await subscribe(['approval.requested']);
    const everything = await subscribe(['*']);
    const other = await subscribe(['rule.created']);
    await requestApproval('fan');
    const fan = await relay();
    expect(fan.dispatch).toHaveLength(2);
    await admin.delete(`/api/v1/webhooks/${everything}`).expect(204);

    const reports = await Promise.all(fan.dispatch.map((d) => attempt(d.delivery_id, d.attempt)));

    expect(reports.map((r) => r.outcome).sort()).toEqual(['cancelled', 'succeeded']);
    expect(receiver.received).toHaveLength(1);
    expect(await deliveries(wanted)).toHaveLength(1);
    expect(await deliveries(other)).toHaveLength(0);
    const [outbox] = await sql<{ n: string }>(h, 'SELECT count(*) AS n FROM outbox');
    expect(Number(outbox.n)).toBe(0);
  });

  it('releases deliveries a worker could not enqueue, so the next relay hands them out again', async () => {
    await subscribe();
    await requestApproval('released');
    const first = await relay();
    expect((await relay()).dispatch).toEqual([]);

    const released = await internal('/outbox/release', { delivery_ids: first.dispatch.map((d) => d.delivery_id) }).expect(200);
    const again = await relay();

    expect(released.body).toEqual({ released: 1 });
    expect(again.dispatch).toEqual(first.dispatch);
    await attempt(again.dispatch[0].delivery_id, 1);
  });

  it('refuses the internal endpoints without the service token, and malformed calls', async () => {
    await internal('/outbox/relay', {}, 'wrong-token-wrong-token').expect(401);
    await request(h.url).post('/internal/v1/outbox/relay').set('Authorization', `Bearer ${t.admin.key}`).send({}).expect(401);
    await internal('/outbox/relay', { limit: 0 }).expect(400);
    await internal('/outbox/release', { delivery_ids: 'dlv-1' }).expect(400);
    await internal('/webhook-deliveries/dlv-000000000000000000000000/attempts', { attempt: 1 }).expect(404);
    await internal('/webhook-deliveries/dlv-000000000000000000000000/attempts', {}).expect(422);
    await internal('/webhook-deliveries/dlv-000000000000000000000000/attempts', { attempt: 0 }).expect(400);
  });
});

describe('registry internal events endpoint (the verdict gateway)', () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;
  let scopeId: string;
  let receiver: Receiver;
  const internal = (path: string, body: object) =>
    request(h.url).post(`/internal/v1${path}`).set('X-Internal-Token', TEST_INTERNAL_TOKEN).send(body);
  const verdictApproval = (over: object = {}) => ({
    type: 'approval.requested',
    entity_type: 'approval',
    entity_id: 'apr-0123456789abcdef01234567',
    scope_ids: [scopeId],
    actor_id: 'agn-0123456789abcdef01234567',
    data: {
      id: 'apr-0123456789abcdef01234567',
      status: 'pending',
      candidate_deciders: ['role-finance'],
      intended_action: 'payments.transfer',
    },
    idempotency_key: 'verdict-outbox-1',
    ...over,
  });

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'foreign');
    admin = api(h, t.admin.key);
    scopeId = (await createScope(admin, 'payments')).id;
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await h.stop();
  });

  it('records a verdict approval once per idempotency key and routes it to the tenant subscriptions of its deciders', async () => {
    const finance = (
      await admin.post('/api/v1/webhooks', { url: receiver.url, events: ['approval.requested'], deciders: ['role-finance'] }).expect(201)
    ).body.id;
    const legal = (
      await admin.post('/api/v1/webhooks', { url: receiver.url, events: ['approval.requested'], deciders: ['role-legal'] }).expect(201)
    ).body.id;

    const created = await internal(`/tenants/${t.tenant.id}/events`, verdictApproval()).expect(201);
    const replay = await internal(`/tenants/${t.tenant.id}/events`, verdictApproval({ data: { changed: true } })).expect(200);
    const relayed = (await internal('/outbox/relay', {}).expect(200)).body;
    for (const d of relayed.dispatch) await internal(`/webhook-deliveries/${d.delivery_id}/attempts`, { attempt: d.attempt }).expect(200);

    expect(created.body).toMatchObject({
      type: 'approval.requested',
      source: 'verdict',
      scope_id: scopeId,
      scope_ids: [scopeId],
      entity_id: 'apr-0123456789abcdef01234567',
      actor_id: 'agn-0123456789abcdef01234567',
    });
    expect(replay.body).toEqual(created.body);
    expect(receiver.received.map((r) => r.body)).toEqual([{ ...created.body, tenant_id: t.tenant.id, subscription_id: finance }]);
    expect((await admin.get(`/api/v1/webhooks/${finance}/deliveries`).expect(200)).body.items).toHaveLength(1);
    expect((await admin.get(`/api/v1/webhooks/${legal}/deliveries`).expect(200)).body.items).toHaveLength(0);
    const feed = (await admin.get(`/api/v1/scopes/${scopeId}/events?type=approval.requested`).expect(200)).body.items;
    expect(feed).toEqual([created.body]);
  });

  it('accepts an event without scope for tenant-level subscriptions', async () => {
    const res = await internal(
      `/tenants/${t.tenant.id}/events`,
      verdictApproval({ scope_ids: undefined, idempotency_key: undefined, type: 'approval.resolved' }),
    ).expect(201);

    expect(res.body).toMatchObject({ scope_id: null, scope_ids: [], type: 'approval.resolved', source: 'verdict' });
  });

  it('refuses malformed events', async () => {
    const path = `/tenants/${t.tenant.id}/events`;
    expect((await internal(path, verdictApproval({ type: 'rule.created' })).expect(400)).body.detail).toContain('approval.requested');
    await internal(path, verdictApproval({ data: undefined })).expect(422);
    await internal(path, verdictApproval({ source: 'registry' })).expect(400);
    await internal(path, verdictApproval({ extra: 1 })).expect(400);
    await internal(path, verdictApproval({ scope_ids: ['scp-000000000000000000000000'] })).expect(404);
    await internal('/tenants/tnt-000000000000000000000000/events', verdictApproval()).expect(404);
  });
});
