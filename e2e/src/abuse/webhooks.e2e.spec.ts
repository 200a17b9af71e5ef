import http from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { verifyStandardWebhook, verifyWebhookSignature } from '@arbiter/client';
import type { HostResolver } from '../../../apps/registry/src/clients/webhook-target';
import { createTenantWithAdmin } from '../../../apps/registry/test/harness';
import { eventually } from '@arbiter/testing';
import { FAST_WEBHOOKS, rigApi, webhookRig, type WebhookRig } from '../webhooks-harness';
import { startStack, type Stack } from '../stack';

/**
 * Abuse cases of webhooks (docs/webhooks.md "Subscriptions", "A delivery"; ADR 0018): a tenant admin
 * points a subscription at the deployment's own network (SSRF), directly or through a DNS name whose
 * answer changes after the subscription was saved (rebinding); a receiver replays a validly signed
 * delivery to another subscription's receiver.
 */

/** A DNS of the test's own: the registry resolves webhook hosts through it (startRegistry deps.resolveHost). */
function fakeDns() {
  const answers = new Map<string, string[]>();
  const resolveHost: HostResolver = async (hostname) => {
    const addresses = answers.get(hostname);
    if (!addresses) throw Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: isIP(address) as 4 | 6 }));
  };
  return { answers, resolveHost };
}

interface DeliveryLog {
  id: string;
  status: string;
  attempt_count: number;
  last_error: string | null;
  attempts: Array<{ attempt: number; outcome: string; status_code: number | null; error: string | null }>;
}

