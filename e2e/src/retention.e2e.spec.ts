import request from 'supertest';
import { eventually } from '@arbiter/testing';
import { createVerdictTenant, verdictApi, type VerdictTenant } from './verdict-harness';
import { startStack, type Stack } from './stack';

/** settings.retention (docs/operations.md "Retention"): bounded by RETENTION_MIN and RETENTION_MAX, and what keep_until says. */
describe('tenant retention settings', () => {
  let stack: Stack;
  let t: VerdictTenant;

  beforeAll(async () => {
    stack = await startStack({ verdict: true, registry: { env: { RETENTION_MIN: '1m', RETENTION_MAX: '10d' } } });
    t = await createVerdictTenant(stack, 'retention');
  });
  afterAll(() => stack.stop());

  const patch = (settings: object) =>
    request(stack.registry.url).patch(`/api/v1/tenants/${t.id}`).set('Authorization', `Bearer ${t.adminKey}`).send({ settings });
  const stored = async () =>
    (await request(stack.registry.url).get(`/api/v1/tenants/${t.id}`).set('Authorization', `Bearer ${t.adminKey}`).expect(200)).body
      .settings;

  it('accepts each bound itself', async () => {
    await patch({ retention: { consultations: '1m', deliveries: '10d', events: '60s' } }).expect(200);
    expect((await stored()).retention).toEqual({ consultations: '1m', deliveries: '10d', events: '60s' });
  });

  it.each([
    ['consultations', '59s', 'body.settings.retention.consultations: 59s is below RETENTION_MIN (1m)'],
    ['deliveries', '11d', 'body.settings.retention.deliveries: 11d is above RETENTION_MAX (10d)'],
    ['events', '241h', 'body.settings.retention.events: 241h is above RETENTION_MAX (10d)'],
  ])('refuses %s %s with 422 naming the bound, and stores nothing', async (kind, value, detail) => {
    const before = await stored();
    const res = await patch({ retention: { [kind]: value } }).expect(422);
    expect(res.body).toEqual({ detail });
    expect(await stored()).toEqual(before);
  });

  it.each([[{ consultations: '1w' }], [{ consultations: '1.5d' }], [{ consultations: 90 }], [{ weeks: '1d' }], ['90d']])(
    'refuses a malformed retention %j with 400',
    async (retention) => {
      const before = await stored();
      const res = await patch({ retention }).expect(400);
      expect(typeof res.body.detail).toBe('string');
      expect(await stored()).toEqual(before);
    },
  );

  it('refuses an out-of-bounds retention when the tenant is created, too', async () => {
    const res = await request(stack.registry.url)
      .post('/api/v1/tenants')
      .set('Authorization', `Bearer ${stack.registry.adminKey}`)
      .send({ slug: 'retention-new', name: 'r', settings: { retention: { events: '30s' } } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe('body.settings.retention.events: 30s is below RETENTION_MIN (1m)');
  });

  it("stores each consultation with keep_until = requested_at + the tenant's retention when it was written", async () => {
    const db = stack.db('verdict');
    const check = () => verdictApi(stack, t.agent.key, t.id).check({ action: 'files.read', resource: 'f', scope: {} }).expect(200);
    const keptFor = async (id: string) => {
      const { rows } = await db.query<{ ms: string }>(
        `SELECT (extract(epoch FROM keep_until - requested_at) * 1000)::bigint::text AS ms FROM consultations WHERE id = $1`,
        [id],
      );
      return Number(rows[0].ms);
    };
    await patch({ retention: { consultations: '2m' } }).expect(200);
    await eventually('a consultation kept 2 minutes', async () => (await keptFor((await check()).body.consultation_id)) === 120_000);
    await patch({}).expect(200);
    await eventually(
      'a consultation kept the default 90 days',
      async () => (await keptFor((await check()).body.consultation_id)) === 90 * 86_400_000,
    );
  });
});
