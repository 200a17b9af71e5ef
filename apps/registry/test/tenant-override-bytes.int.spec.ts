// docs/registry.md "Overrides": a tenant's effective overrides hold at most TENANT_OVERRIDES_MAX_BYTES together (rows as
// JSON). Every verdict gateway compiles each one's conditions on each change, on the event loop serving every tenant: a
// key that may manage invariants in one scope must not be able to make that as slow as it likes.
import request from 'supertest';
import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, TEST_INTERNAL_TOKEN, type RegistryHarness } from './harness';
import { api, createScope, sql, type Api } from './fixtures';

const MAX = 100_000;

describe('the bytes a tenant’s overrides may hold together', () => {
  let h: RegistryHarness;
  let keeper: Api;
  let scopeId: string;
  let ruleId: string;
  let tenantId: string;
  let other: Api;
  let otherScope: string;
  let otherRule: string;
  // About 20 KB of conditions each: four fit under MAX, a fifth does not.
  const big = (target: string, i: number) => ({
    target_id: target,
    override_type: 'conditional',
    justification: `big ${i}`,
    conditions: `note == "${'x'.repeat(19_950)}${i}"`,
  });
  const effective = async () =>
    Number(
      (
        await sql<{ n: string }>(
          h,
          `SELECT count(*) AS n FROM overrides WHERE tenant_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
          [tenantId],
        )
      )[0].n,
    );
  const grant = (target: string) =>
    request(h.url)
      .post(`/internal/v1/tenants/${tenantId}/overrides`)
      .set('X-Internal-Token', TEST_INTERNAL_TOKEN)
      .send({ target_ids: [target], applies_to_scope: { region: 'eu' }, expires_at: new Date(Date.now() + 3_600_000).toISOString() });

  beforeAll(async () => {
    h = await startTestRegistry({ TENANT_OVERRIDES_MAX_BYTES: String(MAX) });
    const t = await createTenantWithAdmin(h, 'ovr-bytes');
    tenantId = t.tenant.id;
    const admin = api(h, t.admin.key);
    scopeId = (await createScope(admin, 'one', {})).id;
    ruleId = (await admin.post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'hold', severity: 'MANDATORY' }).expect(201)).body.id;
    // A key that may manage invariants (and so make overrides) in one scope, and nothing else.
    keeper = api(
      h,
      (await createPrincipalWithKey(h, t.admin.key, { permissions: ['manage_invariants', 'read'], scope_ids: [scopeId] })).key,
    );
    const o = await createTenantWithAdmin(h, 'ovr-bytes-other');
    other = api(h, o.admin.key);
    otherScope = (await createScope(other, 'one', {})).id;
    otherRule = (await other.post(`/api/v1/scopes/${otherScope}/rules`, { directive: 'hold', severity: 'MANDATORY' }).expect(201)).body.id;
  });
  afterAll(() => h.stop());

  it('refuses an override that takes the tenant past the bound (422, nothing stored); revoking and expiry make room; other tenants are not concerned', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await keeper.post(`/api/v1/scopes/${scopeId}/overrides`, big(ruleId, i)).expect(201)).body.id);
    const refused = await keeper.post(`/api/v1/scopes/${scopeId}/overrides`, big(ruleId, 4)).expect(422);
    expect(refused.body.detail).toMatch(
      new RegExp(`^The tenant's effective overrides would hold \\d+ bytes, more than the ${MAX} .*TENANT_OVERRIDES_MAX_BYTES`),
    );
    expect(await effective()).toBe(4);
    // A small one does not fit either while the tenant is over what is left.
    const small = { target_id: ruleId, override_type: 'permanent', justification: 'small' };
    await keeper.post(`/api/v1/scopes/${scopeId}/overrides`, { ...small, conditions: `note == "${'y'.repeat(19_000)}"` }).expect(422);

    // Revoking always goes through and makes room.
    await keeper.delete(`/api/v1/scopes/${scopeId}/overrides/${ids[0]}`).expect(200);
    const fifth = (await keeper.post(`/api/v1/scopes/${scopeId}/overrides`, big(ruleId, 5)).expect(201)).body.id;
    await keeper.post(`/api/v1/scopes/${scopeId}/overrides`, big(ruleId, 6)).expect(422);
    // An expired override is not in the gateways' state and does not count.
    await sql(h, `UPDATE overrides SET expires_at = now() - interval '1 minute' WHERE id = $1`, [fifth]);
    await keeper.post(`/api/v1/scopes/${scopeId}/overrides`, big(ruleId, 7)).expect(201);
    expect(await effective()).toBe(4);

    // Another tenant has its own bound.
    for (let i = 0; i < 4; i++) await other.post(`/api/v1/scopes/${otherScope}/overrides`, big(otherRule, i)).expect(201);
  });

  it('counts approval grants but never refuses one: a decided approval is not undone by the bound', async () => {
    const before = await effective();
    const res = await grant(ruleId).expect(201);
    expect(res.body.override_type).toBe('approval_grant');
    expect(await effective()).toBe(before + 1);
    // The tenant is still at its bound for overrides made through the API.
    await keeper.post(`/api/v1/scopes/${scopeId}/overrides`, big(ruleId, 8)).expect(422);
  });
});
