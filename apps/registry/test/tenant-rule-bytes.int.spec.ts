// docs/registry.md "Limits": a tenant's active rules hold at most TENANT_RULES_MAX_BYTES together (current versions as
// JSON). Every verdict gateway compiles them all on each change, on the event loop serving every tenant: a key that
// may write rules in one scope must not be able to make that take seconds.
import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness } from './harness';
import { api, createScope, sql, type Api } from './fixtures';

const MAX = 200_000;

describe('the bytes a tenant’s rules may hold together', () => {
  let h: RegistryHarness;
  let rules: Api;
  let scopeId: string;
  let otherRules: Api;
  let otherScope: string;
  let tenantId: string;
  const big = (i: number) => ({
    directive: `big ${i}`,
    severity: 'MANDATORY',
    conditions: [{ field: 'note', op: 'eq', value: 'x'.repeat(60_000) }],
  });
  const active = async () =>
    Number((await sql<{ n: string }>(h, `SELECT count(*) AS n FROM rules WHERE tenant_id = $1 AND status = 'active'`, [tenantId]))[0].n);

  beforeAll(async () => {
    h = await startTestRegistry({ TENANT_RULES_MAX_BYTES: String(MAX) });
    const t = await createTenantWithAdmin(h, 'bytes');
    tenantId = t.tenant.id;
    const scope = await createScope(api(h, t.admin.key), 'one', {});
    scopeId = scope.id;
    // A key that may write and read rules in one scope and nothing else.
    rules = api(h, (await createPrincipalWithKey(h, t.admin.key, { permissions: ['manage_rules', 'read'], scope_ids: [scopeId] })).key);
    const o = await createTenantWithAdmin(h, 'bytes-other');
    otherScope = (await createScope(api(h, o.admin.key), 'one', {})).id;
    otherRules = api(h, o.admin.key);
  });
  afterAll(() => h.stop());

  it('refuses a rule that takes the tenant past the bound (422, nothing stored), a PUT too; archiving makes room; other tenants are not concerned', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await rules.post(`/api/v1/scopes/${scopeId}/rules`, big(i)).expect(201)).body.id);
    const refused = await rules.post(`/api/v1/scopes/${scopeId}/rules`, big(3)).expect(422);
    expect(refused.body.detail).toMatch(
      new RegExp(`^The tenant's active rules would hold \\d+ bytes, more than the ${MAX} .*TENANT_RULES_MAX_BYTES`),
    );
    expect(await active()).toBe(3);
    // Growing a rule past the bound: refused, its version unchanged.
    const small = (await rules.post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'small', severity: 'MANDATORY' }).expect(201)).body;
    const grown = await rules.put(`/api/v1/scopes/${scopeId}/rules/${small.id}`, big(4)).expect(422);
    expect(grown.body.detail).toMatch(/TENANT_RULES_MAX_BYTES/);
    expect((await rules.get(`/api/v1/scopes/${scopeId}/rules/${small.id}`).expect(200)).body).toMatchObject({
      directive: 'small',
      current_version_id: small.current_version_id,
    });
    // Archiving always goes through, and makes room.
    await rules.patch(`/api/v1/scopes/${scopeId}/rules/${ids[0]}/archive`, {}).expect(200);
    await rules.post(`/api/v1/scopes/${scopeId}/rules`, big(5)).expect(201);
    // Another tenant has its own bound.
    for (let i = 0; i < 3; i++) await otherRules.post(`/api/v1/scopes/${otherScope}/rules`, big(i)).expect(201);
  });
});
