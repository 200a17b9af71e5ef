import request from 'supertest';
import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness } from './harness';

const hooks = (...chat: object[]) => ({ approval_notifications: { chat_webhooks: chat } });

/** A scope with one trigger (a rule or an invariant) made by the tenant's admin, and an approval an agent requests against it. */
async function requestApproval(
  h: RegistryHarness,
  adminKey: string,
  kind: 'rules' | 'invariants',
  trigger: object,
): Promise<{ scope: string; approval: { id: string; candidate_deciders: string[] } }> {
  const auth = { Authorization: `Bearer ${adminKey}` };
  const scope = (await request(h.url).post('/api/v1/scopes').set(auth).send({ name: 'main' }).expect(201)).body.id;
  const triggerId = (await request(h.url).post(`/api/v1/scopes/${scope}/${kind}`).set(auth).send(trigger).expect(201)).body.id;
  const requester = await createPrincipalWithKey(h, adminKey, { permissions: ['write', 'read'] });
  const approval = (
    await request(h.url)
      .post(`/api/v1/scopes/${scope}/approvals`)
      .set('Authorization', `Bearer ${requester.key}`)
      .send({ trigger_id: triggerId, intended_action: 'act' })
      .expect(201)
  ).body;
  return { scope, approval };
}

/**
 * `settings.approval_notifications.chat_webhooks` (docs/registry.md "Resources and endpoints") is checked as webhook
 * destinations are (docs/webhooks.md "Destinations"); without SMTP_URL no email notification is written
 * (docs/approvals.md "Notifications").
 */
