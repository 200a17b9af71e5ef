import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness, type TenantFixture } from './harness';
import { api, createScope, expectConforms, type Api } from './fixtures';

describe('registry search', () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;
  let scopeA: string;
  let scopeB: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'search');
    admin = api(h, t.admin.key);
    scopeA = (await createScope(admin, 'a')).id;
    scopeB = (await createScope(admin, 'b')).id;
    const post = async (key: string, path: string, body: object) => {
      ids[key] = (await admin.post(path, body).expect(201)).body.id;
    };
    await post('decMain', `/api/v1/scopes/${scopeA}/decisions`, {
      decision: 'Refunds need an approval by a manager',
      context: 'Fraud losses',
      reasoning: 'Four eyes',
    });
    await post('decReasoning', `/api/v1/scopes/${scopeA}/decisions`, {
      decision: 'Use a ticket queue',
      context: 'Support load',
      reasoning: 'Faster approval of small refunds',
    });
    await post('inv', `/api/v1/scopes/${scopeA}/invariants`, { constraint: 'Customer data never leaves the EU', rationale: 'GDPR' });
    await post('invRevoked', `/api/v1/scopes/${scopeA}/invariants`, { constraint: 'Legacy approvals by fax', rationale: 'old' });
    await admin.delete(`/api/v1/scopes/${scopeA}/invariants/${ids.invRevoked}`).expect(200);
    await post('rule', `/api/v1/scopes/${scopeA}/rules`, {
      directive: 'Transfers above 10k need a second pair of eyes',
      severity: 'REQUIRES_APPROVAL',
    });
    await post('ruleB', `/api/v1/scopes/${scopeB}/rules`, { directive: 'Approving your own change is forbidden', severity: 'MANDATORY' });
    await post('ruleChanged', `/api/v1/scopes/${scopeB}/rules`, { directive: 'Paint the shed blue', severity: 'ADVISORY' });
    await admin
      .put(`/api/v1/scopes/${scopeB}/rules/${ids.ruleChanged}`, { directive: 'Paint the shed green', severity: 'ADVISORY' })
      .expect(200);
    await post('ruleArchived', `/api/v1/scopes/${scopeB}/rules`, { directive: 'Approval by carrier pigeon', severity: 'ADVISORY' });
    await admin.patch(`/api/v1/scopes/${scopeB}/rules/${ids.ruleArchived}/archive`).expect(200);
  });
  afterAll(() => h.stop());

  const search = (body: object, a = admin) => a.post('/api/v1/search', body);
  const hitIds = (res: { body: { items: Array<{ entry_id: string }> } }) => res.body.items.map((i) => i.entry_id);

  it('finds entries by stemmed words: "approving" finds "approval", across entry kinds', async () => {
    const res = await search({ query: 'approving' }).expect(200);
    expectConforms(res, 'post', '/api/v1/search');
    expect(hitIds(res).sort()).toEqual([ids.decMain, ids.decReasoning, ids.ruleB].sort());
  });

  it('ranks a match in the main text above one in the reasoning, and shows where it matched', async () => {
    const res = await search({ query: 'approval', entry_type: 'decision' }).expect(200);
    expect(hitIds(res)).toEqual([ids.decMain, ids.decReasoning]);
    expect(res.body.items[0].rank).toBeGreaterThan(res.body.items[1].rank);
    expect(res.body.items[0].snippet).toContain('«approval»');
    expect(res.body.items[1].snippet).toContain('«approval»');
    expect(res.body.items[0]).toMatchObject({
      entry_type: 'decision',
      scope_id: scopeA,
      status: 'active',
      entry: { id: ids.decMain, decision: 'Refunds need an approval by a manager' },
    });
  });

  it('searches constraint and rationale of invariants and the current directive of rules', async () => {
    expect(hitIds(await search({ query: 'GDPR' }).expect(200))).toEqual([ids.inv]);
    expect(hitIds(await search({ query: 'green shed' }).expect(200))).toEqual([ids.ruleChanged]);
    expect(hitIds(await search({ query: 'blue' }).expect(200))).toEqual([]);
  });

  it('leaves revoked invariants and archived rules out unless include_inactive', async () => {
    expect(hitIds(await search({ query: 'fax' }).expect(200))).toEqual([]);
    expect(hitIds(await search({ query: 'pigeon' }).expect(200))).toEqual([]);
    const res = await search({ query: 'fax or pigeon', include_inactive: true }).expect(200);
    expect(hitIds(res).sort()).toEqual([ids.invRevoked, ids.ruleArchived].sort());
    expect(res.body.items.map((i: { status: string }) => i.status).sort()).toEqual(['archived', 'revoked']);
  });

  it('filters by scope and entry type and honours limit', async () => {
    expect(hitIds(await search({ query: 'approval', scope_id: scopeB }).expect(200))).toEqual([ids.ruleB]);
    expect(hitIds(await search({ query: 'approval', entry_type: 'rule' }).expect(200))).toEqual([ids.ruleB]);
    expect(hitIds(await search({ query: 'approval', entry_type: 'invariant' }).expect(200))).toEqual([]);
    expect((await search({ query: 'approval', limit: 1 }).expect(200)).body.items).toHaveLength(1);
  });

  it('understands phrases, or and exclusion (web-search syntax)', async () => {
    expect(hitIds(await search({ query: '"second pair of eyes"' }).expect(200))).toEqual([ids.rule]);
    expect(hitIds(await search({ query: '"eyes pair second"' }).expect(200))).toEqual([]);
    expect(hitIds(await search({ query: 'approval -refunds' }).expect(200))).toEqual([ids.ruleB]);
    expect(hitIds(await search({ query: 'gdpr OR transfers' }).expect(200)).sort()).toEqual([ids.inv, ids.rule].sort());
  });

  const nasty = [
    '"',
    '""',
    "'",
    "''",
    '"unterminated phrase',
    'a & b',
    'a | b',
    '!approval',
    '!',
    '&',
    '|',
    '(',
    ')',
    '((approval)',
    'approval:*',
    ':*',
    '*',
    'approv*',
    'approval:A',
    'a <-> b',
    '<->',
    '<2>',
    'a <-> <-> b',
    '\\',
    'approval\\',
    '-',
    '--',
    '- -',
    'or',
    'OR',
    'and',
    'not',
    'or approval',
    'approval or',
    '-approval',
    '""approval""',
    "'approval' & 'refund'",
    'NOT (approval)',
    "'; DROP TABLE decisions; --",
    '%',
    '_%',
    '$1',
    '${query}',
    '{}',
    '[]',
    'null',
    '<b>approval</b>',
    'StartSel=x, StopSel=y',
    '::',
    '&&&&',
    '||||',
    '!!!',
    '!(',
    ')(',
    'the',
    'the and of',
    '   ',
    '\t\n',
    '—',
    '‘smart quotes’ «guillemets»',
    '🦄 approval 🦄',
    '日本語の承認',
    'ÄÖÜ ß approval',
    'عربى',
    '\u0000',
    'approval\u0000refund',
    '\u200b\u200e\ufeff',
    'a'.repeat(1000),
    'approval '.repeat(111).slice(0, 1000),
    '"a" "b" "c" -"d" or or or -',
  ];

  it.each(nasty.map((q) => [JSON.stringify(q).slice(0, 60), q]))('answers 200 for the query %s', async (_label, query) => {
    const res = await search({ query }).expect(200);
    expect(Array.isArray(res.body.items)).toBe(true);
  });

  it('answers 400 naming the field for a lone surrogate, which no search could look for (docs/development.md "Storable JSON")', async () => {
    expect((await search({ query: 'approval \ud800' }).expect(400)).body).toEqual({
      detail: 'body.query contains a lone UTF-16 surrogate, which cannot be stored',
    });
  });

  it('answers 422 without a query and 400 for bad values', async () => {
    await search({}).expect(422);
    await search({ query: '' }).expect(400);
    await search({ query: 'a'.repeat(1001) }).expect(400);
    await search({ query: 'x', limit: 0 }).expect(400);
    await search({ query: 'x', limit: 1001 }).expect(400);
    await search({ query: 'x', entry_type: 'override' }).expect(400);
    await search({ query: 42 }).expect(400);
    await search({ query: 'x', scope_id: 'scp-000000000000000000000000' }).expect(404);
  });

  it('keeps a restricted key to its scopes, and needs read', async () => {
    const onlyA = await createPrincipalWithKey(h, t.admin.key, { permissions: ['read'], scope_ids: [scopeA] });
    const res = await search({ query: 'approval' }, api(h, onlyA.key)).expect(200);
    expect(hitIds(res).sort()).toEqual([ids.decMain, ids.decReasoning].sort());
    await search({ query: 'approval', scope_id: scopeB }, api(h, onlyA.key)).expect(404);
    const other = await createTenantWithAdmin(h, 'search-other');
    expect((await search({ query: 'approval' }, api(h, other.admin.key)).expect(200)).body.items).toEqual([]);
    const noRead = await createPrincipalWithKey(h, t.admin.key, { permissions: ['write'] });
    expect((await search({ query: 'x' }, api(h, noRead.key)).expect(403)).body).toEqual({ detail: 'Missing permission: read' });
  });
});