describe('webhook destinations with WEBHOOK_ALLOW_PRIVATE off', () => {
  const dns = fakeDns();
  let stack: Stack;
  let rig: WebhookRig;
  const auth = () => ({ Authorization: `Bearer ${rig.adminKey}` });
  const subscribe = (url: string, events = ['link.created']) =>
    request(stack.registry.url).post(`/api/v1/scopes/${rig.scopeId}/webhooks`).set(auth()).send({ url, events });

  beforeAll(async () => {
    stack = await startStack({
      registry: { env: { ...FAST_WEBHOOKS, WEBHOOK_ALLOW_PRIVATE: 'false' }, deps: { resolveHost: dns.resolveHost } },
      worker: true,
    });
    rig = await webhookRig(stack);
  });
  afterEach(async () => {
    const a = rigApi(rig);
    for (const sub of await a.subscriptions()) await a.unsubscribe(sub.id);
    rig.receiver.received.length = 0;
  });
  afterAll(() => stack?.stop());

  // Every range the guard refuses, as the literal host of the URL (the WHATWG parser turns the
  // decimal, hex, octal and short IPv4 spellings into 127.0.0.1 before the guard sees them).
  it.each([
    ['private 10/8', 'http://10.0.0.5/hook'],
    ['private 172.16/12', 'http://172.16.0.1/hook'],
    ['private 192.168/16', 'http://192.168.1.20/hook'],
    ['loopback', 'http://127.0.0.1:8080/hook'],
    ['loopback ::1', 'http://[::1]/hook'],
    ['unspecified 0.0.0.0/8', 'http://0.0.0.0/hook'],
    ['unspecified ::', 'http://[::]/hook'],
    ['carrier-grade NAT 100.64/10', 'http://100.64.0.1/hook'],
    ['link-local 169.254/16 (cloud metadata)', 'http://169.254.169.254/latest/meta-data'],
    ['link-local fe80::/10', 'http://[fe80::1]/hook'],
    ['unique-local fc00::/7', 'http://[fd00::1]/hook'],
    ['NAT64 64:ff9b::/96', 'http://[64:ff9b::7f00:1]/hook'],
    ['NAT64 local-use 64:ff9b:1::/48', 'http://[64:ff9b:1::a00:5]/hook'],
    ['6to4 2002::/16', 'http://[2002:7f00:1::1]/hook'],
    ['IPv4-compatible ::/96', 'http://[::127.0.0.1]/hook'],
    ['site-local fec0::/10', 'http://[fec0::1]/hook'],
    ['IPv4-mapped ::ffff:127.0.0.1', 'http://[::ffff:127.0.0.1]/hook'],
    ['IPv4-mapped, even of a public address', 'http://[::ffff:8.8.8.8]/hook'],
    ['Teredo 2001::/32', 'http://[2001::7f00:1]/hook'],
    ['multicast 224/4', 'http://224.0.0.1/hook'],
    ['multicast ff00::/8', 'http://[ff02::1]/hook'],
    ['broadcast', 'http://255.255.255.255/hook'],
    ['reserved 240/4', 'http://240.0.0.1/hook'],
    ['documentation 2001:db8::/32', 'http://[2001:db8::1]/hook'],
    ['decimal spelling of 127.0.0.1', 'http://2130706433/hook'],
    ['hex spelling of 127.0.0.1', 'http://0x7f000001/hook'],
    ['octal spelling of 127.0.0.1', 'http://0177.0.0.1/hook'],
    ['short spelling of 127.0.0.1', 'http://127.1/hook'],
  ])('refuses a subscription to %s (%s) with 400 naming the url host', async (_range, url) => {
    const res = await subscribe(url).expect(400);

    expect(res.body.detail).toMatch(/^url host \S+ is not a public unicast address \(.+\): webhooks may not reach it$/);
  });

  it.each([
    ['private', '10.1.2.3'],
    ['loopback', '127.0.0.1'],
    ['NAT64', '64:ff9b::a9fe:a9fe'],
    ['6to4', '2002:a00:1::1'],
    ['site-local', 'fec0::1'],
    ['IPv4-mapped', '::ffff:10.1.2.3'],
  ])('refuses a host name that resolves to a %s address, without naming the address', async (range, address) => {
    const host = `${range.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.hooks.test`;
    dns.answers.set(host, ['93.184.215.14', address]);

    const res = await subscribe(`https://${host}/hook`).expect(400);

    expect(res.body.detail).toContain(`url host ${host} resolves to an address that is not a public unicast address`);
    expect(res.body.detail).not.toContain(address);
  });

  it('refuses the same addresses when a subscription is updated to them', async () => {
    dns.answers.set('public.hooks.test', ['93.184.215.14']);
    const sub = (await subscribe('https://public.hooks.test/hook').expect(201)).body as { id: string };

    const res = await request(stack.registry.url)
      .patch(`/api/v1/webhooks/${sub.id}`)
      .set(auth())
      .send({ url: 'http://[64:ff9b::7f00:1]/hook' })
      .expect(400);

    expect(res.body.detail).toContain('NAT64');
  });

  it('accepts public unicast destinations: IPv4 and IPv6 literals, and a name resolving to public addresses only', async () => {
    dns.answers.set('good.hooks.test', ['93.184.215.14', '2606:4700:4700::1111']);

    for (const url of ['http://93.184.215.14/hook', 'http://[2606:4700:4700::1111]/hook', 'https://good.hooks.test/hook']) {
      expect((await subscribe(url).expect(201)).body).toMatchObject({ url, status: 'active' });
    }
  });

  it('refuses at delivery a name that resolved to a public address when saved and to loopback since (DNS rebinding): one failed attempt, no retry, nothing sent', async () => {
    const port = new URL(rig.receiver.url).port;
    dns.answers.set('rebind.hooks.test', ['93.184.215.14']);
    const sub = (await subscribe(`http://rebind.hooks.test:${port}/hook`, ['approval.requested']).expect(201)).body as { id: string };
    // The receiver listens on 127.0.0.1 at that port: a delivery that followed the new answer would reach it.
    dns.answers.set('rebind.hooks.test', ['127.0.0.1']);

    await rigApi(rig).requestApproval('rebinding');
    const [delivery] = await eventually('the delivery to end', async () => {
      const res = await request(stack.registry.url).get(`/api/v1/webhooks/${sub.id}/deliveries`).set(auth()).expect(200);
      const items = res.body.items as DeliveryLog[];
      return items.length && items[0].status !== 'pending' ? items : undefined;
    });

    expect(delivery).toMatchObject({
      status: 'failed',
      attempt_count: 1,
      last_error: expect.stringMatching(/^destination refused: url host rebind\.hooks\.test resolves to .*loopback/),
    });
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'failed', status_code: null, error: delivery.last_error }),
    ]);
    expect(rig.receiver.received).toEqual([]);
  });

  it('retries a name that does not resolve at delivery (a DNS outage is not a refusal)', async () => {
    dns.answers.set('flaky.hooks.test', ['93.184.215.14']);
    const sub = (await subscribe('http://flaky.hooks.test/hook', ['approval.requested']).expect(201)).body as { id: string };
    dns.answers.delete('flaky.hooks.test');

    await rigApi(rig).requestApproval('dns outage');
    const [delivery] = await eventually('a second attempt', async () => {
      const res = await request(stack.registry.url).get(`/api/v1/webhooks/${sub.id}/deliveries`).set(auth()).expect(200);
      const items = res.body.items as DeliveryLog[];
      return items.length && items[0].attempt_count >= 2 ? items : undefined;
    });

    expect(delivery.attempts[0]).toMatchObject({ outcome: 'failed', error: expect.stringContaining('does not resolve (ENOTFOUND)') });
    expect(delivery.status).not.toBe('succeeded');
  });
});

