import request from 'supertest';
import { createTenantWithAdmin, startTestRegistry, type RegistryHarness, type TenantFixture } from './harness';

/** A human principal's optional email address (docs/identity.md "Resources"), where approval notifications go. */
describe('principal email', () => {
  let h: RegistryHarness;
  let t: TenantFixture;

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'mail-tenant');
  });
  afterAll(() => h.stop());

  const post = (body: object) => request(h.url).post('/api/v1/principals').set('Authorization', `Bearer ${t.admin.key}`).send(body);
  const patch = (id: string, body: object) =>
    request(h.url).patch(`/api/v1/principals/${id}`).set('Authorization', `Bearer ${t.admin.key}`).send(body);

  it('keeps a human principal’s email on create, changes and removes it on PATCH', async () => {
    const made = await post({ kind: 'human', name: 'ada', email: 'ada@example.com' }).expect(201);
    expect(made.body.email).toBe('ada@example.com');
    const got = await request(h.url).get(`/api/v1/principals/${made.body.id}`).set('Authorization', `Bearer ${t.admin.key}`).expect(200);
    expect(got.body.email).toBe('ada@example.com');
    expect((await patch(made.body.id, { email: 'ada.l@example.org' }).expect(200)).body.email).toBe('ada.l@example.org');
    expect((await patch(made.body.id, { name: 'ada lovelace' }).expect(200)).body.email).toBe('ada.l@example.org');
    expect((await patch(made.body.id, { email: null }).expect(200)).body.email).toBeNull();
  });

  it('answers email null for a principal without one', async () => {
    const made = await post({ kind: 'human', name: 'bob' }).expect(201);
    expect(made.body.email).toBeNull();
  });

  it('refuses an email on an agent, on create and on PATCH', async () => {
    const refused = await post({ kind: 'agent', name: 'bot', email: 'bot@example.com' }).expect(400);
    expect(refused.body.detail).toMatch(/body\.email: only human principals/);
    const agent = await post({ kind: 'agent', name: 'bot' }).expect(201);
    expect((await patch(agent.body.id, { email: 'bot@example.com' }).expect(400)).body.detail).toMatch(/only human principals/);
    // Removing what an agent does not have is harmless.
    await patch(agent.body.id, { email: null }).expect(200);
  });

  it.each(['not-an-address', 'ada@example.com\r\nBcc: eve@evil.example', 'Ada <ada@example.com>', 'a@b@example.com', 'ada@localhost'])(
    'refuses the address %j naming the field',
    async (email) => {
      const res = await post({ kind: 'human', name: 'x', email }).expect(400);
      expect(res.body.detail).toMatch(/email/);
      const human = await post({ kind: 'human', name: 'y' }).expect(201);
      expect((await patch(human.body.id, { email }).expect(400)).body.detail).toMatch(/email/);
    },
  );
});
