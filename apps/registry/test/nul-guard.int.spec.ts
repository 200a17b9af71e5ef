import request from 'supertest';
import { rejectNulCharacters } from '../src/http/nul-guard';
import { createTenantWithAdmin, startTestRegistry, TEST_INTERNAL_TOKEN, type RegistryHarness, type TenantFixture } from './harness';
import { api, createScope, sql, type Api } from './fixtures';

/** The JSON text of `{"a": {"a": … {"a": leaf}}}`, `depth` objects deep (JSON.stringify recurses: too deep for it). */
function nestedJson(depth: number, leaf: string): string {
  return `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;
}

/** `{a: {a: … {a: leaf}}}`, `depth` objects deep. */
function nested(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

/**
 * U+0000 and lone surrogates (docs/registry.md "Limits"): PostgreSQL cannot store them, so every string
 * of a body (key or value, at any depth), the path and the query are refused with a 400 `{detail}`
 * naming the field, on /api/v1 and /internal/v1 alike, before anything reaches the database. The
 * registry's own cases; the guard's answers on every service: e2e/src/storable-json.e2e.spec.ts.
 */
describe(rejectNulCharacters.name, () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;
  let scopeId: string;
  const internal = () => ({
    get: (path: string) => request(h.url).get(`/internal/v1${path}`).set('X-Internal-Token', TEST_INTERNAL_TOKEN),
    post: (path: string, body: object) =>
      request(h.url).post(`/internal/v1${path}`).set('X-Internal-Token', TEST_INTERNAL_TOKEN).send(body),
  });
  const rule = (value: unknown) => ({
    directive: 'Big transfers',
    severity: 'MANDATORY',
    conditions: [{ field: 'amount', op: 'contains', value }],
  });
  const ruleCount = async () => Number((await sql<{ n: string }>(h, 'SELECT count(*) AS n FROM rules'))[0].n);

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'nul');
    admin = api(h, t.admin.key);
    scopeId = (await createScope(admin, 'main')).id;
  });
  afterAll(() => h.stop());

  it('refuses a NUL value at depth 60 naming its field, and stores nothing; at depth 1000 the nesting is refused first', async () => {
    const before = await ruleCount();

    const res = await admin.post(`/api/v1/scopes/${scopeId}/rules`, rule(nested(60, 'x\u0000y'))).expect(400);
    const deeper = await admin.post(`/api/v1/scopes/${scopeId}/rules`, rule(nested(1000, 'x\u0000y'))).expect(400);

    expect(res.body).toEqual({ detail: `body.conditions[0].value${'.a'.repeat(60)} contains U+0000 (NUL), which cannot be stored` });
    expect(deeper.body).toEqual({ detail: `body.conditions[0].value${'.a'.repeat(61)} is nested more than 64 levels deep` });
    expect(await ruleCount()).toBe(before);
  });

  it('refuses a key at depth naming the member', async () => {
    const res = await admin.post(`/api/v1/scopes/${scopeId}/rules`, rule({ deep: [{ 'ke\u0000y': 1 }] })).expect(400);

    expect(res.body).toEqual({
      detail: 'The member name body.conditions[0].value.deep[0]["ke\\u0000y"] contains U+0000 (NUL), which cannot be stored',
    });
  });

  it('refuses a lone surrogate as it refuses U+0000', async () => {
    const res = await admin.post(`/api/v1/scopes/${scopeId}/decisions`, { decision: 'd\ud800' }).expect(400);

    expect(res.body).toEqual({ detail: 'body.decision contains a lone UTF-16 surrogate, which cannot be stored' });
  });

  it('names an odd key in brackets and shortens the path it answers', async () => {
    const odd = await admin.post(`/api/v1/scopes/${scopeId}/decisions`, { decision: 'd', 'two words': ['\u0000'] }).expect(400);
    const long = 'abcdefghij'.repeat(6);
    const deep = await admin
      .post(`/api/v1/scopes/${scopeId}/rules`, rule(JSON.parse(`${`{"${long}":`.repeat(40)}"\\u0000"${'}'.repeat(40)}`)))
      .expect(400);

    expect(odd.body.detail).toBe('body["two words"][0] contains U+0000 (NUL), which cannot be stored');
    expect(deep.body.detail.length).toBeLessThan(400);
    expect(deep.body.detail).toMatch(/^body\.conditions\[0\]\.value\.abcdefghij.*…/);
  });

  it('refuses a body nested deeper than 64 levels with 400 naming where, never a 500, and accepts 64', async () => {
    // The body is level 1, conditions 2, its row 3, value 4: a value of 61 nested objects reaches 64.
    const limit = await admin.post(`/api/v1/scopes/${scopeId}/rules`, rule(nested(61, 'plain'))).expect(201);
    const over = await admin.post(`/api/v1/scopes/${scopeId}/rules`, rule(nested(62, 'plain'))).expect(400);
    const huge = await request(h.url)
      .post(`/api/v1/scopes/${scopeId}/rules`)
      .set('Authorization', `Bearer ${t.admin.key}`)
      .set('Content-Type', 'application/json')
      .send(
        `{"directive":"d","severity":"MANDATORY","conditions":[{"field":"f","op":"contains","value":${nestedJson(100_000, '"plain"')}}]}`,
      )
      .expect(400);

    expect(limit.body.conditions[0].value).toEqual(nested(61, 'plain'));
    expect(over.body).toEqual({ detail: `body.conditions[0].value${'.a'.repeat(61)} is nested more than 64 levels deep` });
    expect(huge.body).toEqual(over.body);
  });

  it('refuses %00 in a path segment with 400 "path", on /api/v1 and /internal/v1', async () => {
    const pub = await admin.get(`/api/v1/scopes/scp-%00abc`).expect(400);
    const lower = await admin.get(`/api/v1/scopes/${scopeId}/rules/rul-%00`).expect(400);
    const inner = await internal().get(`/tenants/tnt-%00/state`).expect(400);

    expect(pub.body).toEqual({ detail: 'path contains U+0000 (NUL), which cannot be stored' });
    expect(lower.body).toEqual(pub.body);
    expect(inner.body).toEqual(pub.body);
    // An encoded percent sign is a literal "%00", not a NUL: answered as any unknown id.
    await admin.get(`/api/v1/scopes/scp-%2500`).expect(404);
  });

  it('refuses NUL in a query parameter, its name or a nested parameter, naming it', async () => {
    const cursor = await admin.get(`/api/v1/scopes?cursor=%00`).expect(400);
    const name = await admin.get(`/api/v1/scopes?bad%00name=1`).expect(400);
    const nestedParam = await admin.get(`/api/v1/scopes/${scopeId}/events?filter[type]=a%00`).expect(400);
    const inner = await internal().get(`/rule-versions/rv-1?tenant_id=%00`).expect(400);

    expect(cursor.body).toEqual({ detail: 'query.cursor contains U+0000 (NUL), which cannot be stored' });
    expect(name.body).toEqual({ detail: 'The member name query["bad\\u0000name"] contains U+0000 (NUL), which cannot be stored' });
    expect(nestedParam.body.detail).toMatch(/^query\.filter\.type contains/);
    expect(inner.body).toEqual({ detail: 'query.tenant_id contains U+0000 (NUL), which cannot be stored' });
  });

  it('refuses NUL in an internal body at depth', async () => {
    const res = await internal()
      .post(`/tenants/${t.tenant.id}/events`, {
        type: 'approval.requested',
        entity_type: 'approval',
        entity_id: 'apr-0123456789abcdef01234567',
        data: { id: 'apr-0123456789abcdef01234567', notes: [{ text: 'a\u0000' }] },
      })
      .expect(400);

    expect(res.body).toEqual({ detail: 'body.data.notes[0].text contains U+0000 (NUL), which cannot be stored' });
  });

  it('lets search and the compliance check drop a NUL of their body, but checks their query, and refuses a lone surrogate', async () => {
    await admin.post('/api/v1/search', { query: 'big\u0000transfers' }).expect(200);
    await admin.post('/api/v1/check', { scope_id: scopeId, intended_action: 'big\u0000transfer' }).expect(200);
    // A scope id holding NUL names no scope: 404, never a 500 from the database.
    for (const id of ['\u0000', `${scopeId}\u0000`, 'scp-\u0000']) {
      await admin.post('/api/v1/search', { query: 'big', scope_id: id }).expect(404);
      await admin.post('/api/v1/check', { scope_id: id, intended_action: 'big transfer' }).expect(404);
    }

    const res = await request(h.url)
      .post('/api/v1/search?x=%00')
      .set('Authorization', `Bearer ${t.admin.key}`)
      .send({ query: 'big' })
      .expect(400);
    const surrogate = await admin.post('/api/v1/search', { query: 'big\u0000transfers', limit: 5, scope_ids: ['\udc00'] }).expect(400);

    expect(res.body).toEqual({ detail: 'query.x contains U+0000 (NUL), which cannot be stored' });
    expect(surrogate.body).toEqual({ detail: 'body.scope_ids[0] contains a lone UTF-16 surrogate, which cannot be stored' });
  });
});