describe('deliveries bound to their tenant and subscription', () => {
  let stack: Stack;
  let rig: WebhookRig;

  beforeAll(async () => {
    stack = await startStack({ registry: { env: FAST_WEBHOOKS }, worker: true });
    rig = await webhookRig(stack);
  });
  afterAll(() => stack?.stop());

  it('does not follow a redirect: a 302 towards another address is a failed attempt, and nothing reaches the Location', async () => {
    // A receiver that sends every delivery elsewhere (with WEBHOOK_ALLOW_PRIVATE off, that elsewhere could be 169.254.169.254).
    const redirector = http.createServer((_req, res) => res.writeHead(302, { Location: `${rig.receiver.url}?redirected=1` }).end());
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const auth = { Authorization: `Bearer ${rig.adminKey}` };
    try {
      const url = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/hook`;
      const sub = (
        await request(stack.registry.url)
          .post(`/api/v1/scopes/${rig.scopeId}/webhooks`)
          .set(auth)
          .send({ url, events: ['approval.requested'] })
          .expect(201)
      ).body as { id: string };

      await rigApi(rig).requestApproval('redirected');
      const [delivery] = await eventually('a failed attempt', async () => {
        const items = (await request(stack.registry.url).get(`/api/v1/webhooks/${sub.id}/deliveries`).set(auth).expect(200)).body
          .items as DeliveryLog[];
        return items[0]?.attempts.some((a) => a.outcome === 'failed') ? items : undefined;
      });
      await rigApi(rig).unsubscribe(sub.id);

      expect(delivery.attempts[0]).toMatchObject({ attempt: 1, outcome: 'failed', status_code: 302 });
      expect(rig.receiver.received.filter((r) => r.path.includes('redirected'))).toEqual([]);
    } finally {
      redirector.closeAllConnections();
      await new Promise((resolve) => redirector.close(resolve));
    }
  });

  it('a delivery for subscription A, replayed to the receiver of subscription B (same or another tenant), or another tenant pointing its own subscription at A, is refused by the SDK helper although the signatures verify', async () => {
    const api = rigApi(rig);
    const auth = { Authorization: `Bearer ${rig.adminKey}` };
    const create = async (path: string) =>
      (
        await request(stack.registry.url)
          .post(`/api/v1/scopes/${rig.scopeId}/webhooks`)
          .set(auth)
          .send({ url: `${rig.receiver.url}?to=${path}`, events: ['approval.requested'] })
          .expect(201)
      ).body as { id: string; secret: string };
    const subA = await create('a');
    const subB = await create('b');
    const other = await createTenantWithAdmin(stack.registry, `wh-other-${Date.now().toString(36)}`);
    // Another tenant points a subscription of its own at the same receiver.
    const asOther = { Authorization: `Bearer ${other.admin.key}` };
    const subC = (
      await request(stack.registry.url)
        .post('/api/v1/webhooks')
        .set(asOther)
        .send({ url: `${rig.receiver.url}?to=c`, events: ['scope.created', 'approval.requested'] })
        .expect(201)
    ).body as { id: string };

    await api.requestApproval('bound delivery');
    const toA = await eventually('the delivery to A', () => rig.receiver.received.find((r) => r.path.endsWith('to=a')));
    const h = toA.headers as Record<string, string>;
    const key = await api.webhookKey();

    expect(toA.body).toMatchObject({ tenant_id: rig.tenantId, subscription_id: subA.id, type: 'approval.requested' });
    // The registry signs with @noble/curves; the SDK verifies with node:crypto. The HMAC is checked by the reference library.
    const ecdsa = (tenantId: string, subscriptionId: string) =>
      verifyWebhookSignature({
        body: toA.raw,
        timestamp: h['x-service-timestamp'],
        signature: h['x-service-signature'],
        key,
        keyId: h['x-service-key-id'],
        maxAgeSeconds: 300,
        tenantId,
        subscriptionId,
      });
    expect(new Webhook(subA.secret).verify(toA.raw, h)).toEqual(toA.body);
    expect(ecdsa(rig.tenantId, subA.id)).toMatchObject({ valid: true });

    const atB = ecdsa(rig.tenantId, subB.id);
    expect(atB.checks.find((c) => c.check === 'signature')?.status).toBe('pass');
    expect(atB.valid).toBe(false);
    expect(atB.checks.find((c) => c.check === 'subscription_id')).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('made for another subscription'),
    });
    const atC = ecdsa(other.tenant.id, subC.id);
    expect(atC.valid).toBe(false);
    expect(atC.checks.find((c) => c.check === 'tenant_id')).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('made for another tenant'),
    });

    // The other tenant's own delivery, sent to A's receiver by its subscription, is signed just as validly: the ids refuse it.
    await request(stack.registry.url).post('/api/v1/scopes').set(asOther).send({ name: 'noise' }).expect(201);
    const fromC = await eventually("the other tenant's delivery", () => rig.receiver.received.find((r) => r.path.endsWith('to=c')));
    const hc = fromC.headers as Record<string, string>;
    const atA = verifyWebhookSignature({
      body: fromC.raw,
      timestamp: hc['x-service-timestamp'],
      signature: hc['x-service-signature'],
      key,
      tenantId: rig.tenantId,
      subscriptionId: subA.id,
    });
    expect(atA.checks.find((c) => c.check === 'signature')?.status).toBe('pass');
    expect(atA.valid).toBe(false);
    expect(atA.checks.filter((c) => c.status === 'fail').map((c) => c.check)).toEqual(['tenant_id', 'subscription_id']);
    // And the fan-out never crossed tenants: the other tenant's subscription (approval.requested included) got only its own events.
    expect(rig.receiver.received.filter((r) => r.path.endsWith('to=c')).map((r) => [r.body.type, r.body.tenant_id])).toEqual([
      ['scope.created', other.tenant.id],
    ]);

    // Standard Webhooks: B's secret does not verify A's delivery at all; A's does, and the ids still say for whom.
    const hmac = (secret: string, subscriptionId: string) =>
      verifyStandardWebhook({
        body: toA.raw,
        id: h['webhook-id'],
        timestamp: h['webhook-timestamp'],
        signature: h['webhook-signature'],
        secret,
        tenantId: rig.tenantId,
        subscriptionId,
      });
    expect(hmac(subA.secret, subA.id).valid).toBe(true);
    expect(hmac(subB.secret, subB.id).checks.find((c) => c.check === 'signature')?.status).toBe('fail');
    expect(hmac(subA.secret, subB.id).checks.find((c) => c.check === 'subscription_id')?.status).toBe('fail');
  });
});
