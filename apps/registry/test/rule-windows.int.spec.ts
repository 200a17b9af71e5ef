import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import request from 'supertest';
import { createTenantWithAdmin, startTestRegistry, TEST_INTERNAL_TOKEN, type RegistryHarness, type TenantFixture } from './harness';
import { api, createScope, expectConforms, sql, type Api } from './fixtures';

const BUDGET = {
  directive: 'At most 5000 of refunds per agent per day',
  severity: 'MANDATORY',
  applies_to: { actions: ['payments.refund'] },
  limit: { sum: 'parameters.amount', max: 5000, window: '24h', by: ['principal'] },
};
const RATE = { directive: 'At most 50 e-mails an hour', severity: 'ADVISORY', limit: { count: true, max: 50, window: '1h' } };
const SEQUENCE = {
  directive: 'A refund only after a review of the same order',
  severity: 'REQUIRES_APPROVAL',
  requires_prior: { action: 'orders.review', within: '1h', same: ['parameters.order_id'] },
};

/** sha256 over RFC 8785, with the independent `canonicalize` (the registry hashes with @arbiter/canonical). */
const hashOf = (value: unknown) => `sha256:${createHash('sha256').update(canonicalize(value)!, 'utf8').digest('hex')}`;

/** The rule fields that remember, through the registry's API (docs/registry.md "Budgets, rates and sequences"). */
describe('registry rules: limit and requires_prior', () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;
  let scopeId: string;

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'windows');
    admin = api(h, t.admin.key);
    scopeId = (await createScope(admin, 'payments')).id;
  });
  afterAll(() => h.stop());

  const post = (body: object) => admin.post(`/api/v1/scopes/${scopeId}/rules`, body);
  const put = (id: string, body: object) => admin.put(`/api/v1/scopes/${scopeId}/rules/${id}`, body);
  const internal = (path: string) => request(h.url).get(`/internal/v1${path}`).set('X-Internal-Token', TEST_INTERNAL_TOKEN);

  describe('storing and answering', () => {
    it('creates a rule with a sum limit, answers it on the rule and its version, and reads it back', async () => {
      const res = await post(BUDGET).expect(201);
      expectConforms(res, 'post', '/api/v1/scopes/{scope_id}/rules');
      expect(res.body).toMatchObject({ limit: BUDGET.limit, requires_prior: null });
      const read = await admin.get(`/api/v1/scopes/${scopeId}/rules/${res.body.id}`).expect(200);
      expectConforms(read, 'get', '/api/v1/scopes/{scope_id}/rules/{rule_id}');
      expect(read.body.limit).toEqual(BUDGET.limit);
      const versions = await admin.get(`/api/v1/scopes/${scopeId}/rules/${res.body.id}/versions`).expect(200);
      expectConforms(versions, 'get', '/api/v1/scopes/{scope_id}/rules/{rule_id}/versions');
      expect(versions.body.items).toEqual([expect.objectContaining({ limit: BUDGET.limit, requires_prior: null })]);
    });

    it('stores a count limit with its key paths filled in (by: [] when left out)', async () => {
      const res = await post(RATE).expect(201);
      expect(res.body.limit).toEqual({ count: true, max: 50, window: '1h', by: [] });
      const [row] = await sql<{ limit: unknown }>(h, 'SELECT "limit" FROM rule_versions WHERE id = $1', [res.body.current_version_id]);
      expect(row.limit).toEqual({ count: true, max: 50, window: '1h', by: [] });
    });

    it('creates a rule with requires_prior, and fills in same: [] when left out', async () => {
      const res = await post(SEQUENCE).expect(201);
      expect(res.body).toMatchObject({ limit: null, requires_prior: SEQUENCE.requires_prior });
      const bare = await post({ ...SEQUENCE, requires_prior: { action: 'orders.review', within: '15m' } }).expect(201);
      expect(bare.body.requires_prior).toEqual({ action: 'orders.review', within: '15m', same: [] });
    });

    it('answers null for both on a rule without them, and stores SQL NULL, explicit nulls included', async () => {
      const plain = await post({ directive: 'plain', severity: 'MANDATORY' }).expect(201);
      const nulls = await post({ directive: 'nulls', severity: 'MANDATORY', limit: null, requires_prior: null }).expect(201);
      for (const r of [plain.body, nulls.body]) expect(r).toMatchObject({ limit: null, requires_prior: null });
      const rows = await sql<{ limit: unknown; requires_prior: unknown }>(
        h,
        'SELECT "limit", requires_prior FROM rule_versions WHERE id = ANY($1) AND "limit" IS NULL AND requires_prior IS NULL',
        [[plain.body.current_version_id, nulls.body.current_version_id]],
      );
      expect(rows).toHaveLength(2);
    });

    it('versions the fields: a PUT with another limit makes a new version, a PUT without one removes it', async () => {
      const made = (await post(BUDGET).expect(201)).body;
      const tighter = { ...BUDGET, limit: { ...BUDGET.limit, max: 1200, by: ['principal', 'parameters.currency'] } };
      const v2 = (await put(made.id, tighter).expect(200)).body;
      expect(v2).toMatchObject({ version: 2, limit: tighter.limit });
      const v3 = (await put(made.id, { directive: BUDGET.directive, severity: 'MANDATORY' }).expect(200)).body;
      expect(v3).toMatchObject({ version: 3, limit: null, requires_prior: null });
      const v4 = (await put(made.id, { ...SEQUENCE, severity: 'MANDATORY' }).expect(200)).body;
      expect(v4).toMatchObject({ version: 4, limit: null, requires_prior: SEQUENCE.requires_prior });
      const versions = (await admin.get(`/api/v1/scopes/${scopeId}/rules/${made.id}/versions`).expect(200)).body.items;
      expect(
        versions.map((v: { limit: unknown; requires_prior: unknown; status: string }) => [v.status, v.limit, v.requires_prior]),
      ).toEqual([
        ['superseded', BUDGET.limit, null],
        ['superseded', tighter.limit, null],
        ['superseded', null, null],
        ['current', null, SEQUENCE.requires_prior],
      ]);
    });
  });

  describe('validation: one 400 naming the field', () => {
    const WINDOW = 'limit.window: a duration from 1s to 366d, such as 90s, 15m, 1h, 24h or 7d';
    const ONE_OF = 'limit: exactly one of count (true) and sum (a parameters.<field> path)';
    const PATH = 'principal, on_behalf_of, resource or parameters.<field> (a dot path)';
    const SEVERITIES = 'only a rule of severity MANDATORY, REQUIRES_APPROVAL, ADVISORY may hold it';
    const limit = (l: object, extra: object = {}) => ({ directive: 'd', severity: 'MANDATORY', limit: l, ...extra });
    const prior = (p: object, extra: object = {}) => ({ directive: 'd', severity: 'MANDATORY', requires_prior: p, ...extra });

    it.each([
      ['count and sum', limit({ count: true, sum: 'parameters.amount', max: 5, window: '1h' }), ONE_OF],
      ['neither count nor sum', limit({ max: 5, window: '1h' }), ONE_OF],
      ['a window in weeks', limit({ count: true, max: 5, window: '1w' }), WINDOW],
      ['a window of 0s', limit({ count: true, max: 5, window: '0s' }), WINDOW],
      ['a window past 366 days', limit({ count: true, max: 5, window: '367d' }), WINDOW],
      ['a window in milliseconds', limit({ count: true, max: 5, window: '500ms' }), WINDOW],
      ['a by path outside the key paths', limit({ count: true, max: 5, window: '1h', by: ['scope.region'] }), `limit.by[0]: ${PATH}`],
      ['a by path of bare parameters', limit({ count: true, max: 5, window: '1h', by: ['parameters'] }), `limit.by[0]: ${PATH}`],
      [
        'a path listed twice',
        limit({ count: true, max: 5, window: '1h', by: ['principal', 'principal'] }),
        'limit.by[1]: principal is listed twice',
      ],
      [
        'six key paths',
        limit({
          count: true,
          max: 5,
          window: '1h',
          by: ['principal', 'on_behalf_of', 'resource', 'parameters.a', 'parameters.b', 'parameters.c'],
        }),
        'limit.by: at most 5 paths',
      ],
      [
        'a sum without the parameters. prefix',
        limit({ sum: 'amount', max: 5, window: '1h' }),
        'limit.sum: parameters.<field>, a dot path into the parameters',
      ],
      [
        'a key path that names the request inside parameters',
        limit({ count: true, max: 5, window: '1h', by: ['parameters.resource'] }),
        `limit.by[0]: ${PATH}`,
      ],
      ['max 0', limit({ count: true, max: 0, window: '1h' }), 'limit.max: a number above 0 and at most 1000000000000000'],
      [
        'a negative max',
        limit({ sum: 'parameters.amount', max: -1, window: '1h' }),
        'limit.max: a number above 0 and at most 1000000000000000',
      ],
      [
        'a max past 10^15',
        limit({ sum: 'parameters.amount', max: 1e16, window: '1h' }),
        'limit.max: a number above 0 and at most 1000000000000000',
      ],
      ['a fractional max when counting', limit({ count: true, max: 2.5, window: '1h' }), 'limit.max: an integer when counting'],
      ['severity ALLOW', limit({ count: true, max: 5, window: '1h' }, { severity: 'ALLOW' }), `limit: ${SEVERITIES}`],
      ['requires_prior on an ALLOW rule', prior({ action: 'a', within: '1h' }, { severity: 'ALLOW' }), `requires_prior: ${SEVERITIES}`],
      [
        'both fields on one rule',
        limit({ count: true, max: 5, window: '1h' }, { requires_prior: { action: 'orders.review', within: '1h' } }),
        'requires_prior: a rule holds either limit or requires_prior, not both (write two rules)',
      ],
      [
        'an empty prior action',
        prior({ action: '', within: '1h' }),
        "requires_prior.action: the earlier operation's action name (1 to 200 characters)",
      ],
      [
        'a prior period that is no duration',
        prior({ action: 'a', within: 'an hour' }),
        'requires_prior.within: a duration from 1s to 366d, such as 15m, 1h or 7d',
      ],
      ['a same path outside the key paths', prior({ action: 'a', within: '1h', same: ['order_id'] }), `requires_prior.same[0]: ${PATH}`],
      // sensitive_fields refuses this member too: no setting or rule names it.
      [
        'a sum of __proto__',
        limit({ sum: 'parameters.__proto__', max: 5, window: '1h' }),
        'limit.sum: parameters.__proto__ names __proto__, which a rule may not address',
      ],
      [
        'a by path through __proto__',
        limit({ count: true, max: 5, window: '1h', by: ['principal', 'parameters.order.__proto__'] }),
        'limit.by[1]: parameters.order.__proto__ names __proto__, which a rule may not address',
      ],
      [
        'a same path of __proto__',
        prior({ action: 'a', within: '1h', same: ['parameters.__proto__'] }),
        'requires_prior.same[0]: parameters.__proto__ names __proto__, which a rule may not address',
      ],
    ])('refuses %s (400, on POST and PUT)', async (_what, body, problem) => {
      const res = await post(body).expect(400);
      expect(res.body).toEqual({ detail: `Invalid rule: ${problem}` });
      const existing = (await post({ directive: 'to update', severity: 'MANDATORY' }).expect(201)).body;
      expect((await put(existing.id, body).expect(400)).body).toEqual({ detail: `Invalid rule: ${problem}` });
      expect((await admin.get(`/api/v1/scopes/${scopeId}/rules/${existing.id}`).expect(200)).body.version).toBe(1);
    });

    it('names every problem of one value in the one 400', async () => {
      const res = await post(limit({ sum: 'amount', max: 0, window: '1w', by: ['x'] })).expect(400);
      expect(res.body.detail).toBe(
        `Invalid rule: limit.sum: parameters.<field>, a dot path into the parameters; limit.max: a number above 0 and at most 1000000000000000; ${WINDOW}; limit.by[0]: ${PATH}`,
      );
    });

    it.each([
      ['limit.per', limit({ count: true, max: 5, window: '1h', per: 'principal' })],
      ['requires_prior.after', prior({ action: 'a', within: '1h', after: true })],
      ['limit.count', limit({ count: false, max: 5, window: '1h' })],
      ['limit.max', limit({ count: true, max: '5', window: '1h' })],
      ['limit.by', limit({ count: true, max: 5, window: '1h', by: 'principal' })],
      ['limit', { directive: 'd', severity: 'MANDATORY', limit: 'count 5 per hour' }],
    ])('refuses a value of the wrong shape in %s (400 naming it)', async (field, body) => {
      const res = await post(body).expect(400);
      expect(res.body.detail).toContain(field);
    });

    it.each([
      ['limit.max', limit({ count: true, window: '1h' })],
      ['limit.window', limit({ count: true, max: 5 })],
      ['requires_prior.action', prior({ within: '1h' })],
      ['requires_prior.within', prior({ action: 'a' })],
    ])('refuses a missing %s as any missing required field (422)', async (field, body) => {
      expect((await post(body).expect(422)).body.detail).toContain(field);
    });

    it('accepts the bounds: 1s and 366d windows, max 10^15, five key paths, each path kind, every holding severity', async () => {
      const by = ['principal', 'on_behalf_of', 'resource', 'parameters.order.id', 'parameters.currency'];
      await post(limit({ sum: 'parameters.order.amount', max: 1e15, window: '1s', by })).expect(201);
      await post(limit({ count: true, max: 1, window: '366d' }, { severity: 'REQUIRES_APPROVAL' })).expect(201);
      await post(limit({ sum: 'parameters.amount', max: 0.5, window: '90s' }, { severity: 'ADVISORY' })).expect(201);
      await post(prior({ action: 'x'.repeat(200), within: '366d', same: by })).expect(201);
    });
  });

  describe('what the verdict gateway reads', () => {
    it('carries the fields in the tenant state only when set, so a rule without them is what it was, and the hash recomputes', async () => {
      const budget = (await post(BUDGET).expect(201)).body;
      const sequence = (await post(SEQUENCE).expect(201)).body;
      const plain = (await post({ directive: 'no memory', severity: 'MANDATORY' }).expect(201)).body;
      const s = (await internal(`/tenants/${t.tenant.id}/state`).expect(200)).body;
      const byId = (id: string) => s.rules.find((r: { rule_id: string }) => r.rule_id === id);
      expect(byId(budget.id).limit).toEqual(BUDGET.limit);
      expect(byId(budget.id)).not.toHaveProperty('requires_prior');
      expect(byId(sequence.id).requires_prior).toEqual(SEQUENCE.requires_prior);
      expect(byId(sequence.id)).not.toHaveProperty('limit');
      expect(Object.keys(byId(plain.id)).sort()).toEqual(
        [
          'rule_id',
          'rule_version_id',
          'scope_id',
          'version',
          'version_created_at',
          'directive',
          'severity',
          'verdict',
          'applies_to',
          'conditions',
          'condition_mode',
          'requires',
          'deciders',
          'priority',
          'mode',
          'approvals_required',
          'escalate_after',
          'escalation_deciders',
          'approval_expires_after',
        ].sort(),
      );
      const { state_hash, revision: _r, generated_at: _g, valid_until: _v, tenant_slug: _s, ...content } = s;
      expect(hashOf(content)).toBe(state_hash);
    });

    it("shows them in the scope's resolve as every rule answer does, covered by normative_hash", async () => {
      const budget = (await post(BUDGET).expect(201)).body;
      const res = await admin.get(`/api/v1/scopes/${scopeId}/resolve`).expect(200);
      expectConforms(res, 'get', '/api/v1/scopes/{scope_id}/resolve');
      const { normative_hash, ...state } = res.body;
      expect(state.rules.find((r: { id: string }) => r.id === budget.id)).toEqual(budget);
      expect(state.rules.every((r: object) => 'limit' in r && 'requires_prior' in r)).toBe(true);
      expect(hashOf(state)).toBe(normative_hash);
    });

    it('serves them on the internal rule version', async () => {
      const budget = (await post(BUDGET).expect(201)).body;
      const v = (await internal(`/rule-versions/${budget.current_version_id}?tenant_id=${t.tenant.id}`).expect(200)).body;
      expect(v).toMatchObject({ limit: BUDGET.limit, requires_prior: null, rule_status: 'active' });
    });

    /** The public form of GET /v1/rule-versions/<id> (docs/verdicts.md "Rule version"), written out by hand. */
    const publicForm = (v: Record<string, unknown>, extra: object) => ({
      id: v.id,
      rule_id: v.rule_id,
      tenant_id: v.tenant_id,
      scope_id: v.scope_id,
      version: v.version,
      statement: v.directive,
      severity: v.severity,
      verdict: v.verdict,
      applies_to: v.applies_to,
      conditions: v.conditions,
      condition_mode: v.condition_mode,
      requires: v.requires,
      deciders: v.deciders,
      priority: v.priority,
      author: v.author,
      author_type: v.author_type,
      created_at: v.created_at,
      created_by: v.created_by,
      ...extra,
    });
    const sealedHash = async (versionId: string) => {
      const [row] = await sql<{ payload: { content_hash: string } }>(h, 'SELECT payload FROM seal_outbox WHERE client_ref = $1', [
        versionId,
      ]);
      return row.payload.content_hash;
    };

    it('seals a version without the fields over the form it had before they existed, and binds them when set', async () => {
      for (const [body, extra] of [
        [{ directive: 'sealed plain', severity: 'MANDATORY' }, {}],
        [BUDGET, { limit: BUDGET.limit }],
        [RATE, { limit: { count: true, max: 50, window: '1h', by: [] } }],
        [SEQUENCE, { requires_prior: SEQUENCE.requires_prior }],
      ] as const) {
        const rule = (await post(body).expect(201)).body;
        const [version] = (await admin.get(`/api/v1/scopes/${scopeId}/rules/${rule.id}/versions`).expect(200)).body.items;
        expect(await sealedHash(version.id)).toBe(hashOf(publicForm(version, extra)));
      }
    });
  });
});