describe('approval notification settings', () => {
  describe('on a registry that refuses private destinations, without SMTP_URL', () => {
    let h: RegistryHarness;
    beforeAll(async () => {
      h = await startTestRegistry({ WEBHOOK_ALLOW_PRIVATE: 'false' });
    });
    afterAll(() => h.stop());

    const create = (slug: string, settings: object) =>
      request(h.url).post('/api/v1/tenants').set('Authorization', `Bearer ${h.adminKey}`).send({ name: slug, slug, settings });

    it('keeps chat webhooks with a public address', async () => {
      const res = await create(
        'chat-ok',
        hooks({ url: 'https://93.184.215.14/hooks/abc', format: 'slack' }, { url: 'https://93.184.215.14/t', format: 'teams' }),
      );
      expect(res.status).toBe(201);
      expect(res.body.settings.approval_notifications.chat_webhooks).toHaveLength(2);
    });

    it.each([
      ['an unknown format', { url: 'https://93.184.215.14/h', format: 'discord' }, /chat_webhooks.*format/, 400],
      ['a missing url (422, as every missing field)', { format: 'slack' }, /chat_webhooks.*url/, 422],
      [
        'a scheme other than http(s)',
        { url: 'ftp://93.184.215.14/h', format: 'slack' },
        /chat_webhooks\.0\.url: url must use http or https/,
        400,
      ],
      [
        'credentials in the url',
        { url: 'https://u:p@93.184.215.14/h', format: 'teams' },
        /chat_webhooks\.0\.url: url must not carry credentials/,
        400,
      ],
      ['a loopback address', { url: 'http://127.0.0.1:8080/h', format: 'slack' }, /chat_webhooks\.0\.url: .*loopback/, 400],
      ['a cloud metadata address', { url: 'http://169.254.169.254/latest', format: 'teams' }, /chat_webhooks\.0\.url: .*link-local/, 400],
    ])('refuses %s naming the field, on create and on PATCH', async (_what, hook, detail, status) => {
      const res = await create(`chat-bad-${Math.random().toString(16).slice(2, 8)}`, hooks(hook));
      expect(res.status).toBe(status);
      expect(res.body.detail).toMatch(detail);
      const t = await createTenantWithAdmin(h, `chat-patch-${Math.random().toString(16).slice(2, 8)}`);
      const patched = await request(h.url)
        .patch(`/api/v1/tenants/${t.tenant.id}`)
        .set('Authorization', `Bearer ${t.admin.key}`)
        .send({ settings: hooks(hook) });
      expect(patched.status).toBe(status);
      expect(patched.body.detail).toMatch(detail);
    });

    it('shows a chat webhook URL (a bearer secret) only to admins; other keys of the tenant see its origin', async () => {
      const url = 'https://93.184.215.14/services/T000/B000/secret-token';
      const t = await createTenantWithAdmin(h, 'chat-mask', hooks({ url, format: 'slack' }));
      const reader = await createPrincipalWithKey(h, t.admin.key, { kind: 'agent', permissions: ['read', 'check'] });
      const get = (key: string) => request(h.url).get(`/api/v1/tenants/${t.tenant.id}`).set('Authorization', `Bearer ${key}`).expect(200);
      const list = (key: string) => request(h.url).get('/api/v1/tenants').set('Authorization', `Bearer ${key}`).expect(200);
      expect((await get(t.admin.key)).body.settings.approval_notifications.chat_webhooks).toEqual([{ url, format: 'slack' }]);
      for (const res of [await get(reader.key), await list(reader.key)]) {
        const text = JSON.stringify(res.body);
        expect(text).not.toContain('secret-token');
        expect(text).toContain('"url":"https://93.184.215.14/…"');
      }
    });

    it('writes chat notifications but no email row when SMTP_URL is unset', async () => {
      const t = await createTenantWithAdmin(h, 'no-smtp', hooks({ url: 'https://93.184.215.14/hooks/abc', format: 'slack' }));
      const auth = { Authorization: `Bearer ${t.admin.key}` };
      await request(h.url)
        .post('/api/v1/principals')
        .set(auth)
        .send({ kind: 'human', name: 'fin', roles: ['role-fin'], email: 'fin@example.test' })
        .expect(201);
      const { approval } = await requestApproval(h, t.admin.key, 'rules', {
        directive: 'Finance decides',
        severity: 'REQUIRES_APPROVAL',
        deciders: ['role-fin'],
      });
      const rows = await h.registry.ctx.prisma.approvalNotification.findMany({ where: { approval_id: approval.id } });
      expect(rows.map((r) => [r.reason, r.channel, r.recipient, r.status])).toEqual([
        ['requested', 'slack', 'https://93.184.215.14/hooks/abc', 'pending'],
      ]);
    });
  });

  describe('on a registry that allows private destinations (tests, the embedded default)', () => {
    let h: RegistryHarness;
    beforeAll(async () => {
      h = await startTestRegistry({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    });
    afterAll(() => h.stop());

    it('keeps a loopback receiver', async () => {
      const res = await request(h.url)
        .post('/api/v1/tenants')
        .set('Authorization', `Bearer ${h.adminKey}`)
        .send({ name: 'loop', slug: 'loop', settings: hooks({ url: 'http://127.0.0.1:9/hook', format: 'teams' }) });
      expect(res.status).toBe(201);
    });
  });

  describe('routing, with SMTP_URL set (rows written, no worker sending them)', () => {
    let h: RegistryHarness;
    beforeAll(async () => {
      h = await startTestRegistry({ SMTP_URL: 'smtp://127.0.0.1:9' });
    });
    afterAll(() => h.stop());

    it('mails everyone who may decide an approval that names no deciders: human, active, with an email and approve or admin in a live key or its console permissions', async () => {
      const t = await createTenantWithAdmin(h, 'anyone');
      const auth = { Authorization: `Bearer ${t.admin.key}` };
      const human = async (name: string, permissions: string[] | null, extra: object = {}) => {
        const p = (
          await request(h.url)
            .post('/api/v1/principals')
            .set(auth)
            .send({ kind: 'human', name, email: `${name}@example.test`, ...extra })
            .expect(201)
        ).body;
        if (permissions) await request(h.url).post('/api/v1/api-keys').set(auth).send({ principal_id: p.id, permissions }).expect(201);
        return p.id as string;
      };
      await human('approver', ['approve']);
      await human('admin', ['admin']);
      await human('reader', ['read']);
      await human('keyless', null);
      await human('console', null, { console_permissions: ['read', 'approve'] });
      await human('console-reader', null, { console_permissions: ['read'] });
      const gone = await human('gone', ['approve']);
      await request(h.url).patch(`/api/v1/principals/${gone}`).set(auth).send({ active: false }).expect(200);
      const revoked = await human('revoked', null);
      const key = (
        await request(h.url)
          .post('/api/v1/api-keys')
          .set(auth)
          .send({ principal_id: revoked, permissions: ['approve'] })
          .expect(201)
      ).body;
      await request(h.url).delete(`/api/v1/api-keys/${key.id}`).set(auth).expect(200);
      const { scope, approval } = await requestApproval(h, t.admin.key, 'invariants', {
        constraint: 'No Friday deploys',
        requires_approval: true,
      });
      expect(approval.candidate_deciders).toEqual([]);
      const rows = await h.registry.ctx.prisma.approvalNotification.findMany({
        where: { approval_id: approval.id },
        orderBy: { recipient: 'asc' },
      });
      expect(rows.map((r) => [r.channel, r.recipient, r.reason, r.flow, r.scope_id])).toEqual([
        ['email', 'admin@example.test', 'requested', 'registry', scope],
        ['email', 'approver@example.test', 'requested', 'registry', scope],
        ['email', 'console@example.test', 'requested', 'registry', scope],
      ]);
    });
  });
});
