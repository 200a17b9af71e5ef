import request from 'supertest';
import { eventually } from '@arbiter/testing';
import { createPrincipalWithKey, createTenantWithAdmin, type TenantFixture } from '../../apps/registry/test/harness';
import { startStack, type Stack } from './stack';

/** A key made in the registry works on all three services, and stops working everywhere when revoked (docs/identity.md "Authentication on each service"). */
describe('identity across services', () => {
  let stack: Stack;
  let a: TenantFixture;
  let b: TenantFixture;

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true });
    a = await createTenantWithAdmin(stack.registry, 'tenant-a');
    b = await createTenantWithAdmin(stack.registry, 'tenant-b');
  });
  afterAll(() => stack.stop());

  const onRegistry = (key: string) => request(stack.registry.url).get('/api/v1/tenants').set('Authorization', `Bearer ${key}`);
  const onVerdict = (key?: string) => {
    const r = request(stack.verdict.url).get('/v1/whoami');
    return key ? r.set('X-API-Key', key) : r;
  };
  const onLedger = (key?: string) => {
    const r = request(stack.ledger.url).get('/v1/whoami');
    return key ? r.set('X-API-Key', key) : r;
  };

  it('accepts a key made in the registry on all three services', async () => {
    const p = await createPrincipalWithKey(stack.registry, a.admin.key, { permissions: ['read', 'check', 'seal'] });
    await onRegistry(p.key).expect(200);
    const verdict = await onVerdict(p.key).expect(200);
    expect(verdict.body).toMatchObject({ tenant_id: a.tenant.id, tenant_slug: 'tenant-a', principal: { id: p.principalId, active: true } });
    const ledger = await onLedger(p.key).expect(200);
    expect(ledger.body.principal.id).toBe(p.principalId);
  });

  it('stops a revoked key on all three services at once, despite the 30 s cache', async () => {
    const p = await createPrincipalWithKey(stack.registry, a.admin.key, { permissions: ['read'] });
    await onVerdict(p.key).expect(200);
    await onLedger(p.key).expect(200);
    await request(stack.registry.url).delete(`/api/v1/api-keys/${p.keyId}`).set('Authorization', `Bearer ${a.admin.key}`).expect(200);
    await onRegistry(p.key).expect(401);
    // Pub/sub delivery is asynchronous: the revocation arrives within moments, long before the cache would expire.
    await eventually(
      'the revocation on the verdict gateway and the ledger',
      async () => {
        const v = await onVerdict(p.key);
        expect(v.status).toBe(401);
        expect(v.body.code).toBe('invalid_credentials');
        const l = await onLedger(p.key);
        expect(l.status).toBe(401);
        expect(l.body).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String) });
        return true;
      },
      { timeoutMs: 5_000 },
    );
  });

  it('answers 403 principal_deactivated on verdict for a deactivated principal', async () => {
    const p = await createPrincipalWithKey(stack.registry, a.admin.key, { permissions: ['check'] });
    await onVerdict(p.key).expect(200);
    await request(stack.registry.url)
      .patch(`/api/v1/principals/${p.principalId}`)
      .set('Authorization', `Bearer ${a.admin.key}`)
      .send({ active: false })
      .expect(200);
    await eventually(
      'the deactivation on the verdict gateway',
      async () => {
        const res = await onVerdict(p.key);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ code: 'principal_deactivated', message: 'The caller principal is deactivated' });
        return true;
      },
      { timeoutMs: 5_000 },
    );
    const ledger = await onLedger(p.key).expect(403);
    expect(ledger.body.code).toBe('FORBIDDEN');
  });

  it('answers 401 missing_credentials on verdict and UNAUTHORIZED on ledger without a key', async () => {
    const v = await onVerdict().expect(401);
    expect(v.body.code).toBe('missing_credentials');
    const l = await onLedger().expect(401);
    expect(l.body.code).toBe('UNAUTHORIZED');
  });

  it('never lets a key of tenant A read tenant B', async () => {
    const p = await createPrincipalWithKey(stack.registry, a.admin.key, { permissions: ['admin'] });
    await request(stack.registry.url).get(`/api/v1/tenants/${b.tenant.id}`).set('Authorization', `Bearer ${p.key}`).expect(404);
    await request(stack.registry.url).get(`/api/v1/principals/${b.admin.principalId}`).set('Authorization', `Bearer ${p.key}`).expect(404);
    const keys = await request(stack.registry.url).get('/api/v1/api-keys').set('Authorization', `Bearer ${p.key}`).expect(200);
    expect(keys.body.items.every((k: { tenant_id: string }) => k.tenant_id === a.tenant.id)).toBe(true);
    const principals = await request(stack.registry.url)
      .get(`/api/v1/principals?tenant_id=${b.tenant.id}`)
      .set('Authorization', `Bearer ${p.key}`)
      .expect(403);
    expect(principals.body.detail).toMatch(/platform admin/);
    const who = await onVerdict(p.key).expect(200);
    expect(who.body.tenant_id).toBe(a.tenant.id);
  });

  it('keeps internal endpoints closed to tenant keys on every service', async () => {
    await request(stack.registry.url)
      .post('/internal/v1/introspect')
      .set('Authorization', `Bearer ${a.admin.key}`)
      .send({ key_hash: 'x' })
      .expect(401);
  });
});
