import request from 'supertest';
import { createTenantWithAdmin, startTestRegistry, TEST_INTERNAL_TOKEN, type RegistryHarness } from './harness';

/**
 * `settings.sensitive_fields` and `settings.data_subject_field` (docs/identity.md "Sensitive fields"): well-formed
 * dot paths are kept and served to the gateway; a malformed one is 400 naming the path, and nothing is stored.
 */
describe('sensitive field settings', () => {
  let h: RegistryHarness;
  beforeAll(async () => {
    h = await startTestRegistry();
  });
  afterAll(() => h.stop());

  const slug = () => `sens-${Math.random().toString(16).slice(2, 10)}`;
  const create = (settings: object) => {
    const s = slug();
    return request(h.url).post('/api/v1/tenants').set('Authorization', `Bearer ${h.adminKey}`).send({ name: s, slug: s, settings });
  };

  it('keeps parameters and context paths and a subject field, and serves them in the internal state', async () => {
    const settings = {
      sensitive_fields: ['parameters.card.number', 'context.email', 'parameters.customer_id'],
      data_subject_field: 'parameters.customer_id',
    };
    const res = await create(settings);
    expect(res.status).toBe(201);
    expect(res.body.settings).toMatchObject(settings);
    const state = await request(h.url)
      .get(`/internal/v1/tenants/${res.body.id}/state`)
      .set('X-Internal-Token', TEST_INTERNAL_TOKEN)
      .expect(200);
    expect(state.body.settings).toMatchObject(settings);
  });

  it.each([
    [
      'a path without a prefix',
      { sensitive_fields: ['card'] },
      /body\.settings\.sensitive_fields\.0: "card" must start with parameters\. or context\./,
    ],
    [
      'an empty segment',
      { sensitive_fields: ['parameters.ok', 'parameters.a..b'] },
      /body\.settings\.sensitive_fields\.1: .*empty segment/,
    ],
    ['a duplicate', { sensitive_fields: ['context.email', 'context.email'] }, /body\.settings\.sensitive_fields\.1: .*listed twice/],
    ['a malformed subject field', { data_subject_field: 'customer_id' }, /body\.settings\.data_subject_field: /],
    [
      'a subject field outside the sensitive fields',
      { sensitive_fields: ['parameters.card.number'], data_subject_field: 'parameters.customer_id' },
      /body\.settings\.data_subject_field: "parameters\.customer_id" must be one of sensitive_fields/,
    ],
    ['a subject field without sensitive fields', { data_subject_field: 'parameters.customer_id' }, /body\.settings\.data_subject_field: /],
    ['more than 50 paths', { sensitive_fields: Array.from({ length: 51 }, (_, i) => `parameters.f${i}`) }, /sensitive_fields/],
  ])('refuses %s with 400 naming it, on create and on PATCH, storing nothing', async (_what, settings, detail) => {
    const res = await create(settings);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(detail);
    const t = await createTenantWithAdmin(h, slug());
    const auth = { Authorization: `Bearer ${t.admin.key}` };
    const patched = await request(h.url).patch(`/api/v1/tenants/${t.tenant.id}`).set(auth).send({ settings });
    expect(patched.status).toBe(400);
    expect(patched.body.detail).toMatch(detail);
    const after = await request(h.url).get(`/api/v1/tenants/${t.tenant.id}`).set(auth).expect(200);
    expect(after.body.settings.sensitive_fields).toBeUndefined();
    expect(after.body.settings.data_subject_field).toBeUndefined();
  });
});
